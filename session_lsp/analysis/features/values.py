"""Values a reference field can take at a line, read from the line facts above it (a bounded walk) and the link
model: recent entry ids, open tool calls, the current turn."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from ..detect import Kind
from ..document import Document
from ..elyra.facts import EntryFacts
from ..elyra.releases import release
from ..jsonscan import Path
from ..thndrs.facts import RecordFacts
from .views import elyra_view

RECENT = 40
"""How many entries above the cursor reference completion offers."""
HORIZON = 5000
"""How far up a completion looks (lines) before giving up; keeps a request independent of file size."""

ELYRA_REFERENCE_FIELDS = ("parentId", "targetId", "fromId", "firstKeptEntryId")
_TURN_NUMBER = re.compile(r"(.*?)(\d+)\Z")


def _entry_facts(doc: Document, line: int) -> EntryFacts | None:
    facts = doc.results[line].facts
    return facts if isinstance(facts, EntryFacts) else None


def elyra_parent_above(doc: Document, line: int) -> str | None:
    """The id of the nearest entry above `line`: what pi would make the parent of a line appended there."""
    for number in range(line - 1, max(-1, line - 1 - HORIZON), -1):
        facts = _entry_facts(doc, number)
        if facts is not None and facts.id is not None:
            return facts.id
    return None


def id_taken(doc: Document, candidate: str) -> bool:
    view = elyra_view(doc)
    return view is not None and candidate in view.by_id


def _recent_ids(doc: Document, line: int) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for number in range(line - 1, max(-1, line - 1 - HORIZON), -1):
        facts = _entry_facts(doc, number)
        if facts is None or facts.id is None or facts.id in seen:
            continue
        seen.add(facts.id)
        out.append((facts.id, f"line {number + 1}: {doc.results[number].title}"))
        if len(out) >= RECENT:
            break
    return out


def open_elyra_calls(doc: Document, parent_id: str | None) -> list[tuple[str, str, int]]:
    """(call id, tool name, line) of the tool calls on the path from the entry `parent_id` up that no result
    answers yet, nearest first; the walk stops at a user message (pi answers calls left open before one itself)."""
    view = elyra_view(doc)
    if view is None:
        return []
    current = view.by_id.get(parent_id) if parent_id is not None else None
    answered: set[str] = set()
    out: list[tuple[str, str, int]] = []
    steps = 0
    while current is not None and steps < HORIZON:
        facts = _entry_facts(doc, current)
        if facts is None:
            break
        if facts.role == "toolResult" and facts.tool_call_id is not None:
            answered.add(facts.tool_call_id)
        for call in facts.tool_calls:
            if call.id not in answered:
                out.append((call.id, call.name or "", current))
        if facts.role == "user":
            break
        current = view.parent(current)
        steps += 1
    return out


class ThndrsAbove(msgspec.Struct):
    next_seq: int = 0
    turn: str | None = None
    next_turn: str | None = None
    open_calls: list[str] = []
    open_requests: list[str] = []
    running: list[int] = []


def _record_facts(doc: Document, line: int) -> RecordFacts | None:
    facts = doc.results[line].facts
    return facts if isinstance(facts, RecordFacts) else None


def thndrs_context_above(doc: Document, line: int) -> ThndrsAbove:
    """What a record written at `line` continues: the next seq, the current turn, its open calls."""
    above = ThndrsAbove(open_calls=[], open_requests=[], running=[])
    seq_found = False
    finished: set[str] = set()
    outcomes: set[str] = set()
    terminated: set[int] = set()
    in_turn = True
    for number in range(line - 1, max(-1, line - 1 - HORIZON), -1):
        facts = _record_facts(doc, number)
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


def reference_values(doc: Document, line: int, key: str, levels: list[dict[str, Any]]) -> list[tuple[Any, str]]:
    """(value, detail) pairs for the reference field `key` being written on `line`."""
    if doc.format.kind is Kind.ELYRA:
        if key in ELYRA_REFERENCE_FIELDS:
            extra = [("root", "the branch started before the first entry")] if key == "fromId" else []
            return [*_recent_ids(doc, line), *extra]
        if key == "toolCallId":
            root = levels[0] if levels else {}
            parent = root.get("parentId") if isinstance(root.get("parentId"), str) else elyra_parent_above(doc, line)
            return [(call_id, f"open {name or 'tool'} call on line {where + 1}")
                    for call_id, name, where in open_elyra_calls(doc, parent)]
        return []
    if doc.format.kind is not Kind.THNDRS:
        return []
    above = thndrs_context_above(doc, line)
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


def unknown_to_target(doc: Document, container: Path, key: str | int | None, value: object) -> str:
    """A note for an entry type or message role the targeted pi does not know (pi 0.73 and `usage`): offered,
    since the file may be for a newer pi, but marked."""
    if doc.format.kind is not Kind.ELYRA:
        return ""
    target = release(doc.options.pi_version)
    if container == () and key == "type" and value in target.unknown_entry_types:
        return f" ({target.name} ignores it: pi 1.x's)"
    if container == ("message",) and key == "role" and value in target.unknown_roles:
        return f" ({target.name} ignores it: pi 1.x's)"
    return ""
