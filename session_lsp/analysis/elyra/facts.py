"""What the link pass needs to know about one Elyra line, extracted by the line pass.

Facts are frozen and compared for equality: when an edit leaves a line's facts unchanged the link pass is skipped,
so everything a cross-line rule reads must be here, and nothing else (a message's text is not).
Fields the line does not have, or has with the wrong JSON type, are None (the line pass reports the type error).
Facts hold only strings, numbers and tuples, never a cycle, so they skip garbage-collector tracking (`gc=False`):
a 100k-line file keeps 100k of them.
"""

from __future__ import annotations

import msgspec

from ..forwarding import Forwarded

FAILED_STOPS = frozenset({"error", "aborted"})
"""The stop reasons of an assistant message that pi drops before sending the context (with its tool calls)."""
EDITABLE_ROLES = frozenset({"user", "assistant", "toolResult", "custom"})
"""The roles whose content a `context_edit` replacement changes (pi's `projectContextEntry`)."""


class ToolCallFact(msgspec.Struct, frozen=True, gc=False):
    id: str
    name: str | None
    index: int
    """Position of the block in `message.content`, so a diagnostic can point at it."""


class HeaderFacts(msgspec.Struct, frozen=True, gc=False):
    """A `{"type":"session"}` line (the first one is the header; later ones are duplicates)."""

    id: str | None
    version: int | None
    """None when absent (which means v1) or not an integer."""
    has_version: bool
    timestamp: str | None
    parent_session: str | None
    """`parentSession`, else the legacy `branchedFrom`."""
    parent_session_key: str | None
    """Which of the two keys held it."""
    header_bytes: int
    """UTF-8 length of the line (pi's `--continue` reads only the first 512 bytes)."""


class SpecialFacts(msgspec.Struct, frozen=True, gc=False):
    """What only compaction, branch_summary, label and session_info entries carry. Kept apart, so that each of a
    large session's messages holds one empty slot for them, not seven."""

    first_kept_id: str | None = None
    first_kept_index: int | None = None
    """v1 compactions: the raw `firstKeptEntryIndex` when it is an integer."""
    has_first_kept_index: bool = False
    from_id: str | None = None
    target_id: str | None = None
    label: str | None = None
    """For label entries: the label text (None or "" clears the target's label)."""
    name: str | None = None
    """For session_info entries: the session name."""
    omits: bool = False
    """For context_edit entries: `replacement` is null (the target leaves the context)."""
    keeps_calls: bool = False
    """For context_edit entries: the replacement content holds toolCall blocks (an assistant's calls survive)."""


NO_SPECIALS = SpecialFacts()


class EntryFacts(msgspec.Struct, frozen=True, gc=False):
    """Any other object line."""

    type: str | None
    id: str | None
    has_id: bool
    parent_id: str | None
    has_parent: bool
    """True when the key `parentId` is present with a string or null (null makes a root)."""
    timestamp: str | None
    """The entry's ISO timestamp, as written, when it is a string in pi's toISOString form; else None."""
    role: str | None = None
    stop_reason: str | None = None
    tool_calls: tuple[ToolCallFact, ...] = ()
    tool_call_id: str | None = None
    tool_name: str | None = None
    special: SpecialFacts = NO_SPECIALS

    first_kept_id = Forwarded[str | None]()
    first_kept_index = Forwarded[int | None]()
    has_first_kept_index = Forwarded[bool]()
    from_id = Forwarded[str | None]()
    target_id = Forwarded[str | None]()
    label = Forwarded[str | None]()
    name = Forwarded[str | None]()
    omits = Forwarded[bool]()
    keeps_calls = Forwarded[bool]()


class NullFacts(EntryFacts, frozen=True, gc=False):
    """A line that is JSON `null`, which pi 0.73 keeps as an entry and then throws on: a junk entry everywhere, but
    a type of its own, so the link pass can tell it from other junk (and an edit between them relinks)."""
