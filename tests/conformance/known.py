"""The disagreements with the real pi that are known, each with its reason: the conformance test fails on any
other, and on an entry here that no longer happens (remove it then). Entries with an `issue` are classes
another change fixes; remove them when it lands."""

from __future__ import annotations

import msgspec


class Known(msgspec.Struct, frozen=True):
    release: str
    """"0.73", "1.6" or "*" (both)."""
    kind: str
    check: str
    reason: str
    issue: str = ""


_OFF_THE_CONTEXT = (
    "the damaged entry was compacted away or sits on an abandoned branch, so pi sends the seed's request; the "
    "errors stay on purpose, since navigating there sends the orphan or the damaged message, which providers "
    "reject: the link-pass rules (ELY070, the result whose call is gone) and the line-pass rules (ELY032/ELY033, a "
    "damaged field) say \"compacted away\" or \"abandoned branch\"")

KNOWN: tuple[Known, ...] = (
    Known("*", "firstKeptEntryId-edit", "shrunk",
          "a compaction whose firstKeptEntryId is its own id is how pi 1.x writes a retain-none compaction, so it is "
          "legal (issue 8); pointed there by hand, it keeps nothing from before the compaction, and nothing in the "
          "file tells that edit from pi's own"),
    Known("*", "delete-line", "shrunk",
          "deleting the last entry leaves a well-formed shorter session: nothing left in the file shows the loss"),
    Known("*", "toolCallId-edit", "clean", _OFF_THE_CONTEXT),
    Known("*", "unknown-type", "clean", _OFF_THE_CONTEXT),
    Known("*", "missing-field", "clean", _OFF_THE_CONTEXT),
    Known("*", "unknown-role", "clean", _OFF_THE_CONTEXT),
    Known("*", "duplicate-key", "clean", _OFF_THE_CONTEXT),
    Known("*", "v1-entries", "path",
          "an id-less last entry: pi's getBranch (its /tree path) starts from the leaf's id, undefined, and is empty, "
          "while buildSessionContext falls back to the last entry and sends its message; the active path we show "
          "is the one the context is built from, and ELY021 says the id is missing"),
    Known("*", "invalid-utf8", "clean",
          "the U+FFFD lands in a key pi does not send (the damaged `message.timestamp` key, on an entry off the "
          "path or a custom_message pi rebuilds): the request is unchanged, but ELY006 is an error, on purpose: "
          "any rewrite by pi makes the replacement permanent"),
)


def explained(release: str, kind: str, check: str) -> Known | None:
    return next((known for known in KNOWN if known.kind == kind and known.check == check
                 and known.release in ("*", release)), None)
