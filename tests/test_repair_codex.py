"""The repair proof for Codex (tests/conformance/codex_repair.py): every Codex conformance mutant, fixed with
`--unsafe-fixes`, is resumed by the real Codex 0.171.0 without refusal, `check` finds no error in it, and every item
Codex sent for the damaged rollout it still sends. Codex's answers come from the committed record, as for the
conformance suite (tests/test_conformance_codex.py), so these tests never skip."""

from __future__ import annotations

from functools import cache

from conformance import codex_mutants, codex_oracle, codex_repair

UNREPAIRED: dict[str, str] = {}
"""Codex mutant kinds that `fix --unsafe-fixes` does not repair, with why: none (every kind is)."""

COMPACTED_AGAIN = {
    "replacement-history-mismatch": "a compaction whose replacement_history and metadata differ in length (an item or "
                                    "entry written twice, or an entry missing) is ignored by Codex, which then sends "
                                    "the items above it; the fix gives the lists one length again, so Codex applies "
                                    "the compaction it wrote and sends exactly what it sent before the damage",
    "replacement-history-damaged": "a replacement_history item that is not a response item (null, a string) makes "
                                   "Codex ignore the whole compaction; the fix removes that item (nothing of it can "
                                   "be read) and its metadata entry, so Codex applies the compaction again",
}
"""Mutant kinds whose fix gives back a compaction the damage made Codex ignore: the items above it that Codex sent
for the damaged rollout are replaced again by the compaction's history (they stay in the file, above it), as in the
rollout Codex wrote."""


@cache
def repaired() -> tuple[codex_repair.Repaired, ...]:
    return tuple(codex_repair.run())


def test_the_record_holds_every_repair_case_so_ci_does_not_start_codex() -> None:
    recorded = codex_oracle.recorded()
    missing = [case.name for case in codex_repair.cases(codex_repair.fixed()) if codex_oracle.key(case) not in recorded]
    assert missing == [], "run `python -m tests.conformance.codex_repair --record` (as root) and commit the record"


def test_every_mutant_kind_is_repaired() -> None:
    results = repaired()
    assert {r.kind for r in results} == set(codex_mutants.KINDS)
    assert [(r.name, r.failed, r.errors) for r in results if r.failed and r.kind not in UNREPAIRED] == []
    assert [kind for kind in UNREPAIRED if not any(r.failed for r in results if r.kind == kind)] == []


def test_no_item_codex_sent_is_lost_and_nothing_is_refused() -> None:
    results = repaired()
    assert [(r.name, r.lost) for r in results if r.lost] == []
    assert [r.name for r in results if "refused" in r.failed] == []


def test_a_compaction_given_back_is_the_one_codex_wrote() -> None:
    """Items are compacted away again only where the fix gives back a compaction, and where nothing of the
    compaction was destroyed, Codex then sends exactly what it sent for the rollout before the damage."""
    results = repaired()
    again = [r for r in results if r.compacted]
    assert again and {r.kind for r in again} <= set(COMPACTED_AGAIN)
    assert [r.name for r in again if r.kind == "replacement-history-mismatch" and not r.as_written] == []


def test_the_context_of_every_fixed_rollout_is_what_codex_sends() -> None:
    assert [r.name for r in repaired() if not r.context] == []


def test_the_fixes_did_something() -> None:
    """Not vacuous: every rollout Codex refused is fixed, by a fix of its own."""
    results = repaired()
    for kind in ("meta-removed", "meta-moved", "meta-damaged", "empty-file", "garbage-file", "ordinal-missing"):
        group = [r for r in results if r.kind == kind]
        assert group and all(r.fixes for r in group), kind
    assert sum(r.fixes for r in results) > 200
