"""Configuration files (`[tool.session-lsp]` in pyproject.toml, `.session-lsp.toml`) as `check` and `fix` read
them: the closest one above each file wins, the command line overrides it, `--config` names one for every file,
`--isolated` reads none, and anything this version cannot use stops the run with the file and the key."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from session_lsp import cli, config

CASES = Path(__file__).parent / "cases" / "elyra"
NULL_FIRST = CASES / "ELY003-null-first-line-pi073.jsonl"
"""pi 0.73 throws on the null first line (ELY010), pi 1.6 skips it (ELY011)."""
DANGLING = CASES / "ELY042-dangling-parent.jsonl"


def _place(root: Path, source: Path, *relative: str) -> None:
    for name in relative:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]], str]:
    """The exit status, the diagnostics as JSON and stderr."""
    code = cli.main(["check", "-j", "1", "--format", "json", "--min-severity", "hint", "--fail-on", "never", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else [], err


def _codes(items: list[dict[str, object]], path: Path | None = None) -> set[object]:
    return {item["code"] for item in items if path is None or item["path"] == str(path)}


def test_the_closest_configuration_wins_and_the_command_line_overrides(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, NULL_FIRST, "a.jsonl", "old/b.jsonl")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.session-lsp]\nignore = ["ELY047"]\n')
    (tmp_path / "old" / ".session-lsp.toml").write_text('pi-version = "0.73"\nseverity = { ELY003 = "warning" }\n')
    code, items, err = _run(capsys, str(tmp_path))
    assert code == cli.EXIT_CLEAN and err == ""
    top, old = tmp_path / "a.jsonl", tmp_path / "old" / "b.jsonl"
    assert _codes(items, top) == {"ELY003", "ELY011"}  # pi 1.6; ELY047 ignored by the pyproject
    assert _codes(items, old) == {"ELY003", "ELY010", "ELY047"}  # pi 0.73: the closer file wins, whole
    assert {item["severity"] for item in items if item["path"] == str(old) and item["code"] == "ELY003"} == {"warning"}
    _, items, _ = _run(capsys, "--pi-version", "1.6", str(tmp_path))
    assert "ELY010" not in _codes(items, old)
    _, items, _ = _run(capsys, "--select", "ELY04", str(tmp_path))  # --select replaces select and ignore
    assert _codes(items) == {"ELY047"}


def test_a_pyproject_without_the_table_is_passed_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, NULL_FIRST, "sub/a.jsonl")
    (tmp_path / ".session-lsp.toml").write_text('ignore = ["ELY047"]\n')
    (tmp_path / "sub" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    _, items, _ = _run(capsys, str(tmp_path / "sub" / "a.jsonl"))
    assert "ELY047" not in _codes(items) and items
    assert config.find(str(tmp_path / "sub")) == str(tmp_path / ".session-lsp.toml")


def test_per_file_ignores_and_exclude(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, DANGLING, "real.jsonl", "fixtures/broken/x.jsonl", "scratch/y.jsonl", "z.tmp.jsonl")
    (tmp_path / ".session-lsp.toml").write_text(
        '"per-file-ignores" = { "fixtures/**" = ["dangling-parent", "ELY047"] }\n'
        'exclude = ["scratch", "*.tmp.jsonl"]\n')
    _, items, _ = _run(capsys, "--select", "ELY042,ELY047", str(tmp_path))
    assert {item["path"] for item in items} == {str(tmp_path / "real.jsonl")}  # the rest: excluded, or ignored
    assert _codes(items) == {"ELY042", "ELY047"}
    # per-file-ignores win over any selection; a file named on the command line is checked even when excluded
    _, items, _ = _run(capsys, "--select", "ELY042", str(tmp_path / "fixtures" / "broken" / "x.jsonl"),
                       str(tmp_path / "z.tmp.jsonl"))
    assert {item["path"] for item in items} == {str(tmp_path / "z.tmp.jsonl")}


def test_explicit_and_isolated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, NULL_FIRST, "a.jsonl")
    (tmp_path / ".session-lsp.toml").write_text('ignore = ["ELY"]\n')
    elsewhere = tmp_path / "other.toml"
    elsewhere.write_text('pi-version = "0.73"\n')
    _, items, _ = _run(capsys, str(tmp_path))
    assert items == []
    _, items, _ = _run(capsys, "--isolated", str(tmp_path))
    assert _codes(items) == {"ELY003", "ELY011", "ELY047"}
    _, items, _ = _run(capsys, "--config", str(elsewhere), str(tmp_path))
    assert _codes(items) == {"ELY003", "ELY010", "ELY047"}


def test_output_format_from_the_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, DANGLING, "a.jsonl")
    (tmp_path / ".session-lsp.toml").write_text('output-format = "github"\n')
    cli.main(["check", "-j", "1", str(tmp_path)])
    assert capsys.readouterr().out.startswith("::")
    cli.main(["check", "-j", "1", "--format", "text", str(tmp_path)])
    assert capsys.readouterr().out.startswith(str(tmp_path))


def test_fix_reads_the_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    glued = CASES / "ELY002-concatenated-records.jsonl"
    _place(tmp_path, glued, "keep/a.jsonl", "mend/b.jsonl")
    (tmp_path / ".session-lsp.toml").write_text('"per-file-ignores" = { "keep/*" = ["ELY002"] }\n')
    cli.main(["fix", "-j", "1", "--fail-on", "never", str(tmp_path)])
    capsys.readouterr()
    assert (tmp_path / "keep" / "a.jsonl").read_bytes() == glued.read_bytes()  # broken on purpose: left alone
    assert (tmp_path / "mend" / "b.jsonl").read_bytes() != glued.read_bytes()


@pytest.mark.parametrize(("text", "says"), [
    ('selct = ["ELY"]\n', "selct: unknown key"),
    ('per_file_ignores = {}\n', "did you mean 'per-file-ignores'"),
    ('select = ["NOPE1"]\n', "select: 'NOPE1' matches no rule"),
    ('ignore = "ELY04"\nselect = 3\n', "select: expected a list"),
    ('severity = { ELY001 = "loud" }\n', "severity.ELY001: 'loud' is not one of"),
    ('"per-file-ignores" = { "x/*" = ["ELY9999"] }\n', "per-file-ignores.'x/*'"),
    ('exclude = "x"\n', "exclude: expected a list of globs"),
    ('pi-version = "zero"\n', "pi-version:"),
    ('pi-version = 1.6\n', "pi-version: expected a pi version as a string"),
    ('output-format = "xml"\n', "output-format: 'xml' is not one of"),
    ('select = [\n', "not valid TOML"),
])
def test_a_bad_configuration_names_the_file_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                                    says: str) -> None:
    _place(tmp_path, DANGLING, "a.jsonl")
    (tmp_path / ".session-lsp.toml").write_text(text)
    code = cli.main(["check", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == cli.EXIT_USAGE and out == ""
    assert str(tmp_path / ".session-lsp.toml") in err and says in err, err


def test_the_pyproject_key_is_named_with_its_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, DANGLING, "a.jsonl")
    (tmp_path / "pyproject.toml").write_text('[tool.session-lsp]\nclaude-version = "nine"\n')
    assert cli.main(["check", str(tmp_path)]) == cli.EXIT_USAGE
    assert "pyproject.toml: tool.session-lsp.claude-version:" in capsys.readouterr().err


def test_every_format_with_releases_has_its_key() -> None:
    from session_lsp.analysis.formats import with_releases

    for face in with_releases():
        parsed = config.parse({f"{face.release_option}-version": face.default_release}, "x.toml")
        assert parsed.releases == {face.release_option: face.default_release}
        assert parsed.editor_settings() == {f"{face.release_option}Version": face.default_release}


def test_output_format_takes_every_format_the_command_line_prints() -> None:
    from session_lsp.config import OUTPUT_FORMATS
    from session_lsp.reporting import OutputFormat

    assert tuple(style.value for style in OutputFormat) == OUTPUT_FORMATS


EDITED = "\n".join(json.dumps(line) for line in [
    {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-12-01T10:00:00.000Z", "cwd": "/p"},
    {"type": "message", "id": "e1", "parentId": None, "timestamp": "2026-12-01T10:00:00.000Z",
     "message": {"role": "user", "content": "first", "timestamp": 1}},
    {"type": "message", "id": "e2", "parentId": "e1", "timestamp": "2026-12-01T10:00:01.000Z",
     "message": {"role": "user", "content": "second", "timestamp": 2}},
    {"type": "context_edit", "id": "e3", "parentId": "e2", "timestamp": "2026-12-01T10:00:02.000Z",
     "targetId": "e1", "replacement": None}]) + "\n"
"""pi 1.6 applies the context_edit (it drops "first"); pi 0.73 does not know the entry and sends both messages."""


def _shown(capsys: pytest.CaptureFixture[str], command: str, *args: str) -> tuple[int, str, str]:
    code = cli.main([command, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_context_and_tree_read_the_configuration_as_check_does(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    edited = tmp_path / "sub" / "edited.jsonl"
    edited.write_text(EDITED)
    _place(tmp_path, NULL_FIRST, "sub/null.jsonl")
    (tmp_path / "pyproject.toml").write_text('[tool.session-lsp]\npi-version = "0.73"\n')
    newer = tmp_path / "newer.toml"
    newer.write_text('pi-version = "1.6"\n')

    def context(*args: str) -> list[str]:
        code, out, err = _shown(capsys, "context", "--format", "json", *args, str(edited))
        assert code == cli.EXIT_CLEAN and err == ""
        return [message["text"] for message in json.loads(out)["messages"]]

    assert context() == ["first", "second"]  # pi 0.73, from the pyproject above the file
    assert context("--pi-version", "1.6") == ["second"]  # the command line overrides it
    assert context("--isolated") == ["second"]  # no configuration: the newest release
    assert context("--config", str(newer)) == ["second"]
    _, out, _ = _shown(capsys, "context", str(edited))
    assert out.startswith(f"{edited}: pi 0.73 sends 2 messages")

    def entries(*args: str) -> int:
        code, out, _ = _shown(capsys, "tree", "--format", "json", *args, str(tmp_path / "sub" / "null.jsonl"))
        assert code == cli.EXIT_CLEAN
        return int(json.loads(out)["entry_count"])

    assert (entries(), entries("--isolated"), entries("--config", str(newer))) == (5, 4, 4)  # 0.73 counts the null


def test_context_and_tree_refuse_a_bad_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, NULL_FIRST, "a.jsonl")
    (tmp_path / ".session-lsp.toml").write_text('claude-version = "nine"\n')
    for command in ("context", "tree"):
        code, out, err = _shown(capsys, command, str(tmp_path / "a.jsonl"))
        assert code == cli.EXIT_USAGE and out == "" and ".session-lsp.toml: claude-version:" in err
        assert _shown(capsys, command, "--isolated", str(tmp_path / "a.jsonl"))[0] == cli.EXIT_CLEAN
