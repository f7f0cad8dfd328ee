"""The disagreements with the real Codex CLI that are known, each with its reason (as known.py for pi): the
conformance test fails on any other, and on an entry here that no longer happens (remove it then). `kind` "*"
stands for every kind. The open ones are written up, file by file, for the format's authors (issue 23)."""

from __future__ import annotations

from .known import Known

KNOWN: tuple[Known, ...] = (
    Known("*", "delete-line", "lost",
          "a whole response_item line deleted (a developer message, a reasoning item) leaves a well-formed shorter "
          "rollout: nothing left in the file shows the loss"),
    *(Known("*", kind, "clean",
            "a line cut or damaged before its record's `type` (`{\"timest`, `{\"type\":`, a NUL block): nothing on "
            "it tells whether it held a response item, so CDX001 stays an error on purpose; Codex lost only a "
            "bookkeeping record in these mutants")
      for kind in ("torn-last-line", "garbage-line", "nul-padding")),
)


def explained(release: str, kind: str, check: str) -> Known | None:
    return next((known for known in KNOWN if known.kind in (kind, "*") and known.check == check
                 and known.release in ("*", release)), None)
