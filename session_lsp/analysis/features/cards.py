"""The short markdown card that describes one entry or record: what it is, when, what it says, where it sits."""

from __future__ import annotations

from typing import Any

from .. import jsonscan
from ..detect import Kind
from ..document import Document
from ..jsonscan import Path
from . import excerpt
from .views import child_count, elyra_view, entry_label, thndrs_model


def levels_of(doc: Document, line: int, path: Path) -> list[dict[str, Any]]:
    """The string members of each object from the line's root down to `path` (they resolve tagged unions)."""
    text = doc.lines[line]
    root = jsonscan.scan(text, doc.results[line].parts[0] if doc.results[line].parts else 0)
    out: list[dict[str, Any]] = []
    for depth in range(len(path) + 1):
        node = jsonscan.find(root, path[:depth]) if root is not None else None
        out.append({key: jsonscan.string_value(text, value) for key, _, _, value in (node.members or ())
                    if value.kind == "string"} if node is not None else {})
    return out


def card(doc: Document, line: int, incoming: bool = False) -> str:
    """`incoming`: also say how many lines refer to this one (the hovered line is the declaration)."""
    if not 0 <= line < len(doc.lines):
        return ""
    obj = excerpt.record(doc.lines[line]) or {}
    if doc.format.kind is Kind.ELYRA:
        rows = _elyra_rows(doc, line, obj)
    elif doc.format.kind is Kind.THNDRS:
        rows = _thndrs_rows(doc, line, obj)
    else:
        rows = []
    if incoming:
        model = doc.linked.model
        count = len(model.references_to(line)) if model is not None and hasattr(model, "references_to") else 0
        rows.append(f"referenced by {count} line{'s' if count != 1 else ''}")
    text = excerpt.entry_text(obj)
    body = "\n".join(f"- {row}" for row in rows)
    quote = f"\n\n> {excerpt.first_line(text)}" if text and excerpt.first_line(text) else ""
    return f"**{_heading(doc, line, obj)}** (line {line + 1})\n\n{body}{quote}"


def _heading(doc: Document, line: int, obj: dict[str, Any]) -> str:
    kind = obj.get("type")
    message = obj.get("message")
    if isinstance(message, dict) and isinstance(message.get("role"), str):
        return f"{kind} · {message['role']}"
    return str(kind) if isinstance(kind, str) else doc.results[line].title or "line"


def _elyra_rows(doc: Document, line: int, obj: dict[str, Any]) -> list[str]:
    rows: list[str] = []
    if isinstance(obj.get("id"), str):
        rows.append(f"id `{obj['id']}`")
    if isinstance(obj.get("timestamp"), str):
        rows.append(f"time {obj['timestamp']}")
    view = elyra_view(doc)
    if view is None:
        return rows
    if not view.is_entry(line):
        return rows
    depth = view.depth(line)
    if depth is not None:
        rows.append(f"depth {depth}")
    children = child_count(view, line)
    rows.append(f"{children} child{'ren' if children != 1 else ''}" + (" (a branch point)" if children > 1 else ""))
    if view.leaf == line:
        rows.append("**the leaf**: the last entry, where pi resumes")
    elif line in view.active_path:
        rows.append("on the active path (an ancestor of the leaf)")
    else:
        rows.append("not on the active path (pi does not send it as context)")
    label = entry_label(view, line)
    if label:
        rows.append(f"label **{label}**")
    return rows


def _thndrs_rows(doc: Document, line: int, obj: dict[str, Any]) -> list[str]:
    rows: list[str] = []
    for key, shown in (("seq", "seq"), ("time", "time"), ("turn_id", "turn"), ("call_id", "call"),
                       ("name", "tool"), ("status", "status")):
        value = obj.get(key)
        if value is not None and not isinstance(value, (dict, list)):
            rows.append(f"{shown} `{value}`")
    model = thndrs_model(doc)
    turn_id = obj.get("turn_id")
    if model is not None and isinstance(turn_id, str) and turn_id in model.turns:
        turn = model.turns[turn_id]
        settled = "settled" if turn.closing is not None else "not settled (no closing record)"
        rows.append(f"turn has {len(turn.lines)} record{'s' if len(turn.lines) != 1 else ''}, {settled}")
    return rows


def tool_call_card(doc: Document, line: int, call_id: str) -> str:
    """The toolCall block with this id in the assistant entry on `line`, and the results that answer it; "" when
    the line has no such call."""
    view = elyra_view(doc)
    facts = view.facts(line) if view is not None else None
    call = next((c for c in getattr(facts, "tool_calls", ()) if c.id == call_id), None)
    if view is None or call is None:
        return ""
    results = view.tool_results(line, call.index)
    rows = [f"in the assistant message on line {line + 1}, content block {call.index}"]
    if results:
        rows.append("answered by line " + ", ".join(str(r + 1) for r in results))
    else:
        rows.append("no toolResult answers it on its path: before the next request pi inserts a synthetic "
                    "\"No result provided\" error result")
    return f"**tool call `{call.name or '?'}`** `{call_id}`\n\n" + "\n".join(f"- {row}" for row in rows)
