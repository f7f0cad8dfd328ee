"""The repair proof for Claude Code (tests/conformance/claude_repair.py): every Claude Code conformance mutant, fixed
with `--unsafe-fixes`, is resumed by the real Claude Code 2.1.332 without refusal, and keeps every message it sent
for the damaged file. Claude Code's answers come from the committed record, as in tests/test_conformance_claude.py
(which fails while the record lacks any of these cases); a case missing from it runs the CLI."""

from __future__ import annotations

from functools import cache

from conformance import claude_mutants, claude_repair
from conformance.repair import Repaired

UNREPAIRED: dict[str, str] = {}
"""Claude Code mutant kinds that `fix --unsafe-fixes` does not repair (check still reports an error), with why
(none left: the empty and all-garbage files get the record Claude Code resumes an empty history from); the proof
still requires that no message is lost for a kind listed here."""


@cache
def repaired() -> tuple[Repaired, ...]:
    return tuple(claude_repair.run())


def test_every_other_mutant_kind_is_repaired() -> None:
    results = repaired()
    assert {r.kind for r in results} == {*claude_mutants.KINDS, *claude_mutants.TARGETED}
    assert [(r.name, r.failed, r.errors) for r in results if r.failed and r.kind not in UNREPAIRED] == []
    assert [kind for kind in UNREPAIRED if not any(r.failed for r in results if r.kind == kind)] == []


REGROUPED = {
    "109-nul-padding-a8aa60fe": "the damaged file hid the record a /compact kept, so Claude Code merged the summary "
                                "into the next user message; the fix gives the record back between them, so that "
                                "merged message is sent as its parts, every text still sent",
}
"""Mutants whose fixed file holds a message Claude Code sent for the damaged file, regrouped, not as one message."""


def test_no_message_claude_code_sent_is_lost_or_refused() -> None:
    results = repaired()
    assert [(r.name, r.lost) for r in results if r.lost] == []
    assert sorted(r.name for r in results if r.off_path) == sorted(REGROUPED)
    assert [r.name for r in results if "refused" in r.failed] == []


def test_the_fixes_did_something() -> None:
    """Not vacuous: every glued line is split, and then Claude Code sends what the damaged file hid."""
    results = repaired()
    glued = [r for r in results if r.kind == "glued-lines"]
    assert glued and all(r.fixes for r in glued)


REPAIRED_BY_CLAUDE_FIXES = (
    "empty-file", "garbage-file", "parent-dangling", "parent-dangling-timed", "parent-null", "missing-field",
    "delete-record", "tool-result-id", "tool-result-removed", "tool-use-removed", "tool-result-record-deleted",
    "torn-glued", "torn-last-message", "torn-mid-line", "unknown-type")
"""The kinds that kept an error before Claude Code's fixers (analysis/claude/fixes.py) were written."""


def test_the_claude_fixes_repair_what_was_left() -> None:
    results = repaired()
    for kind in REPAIRED_BY_CLAUDE_FIXES:
        group = [r for r in results if r.kind == kind]
        assert group and any(r.fixes for r in group) and [r.name for r in group if r.failed] == [], kind


CONTEXT_KNOWN = {
    "079-huge-line-a2fde69b": "a 3 MB tool result fills the context window: Claude Code's first request is an "
                              "automatic /compact, which session-lsp does not model (claude_known.py, huge-line)",
}
"""Fixed files whose resume session-lsp's `context` does not predict exactly, with why."""


def test_context_is_what_claude_code_sends_for_every_fixed_file() -> None:
    """What `context` predicts for each fixed file is the request the real Claude Code sent when it resumed it."""
    differ = [name for name, predicted, real in claude_repair.fixed_contexts() if predicted != real]
    assert sorted(differ) == sorted(CONTEXT_KNOWN)
