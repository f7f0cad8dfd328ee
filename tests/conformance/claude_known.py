"""The disagreements with the real Claude Code that are known, each with its reason (as known.py for pi): the
conformance test fails on any other, and on an entry here that no longer happens (remove it then)."""

from __future__ import annotations

from .known import Known

_OPEN = "open in issue 21: "

KNOWN: tuple[Known, ...] = (
    Known("*", "garbage-line", "clean",
          _OPEN + "a line that is not JSON (`{`, `{\"type\":`, `not json`) is CCD001, an error, because a torn line "
          "may have held a conversation record; Claude Code skips it, and when no record's parentUuid dangles over it "
          "nothing was lost, so it should then be a warning. Not done yet.", "21"),
    Known("*", "torn-last-line", "clean", _OPEN + "the same as garbage-line: a torn bookkeeping line is an error here.",
          "21"),
    Known("*", "torn-mid-line", "clean", _OPEN + "the same as garbage-line.", "21"),
    Known("*", "torn-glued", "clean", _OPEN + "the same as garbage-line.", "21"),
    Known("*", "torn-mid-line", "context",
          _OPEN + "a torn record mid-chain: Claude Code's bridge over the lost record reaches a different record "
          "than ours in 2 of 11 mutants (the bridging rule for dangling parents below).", "21"),
    Known("*", "torn-glued", "context",
          _OPEN + "a half line with the next record glued on: the same bridging rule (4 of 11).", "21"),
    Known("*", "parent-dangling", "context",
          _OPEN + "a dangling parentUuid is bridged to the chain record above it in most mutants, but Claude Code "
          "cuts the history there in some (116, 281, 314); the rule that decides was not found (not time gaps, not "
          "the record type).", "21"),
    Known("*", "parent-dangling", "lost", _OPEN + "the same mutants: where Claude Code cuts, we say it bridges.", "21"),
    Known("*", "parent-cycle", "context",
          _OPEN + "a cycle is broken where Claude Code breaks it in 7 of 10 mutants; in 3 it starts the history "
          "after the cycle (the same unknown bridging rule).", "21"),
    Known("*", "duplicate-uuid", "context",
          _OPEN + "a later row with the same uuid: Claude Code leaves out attachment records above the earlier row "
          "that we keep, and merges the first user turn differently (6 of 10); its rule is not known yet.", "21"),
    Known("*", "delete-record", "context",
          _OPEN + "a deleted record whose child then dangles: Claude Code renders the records around the gap into "
          "one user message differently from us (3 of 10; the bridging rule again).", "21"),
    Known("*", "unknown-type", "context",
          _OPEN + "a record of an unknown type on the chain: Claude Code also leaves out attachments above it, and "
          "keeps a queued-command text we render as \"(no content)\" (3 of 10).", "21"),
    Known("*", "unknown-type", "lost", _OPEN + "the same mutants.", "21"),
    Known("*", "glued-lines", "context", _OPEN + "one of 10: the record after the glue is bridged differently.",
          "21"),
    Known("*", "nul-padding", "context", _OPEN + "one of 10: a NUL block that swallows a record's start, then the "
          "bridging rule.", "21"),
    Known("*", "nul-padding", "lost", _OPEN + "the same mutant.", "21"),
    Known("*", "huge-line", "context",
          _OPEN + "a huge tool result: Claude Code adds a text \"CRITICAL: Respond with TEXT ONLY...\" to that user "
          "turn (a size limit we do not model) and leaves out \"No response requested.\".", "21"),
    Known("*", "huge-line", "lost", _OPEN + "the same mutant.", "21"),
    Known("*", "tool-result-id", "context",
          _OPEN + "one of 10: Claude Code keeps the text of a queued prompt where we send \"(no content)\".", "21"),
    Known("*", "seed", "context",
          _OPEN + "the /compact seed the suite writes: the preserved segment after the boundary is rendered "
          "differently.", "21"),
)


def explained(release: str, kind: str, check: str) -> Known | None:
    return next((known for known in KNOWN if known.kind == kind and known.check == check
                 and known.release in ("*", release)), None)
