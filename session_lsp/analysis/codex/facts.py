"""What the link pass needs of one rollout line: small, frozen, `gc=False` facts. Most lines are events and token
records, so everything but the type defaults to None."""

from __future__ import annotations

import msgspec

from ..text import LastSeen, Vocabulary


class Kept(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """One item of a compaction's `replacement_history`: what the history replay needs of it."""

    kind: str
    call_id: str | None = None
    prompt: bool = False
    sent: bool = True
    """An item Codex sends (a message of role "system", a ghost snapshot or an unknown kind is not)."""


class Facts(msgspec.Struct, frozen=True, gc=False):
    tag: str
    """The line's `type` ("" when it has none)."""
    kind: str | None = None
    """A response item's or an event's own `type`."""
    readable: bool = True
    """Codex reads the line back (serde decodes it): false for a line it skips on resume."""
    role: str | None = None
    call_id: str | None = None
    name: str | None = None
    """A call's tool name."""
    item_id: str | None = None
    turn_id: str | None = None
    """The turn an event, a turn_context or an item (by its passthrough metadata) belongs to."""
    ordinal: int | None = None
    has_ordinal: bool = False
    num_turns: int | None = None
    """A thread_rolled_back's `num_turns`."""
    replaced: int | None = None
    """A compacted record's `replacement_history` length (None: it has none)."""
    replaced_meta: int | None = None
    """Its `replacement_history_metadata` length (None: it has none)."""
    session: str | None = None
    """A session_meta's `id`."""
    prompt: bool = False
    """A user message that starts a user turn (not one of the context fragments Codex writes as user messages)."""
    sent: bool = False
    """A response item Codex puts in the history it sends (an API message: not role "system", not `Other`)."""
    kept: tuple[Kept, ...] = ()
    """A compaction's replacement history."""
    forked_from: str | None = None
    digest: int = 0
    """A hash of the payload's text: equal digests are one item written twice."""


class LineState:
    """What the line pass carries from line to line: whether lines get titles, and the caches that make equal
    strings one object."""

    __slots__ = ("last_turn", "shared", "titles")

    def __init__(self, titles: bool = True) -> None:
        self.titles = titles
        self.shared = Vocabulary().shared
        self.last_turn = LastSeen()


CONTEXTUAL = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions for", "<skill>",
              "<user_shell_command>", "<turn_aborted>", "<subagent_notification>", "<apps_instructions>",
              "<collaboration_mode>", "<permissions instructions>")
"""How the context fragments Codex writes as user messages start: they are not a user turn (a rollback does not
count them)."""
NOT_SENT = frozenset({"ghost_snapshot", "compaction_trigger"})


def is_prompt(role: str | None, first_text: str | None) -> bool:
    return role == "user" and not (first_text or "").lstrip().startswith(CONTEXTUAL)


def is_sent(kind: str | None, role: str | None, known: bool) -> bool:
    return known and kind not in NOT_SENT and not (kind == "message" and role == "system")


def kept_of(value: object, known: frozenset[str]) -> Kept:
    """The facts of one replacement_history item (the line pass has checked it fits). Codex puts the replacement
    history in place as it is: every item is sent, one of a kind it does not know as `{"type":"other"}`."""
    if not isinstance(value, dict):
        return Kept("", sent=False)
    kind = value.get("type")
    kind = kind if isinstance(kind, str) and kind in known else "other"
    role = value.get("role") if isinstance(value.get("role"), str) else None
    call = value.get("call_id") if isinstance(value.get("call_id"), str) else None
    content = value.get("content")
    first = content[0].get("text") if isinstance(content, list) and content and isinstance(content[0], dict) else None
    return Kept(kind, call, kind == "message" and is_prompt(role, first if isinstance(first, str) else None),
                kind not in NOT_SENT)
