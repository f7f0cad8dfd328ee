"""The disagreements with the real Claude Code that are known, each with its reason (as known.py for pi): the
conformance test fails on any other, and on an entry here that no longer happens (remove it then)."""

from __future__ import annotations

from .known import Known

KNOWN: tuple[Known, ...] = (
    Known("*", "huge-line", "context",
          "kept written up (issue 21): one mutant of 4 (079, a 3 MB tool result after the last response of "
          "a2fde69b) makes Claude Code's first request an automatic /compact (its summary prompt \"CRITICAL: "
          "Respond with TEXT ONLY...\" after the history, no \"No response requested.\"), not the resumed turn; "
          "113 (3 MB, but mid-history, below responses whose recorded usage is small) and the 2 MB ones do not. "
          "Whether it fires is not a fact of the file: 2.1.332 compares a token count (the last response's "
          "recorded `usage` and an estimate of what follows it; the estimator's bytes per token are the model's) "
          "with a threshold = auto-compact window - min(max output tokens, 20000), the window resolved from "
          "CLAUDE_CODE_AUTO_COMPACT_WINDOW, settings (`autoCompactWindow`, /autocompact), server client data, "
          "experiments, then the model's default, and lowered by CLAUDE_AUTOCOMPACT_PCT_OVERRIDE; so session-lsp "
          "cannot predict it soundly from the file and does not model the context window.", "21"),
    Known("*", "huge-line", "lost", "the same mutant (079): the compaction request sends the history without "
          "\"No response requested.\", which the suite reads as less than the clean seed's.", "21"),
)


def explained(release: str, kind: str, check: str) -> Known | None:
    return next((known for known in KNOWN if known.kind == kind and known.check == check
                 and known.release in ("*", release)), None)
