"""The disagreements with the real Codex CLI that are known, each with its reason (as known.py for pi): the
conformance test fails on any other, and on an entry here that no longer happens (remove it then). `kind` "*"
stands for every kind. The open ones are written up, file by file, for the format's authors (issue 23)."""

from __future__ import annotations

from .known import Known

_OPEN = "open in issue 23: "

KNOWN: tuple[Known, ...] = (
    Known("*", "*", "context",
          _OPEN + "every item of the predicted context carries `internal_chat_message_metadata_passthrough`, which "
          "Codex never sends; with that key left out the items equal Codex's on the corpus, the seeds and all but "
          "12 mutants (the rows below)", "23"),
    Known("*", "delete-line", "lost",
          "a whole response_item line deleted (a developer message, a reasoning item) leaves a well-formed shorter "
          "rollout: nothing left in the file shows the loss"),
    Known("*", "replacement-history-damaged", "dropped-line",
          _OPEN + "an unknown item in a compaction's replacement_history is sent as {\"type\": \"other\"}, a null one "
          "makes Codex ignore the whole compaction; session-lsp drops the item, with no error on the line", "23"),
    Known("*", "replacement-history-mismatch", "dropped-line",
          _OPEN + "replacement_history and its metadata of different lengths make Codex ignore the compaction; "
          "session-lsp applies it (CDX040, a warning)", "23"),
    Known("*", "reasoning-damaged", "dropped-line",
          _OPEN + "a reasoning item whose `content` is a string is skipped by Codex; session-lsp sends it", "23"),
    Known("*", "reasoning-damaged", "lost", _OPEN + "the same mutants", "23"),
    Known("*", "meta-damaged", "refused",
          _OPEN + "a `history_mode` that is not a string makes Codex refuse the rollout; session-lsp resumes it", "23"),
    Known("*", "ordinal-missing", "refused",
          _OPEN + "the last record without an ordinal is fatal (openai/codex#45150): Codex refuses; session-lsp "
          "says CDX031, a warning, and resumes", "23"),
    Known("*", "unknown-item-kind", "dropped-line",
          _OPEN + "a response item of an unknown kind is skipped by Codex (lost); session-lsp has no diagnostic on "
          "its line", "23"),
    Known("*", "unknown-item-kind", "lost", _OPEN + "the same mutants", "23"),
    Known("*", "torn-glued", "dropped-line",
          _OPEN + "a torn event line with a whole response item glued after it: the item is lost too; session-lsp's "
          "CDX001 looks only at the first record and says warning", "23"),
    Known("*", "torn-glued", "lost", _OPEN + "the same mutant", "23"),
    Known("*", "call-without-output", "lost",
          _OPEN + "Codex sends \"aborted\" in place of the real output; session-lsp's CDX021 is a warning", "23"),
    *(Known("*", kind, "clean",
            _OPEN + "Codex sends exactly the clean seed's request (the damaged line held no response item, or one a "
            "later compaction replaced), but session-lsp's diagnostic on the line is an error, not a warning", "23")
      for kind in ("bad-timestamp", "garbage-line", "glued-lines", "nul-padding", "torn-last-line", "torn-mid-line",
                   "torn-glued", "ordinal-wrong-type", "payload-field-missing", "call-id-edited")),
)


def explained(release: str, kind: str, check: str) -> Known | None:
    return next((known for known in KNOWN if known.kind in (kind, "*") and known.check == check
                 and known.release in ("*", release)), None)
