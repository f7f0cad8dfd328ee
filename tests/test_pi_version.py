"""`--pi-version` and the `piVersion` setting take any pi version, MAJOR.MINOR[.PATCH]: a release with its own row
speaks for itself (every patch of it), any other is read as the newest known release older than it, and `-v` says
so; one older than every row, or a value that is no version, is refused with a message that says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_lsp import cli
from session_lsp.analysis.elyra import FORMAT as PI
from session_lsp.server import settings

CLEAN = Path(__file__).parent.parent / "examples" / "clean" / "elyra-branched.jsonl"


@pytest.mark.parametrize(("version", "key", "own"), [
    ("1.6", "1.6", True), ("1.6.0", "1.6", True), ("1.6.12", "1.6", True), ("0.73", "0.73", True),
    ("0.73.0", "0.73", True), ("1.2", "0.73", False), ("1.2.7", "0.73", False), ("0.100", "0.73", False),
    ("1.7", "1.6", False), ("2.0.1", "1.6", False), ("10.0", "1.6", False),
])
def test_a_version_is_read_as_its_own_row_or_the_newest_older_one(version: str, key: str, own: bool) -> None:
    found, note = PI.release_for(version)
    assert found == key
    assert (note is None) is own
    if not own:
        assert note == (f"pi {version} is not a release session-lsp knows: it is read as pi {key}, the newest known "
                        "release older than it")


@pytest.mark.parametrize(("version", "says"), [
    ("0.72", "pi 0.72 is older than the oldest release session-lsp knows (pi 0.73; known: 0.73, 1.6)"),
    ("0.5.9", "older than the oldest release"),
    ("1", "expected a pi version MAJOR.MINOR or MAJOR.MINOR.PATCH (e.g. 1.6), got '1'"),
    ("1.6.0.1", "expected a pi version"), ("v1.6", "expected a pi version"), ("\u0661.\u0666", "expected a pi version"),
])
def test_what_is_no_known_version_is_refused_with_why(version: str, says: str) -> None:
    with pytest.raises(ValueError) as raised:
        PI.release_for(version)
    assert says in str(raised.value)


def test_check_v_says_which_release_an_unknown_version_is_read_as(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "-v", "--pi-version", "1.2", str(CLEAN)]) == cli.EXIT_CLEAN
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("pi 1.2 is not a release session-lsp knows: it is read as pi 0.73, the newest known "
                                   "release older than it")
    assert cli.main(["check", "-v", "--pi-version", "1.6.2", str(CLEAN)]) == cli.EXIT_CLEAN
    assert "not a release" not in capsys.readouterr().out  # a patch of a known release is that release
    assert cli.main(["check", "-v", "--pi-version", "1.2", "--format", "json", "--min-severity", "hint",
                     str(CLEAN)]) == cli.EXIT_CLEAN
    out, err = capsys.readouterr()
    assert json.loads(out) and "read as pi 0.73" in err  # json on stdout stays JSON


def test_the_read_release_is_the_one_that_speaks(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["context", str(CLEAN), "--pi-version", "1.5"]) == cli.EXIT_CLEAN
    assert ": pi 0.73 sends " in capsys.readouterr().out.splitlines()[0]


@pytest.mark.parametrize("command", ["check", "context", "tree"])
def test_an_older_version_is_a_usage_error(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main([command, str(CLEAN), "--pi-version", "0.60"])
    assert exited.value.code == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --pi-version: pi 0.60 is older than the oldest release" in err


def test_the_setting_takes_the_same_versions() -> None:
    parsed, problems = settings.parse({"piVersion": "1.2"})
    assert dict(parsed.releases)["pi"] == "0.73"
    assert problems == ["piVersion: pi 1.2 is not a release session-lsp knows: it is read as pi 0.73, the newest known "
                        "release older than it"]
    parsed, problems = settings.parse({"piVersion": "1.6.0"})
    assert (dict(parsed.releases)["pi"], problems) == ("1.6", [])
    for bad in ("0.1", 1.6, "soon"):
        parsed, problems = settings.parse({"piVersion": bad})
        assert dict(parsed.releases)["pi"] == "1.6" and len(problems) == 1 and problems[0].endswith("; using 1.6")
