"""Data-driven rule tests: each `tests/cases/<format>/<name>.jsonl` sits beside `<name>.expected`, which lists
every diagnostic the file must produce, one `LINE CODE SEVERITY` per line (1-based line; `#` starts a comment).
A case named `clean-*` must list nothing. The first lines of an expected file may hold directives: `#! exists`
checks the case with `os.path.exists` passed in, as the CLI does (rules about other files on disk need it);
`#! pi 0.73` checks it for that pi release (`--pi-version`) instead of the newest.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from session_lsp.analysis import RULES, Options
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.elyra.releases import RELEASES
from session_lsp.analysis.registry import PLANNED

CASES = Path(__file__).parent / "cases"


def _cases() -> list[Path]:
    return sorted(CASES.glob("*/*.jsonl"))


def _expected(case: Path) -> Counter[tuple[int, str, str]]:
    expected: Counter[tuple[int, str, str]] = Counter()
    for raw in case.with_suffix(".expected").read_text(encoding="utf-8").splitlines():
        text = raw.split("#", 1)[0].strip()
        if text:
            line, code, severity = text.split()
            expected[(int(line), code, severity)] += 1
    return expected


def _actual(case: Path) -> Counter[tuple[int, str, str]]:
    directives = [line.split()[1:] for line in case.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
                  if line.startswith("#! ")]
    exists = os.path.exists if any(words[:1] == ["exists"] for words in directives) else None
    release = next((words[1] for words in directives if words[:1] == ["pi"]), None)
    assert release is None or release in RELEASES, f"unknown pi release {release!r}"
    document = analyze_bytes(case.read_bytes(), Options(path=case.name, exists=exists, pi_version=release))
    return Counter((d.span.line + 1, d.code, d.severity.label) for d in document.diagnostics())


@pytest.mark.parametrize("case", _cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case(case: Path) -> None:
    assert case.with_suffix(".expected").exists(), f"{case.name} has no .expected file"
    expected = _expected(case)
    if case.stem.startswith("clean-"):
        assert not expected, "a clean case expects no diagnostics"
    assert _actual(case) == expected


def test_every_implemented_rule_has_a_case() -> None:
    covered = {code for case in _cases() for (_, code, _) in _expected(case)}
    missing = sorted(set(RULES) - PLANNED - covered)
    assert not missing, f"rules with no case that triggers them (add a case, or list them in PLANNED): {missing}"
    assert not (PLANNED & covered), f"PLANNED lists rules that cases trigger: {sorted(PLANNED & covered)}"
