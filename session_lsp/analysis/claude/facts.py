"""What the link pass needs of one Claude Code line: small, frozen, `gc=False` facts (one Struct a record; a glued
line, which Claude Code splits and reads whole, has one a record). Fields most records leave empty default to None or
an empty tuple, so the many metadata lines cost a few slots."""

from __future__ import annotations

from typing import Any

import msgspec

from ..text import LastSeen, Vocabulary
from . import schema as s


class Facts(msgspec.Struct, frozen=True, gc=False):
    tag: str
    """The record's `type` ("" when it has none)."""
    uuid: str | None = None
    parent: str | None = None
    has_parent: bool = False
    """`parentUuid` is written (null included): the record is one of the chain."""
    logical_parent: str | None = None
    subtype: str | None = None
    sidechain: bool = False
    session: str | None = None
    agent: str | None = None
    message_id: str | None = None
    """An assistant record's `message.id`: records of one API response share it and are sent as one message."""
    uses: tuple[str, ...] = ()
    """Ids of the tool_use and server_tool_use blocks."""
    results: tuple[str, ...] = ()
    """`tool_use_id`s of the tool_result blocks (of a user record)."""
    server_results: tuple[str, ...] = ()
    blocks: tuple[str, ...] = ()
    """The content blocks' types, in order (an assistant record)."""
    leaf: str | None = None
    """`leafUuid` of a summary or last-prompt record."""
    snapshot: str | None = None
    """`messageId` of a file-history-snapshot."""
    snapshot_update: bool = False
    source_tool: str | None = None
    """`sourceToolAssistantUUID`: the assistant record whose call this user record answers."""
    agent_result: str | None = None
    """`toolUseResult.agentId`: the subagent whose transcript holds this call's work."""
    digest: int = 0
    """A hash of the line's text: equal digests on one uuid are the same row written twice."""
    compact_summary: bool = False
    meta: bool = False
    api_error: bool = False
    tool_names: tuple[str, ...] = ()
    segment: tuple[str, str, str] | None = None
    """A compact boundary's `compactMetadata.preservedSegment`: (headUuid, anchorUuid, tailUuid)."""
    timestamp: str | None = None
    """The record's `timestamp` as written: where a `parentUuid` names nothing, Claude Code links the record to the
    one written last before it by this time (model.py); parsed only then."""


class GluedFacts(msgspec.Struct, frozen=True, gc=False):
    """A line holding several complete records: Claude Code splits it and reads every one."""

    parts: tuple[Facts, ...]


class LineState:
    """What the line pass of one file carries from line to line: whether lines get titles, and the caches that make
    equal strings one object."""

    __slots__ = ("last_session", "last_uuid", "shared", "titles")

    def __init__(self, titles: bool = True) -> None:
        self.titles = titles
        self.shared = Vocabulary().shared
        self.last_uuid = LastSeen()
        self.last_session = LastSeen()


def records_of(facts: object) -> tuple[Facts, ...]:
    """The records a line's facts describe (none for an unreadable line)."""
    if isinstance(facts, Facts):
        return (facts,)
    if isinstance(facts, GluedFacts):
        return facts.parts
    return ()


def of_record(record: s.Record, text: str, state: LineState) -> Facts:
    tag = state.shared(record.__struct_config__.tag)  # type: ignore[arg-type]  # every Record member is tagged
    if isinstance(record, s.Chained):
        return _chained(tag, record, text, state)
    if isinstance(record, s.Summary | s.LastPrompt):
        return Facts(tag, leaf=record.leafUuid, session=_session(record, state))
    if isinstance(record, s.FileHistorySnapshot):
        return Facts(tag, snapshot=record.messageId, snapshot_update=bool(record.isSnapshotUpdate))
    return Facts(tag, session=_session(record, state))


def _session(record: Any, state: LineState) -> str | None:
    value = getattr(record, "sessionId", None)
    return state.last_session.again(value) if isinstance(value, str) else None


def _chained(tag: str, record: s.Chained, text: str, state: LineState) -> Facts:
    uses: list[str] = []
    results: list[str] = []
    server: list[str] = []
    blocks: list[str] = []
    names: list[str] = []
    message_id = subtype = logical = source = agent_result = None
    compact = api_error = False
    segment = None
    if isinstance(record, s.Assistant):
        message_id = record.message.id
        api_error = bool(record.isApiErrorMessage)
        _blocks(record.message.content, uses, results, server, blocks, names, state)
    elif isinstance(record, s.User):
        content = record.message.content
        if isinstance(content, list):
            _blocks(content, uses, results, server, blocks, names, state)
        source = record.sourceToolAssistantUUID
        compact = bool(record.isCompactSummary)
        agent_result = _agent_of(record.toolUseResult)
    elif isinstance(record, s.System):
        subtype = record.subtype
        logical = record.logicalParentUuid
        segment = _segment(record.compactMetadata)
    elif isinstance(record, s.Attachment):
        kind = record.attachment.get("type")
        subtype = state.shared(kind) if isinstance(kind, str) else None
    return Facts(tag, record.uuid, state.last_uuid.same(record.parentUuid), _has_parent(text), logical,
                 state.shared(subtype) if subtype else None, record.isSidechain,
                 _session(record, state), record.agentId, message_id, tuple(uses), tuple(results), tuple(server),
                 tuple(blocks), None, None, False, source, agent_result, hash(text.strip()), compact,
                 bool(record.isMeta), api_error, tuple(names), segment, record.timestamp)


def _segment(metadata: Any) -> tuple[str, str, str] | None:
    segment = metadata.get("preservedSegment") if isinstance(metadata, dict) else None
    if not isinstance(segment, dict):
        return None
    head, anchor, tail = (segment.get(key) for key in ("headUuid", "anchorUuid", "tailUuid"))
    if isinstance(head, str) and isinstance(anchor, str) and isinstance(tail, str):
        return head, anchor, tail
    return None


def _has_parent(text: str) -> bool:
    return '"parentUuid"' in text


def _agent_of(raw: msgspec.Raw) -> str | None:
    if b'"agentId"' not in bytes(raw):
        return None
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    agent = value.get("agentId") if isinstance(value, dict) else None
    return agent if isinstance(agent, str) else None


def _blocks(content: list[Any], uses: list[str], results: list[str], server: list[str], blocks: list[str],
            names: list[str], state: LineState) -> None:
    for block in content:
        tag = block.__struct_config__.tag
        blocks.append(tag)
        if isinstance(block, s.ToolUse | s.ServerToolUse):
            uses.append(block.id)
            names.append(state.shared(block.name))
        elif isinstance(block, s.ToolResult):
            results.append(block.tool_use_id)
        elif isinstance(block, s.WebSearchToolResult | s.WebFetchToolResult | s.CodeExecutionToolResult):
            server.append(block.tool_use_id)


def of_object(obj: dict[str, Any], text: str) -> Facts:
    """The facts of a record that does not fit the schema, read as far as its values allow: its links still count
    for the chain Claude Code builds."""
    def string(value: Any) -> str | None:
        return value if isinstance(value, str) else None

    tag = string(obj.get("type")) or ""
    message = obj.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    uses: list[str] = []
    results: list[str] = []
    blocks: list[str] = []
    if isinstance(content, list):
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = string(block.get("type")) or ""
            blocks.append(kind)
            if kind in ("tool_use", "server_tool_use") and isinstance(block.get("id"), str):
                uses.append(block["id"])
            elif kind == "tool_result" and isinstance(block.get("tool_use_id"), str):
                results.append(block["tool_use_id"])
    attachment = obj.get("attachment")
    subtype = string(obj.get("subtype")) or (string(attachment.get("type")) if isinstance(attachment, dict) else None)
    return Facts(tag, string(obj.get("uuid")), string(obj.get("parentUuid")), "parentUuid" in obj,
                 string(obj.get("logicalParentUuid")), subtype, obj.get("isSidechain") is True,
                 string(obj.get("sessionId")), string(obj.get("agentId")),
                 string(message.get("id")) if isinstance(message, dict) and tag == "assistant" else None,
                 tuple(uses), tuple(results), (), tuple(blocks), string(obj.get("leafUuid")),
                 string(obj.get("messageId")) if tag == "file-history-snapshot" else None,
                 obj.get("isSnapshotUpdate") is True, string(obj.get("sourceToolAssistantUUID")), None,
                 hash(text.strip()), obj.get("isCompactSummary") is True, obj.get("isMeta") is True,
                 obj.get("isApiErrorMessage") is True, (), None, string(obj.get("timestamp")))
