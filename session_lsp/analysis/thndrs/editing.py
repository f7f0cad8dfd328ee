"""What an editor writing a thndrs file by hand is offered: what a record at the cursor continues (the next seq,
the current turn, its open calls, read from the line facts above), the values thndrs writes in plain string
fields, and whole new records."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from ..editing import HORIZON, Choice, LineTemplate, ObjectTemplate
from ..jsonscan import Path
from ..results import LineResult
from .checks import SESSION_ID, file_parts
from .facts import RecordFacts
from .model import ThndrsModel
from .sample import timestamp
from .schema import RECORD_TYPES

SHELL_KINDS = ("one-shot", "background")
QUEUE_KINDS = ("steering", "follow-up")
KNOWN: dict[str, tuple[tuple[str, ...], str]] = {
    "process_status": (("ok", "failed", "timeout", "cancelled", "running"), "process status"),
    "kind": ((*SHELL_KINDS, *QUEUE_KINDS), "kind"),
}
"""String fields the schema types as plain `str` although thndrs writes only these values (spec §2.4)."""

_KINDS = {"shell_exec": SHELL_KINDS, "queued_input": QUEUE_KINDS}
_TURN_NUMBER = re.compile(r"(.*?)(\d+)\Z")
_ORDER = ("type", "schema_version", "seq", "time", "turn_id")
_WITH_TURN = frozenset(tag for tag, cls in RECORD_TYPES.items()
                       if "turn_id" in {field.encode_name for field in msgspec.structs.fields(cls)})


class Above(msgspec.Struct):
    next_seq: int = 0
    turn: str | None = None
    next_turn: str | None = None
    open_calls: list[str] = []
    open_requests: list[str] = []
    running: list[int] = []


def _record_facts(results: Sequence[LineResult], line: int) -> RecordFacts | None:
    facts = results[line].facts
    return facts if isinstance(facts, RecordFacts) else None


def context_above(results: Sequence[LineResult], line: int) -> Above:
    """What a record written at `line` continues: the next seq, the current turn, its open calls."""
    above = Above(open_calls=[], open_requests=[], running=[])
    seq_found = False
    finished: set[str] = set()
    outcomes: set[str] = set()
    terminated: set[int] = set()
    in_turn = True
    for number in range(line - 1, max(-1, line - 1 - HORIZON), -1):
        facts = _record_facts(results, number)
        if facts is None:
            continue
        if not seq_found and facts.seq is not None:
            above.next_seq, seq_found = facts.seq + 1, True
        if above.turn is None and facts.turn_id is not None:
            above.turn = facts.turn_id
        if in_turn and above.turn is not None and facts.turn_id == above.turn and facts.call_id is not None:
            if facts.type == "tool_finished":
                finished.add(facts.call_id)
            elif facts.type == "tool_started" and facts.call_id not in finished:
                above.open_calls.insert(0, facts.call_id)
        if facts.type == "user" and above.turn is not None and facts.turn_id == above.turn:
            in_turn = False
        if facts.tool_call_id is not None:
            if facts.type == "acp_permission_outcome":
                outcomes.add(facts.tool_call_id)
            elif facts.type == "acp_permission_request" and facts.tool_call_id not in outcomes:
                above.open_requests.insert(0, facts.tool_call_id)
        if facts.type == "shell_exec" and facts.process_id is not None:
            if facts.process_status != "running":
                terminated.add(facts.process_id)
            elif facts.process_id not in terminated:
                above.running.insert(0, facts.process_id)
    if above.turn is not None:
        match = _TURN_NUMBER.match(above.turn)
        if match is not None:
            above.next_turn = f"{match.group(1)}{int(match.group(2)) + 1}"
    return above


def reference_values(results: Sequence[LineResult], model: ThndrsModel, line: int, key: str,
                     levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
    if key == "local_session_id":
        session = model.session_id
        return [(session, "this session's id (the writer copies its own)")] if session is not None else []
    if key == "recovery_handle":
        handles = model.handles.items()
        return [(handle, f"recovery handle of the compaction on line {where + 1}")
                for handle, where in sorted(handles, key=lambda item: -item[1]) if where < line]
    above = context_above(results, line)
    record_type = levels[0].get("type") if levels else None
    if key == "turn_id":
        out: list[tuple[Any, str]] = []
        if above.turn is not None:
            out.append((above.turn, "the current turn"))
        if above.next_turn is not None and record_type in (None, "user"):
            out.append((above.next_turn, "a new turn"))
        return out
    if key == "call_id":
        return [(call, f"open tool call in {above.turn}") for call in above.open_calls]
    if key == "tool_call_id":
        return [(request, "permission request without an outcome") for request in above.open_requests]
    if key == "process_id":
        return [(pid, "background process still running") for pid in above.running]
    return []


def known_values(key: str) -> list[tuple[str, str]]:
    values, detail = KNOWN.get(key, ((), ""))
    return [(value, detail) for value in values]


def other_meta(model: ThndrsModel, line: int) -> bool:
    """Whether a `session_meta` record other than the one on `line` exists: a second one is THN021."""
    return any(meta != line for meta in model.metas)


def flagged(model: ThndrsModel, line: int, container: Path, key: str | None, value: Any,
            levels: Sequence[dict[str, Any]]) -> bool:
    """A second `session_meta` (THN021), and status `Running` in a `tool_finished` record (THN045)."""
    if container != ():
        return False
    if key == "type" and value == "session_meta":
        return other_meta(model, line)
    if key == "status" and value == "Running":
        return bool(levels) and levels[0].get("type") == "tool_finished"
    return False


def session_id_in_file_name(path: str | None) -> str | None:
    """The session id in a file name thndrs chose (`session-<date>-<time>.jsonl`), else None."""
    stem, _ = file_parts(path)
    return stem if stem and SESSION_ID.fullmatch(stem) else None


def first_line(now: datetime, session_id: str | None) -> LineTemplate:
    """A `session_meta` record, with the session id the file's name gives (else one made of the time)."""
    fixed = {"schema_version": 1, "seq": 0, "time": timestamp(now),
             "session_id": session_id or now.strftime("session-%Y%m%d-%H%M%S")}
    meta = ObjectTemplate({"type": "session_meta"}, fixed, ("type", "schema_version", "seq", "time", "session_id"))
    return LineTemplate("thndrs session_meta record", "first line of a thndrs session", meta)


def new_lines(results: Sequence[LineResult], model: ThndrsModel, line: int, now: datetime) -> list[LineTemplate]:
    """Every record type as thndrs would append it at `line`: the next seq, the current turn (a new one for a
    `user` record), and for a `tool_finished` the turn's last open call."""
    above = context_above(results, line)
    base: dict[str, Any] = {"schema_version": 1, "seq": above.next_seq, "time": timestamp(now)}
    out: list[LineTemplate] = []
    for tag in RECORD_TYPES:
        if tag == "session_meta" and other_meta(model, line):
            continue
        fixed = dict(base)
        if tag in _WITH_TURN:
            turn = above.next_turn if tag == "user" else above.turn
            if turn is not None:
                fixed["turn_id"] = turn
        if tag == "tool_finished" and above.open_calls:
            fixed["call_id"] = above.open_calls[-1]
        if tag in _KINDS:  # one key, two sets of values: the record's own
            fixed["kind"] = Choice(_KINDS[tag])
        record = ObjectTemplate({"type": tag}, fixed, _ORDER)
        out.append(LineTemplate(f"{tag} record", f"{tag} record, seq {above.next_seq}", record))
    return out
