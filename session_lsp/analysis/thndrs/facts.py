"""What the link pass needs to know about one thndrs line, extracted by the line pass.

Facts are frozen and compared for equality: when an edit leaves a line's facts unchanged the link pass is skipped,
so everything a cross-line rule or the model reads is here, and nothing else (a record's text is not).
A field the record does not have, or has with the wrong JSON type, is None.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..forwarding import Forwarded
from ..text import LastSeen, Vocabulary
from . import schema as s
from .checks import TIME

TAG_OF: dict[type, str] = {cls: tag for tag, cls in s.RECORD_TYPES.items()}


class RecordSpecial(msgspec.Struct, frozen=True, gc=False):
    """What only a few record types carry (permissions, background shells, compactions, session identity). Kept
    apart, so that each of a large session's ordinary records holds one shared empty slot for them, not nine."""

    tool_call_id: str | None = None
    """acp_permission_request / acp_permission_outcome."""
    process_id: int | None = None
    process_status: str | None = None
    covered: tuple[int, int] | None = None
    """compaction: (covered_start_seq, covered_end_seq)."""
    recovery_handles: tuple[str, ...] = ()
    """compaction: audit.recovery_handles."""
    recovery_handle: str | None = None
    """compaction_review."""
    session_id: str | None = None
    """session_meta.session_id, acp_session.local_session_id."""
    title: str | None = None
    """session_meta / session_renamed title."""
    accounting_turn_id: str | None = None
    """request_accounting.accounting.turn_id."""


NO_SPECIAL = RecordSpecial()


class RecordFacts(msgspec.Struct, frozen=True, gc=False):
    """One JSON object line, whether or not thndrs 0.1.0 can read it. (Only atoms and tuples of atoms: no
    reference cycles, so the garbage collector need not track the 100,000 of a large file.)"""

    type: str | None
    valid: bool
    """True when the 0.1.0 reader keeps the record (it decodes; unknown keys are ignored)."""
    seq: int | None = None
    time: str | None = None
    """Only when written exactly as `YYYY-MM-DDTHH:MM:SSZ`, so that string order is time order."""
    schema_version: int | None = None
    turn_id: str | None = None
    call_id: str | None = None
    """tool_started / tool_finished."""
    status: str | None = None
    """tool_finished / file_write ToolStatus."""
    special: RecordSpecial = NO_SPECIAL

    tool_call_id = Forwarded[str | None]()
    process_id = Forwarded[int | None]()
    process_status = Forwarded[str | None]()
    covered = Forwarded[tuple[int, int] | None]()
    recovery_handles = Forwarded[tuple[str, ...]]()
    recovery_handle = Forwarded[str | None]()
    session_id = Forwarded[str | None]()
    title = Forwarded[str | None]()
    accounting_turn_id = Forwarded[str | None]()


def _int(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None


def _str(value: Any) -> str | None:
    return value if type(value) is str else None


def _time(value: Any) -> str | None:
    return value if type(value) is str and TIME.fullmatch(value) is not None else None


_TURN_ONLY = frozenset({
    s.User, s.AssistantFinished, s.ReasoningFinished, s.PromptMetadataRecord, s.ContextLedger, s.Cancelled,
    s.Failed, s.McpConfigChanged,
})


class LineState:
    """What the line pass carries from one record to the next of one document: the turn_id and the time read last
    (a turn's records follow each other, often in the same second) and the document's `Vocabulary`; and whether
    lines get titles (`check` shows none, so it computes none). A document's analyzer owns one, so no two documents
    or threads share it."""

    __slots__ = ("shared", "time", "titles", "turn")

    def __init__(self, titles: bool = True) -> None:
        self.turn = LastSeen()
        self.time = LastSeen()
        self.shared = Vocabulary().shared
        self.titles = titles


def of_record(record: Any, time_ok: bool, state: LineState) -> RecordFacts:
    """Facts of a record thndrs reads, decoded into its Struct: every field already has its schema type."""
    cls = type(record)
    tag = TAG_OF[cls]
    turn, shared = state.turn, state.shared
    seq, version, time = record.seq, record.schema_version, state.time.again(record.time) if time_ok else None
    if cls in _TURN_ONLY:
        return RecordFacts(tag, True, seq, time, version, turn.again(record.turn_id))
    if cls is s.ToolStarted:
        return RecordFacts(tag, True, seq, time, version, turn.again(record.turn_id), shared(record.call_id))
    if cls is s.ToolFinished:
        return RecordFacts(tag, True, seq, time, version, turn.again(record.turn_id), shared(record.call_id),
                           record.status)
    if cls is s.FileWrite:
        return RecordFacts(tag, True, seq, time, version, turn.again(record.turn_id), status=record.status)
    if cls is s.ShellExec:
        return RecordFacts(tag, True, seq, time, version, turn.again(record.turn_id), special=RecordSpecial(
            process_id=record.process_id, process_status=record.process_status))
    if cls is s.AcpPermissionRequest or cls is s.AcpPermissionOutcome:
        return RecordFacts(tag, True, seq, time, version, turn.again(record.turn_id),
                           special=RecordSpecial(tool_call_id=record.tool_call_id))
    if cls is s.Compaction:
        audit = record.audit
        return RecordFacts(tag, True, seq, time, version, special=RecordSpecial(
            covered=(audit.covered_start_seq, audit.covered_end_seq), recovery_handles=tuple(audit.recovery_handles)))
    if cls is s.CompactionReview:
        return RecordFacts(tag, True, seq, time, version, special=RecordSpecial(recovery_handle=record.recovery_handle))
    if cls is s.SessionMeta:
        return RecordFacts(tag, True, seq, time, version,
                           special=RecordSpecial(session_id=record.session_id, title=record.title))
    if cls is s.SessionRenamed:
        return RecordFacts(tag, True, seq, time, version, special=RecordSpecial(title=record.title))
    if cls is s.AcpSession:
        return RecordFacts(tag, True, seq, time, version, special=RecordSpecial(session_id=record.local_session_id))
    if cls is s.RequestAccounting:
        return RecordFacts(tag, True, seq, time, version, record.turn_id,
                           special=RecordSpecial(accounting_turn_id=record.accounting.turn_id))
    return RecordFacts(tag, True, seq, time, version)


def of_object(obj: dict[str, Any]) -> RecordFacts:
    """Best-effort facts of an object line thndrs 0.1.0 drops (schema errors, unknown or other-build type): what
    is there with the right type, so one bad field does not also break seq, turn and pairing checks."""
    tag = _str(obj.get("type"))
    version = obj.get("schema_version")
    audit = obj.get("audit")
    covered = None
    handles: tuple[str, ...] = ()
    if tag == "compaction" and type(audit) is dict:
        start, end = _int(audit.get("covered_start_seq")), _int(audit.get("covered_end_seq"))
        covered = (start, end) if start is not None and end is not None else None
        raw = audit.get("recovery_handles")
        handles = tuple(h for h in raw if type(h) is str) if type(raw) is list else ()
    accounting = obj.get("accounting")
    session_key = "local_session_id" if tag == "acp_session" else "session_id" if tag == "session_meta" else None
    special = RecordSpecial(
        _str(obj.get("tool_call_id")) if tag in ("acp_permission_request", "acp_permission_outcome") else None,
        _int(obj.get("process_id")) if tag == "shell_exec" else None,
        _str(obj.get("process_status")) if tag == "shell_exec" else None,
        covered, handles,
        _str(obj.get("recovery_handle")) if tag == "compaction_review" else None,
        _str(obj.get(session_key)) if session_key is not None else None,
        _str(obj.get("title")) if tag in ("session_meta", "session_renamed") else None,
        _str(accounting.get("turn_id")) if tag == "request_accounting" and type(accounting) is dict else None,
    )
    return RecordFacts(
        tag, False, _int(obj.get("seq")), _time(obj.get("time")),
        version if type(version) is int else None,
        _str(obj.get("turn_id")),
        _str(obj.get("call_id")) if tag in ("tool_started", "tool_finished") else None,
        _str(obj.get("status")) if tag in ("tool_finished", "file_write") else None,
        NO_SPECIAL if special == NO_SPECIAL else special,
    )
