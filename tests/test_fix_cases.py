"""Data-driven fixes: every rule case (`tests/cases/<format>/<CODE>-*.jsonl`) of a rule with a fix, run through
`session-lsp fix` (safe fixes) and `session-lsp fix --unsafe-fixes`; the files the two runs write are kept beside
in `tests/fix_cases/<format>/<case>.safe.jsonl` and `.unsafe.jsonl` (absent: the run changes nothing), read like
the spec, and compared byte for byte. Beyond the bytes: the case's rule is gone after a run its fix is enabled in,
and a safe run never applies an unsafe fix.

`python -m tests.test_fix_cases` writes the expected files again after a deliberate change (then read the diff).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from session_lsp.analysis import Options
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.registry import RULES, Applicability
from session_lsp.analysis.rule_filter import RuleFilter
from session_lsp.fixer import repair

HERE = Path(__file__).parent
CASES = HERE / "cases"
EXPECTED = HERE / "fix_cases"
FIXABLE = {code for code, rule in RULES.items() if rule.fix is not None}


def _pi_version(case: Path) -> str:
    expected = case.with_suffix(".expected")
    for line in expected.read_text(encoding="utf-8").splitlines() if expected.exists() else ():
        if line.startswith("#! pi "):
            return line.removeprefix("#! pi ").strip()
    return "1.6"


def _name(case: Path) -> str:
    """The path the fix sees, the same on every machine (a fresh header id is derived from it)."""
    return case.relative_to(HERE.parent).as_posix()


def cases() -> list[Path]:
    return sorted(path for path in CASES.glob("*/*.jsonl") if path.name.split("-")[0] in FIXABLE)


def _fixed(case: Path, unsafe: bool) -> tuple[bytes, list[str], list[bool]]:
    data = case.read_bytes()
    outcome = repair(case.name, data, RuleFilter([], []), _pi_version(case), unsafe, _name(case))
    return (outcome.new if outcome.new is not None else data, [c for f in outcome.applied for c in f.codes],
            [f.safe for f in outcome.applied])


def _expected(case: Path, unsafe: bool) -> Path:
    return EXPECTED / case.parent.name / f"{case.stem}.{'unsafe' if unsafe else 'safe'}.jsonl"


@pytest.mark.parametrize("case", cases(), ids=lambda path: f"{path.parent.name}/{path.stem}")
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fix_case(case: Path, unsafe: bool) -> None:
    fixed, codes, safety = _fixed(case, unsafe)
    expected = _expected(case, unsafe)
    assert fixed == (expected.read_bytes() if expected.exists() else case.read_bytes())
    assert unsafe or all(safety)
    code = case.name.split("-")[0]
    enabled = unsafe or RULES[code].fix is Applicability.SAFE
    if enabled and code in codes:  # fewer of the case's diagnostics (a case may also hold ones no fix repairs)
        options = Options(path=_name(case), pi_version=_pi_version(case))
        count = [sum(1 for d in analyze_bytes(data, options).diagnostics() if d.code == code)
                 for data in (case.read_bytes(), fixed)]
        assert count[1] < count[0]


def test_every_rule_with_a_fix_has_a_fix_case_that_applies_it() -> None:
    applied = {code for case in cases() for code in _fixed(case, True)[1]}
    assert FIXABLE - applied == set()


def main() -> int:
    for case in cases():
        for unsafe in (False, True):
            fixed = _fixed(case, unsafe)[0]
            target = _expected(case, unsafe)
            if fixed == case.read_bytes():
                target.unlink(missing_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(fixed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
