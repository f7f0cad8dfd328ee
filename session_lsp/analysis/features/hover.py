"""Hover: a card of the entry a reference names, what a `type`/`role` value means, or what happens to a
reference that names nothing. Reads the hovered line and the target line only."""

from __future__ import annotations

from ..detect import Kind
from ..document import Document
from ..registry import rule
from . import cards, schemas
from .cursor import Cursor, cursor_at, is_identity, reference_at
from .types import Hover

TAG_KEYS = ("type", "role")


def hover(doc: Document, line: int, col: int) -> Hover | None:
    if doc.format.kind is Kind.UNKNOWN:
        return None
    cursor = cursor_at(doc, line, col)
    if cursor is None:
        return None
    span = cursor.value_span or cursor.span
    linked = (doc.face.linked_file(cursor.field, cursor.value, doc.options)
              if cursor.field is not None and cursor.value is not None else None)
    if linked is not None and cursor.field is not None:
        return Hover(_file(doc, cursor.field, linked), span)
    reference = reference_at(doc, cursor)
    if reference is not None:
        if reference.target is None:
            return Hover(_dangling(doc, reference.line, reference.field, reference.value), span)
        call = cards.tool_call_card(doc, reference.target, reference.value)  # a result's call id: the call's card
        head = f"`{reference.field}` → line {reference.target + 1}"
        return Hover(head + "\n\n" + (call or cards.card(doc, reference.target)), span)
    if is_identity(doc, cursor):
        return Hover(cards.card(doc, line, incoming=True), span)
    if cursor.field == "id" and cursor.value is not None and len(cursor.path) > 1:
        call = cards.tool_call_card(doc, line, cursor.value)
        if call:
            return Hover(call, span)
    if cursor.field in TAG_KEYS and cursor.value is not None:
        text = _tag_card(doc, cursor)
        if text is not None:
            return Hover(text, cursor.value_span or cursor.span)
    return None


def _file(doc: Document, field: str, path: str) -> str:
    text = f"`{field}`: {doc.face.file_fields[field]}\n\n`{path}`"
    exists = doc.options.exists
    if exists is not None and not exists(path):
        text += "\n\nThis file does not exist: go to definition has nowhere to go."
    return text


def _dangling(doc: Document, line: int, field: str, value: str) -> str:
    what, code = doc.face.dangling(field, doc.results[line].facts)
    text = f"`{field}` **`{value}`** resolves to nothing: there is no {what} with this value."
    if code:
        found = rule(code)
        text += f"\n\nWhat {doc.face.agent} does then: {found.reason} ({code} {found.name})"
    return text


def _tag_card(doc: Document, cursor: Cursor) -> str | None:
    """What a `type`/`role` value means: the Struct it selects and that Struct's fields."""
    container = cursor.path[:-1]
    levels = cards.levels_of(doc, cursor.line, container)
    union = schemas.type_at(doc.face, container, levels)
    if union is None:
        return None
    tagged = schemas.tag_values(union)
    if tagged is None or tagged[0] != cursor.field:
        return None
    struct = next((s for s in tagged[1] if s.tag == cursor.value), None)
    if struct is None:
        known = ", ".join(f"`{s.tag}`" for s in tagged[1])
        return f"`{cursor.field}` **`{cursor.value}`** is not a known {cursor.field}. Known: {known}."
    doc_text = (struct.cls.__doc__ or "").strip()
    head = f"**{cursor.field} `{struct.tag}`**" + (f" — {doc_text.splitlines()[0]}" if doc_text else "")
    rows = [f"- `{f.name}`: {schemas.type_name(f.type)}, {'required' if f.required else 'optional'}"
            for f in schemas.fields_at(doc.face, doc.format.version, container, struct) if f.name != cursor.field]
    return head + "\n\n" + ("\n".join(rows) if rows else "no other fields")
