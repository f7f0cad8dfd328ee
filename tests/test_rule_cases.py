"""Data-driven rule tests: each `tests/cases/<format>/<name>.jsonl` sits beside `<name>.expected`, which lists
every diagnostic the file must produce, one a line:

    LINE:COL-END CODE SEVERITY "fragment"  # comment

LINE is 1-based; COL and END are 1-based columns counted in Unicode code points (what `session-lsp check` prints),
END exclusive: the column just past the flagged text, so `3:9-18` covers columns 9 to 17 and `3:166-166` is an empty
range at column 166. A range that runs onto another line writes its end as `END_LINE:END`. The fragment is a JSON
string that must occur in the diagnostic's message: the part that says what is wrong or what the agent does, so a
reworded or misplaced diagnostic fails here. Each expected line matches a distinct diagnostic, in any order; `#`
after the fragment starts a comment, and a line starting with `#` is one.

A case named `clean-*` must list nothing. The first lines of an expected file may hold directives: `#! exists`
checks the case with `os.path.exists` passed in, as the CLI does (rules about other files on disk need it);
`#! pi 0.73` checks it for that pi release (`--pi-version`) instead of the newest; `#! max-line N` streams the file
as `check` does, refusing lines over N bytes (SLS002) instead of over 512 MiB.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from session_lsp.analysis import RULES, Document, Options
from session_lsp.analysis.diagnostics import Diagnostic
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.elyra.releases import RELEASES
from session_lsp.analysis.registry import PLANNED
from session_lsp.files import FileLines

CASES = Path(__file__).parent / "cases"
_RANGE = re.compile(r"(\d+):(\d+)-(?:(\d+):)?(\d+)")
_STRING = json.JSONDecoder()


class Place(NamedTuple):
    """Where a diagnostic is and what it is, in the expected files' 1-based units."""

    line: int
    col: int
    end_line: int
    end: int
    code: str
    severity: str

    def __str__(self) -> str:
        end = f"{self.end}" if self.end_line == self.line else f"{self.end_line}:{self.end}"
        return f"{self.line}:{self.col}-{end} {self.code} {self.severity}"


def _cases() -> list[Path]:
    return sorted(CASES.glob("*/*.jsonl"))


def _parse(raw: str) -> tuple[Place, str]:
    """One expected line -> its place and message fragment."""
    where, code, severity, rest = raw.split(None, 3)
    matched = _RANGE.fullmatch(where)
    assert matched, f"not LINE:COL-END: {raw!r}"
    line, col, end_line, end = matched.groups()
    fragment, stop = _STRING.raw_decode(rest)
    assert isinstance(fragment, str) and fragment, f"the fragment must be a non-empty JSON string: {raw!r}"
    assert rest[stop:].strip()[:1] in ("", "#"), f"text after the fragment that is not a comment: {raw!r}"
    return Place(int(line), int(col), int(end_line or line), int(end), code, severity), fragment


def _expected(case: Path) -> list[tuple[Place, str]]:
    lines = case.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    return [_parse(raw) for raw in lines if raw.strip() and not raw.lstrip().startswith("#")]


def _place(d: Diagnostic) -> Place:
    s = d.span
    return Place(s.line + 1, s.start + 1, s.end_line + 1, s.end + 1, d.code, d.severity.label)


def _actual(case: Path) -> list[Diagnostic]:
    directives = [line.split()[1:] for line in case.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
                  if line.startswith("#! ")]
    exists = os.path.exists if any(words[:1] == ["exists"] for words in directives) else None
    release = next((words[1] for words in directives if words[:1] == ["pi"]), None)
    assert release is None or release in RELEASES, f"unknown pi release {release!r}"
    options = Options(path=case.name, exists=exists, pi_version=release)
    max_line = next((int(words[1]) for words in directives if words[:1] == ["max-line"]), None)
    if max_line is not None:  # streamed as `check` reads a file, with a line limit small enough for a case
        with FileLines(str(case), max_line=max_line) as lines:
            return list(Document.streamed(lines, options).diagnostics())
    document = analyze_bytes(case.read_bytes(), options)
    return list(document.diagnostics())


@pytest.mark.parametrize("case", _cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case(case: Path) -> None:
    assert case.with_suffix(".expected").exists(), f"{case.name} has no .expected file"
    expected = _expected(case)
    if case.stem.startswith("clean-"):
        assert not expected, "a clean case expects no diagnostics"
    unmatched = _actual(case)
    missing = []
    for place, fragment in expected:
        found = next((d for d in unmatched if _place(d) == place and fragment in d.message), None)
        if found is None:
            missing.append(f"{place} {json.dumps(fragment, ensure_ascii=False)}")
        else:
            unmatched.remove(found)
    unexpected = [f"{_place(d)} | {d.message}" for d in unmatched]
    assert not missing and not unexpected, (
        "\nexpected but not produced:\n  " + "\n  ".join(missing or ["-"])
        + "\nproduced but not expected:\n  " + "\n  ".join(unexpected or ["-"]))


def test_every_implemented_rule_has_a_case() -> None:
    covered = {place.code for case in _cases() for place, _ in _expected(case)}
    missing = sorted(set(RULES) - PLANNED - covered)
    assert not missing, f"rules with no case that triggers them (add a case, or list them in PLANNED): {missing}"
    assert not (PLANNED & covered), f"PLANNED lists rules that cases trigger: {sorted(PLANNED & covered)}"
