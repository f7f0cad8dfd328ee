"""The output conventions of `session-lsp check`: every `--output-format`, the severity floor, `--statistics`,
colour only on a terminal, and `session-lsp rule` / `rules --format json`.

Expected values come from the core's diagnostics and the files' own lines, so these tests check what the command
line prints against the real analysis; the SARIF log is validated against the official SARIF 2.1.0 schema
(tests/data/, with its source in tests/data/SOURCES.md)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pty
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from session_lsp import cli
from session_lsp.analysis import RULES, Diagnostic, Options, Severity
from session_lsp.analysis.document import analyze, analyze_bytes
from session_lsp.reporting import OutputFormat, colour_wanted, parse_output_format, parse_severity
from session_lsp.reporting.examples import EXAMPLES
from session_lsp.reporting.rules import docs_url
from session_lsp.reporting.snippet import WIDTH, snippet

if sys.version_info >= (3, 14):
    from compression.zstd import compress
else:
    from backports.zstd import compress

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BROKEN = HERE / "fixtures" / "features" / "elyra-broken.jsonl"
"""A glued line (ELY002) and a hookMessage role (ELY024), safe fixes; a dangling parent (ELY042) and a duplicate
id (ELY040), unsafe ones."""
SCHEMA = HERE / "data" / "sarif-schema-2.1.0.json"
EXAMPLES_DIR = ROOT / "examples"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def core(path: Path) -> list[Diagnostic]:
    return analyze_bytes(path.read_bytes(), Options(path=str(path), exists=os.path.exists)).diagnostics()


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(BROKEN.read_bytes())
    return path


# --- the one parse point ---------------------------------------------------------------------------------------


def test_a_format_name_is_read_in_one_place() -> None:
    assert [parse_output_format(style.value) for style in OutputFormat] == list(OutputFormat)
    assert parse_output_format(" JSON-Lines ") is OutputFormat.JSON_LINES
    with pytest.raises(ValueError, match="unknown output format 'xml' \\(choose one of text, concise, json, "
                                         "json-lines, github, sarif, junit\\)"):
        parse_output_format("xml")
    assert parse_severity("info") is parse_severity("Information") is Severity.INFORMATION
    with pytest.raises(ValueError, match="unknown severity 'fatal'"):
        parse_severity("fatal")


# --- text ------------------------------------------------------------------------------------------------------


def test_text_groups_by_file_and_puts_a_caret_under_each_column(capsys: pytest.CaptureFixture[str],
                                                                 broken: Path) -> None:
    status, out, err = run(capsys, "check", "--min-severity", "hint", str(broken))
    diagnostics = core(broken)
    lines = broken.read_text(encoding="utf-8").split("\n")
    rows = out.splitlines()
    assert rows[0] == str(broken) and err == "" and status == cli.EXIT_FOUND
    assert "\x1b" not in out  # not a terminal: no colour
    rows = rows[1:]
    for diagnostic in diagnostics:
        span = diagnostic.span
        head, text, caret = rows[:3]
        rows = rows[3:]
        assert head == f"  {span.line + 1}:{span.start + 1} {diagnostic.severity.label} {diagnostic.code} " \
                       f"{' '.join(diagnostic.message.splitlines())}"
        number, bar, shown = text.partition(" | ")
        assert number.strip() == str(span.line + 1) and bar
        # the caret is under the flagged text: the characters above it are the line's from that column on
        source = lines[span.line]
        start = caret.index("^") - len(number) - 3
        width = caret.count("^")
        assert shown[start:start + width] == source[span.start:span.start + width]
        assert width == max(1, min(span.end if span.end_line == span.line else len(source), len(source))
                            - span.start) or shown.endswith("…")
    assert len(rows) == 2 and rows[0] == "" and rows[1].startswith("1 file checked: ")


def test_text_summary_counts_what_the_floor_hides(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    diagnostics = core(broken)
    hidden = sum(d.severity > Severity.WARNING for d in diagnostics)
    assert hidden, "the fixture needs an information or a hint"
    _, out, _ = run(capsys, "check", str(broken))
    counts = {s: sum(d.severity is s for d in diagnostics) for s in Severity}
    assert out.splitlines()[-1] == (
        f"1 file checked: {counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} warning"
        f"{'' if counts[Severity.WARNING] == 1 else 's'}, {counts[Severity.INFORMATION]} information, "
        f"{counts[Severity.HINT]} hint{'' if counts[Severity.HINT] == 1 else 's'} "
        f"({hidden} below --min-severity warning not shown)")
    shown = [row.split()[1] for row in out.splitlines() if row.startswith("  ") and not row.startswith("   ")]
    assert shown == [d.severity.label for d in diagnostics if d.severity <= Severity.WARNING]


def test_the_snippet_window_keeps_the_caret_on_its_character() -> None:
    line = "x" * 300 + "TARGET" + "y" * 300
    cut = snippet(line, 300, 306)
    assert cut.text.startswith("…") and cut.text.endswith("…") and len(cut.text) == WIDTH + 2
    assert cut.text[cut.indent:cut.indent + cut.width] == "TARGET"
    # wide characters take two cells, so the caret moves by two for each
    wide = snippet('{"t":"日本語","x":1}', 12, 13)
    assert wide.text[12] == "x" and wide.indent == 15 and wide.width == 1
    # what a terminal would act on is shown, one cell each: a control character, a bidirectional override
    hostile = snippet('{"t":"\x1b[2J\u202e"}x', 13, 14)
    assert hostile.text == '{"t":"\u241b[2J\ufffd"}x' and hostile.text[hostile.indent] == "x"
    assert snippet("", 0, 0) == snippet("", 5, None)  # an empty line: a caret at its start


def _on_a_terminal(args: list[str], env: dict[str, str]) -> bytes:
    main, terminal = pty.openpty()
    try:
        child = subprocess.Popen([sys.executable, "-m", "session_lsp", *args], stdout=terminal,
                                 stderr=subprocess.PIPE, cwd=ROOT, env=env)
        os.close(terminal)
        out = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        child.wait(timeout=60)
    finally:
        os.close(main)
    return out


def test_colour_only_on_a_terminal(broken: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")} | {"TERM": "xterm"}
    args = ["check", str(broken)]
    coloured = _on_a_terminal(args, env)
    assert b"\x1b[1;31merror\x1b[0m" in coloured and b"\x1b[1m" + str(broken).encode() + b"\x1b[0m" in coloured
    assert b"\x1b" not in _on_a_terminal(args, env | {"NO_COLOR": "1"})
    piped = subprocess.run([sys.executable, "-m", "session_lsp", *args], capture_output=True, cwd=ROOT, env=env)
    assert piped.stdout and b"\x1b" not in piped.stdout
    forced = subprocess.run([sys.executable, "-m", "session_lsp", *args], capture_output=True, cwd=ROOT,
                            env=env | {"FORCE_COLOR": "1"})
    assert b"\x1b[1;31merror\x1b[0m" in forced.stdout
    # without the escapes, the terminal's text is the pipe's (the terminal writes \r\n)
    plain = coloured.replace(b"\r\n", b"\n")
    for code in (b"\x1b[0m", b"\x1b[1m", b"\x1b[2m", b"\x1b[1;31m", b"\x1b[1;33m", b"\x1b[1;34m", b"\x1b[1;36m"):
        plain = plain.replace(code, b"")
    assert plain == piped.stdout


def test_colour_rules() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert colour_wanted(Terminal(), {}) and not colour_wanted(io.StringIO(), {})
    assert not colour_wanted(Terminal(), {"NO_COLOR": "1"}) and colour_wanted(Terminal(), {"NO_COLOR": ""})
    assert colour_wanted(io.StringIO(), {"FORCE_COLOR": "1"}) and not colour_wanted(io.StringIO(), {"FORCE_COLOR": "0"})
    assert colour_wanted(Terminal(), {"NO_COLOR": "1", "FORCE_COLOR": "1"})
    assert not colour_wanted(Terminal(), {"TERM": "dumb"})


# --- the floor and statistics ----------------------------------------------------------------------------------


@pytest.mark.parametrize("floor", ["error", "warning", "information", "hint"])
def test_min_severity_decides_what_is_printed_and_nothing_else(capsys: pytest.CaptureFixture[str], broken: Path,
                                                               floor: str) -> None:
    status, out, _ = run(capsys, "check", "--output-format", "json", "--min-severity", floor, "--fail-on", "never",
                         str(broken))
    level = parse_severity(floor)
    assert [item["code"] for item in json.loads(out)] == [d.code for d in core(broken) if d.severity <= level]
    assert status == cli.EXIT_CLEAN
    # the exit status still counts what is hidden
    assert run(capsys, "check", "--min-severity", "error", "--select", "ELY024", "--fail-on", "warning",
               str(broken))[0] == cli.EXIT_FOUND


def test_statistics_count_each_code_like_ruff(capsys: pytest.CaptureFixture[str]) -> None:
    corpus = HERE / "corpus"
    found = [d for path in sorted(corpus.rglob("*.jsonl")) for d in core(path)]
    status, out, _ = run(capsys, "check", "--statistics", "--min-severity", "hint", "--fail-on", "never",
                         str(corpus))
    rows = out.splitlines()
    counted = {(row.split()[1], row.split()[2]): int(row.split()[0]) for row in rows[:-1]}
    expected: dict[tuple[str, str], int] = {}
    for d in found:
        expected[d.code, d.severity.label] = expected.get((d.code, d.severity.label), 0) + 1
    assert counted == expected
    assert [int(row.split()[0]) for row in rows[:-1]] == sorted(counted.values(), reverse=True)
    ely065 = next(row for row in rows if " ELY065 " in row)
    assert ely065.split()[3] == RULES["ELY065"].name
    assert rows[-1].startswith(f"{len(list(corpus.rglob('*.jsonl')))} files checked: ")
    _, out, _ = run(capsys, "check", "--statistics", "--output-format", "json", "--min-severity", "hint",
                    "--fail-on", "never", str(corpus))
    items = json.loads(out)
    assert {(item["code"], item["severity"]): item["count"] for item in items} == expected
    assert all(item["name"] == RULES[item["code"]].name and item["url"].endswith(f"#{item['code'].lower()}")
               for item in items)
    assert status == cli.EXIT_CLEAN


def test_the_corpus_with_defaults_prints_only_what_needs_attention(capsys: pytest.CaptureFixture[str]) -> None:
    """A newcomer's first run: warnings and errors, each with its line; the information is only counted."""
    corpus = HERE / "corpus"
    found = [d for path in sorted(corpus.rglob("*.jsonl")) for d in core(path)]
    _, out, _ = run(capsys, "check", str(corpus))
    heads = [row for row in out.splitlines() if row.startswith("  ") and not row.startswith("    ")]
    assert [row.split()[1] for row in heads] == [d.severity.label for d in found if d.severity <= Severity.WARNING]
    hidden = sum(d.severity > Severity.WARNING for d in found)
    assert hidden > 10 * len(heads)  # the corpus is mostly information: none of it printed
    assert out.splitlines()[-1].endswith(f"({hidden} below --min-severity warning not shown)")


# --- machine-readable formats ----------------------------------------------------------------------------------


def test_json_lines_are_the_json_items_one_a_line(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    _, whole, _ = run(capsys, "check", "--output-format", "json", "--min-severity", "hint", str(broken))
    _, lines, _ = run(capsys, "check", "--output-format", "json-lines", "--min-severity", "hint", str(broken))
    assert [json.loads(line) for line in lines.splitlines()] == json.loads(whole)
    assert all(item["name"] == RULES[item["code"]].name and item["url"].endswith("#" + item["code"].lower())
               for item in json.loads(whole))


def _sarif(capsys: pytest.CaptureFixture[str], *paths: Path | str, status: int = cli.EXIT_FOUND) -> dict:
    found, out, _ = run(capsys, "check", "--output-format", "sarif", "--min-severity", "hint",
                        *(str(path) for path in paths))
    assert found == status
    log = json.loads(out)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
    assert not errors, "\n".join(str(error) for error in errors[:3])
    return log


def test_sarif_validates_against_the_sarif_2_1_0_schema(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    log = _sarif(capsys, broken, *sorted((EXAMPLES_DIR / "broken").glob("*.jsonl")))
    run_ = log["runs"][0]
    assert log["version"] == "2.1.0" and run_["columnKind"] == "unicodeCodePoints"
    rules = run_["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == list(RULES)
    for rule in rules:
        registered = RULES[rule["id"]]
        assert rule["name"] == registered.name and rule["shortDescription"]["text"] == registered.summary
        assert rule["fullDescription"]["text"] == registered.reason
        assert rule["properties"]["fix"] == (registered.fix.value if registered.fix else None)
    results = run_["results"]
    expected = [d for path in (broken, *sorted((EXAMPLES_DIR / "broken").glob("*.jsonl"))) for d in core(path)]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [
        (d.code, d.span.line + 1) for d in expected]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)


def _apply(text: str, replacements: list[dict]) -> str:
    """SARIF replacements (1-based lines, code-point columns) applied to a text, last first."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for change in sorted(replacements, key=lambda c: (c["deletedRegion"]["startLine"],
                                                      c["deletedRegion"]["startColumn"]), reverse=True):
        region = change["deletedRegion"]
        start = starts[region["startLine"] - 1] + region["startColumn"] - 1
        end = starts[region["endLine"] - 1] + region["endColumn"] - 1
        text = text[:start] + change["insertedContent"]["text"] + text[end:]
    return text


def test_sarif_fixes_repair_what_they_say(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    """Each result's fix, applied to the file as a SARIF consumer would, makes that diagnostic go away."""
    results = _sarif(capsys, broken)["runs"][0]["results"]
    text = broken.read_text(encoding="utf-8")
    fixed = [result for result in results if "fixes" in result]
    assert {result["ruleId"] for result in fixed} >= {"ELY002", "ELY024", "ELY040", "ELY042"}
    for result in fixed:
        [fix] = result["fixes"]
        [change] = fix["artifactChanges"]
        assert change["artifactLocation"]["uri"] == "file://" + str(broken)
        after = analyze(_apply(text, change["replacements"]), Options(path=str(broken))).diagnostics()
        before = [d for d in analyze(text, Options(path=str(broken))).diagnostics() if d.code == result["ruleId"]]
        assert len([d for d in after if d.code == result["ruleId"]]) < len(before), result["ruleId"]
        assert fix["description"]["text"].endswith(f"({RULES[result['ruleId']].fix.value})")  # type: ignore[union-attr]


def test_sarif_names_a_relative_path_against_the_source_root(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    log = _sarif(capsys, Path("examples/broken/elyra-corrupted.jsonl"))
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "examples/broken/elyra-corrupted.jsonl", "uriBaseId": "%SRCROOT%", "index": 0}
    assert log["runs"][0]["artifacts"][0]["location"] == {"uri": "examples/broken/elyra-corrupted.jsonl",
                                                          "uriBaseId": "%SRCROOT%"}
    assert log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == ROOT.as_uri() + "/"


def test_sarif_lists_every_file_checked_as_an_artifact(capsys: pytest.CaptureFixture[str], broken: Path,
                                                       tmp_path: Path) -> None:
    """Each file checked is an artifact with its size and the SHA-256 of its bytes as stored (a `.jsonl.zst` is
    the compressed file), and every result and fix names its file's artifact by index."""
    clean = tmp_path / "clean.jsonl"
    clean.write_bytes((EXAMPLES_DIR / "clean" / "elyra-branched.jsonl").read_bytes())
    packed = tmp_path / "packed.jsonl.zst"
    packed.write_bytes(compress(BROKEN.read_bytes()))
    run_ = _sarif(capsys, broken, clean, packed)["runs"][0]
    artifacts = run_["artifacts"]
    assert [a["location"]["uri"] for a in artifacts] == [path.as_uri() for path in (broken, clean, packed)]
    for artifact, path in zip(artifacts, (broken, clean, packed), strict=True):
        data = path.read_bytes()
        assert artifact["length"] == len(data)
        assert artifact["hashes"] == {"sha-256": hashlib.sha256(data).hexdigest()}
        assert artifact["roles"] == ["analysisTarget"] and artifact["properties"]["format"] == "Elyra v3"
    assert artifacts[1]["properties"]["lines"] == len(clean.read_text(encoding="utf-8").splitlines())
    located = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run_["results"]]
    located += [change["artifactLocation"] for result in run_["results"] for fix in result.get("fixes", ())
                for change in fix["artifactChanges"]]
    assert {artifacts[where["index"]]["location"]["uri"] == where["uri"] for where in located} == {True}
    results_of = [len(core(path)) for path in (broken, clean)]
    assert [sum(1 for r in run_["results"] if r["locations"][0]["physicalLocation"]["artifactLocation"]["index"] == i)
            for i in range(2)] == results_of


def test_sarif_artifact_of_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = BROKEN.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(capsys, "check", "--output-format", "sarif", "--stdin-filename", "piped.jsonl", "-")
    [artifact] = json.loads(out)["runs"][0]["artifacts"]
    assert status == cli.EXIT_FOUND and artifact["location"] == {"uri": "piped.jsonl", "uriBaseId": "%SRCROOT%"}
    assert artifact["length"] == len(data) and artifact["hashes"]["sha-256"] == hashlib.sha256(data).hexdigest()


def test_sarif_invocation_says_how_the_run_went(capsys: pytest.CaptureFixture[str], broken: Path,
                                                tmp_path: Path) -> None:
    """The command line, the exit code and whether every file could be checked; a file that could not be read is
    a notification at its artifact, and a path that does not exist one of the run."""
    before = datetime.now(UTC)
    log = _sarif(capsys, broken)
    [invocation] = log["runs"][0]["invocations"]
    assert invocation["commandLine"] == f"session-lsp check --output-format sarif --min-severity hint {broken}"
    assert invocation["arguments"] == ["check", "--output-format", "sarif", "--min-severity", "hint", str(broken)]
    assert invocation["executionSuccessful"] is True and invocation["exitCode"] == cli.EXIT_FOUND
    assert invocation["toolExecutionNotifications"] == []
    started, ended = (datetime.fromisoformat(invocation[key]) for key in ("startTimeUtc", "endTimeUtc"))
    assert invocation["startTimeUtc"].endswith("Z") and before.replace(microsecond=0) <= started <= ended

    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    missing = tmp_path / "missing.jsonl"
    run_ = _sarif(capsys, broken, fifo, missing, status=cli.EXIT_USAGE)["runs"][0]
    [invocation] = run_["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == cli.EXIT_USAGE
    gone, unread = invocation["toolExecutionNotifications"]
    assert gone == {"level": "error", "message": {"text": f"{missing}: no such file or directory"}}
    assert unread["level"] == "error" and "cannot read file (not a regular file" in unread["message"]["text"]
    [where] = unread["locations"]
    artifact = run_["artifacts"][where["physicalLocation"]["artifactLocation"]["index"]]
    assert artifact == {"location": {"uri": fifo.as_uri()}, "roles": ["analysisTarget"]}
    assert [r["ruleId"] for r in run_["results"]] == [d.code for d in core(broken)]  # the readable file is reported


def test_junit_times_each_file_and_shares_it_among_its_cases(capsys: pytest.CaptureFixture[str], broken: Path,
                                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A suite's time is its file's check, measured with the CLI's clock (a fake one here, so the figures are
    exact); its cases share it, and the root carries the run's time and start."""
    clean = tmp_path / "clean.jsonl"
    clean.write_bytes((EXAMPLES_DIR / "clean" / "elyra-branched.jsonl").read_bytes())
    ticks = iter([10.0, 11.5, 20.0, 20.25])
    monkeypatch.setattr(cli, "clock", lambda: next(ticks))
    _, out, _ = run(capsys, "check", "--output-format", "junit", "-j", "1", str(broken), str(clean))
    root = ElementTree.fromstring(out)
    first, second = root
    shown = [d for d in core(broken) if d.severity <= Severity.WARNING]
    assert first.get("time") == "1.500" and [case.get("time") for case in first] == [f"{1.5 / len(shown):.3f}"] * len(
        shown)
    assert second.get("time") == "0.250" and [case.get("time") for case in second] == ["0.250"]
    assert float(root.get("time") or "-1") >= 0 and datetime.fromisoformat(root.get("timestamp") or "")


def test_junit_is_one_suite_per_file(capsys: pytest.CaptureFixture[str], broken: Path, tmp_path: Path) -> None:
    clean = tmp_path / "clean.jsonl"
    clean.write_bytes((EXAMPLES_DIR / "clean" / "elyra-branched.jsonl").read_bytes())
    status, out, _ = run(capsys, "check", "--output-format", "junit", str(broken), str(clean))
    root = ElementTree.fromstring(out)
    shown = [d for d in core(broken) if d.severity <= Severity.WARNING]
    assert root.tag == "testsuites" and root.get("failures") == str(len(shown))
    first, second = root
    assert first.get("name") == str(broken) and first.get("failures") == str(len(shown))
    assert [case.get("name").split()[0] for case in first] == [d.code for d in shown]  # type: ignore[union-attr]
    assert [case[0].get("message") for case in first] == [d.message for d in shown]
    assert second.get("name") == str(clean) and second.get("failures") == "0" and len(second) == 1
    assert status == cli.EXIT_FOUND


# --- the rules' documentation link -----------------------------------------------------------------------------


def test_every_rule_link_lands_on_its_row_of_the_readme() -> None:
    """In a source checkout the link is the README beside the package, and every code's anchor is in it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code in RULES:
        url = docs_url(code)
        assert url == f"{(ROOT / 'README.md').as_uri()}#{code.lower()}"
        assert f'<a id="{code.lower()}"></a>' in readme, code


def _elsewhere(tmp_path: Path, metadata: str | None, *args: str) -> str:
    """`session-lsp ARGS` run from a copy of the package outside any checkout, as an installed package runs;
    with `metadata`, the copy is installed with those METADATA lines (found first on the path)."""
    shutil.copytree(ROOT / "session_lsp", tmp_path / "session_lsp", ignore=shutil.ignore_patterns("__pycache__"))
    if metadata is not None:
        info = tmp_path / "session_lsp-0.1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.4\nName: session-lsp\nVersion: 0.1.0\n{metadata}\n")
    found = subprocess.run([sys.executable, "-m", "session_lsp", *args], cwd=tmp_path, capture_output=True,
                           text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=60)
    assert found.returncode in (cli.EXIT_CLEAN, cli.EXIT_FOUND), found.stderr
    return found.stdout


def test_a_declared_documentation_url_is_read_from_the_installed_metadata(tmp_path: Path) -> None:
    declared = "Project-URL: Homepage, https://example.org/\nProject-URL: Documentation, https://example.org/README.md"
    out = _elsewhere(tmp_path, declared, "rule", "ELY042")
    assert out.endswith("Documentation: https://example.org/README.md#ely042\n")
    (tmp_path / "s.jsonl").write_bytes(BROKEN.read_bytes())
    items = json.loads(_elsewhere(tmp_path / "again", declared, "check", "--format", "json", str(tmp_path / "s.jsonl")))
    assert {item["url"] for item in items} == {f"https://example.org/README.md#{item['code'].lower()}"
                                               for item in items}


def test_without_a_documentation_url_the_rule_command_is_the_documentation(tmp_path: Path) -> None:
    out = _elsewhere(tmp_path, None, "rule", "ELY042")
    assert out.endswith("Documentation: this text (`session-lsp rule ELY042`); `session-lsp rules` lists every rule\n")
    (tmp_path / "s.jsonl").write_bytes(BROKEN.read_bytes())
    log = json.loads(_elsewhere(tmp_path / "again", None, "check", "--format", "sarif", str(tmp_path / "s.jsonl")))
    driver = log["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver and not any("helpUri" in rule for rule in driver["rules"])
    assert all(f"`session-lsp rule {rule['id']}`" in rule["help"]["text"] for rule in driver["rules"])
    items = json.loads(_elsewhere(tmp_path / "third", None, "check", "--format", "json", str(tmp_path / "s.jsonl")))
    assert items and {item["url"] for item in items} == {None}


# --- rule and rules --------------------------------------------------------------------------------------------


def test_rule_explains_what_the_agent_does_with_an_example_and_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rule", "ELY042")
    rule = RULES["ELY042"]
    assert status == cli.EXIT_CLEAN
    assert out.startswith(f"ELY042 (dangling-parent): {rule.summary}\n")
    assert rule.reason in out and "Fix: unsafe: `session-lsp fix --unsafe-fixes` applies it" in out
    case, line, excerpt, message, fixed = EXAMPLES["ELY042"]
    assert f"Example ({case}, line {line}):" in out and message in out and fixed is not None
    assert out.endswith(f"Documentation: {(ROOT / 'README.md').as_uri()}#ely042\n")  # a source checkout's README
    # the example is the case file's own line, and its message the checker's
    path = ROOT / case
    [diagnostic] = [d for d in analyze_bytes(path.read_bytes(), Options(path=case)).diagnostics() if d.code == "ELY042"]
    assert diagnostic.message in message and diagnostic.span.line + 1 == line
    source = path.read_text(encoding="utf-8").split("\n")[line - 1]
    window = excerpt[0].split(" | ", 1)[1].strip("…")
    assert window in source
    assert run(capsys, "rule", "dangling-parent")[1] == out  # by name too


def test_every_checked_rule_has_an_example_but_those_no_case_shows() -> None:
    assert set(RULES) - set(EXAMPLES) == {"SLS002"}  # its case needs a line limit `check` does not have


def test_rule_refuses_an_unknown_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "rule", "ELY999")
    assert status == cli.EXIT_USAGE and out == ""
    assert err == "session-lsp: error: ELY999: no rule has this code or name (`session-lsp rules` lists them)\n"


def test_rules_json_is_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "--format", "json")
    items = json.loads(out)
    assert [item["code"] for item in items] == list(RULES)
    for item in items:
        rule = RULES[item["code"]]
        assert (item["name"], item["severity"], item["summary"], item["reason"]) == (
            rule.name, rule.severity.label, rule.summary, rule.reason)
        assert item["fix"] == (rule.fix.value if rule.fix else None)
        assert (item["example"] is None) is (item["code"] not in EXAMPLES)
    assert status == cli.EXIT_CLEAN


def test_the_examples_are_generated_from_the_cases() -> None:
    result = subprocess.run([sys.executable, "tools/gen_rule_examples.py", "--check"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
