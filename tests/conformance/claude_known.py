"""The disagreements with the real Claude Code that are known, each with its reason (as known.py for pi): the
conformance test fails on any other, and on an entry here that no longer happens (remove it then)."""

from __future__ import annotations

from .known import Known

_OPEN = "open in issue 21: "

KNOWN: tuple[Known, ...] = (
    Known("*", "huge-line", "context",
          _OPEN + "a 3 MB tool result that fills the context window: Claude Code's first request is then an "
          "automatic /compact (its summary prompt \"CRITICAL: Respond with TEXT ONLY...\" after the history, no "
          "\"No response requested.\"), not the resumed turn; session-lsp does not model the context window.",
          "21"),
    Known("*", "huge-line", "lost", _OPEN + "the same mutant.", "21"),
)


def explained(release: str, kind: str, check: str) -> Known | None:
    return next((known for known in KNOWN if known.kind == kind and known.check == check
                 and known.release in ("*", release)), None)
