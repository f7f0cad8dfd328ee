"""`session-lsp check`, `rules` and `serve` as a user runs them: output formats, selection, exit codes, paths.

The expected diagnostics are taken from the core (`analyze`) and formatted here by the rules the README states, so
these tests check the command line's own job (reading, walking, filtering, formatting, exit status) against the
real analysis rather than against copied output.
"""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from session_lsp import cli
from session_lsp.analysis import RULES, Diagnostic, Document, Options, Severity, Span
from session_lsp.analysis.document import analyze_bytes
from session_lsp.reporting.machine import format_github
from session_lsp.reporting.rules import docs_url

HEADER = ('{"type":"session","version":3,"id":"019cb5a0-7c1e-7b3a-9f2d-3e4a5b6c7d8e",'
          '"timestamp":"2026-03-01T09:15:00.000Z","cwd":"/w"}')
ROOT = ('{"type":"message","id":"7a3c91f0","parentId":null,"timestamp":"2026-03-01T09:15:02.114Z",'
        '"message":{"role":"user","content":"hello","timestamp":1772356502110}}')
DANGLING = ('{"type":"message","id":"b41d2e85","parentId":"deadbeef","timestamp":"2026-03-01T09:15:03.000Z",'
            '"message":{"role":"user","content":"hello again","timestamp":1772356503000}}')
BROKEN_ELYRA = "\n".join([HEADER, ROOT, '{"type":"message",', HEADER, DANGLING]) + "\n"
"""Line 3 is not JSON (ELY001), line 4 a second header (ELY013, a warning), line 5 names a missing parent (ELY042)."""

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
JSON_KEYS = ["path", "line", "column", "end_line", "end_column", "severity", "code", "message", "name", "url"]
CONCISE = ("--output-format", "concise", "--min-severity", "hint")
"""Today's one-line form with every severity shown: what most of these tests read."""
TEXT_LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]{3}\d{3}) "
                       r"\[(?P<severity>error|warning|information|hint)\] (?P<message>.+)$")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def core(path: Path, stdin: bool = False) -> list[Diagnostic]:
    """What the core finds in the file, given the options the command line passes (no path for stdin)."""
    options = Options(path=None if stdin else str(path), exists=os.path.exists)
    return analyze_bytes(path.read_bytes(), options).diagnostics()


def expected_text(path: Path, diagnostics: list[Diagnostic], name: str | None = None) -> list[str]:
    shown = name or str(path)
    return [f"{shown}:{d.span.line + 1}:{d.span.start + 1}: {d.code} [{d.severity.label}] {d.message}"
            for d in diagnostics]


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.jsonl"
    path.write_text(BROKEN_ELYRA, encoding="utf-8")
    return path


def test_the_broken_file_has_what_the_tests_rely_on(broken: Path) -> None:
    found = {(d.span.line + 1, d.code, d.severity) for d in core(broken)}
    assert {(3, "ELY001", Severity.ERROR), (4, "ELY013", Severity.WARNING), (5, "ELY042", Severity.ERROR)} <= found


# --- text ------------------------------------------------------------------------------------------------------


def test_concise_format_lists_every_diagnostic_then_a_summary(capsys: pytest.CaptureFixture[str],
                                                              broken: Path) -> None:
    code, out, err = run(capsys, "check", *CONCISE, str(broken))
    lines = out.splitlines()
    diagnostics = core(broken)
    assert lines[:-1] == expected_text(broken, diagnostics)
    assert all(TEXT_LINE.match(line) for line in lines[:-1])
    counts = {s: sum(d.severity is s for d in diagnostics) for s in Severity}
    assert lines[-1] == (f"1 file checked: {counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} "
                         f"warning{'' if counts[Severity.WARNING] == 1 else 's'}, "
                         f"{counts[Severity.INFORMATION]} information, "
                         f"{counts[Severity.HINT]} hint{'' if counts[Severity.HINT] == 1 else 's'}")
    assert code == cli.EXIT_FOUND
    assert err == ""


def test_verbose_names_the_detected_format_of_each_file(capsys: pytest.CaptureFixture[str], broken: Path,
                                                        tmp_path: Path) -> None:
    other = tmp_path / "plain.jsonl"
    other.write_text('{"a": 1}\n{"b": 2}\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", "-v", "--fail-on", "never", str(broken), str(other))
    assert f"{broken}: Elyra v3, 5 lines, {len(core(broken))} diagnostics" in out.splitlines()
    assert f"{other}: not a session, 2 lines, 1 diagnostic" in out.splitlines()
    assert out.splitlines()[-1].startswith("2 files checked: ")
    assert code == cli.EXIT_CLEAN


# --- json ------------------------------------------------------------------------------------------------------


def test_json_items_have_exactly_the_documented_shape(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    code, out, _ = run(capsys, "check", "--output-format", "json", "--min-severity", "hint", str(broken))
    items = json.loads(out)
    assert isinstance(items, list) and items
    for item in items:
        assert list(item) == JSON_KEYS
        assert [type(item[key]) for key in JSON_KEYS] == [str, int, int, int, int, str, str, str, str, str]
        assert item["severity"] in ("error", "warning", "information", "hint")
        assert item["code"] in RULES
    assert items == [
        {"path": str(broken), "line": d.span.line + 1, "column": d.span.start + 1, "end_line": d.span.end_line + 1,
         "end_column": d.span.end + 1, "severity": d.severity.label, "code": d.code, "message": d.message,
         "name": RULES[d.code].name, "url": docs_url(d.code)}
        for d in core(broken)
    ]
    assert code == cli.EXIT_FOUND


def test_json_columns_count_code_points(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "wide.jsonl"
    # An astral character (two UTF-16 units, four UTF-8 bytes) before the break in line 3.
    path.write_text(f'{HEADER}\n{ROOT}\n{{"x":"\U0001f600" oops}}\n', encoding="utf-8")
    _, out, _ = run(capsys, "check", "--format", "json", "--select", "ELY001", str(path))
    [item] = json.loads(out)
    [diagnostic] = [d for d in core(path) if d.code == "ELY001"]
    assert (item["line"], item["column"], item["end_column"]) == (3, diagnostic.span.start + 1, diagnostic.span.end + 1)


def test_json_with_nothing_found_is_an_empty_array(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    code, out, _ = run(capsys, "check", "--format", "json", "--select", "THN", str(broken))
    assert json.loads(out) == []
    assert code == cli.EXIT_CLEAN


# --- github ----------------------------------------------------------------------------------------------------


def test_github_format_writes_one_annotation_per_diagnostic(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    code, out, _ = run(capsys, "check", "--output-format", "github", "--min-severity", "hint", str(broken))
    level = {"error": "error", "warning": "warning", "information": "notice", "hint": "notice"}
    expected = [f"::{level[d.severity.label]} file={broken},line={d.span.line + 1},col={d.span.start + 1},"
                f"endLine={d.span.end_line + 1},endColumn={d.span.end + 1},"
                f"title={d.code} (dangling-parent)::{d.message}".replace("(dangling-parent)",
                                                                         f"({RULES[d.code].name})")
                for d in core(broken)]
    assert out.splitlines() == expected
    assert code == cli.EXIT_FOUND


def test_github_annotations_escape_what_the_runner_would_misread() -> None:
    diagnostic = Diagnostic("ELY001", Span(0, 0, 0, 1), "50% done\r\nnext: a, b", Severity.HINT)
    line = format_github("dir,a:b/x%.jsonl", diagnostic)
    assert line == ("::notice file=dir%2Ca%3Ab/x%25.jsonl,line=1,col=1,endLine=1,endColumn=2,"
                    "title=ELY001 (invalid-json)"
                    "::50%25 done%0D%0Anext: a, b")


# --- selection -------------------------------------------------------------------------------------------------


def codes(capsys: pytest.CaptureFixture[str], path: Path, *args: str) -> list[str]:
    _, out, _ = run(capsys, "check", "--output-format", "json", "--min-severity", "hint", *args, str(path))
    return [item["code"] for item in json.loads(out)]


def test_select_keeps_only_matching_codes_and_prefixes(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    everything = [d.code for d in core(broken)]
    assert codes(capsys, broken, "--select", "ELY001") == ["ELY001"]
    assert codes(capsys, broken, "--select", "ELY04") == [c for c in everything if c.startswith("ELY04")]
    assert codes(capsys, broken, "--select", "ELY") == everything
    assert codes(capsys, broken, "--select", "ELY001,ELY013") == ["ELY001", "ELY013"]
    assert codes(capsys, broken, "--select", "ELY001", "--select", "ELY013") == ["ELY001", "ELY013"]
    assert codes(capsys, broken, "--select", "dangling-parent") == ["ELY042"]


def test_ignore_drops_matching_codes_and_prefixes(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    everything = [d.code for d in core(broken)]
    assert codes(capsys, broken, "--ignore", "ELY001") == [c for c in everything if c != "ELY001"]
    assert codes(capsys, broken, "--ignore", "ELY0") == [c for c in everything if not c.startswith("ELY0")]
    assert codes(capsys, broken, "--ignore", "ELY") == []
    assert codes(capsys, broken, "--ignore", "ELY001,ELY013", "--ignore", "ELY042") == [
        c for c in everything if c not in ("ELY001", "ELY013", "ELY042")]


def test_the_more_specific_selector_wins(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    assert "ELY042" not in codes(capsys, broken, "--select", "ELY", "--ignore", "ELY04")
    assert codes(capsys, broken, "--select", "ELY042", "--ignore", "ELY04") == ["ELY042"]


def test_a_selector_that_matches_no_rule_is_a_usage_error(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    code, out, err = run(capsys, "check", "--select", "ELY9", str(broken))
    assert code == cli.EXIT_USAGE
    assert "'ELY9'" in err and "Traceback" not in err
    assert out == ""
    code, _, err = run(capsys, "check", "--ignore", "ELY001,nonsense", str(broken))
    assert code == cli.EXIT_USAGE and "'nonsense'" in err


# --- exit codes ------------------------------------------------------------------------------------------------


def test_fail_on_levels(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    assert run(capsys, "check", str(broken))[0] == cli.EXIT_FOUND
    assert run(capsys, "check", "--fail-on", "error", str(broken))[0] == cli.EXIT_FOUND
    assert run(capsys, "check", "--fail-on", "never", str(broken))[0] == cli.EXIT_CLEAN
    # Only a warning left: it fails --fail-on warning, not the default.
    assert run(capsys, "check", "--select", "ELY013", str(broken))[0] == cli.EXIT_CLEAN
    assert run(capsys, "check", "--select", "ELY013", "--fail-on", "warning", str(broken))[0] == cli.EXIT_FOUND
    # Ignored errors do not count.
    assert run(capsys, "check", "--ignore", "ELY001,ELY013,ELY042", "--select", "ELY001,ELY013,ELY042",
               "--fail-on", "warning", str(broken))[0] == cli.EXIT_CLEAN


def test_information_and_hints_never_fail(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "plain.jsonl"
    path.write_text('{"a": 1}\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", *CONCISE, "--fail-on", "warning", str(path))
    assert "SLS001 [information]" in out
    assert code == cli.EXIT_CLEAN
    code, out, _ = run(capsys, "check", "--fail-on", "warning", str(path))  # below the default floor: counted
    assert out == ("1 file checked: 0 errors, 0 warnings, 1 information, 0 hints "
                   "(1 below --min-severity warning not shown)\n")
    assert code == cli.EXIT_CLEAN


def test_clean_examples_pass_and_broken_ones_fail(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "--fail-on", "warning", str(EXAMPLES / "clean"))[0] == cli.EXIT_CLEAN
    for path in sorted((EXAMPLES / "broken").glob("*.jsonl")):
        assert run(capsys, "check", str(path))[0] == cli.EXIT_FOUND, path


def test_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli.main(["check", "--format", "xml", "x.jsonl"])
    assert raised.value.code == cli.EXIT_USAGE
    assert "unknown output format 'xml' (choose one of text, concise, json," in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["check", "--bogus", "x.jsonl"], ["check", "--format", "xml", "x.jsonl"]])
def test_a_usage_error_in_check_is_one_line_with_the_check_usage(argv: list[str],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli.main(argv)
    assert raised.value.code == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("session-lsp check: error: ")
    assert "usage: session-lsp check [-h]" in err and "--stdin-filename NAME" in err


def test_stdin_filename_without_a_dash_is_a_usage_error(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    code, out, err = run(capsys, "check", "--stdin-filename", "s.jsonl", str(broken))
    assert code == cli.EXIT_USAGE
    assert out == ""
    assert err == "session-lsp: error: --stdin-filename names standard input, so it needs '-' among the paths\n"


def test_verbose_says_one_line_not_one_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    single = tmp_path / "one.jsonl"
    single.write_text('{"a": 1}\n', encoding="utf-8")
    _, out, _ = run(capsys, "check", "-v", "--fail-on", "never", str(single))
    assert f"{single}: not a session, 1 line, 1 diagnostic" in out.splitlines()


# --- paths -----------------------------------------------------------------------------------------------------


def test_a_missing_path_is_reported_and_the_rest_still_checked(capsys: pytest.CaptureFixture[str], broken: Path,
                                                               tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    code, out, err = run(capsys, "check", *CONCISE, str(missing), str(broken))
    assert code == cli.EXIT_USAGE
    assert err == f"session-lsp: error: {missing}: no such file or directory\n"
    assert out.splitlines()[:-1] == expected_text(broken, core(broken))


def test_an_unreadable_folder_is_an_io_error(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.jsonl").write_text(HEADER + "\n", encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path: str) -> object:
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == cli.EXIT_USAGE
    assert err == f"session-lsp: error: {locked}: cannot read folder (Permission denied)\n"


def test_an_unreadable_file_is_an_io_error(capsys: pytest.CaptureFixture[str], broken: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied", str(broken))

    monkeypatch.setattr(cli, "FileLines", refuse)
    code, _, err = run(capsys, "check", str(broken))
    assert code == cli.EXIT_USAGE
    assert err == f"session-lsp: error: {broken}: cannot read file (Permission denied)\n"


def test_folders_are_searched_recursively_for_jsonl(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("b/deep/z.jsonl", "b/a.jsonl", "a.jsonl", "notes.txt", "b/data.json"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"not": "a session"}\n', encoding="utf-8")
    _, out, _ = run(capsys, "check", *CONCISE, str(tmp_path))
    shown = [line.split(":", 1)[0] for line in out.splitlines()[:-1]]
    assert shown == [str(tmp_path / "a.jsonl"), str(tmp_path / "b" / "a.jsonl"), str(tmp_path / "b/deep/z.jsonl")]
    assert out.splitlines()[-1].startswith("3 files checked")


def test_a_file_named_explicitly_is_checked_whatever_its_suffix(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    path = tmp_path / "session.txt"
    path.write_text(BROKEN_ELYRA, encoding="utf-8")
    assert "ELY042" in codes(capsys, path)


def test_standard_input(capsys: pytest.CaptureFixture[str], broken: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(broken.read_bytes())))
    code, out, _ = run(capsys, "check", *CONCISE, "-")
    assert out.splitlines()[:-1] == expected_text(broken, core(broken, stdin=True), name="<stdin>")
    assert code == cli.EXIT_FOUND


def test_stdin_filename_names_the_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    thndrs = ('{"type":"session_meta","schema_version":1,"seq":0,"time":"2026-03-01T09:15:00Z",'
              '"session_id":"session-20260301-091500","cwd":"/w","title":"t","provider":"p","model":"m",'
              '"websearch":"off","app_version":"0.1.0"}\n')
    for name, mismatch in (("session-20260301-091500.jsonl", False), ("session-20990101-000000.jsonl", True)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(thndrs.encode())))
        _, out, _ = run(capsys, "check", "--format", "json", "--stdin-filename", name, "-")
        items = json.loads(out)
        assert {item["path"] for item in items} <= {name}
        assert ("THN022" in [item["code"] for item in items]) is mismatch


def test_invalid_utf8_is_reported_not_fatal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(HEADER.encode() + b"\n" + ROOT.encode().replace(b"hello", b"h\xe9llo") + b"\n")
    code, out, err = run(capsys, "check", "--format", "json", str(path))
    items = json.loads(out)
    utf8 = [item for item in items if item["code"] == "ELY006"]
    assert [(item["line"], item["severity"]) for item in utf8] == [(2, "error")]
    assert ROOT.index("hello") + 2 == utf8[0]["column"]
    assert code == cli.EXIT_FOUND and err == ""


def test_invalid_utf8_in_a_file_that_is_no_session_is_left_alone(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(b'{"event":"start","note":"caf\xe9"}\n{"event":"stop"}\n')
    code, out, _ = run(capsys, "check", "--format", "json", "--min-severity", "hint", str(path))
    assert [item["code"] for item in json.loads(out)] == ["SLS001"]
    assert code == cli.EXIT_CLEAN


def test_invalid_utf8_in_a_thndrs_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "session-20260301-091500.jsonl"
    meta = ('{"type":"session_meta","schema_version":1,"seq":0,"time":"2026-03-01T09:15:00Z",'
            '"session_id":"session-20260301-091500","cwd":"/w","title":"caf\xff","provider":"p","model":"m",'
            '"websearch":"off","app_version":"0.1.0"}\n')
    path.write_bytes(meta.encode("latin-1"))
    assert "THN002" in codes(capsys, path)


# --- rules and serve -------------------------------------------------------------------------------------------


def test_rules_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    rows = out.splitlines()
    assert [row.split()[0] for row in rows] == list(RULES)
    for row, rule in zip(rows, RULES.values(), strict=True):
        assert row.split()[1:3] == [rule.severity.label, rule.name]
        assert rule.summary in row
    assert code == cli.EXIT_CLEAN


@pytest.mark.parametrize(("argv", "tcp"), [
    ([], None),
    (["serve"], None),
    (["serve", "--stdio"], None),
    (["serve", "--tcp", "127.0.0.1:2087"], ("127.0.0.1", 2087)),
    (["serve", "--tcp", "::1:2087"], ("::1", 2087)),
])
def test_serve_starts_the_language_server(argv: list[str], tcp: tuple[str, int] | None,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import session_lsp.server

    calls: list[tuple[str, int] | None] = []
    monkeypatch.setattr(session_lsp.server, "serve", calls.append)
    assert cli.main(argv) == cli.EXIT_CLEAN
    assert calls == [tcp]


@pytest.mark.parametrize("value", ["2087", "localhost:", "localhost:http", "localhost:70000"])
def test_serve_refuses_a_bad_tcp_address(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli.main(["serve", "--tcp", value])
    assert raised.value.code == cli.EXIT_USAGE
    assert "HOST:PORT" in capsys.readouterr().err


def test_python_dash_m_is_the_same_command_and_check_does_not_load_the_server(broken: Path) -> None:
    probe = ("import os, runpy, sys\n"
             "def ended(status):\n"
             "    raise SystemExit(status)\n"
             "os._exit = ended  # how the program ends (without the interpreter's teardown), caught to look inside\n"
             "sys.argv = ['session_lsp', 'check', '--format', 'json', '--min-severity', 'hint', sys.argv[1]]\n"
             "try:\n"
             "    runpy.run_module('session_lsp', run_name='__main__')\n"
             "except SystemExit as done:\n"
             "    loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol'))\n"
             "    print(done.code, loaded, file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", probe, str(broken)], capture_output=True, text=True, timeout=60)
    assert result.stderr.strip() == "1 []"
    assert [item["code"] for item in json.loads(result.stdout)] == [d.code for d in core(broken)]


def test_the_installed_script_runs(broken: Path) -> None:
    script = Path(sys.executable).with_name("session-lsp")
    result = subprocess.run([str(script), "check", "--select", "ELY042", str(broken)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == cli.EXIT_FOUND
    assert result.stdout.splitlines()[:2] == [str(broken), f"  5:46 error ELY042 {core(broken)[-1].message}"]


def test_a_reader_gone_before_the_output_is_flushed_ends_the_program_quietly(broken: Path) -> None:
    """`session-lsp check FILE | head` where `head` has gone before the output is written: the program ends without a
    word on stderr and with status 1, the process's own (it ends without the interpreter's teardown, which is where
    Python would complain of the pipe and make the status 120)."""
    script = Path(sys.executable).with_name("session-lsp")
    read, write = os.pipe()
    os.close(read)
    try:
        result = subprocess.run([str(script), "check", "--select", "ELY042", str(broken)], stdout=write,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write)
    assert (result.returncode, result.stderr) == (cli.EXIT_FOUND, "")


def test_a_file_named_twice_is_checked_once(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    _, out, _ = run(capsys, "check", *CONCISE, str(broken), str(broken.parent), str(broken))
    assert out.splitlines()[:-1] == expected_text(broken, core(broken))
    assert out.splitlines()[-1].startswith("1 file checked")


def test_serve_tcp_exits_cleanly_without_a_traceback() -> None:
    """A client's shutdown and exit end the TCP server with status 0 and nothing on stderr."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "session_lsp", "serve", "--tcp", f"127.0.0.1:{port}"],
                              stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(200):
            try:
                client = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server never listened")
        with client:
            for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
                            {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
                            {"jsonrpc": "2.0", "method": "exit"}):
                body = json.dumps(message).encode()
                client.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.stderr is not None
    assert server.stderr.read() == ""


# ---------------------------------------------------------------------------------------------------------------
# context and tree: the custom requests' payloads on the command line

ROOT_CORPUS = Path(__file__).parent / "corpus"


def _payload_doc(path: Path, pi_version: str) -> Document:
    return analyze_bytes(path.read_bytes(), Options(path=str(path), exists=os.path.exists, pi_version=pi_version))


@pytest.mark.parametrize("pi_version", ["0.73", "1.6"])
def test_context_json_is_the_custom_request_payload(capsys: pytest.CaptureFixture[str], pi_version: str) -> None:
    from session_lsp.analysis import features

    path = ROOT_CORPUS / "elyra-pi-1.6-written" / "system-and-tools.jsonl"
    code, out, _ = run(capsys, "context", str(path), "--format", "json", "--pi-version", pi_version)
    assert code == 0
    payload = json.loads(out)
    assert payload == features.context(_payload_doc(path, pi_version), -1)
    roles = [message["role"] for message in payload["messages"]]
    assert ("system" in roles) is (pi_version == "1.6")  # 0.73's convertToLlm drops system messages


def test_context_text_lists_each_message_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT_CORPUS / "elyra-pi-written" / "compacted.jsonl"
    code, out, _ = run(capsys, "context", str(path), "--line", "22")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == f"{path}: pi 1.6 sends {len(lines) - 1} messages from the entry on line 22"
    assert lines[1].startswith("   1. user       line 18 (compaction summary")


def test_tree_json_is_the_custom_request_payload(capsys: pytest.CaptureFixture[str]) -> None:
    from session_lsp.analysis import features

    path = ROOT_CORPUS / "elyra-pi-written" / "branched.jsonl"
    code, out, _ = run(capsys, "tree", str(path), "--format", "json")
    assert code == 0
    assert json.loads(out) == features.tree(_payload_doc(path, "1.6"))


def test_tree_text_marks_the_active_path_and_the_leaf(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT_CORPUS / "elyra-pi-written" / "branched.jsonl"
    code, out, _ = run(capsys, "tree", str(path))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == f"{path}: 18 entries, leaf on line 19, 10 on the active path"
    assert len(lines) == 19
    assert sum(line.startswith("*") for line in lines[1:]) == 10
    assert [line.split(":")[0].strip("* ") for line in lines if line.endswith("<- leaf")] == ["19"]


def test_context_and_tree_text_say_where_a_broken_link_cuts_the_walk(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    header = '{"type":"session","version":3,"id":"s1","timestamp":"2026-12-04T06:47:00.712Z","cwd":"/p"}'
    entry = ('{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-12-04T06:47:01.000Z",'
             '"message":{"role":"user","content":"%s","timestamp":1}}')
    path.write_text("\n".join([header, entry % ("aaaa0001", "null", "first"),
                               entry % ("aaaa0002", '"gone0000"', "later")]) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "context", str(path))
    assert code == 0
    assert out.splitlines()[1] == ("  (pi's walk from the leaf stops at the entry on line 3: its parentId 'gone0000' "
                                   "names no entry in this file, so the context starts mid-conversation and nothing "
                                   "above that entry is sent)")
    code, out, _ = run(capsys, "tree", str(path))
    assert [line for line in out.splitlines() if "orphan root" in line] == [
        "* 3: message user: later  <- leaf  (orphan root: its parentId 'gone0000' names no entry in this file)"]
