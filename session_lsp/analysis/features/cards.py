"""The short markdown card that describes one entry or record: what it is, when, what it says, where it sits."""

from __future__ import annotations

from typing import Any

from .. import excerpt, jsonscan
from ..document import Document
from ..jsonscan import Path


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
    model = doc.linked.model
    rows = doc.session.card_rows(line, obj)
    if incoming:
        count = len(model.references_to(line)) if model is not None else 0
        rows.append(f"referenced by {count} line{'s' if count != 1 else ''}")
    text = excerpt.entry_text(obj)
    body = "\n".join(f"- {row}" for row in rows)
    quote = f"\n\n> {excerpt.first_line(text)}" if text and excerpt.first_line(text) else ""
    return f"**{_heading(doc, line, obj)}** (line {line + 1})\n\n{body}{quote}"


def _heading(doc: Document, line: int, obj: dict[str, Any]) -> str:
    kind = obj.get("type")
    message = obj.get("message")
    if isinstance(message, dict) and isinstance(message.get("role"), str) and message["role"] != kind:
        return f"{kind} · {message['role']}"
    return str(kind) if isinstance(kind, str) else doc.title(line) or "line"


def tool_call_card(doc: Document, line: int, call_id: str) -> str:
    """The card of the call with this id that the line makes (an Elyra toolCall block, with the results that
    answer it); "" when the line has no such call."""
    found = doc.session.call_card(line, call_id)
    if found is None:
        return ""
    heading, rows = found
    return f"**{heading}** `{call_id}`\n\n" + "\n".join(f"- {row}" for row in rows)
