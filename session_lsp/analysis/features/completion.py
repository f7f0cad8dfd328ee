"""Completion while writing a session line by hand: keys of the object at hand (schema-driven, required first),
tag and enum values, ids for reference fields, and on an empty line a snippet for a whole new entry/record.

The cursor context comes from `jsonprefix` (it reads the half-typed text before the cursor); the members of the
line after the cursor are added from a `jsonscan` pass so a tag written later still resolves. Everything looks at
this line and a bounded stretch of the model: no request scans the file.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec
from msgspec import inspect as mi

from .. import jsonscan
from ..detect import Kind
from ..diagnostics import Span
from ..document import Document
from ..lines import is_blank
from . import schemas, snippets
from .jsonprefix import Slot, Where, where
from .types import CompletionItem
from .values import reference_values


def completions(doc: Document, line: int, col: int, now: datetime | str) -> list[CompletionItem]:
    if not 0 <= line < len(doc.lines):
        return []
    text = doc.lines[line]
    if doc.format.kind is Kind.UNKNOWN:
        return snippets.first_line_items(doc, line, now) if all(map(is_blank, doc.lines)) else []
    col = min(max(col, 0), len(text))
    if is_blank(text):
        return snippets.new_line_items(doc, line, col, now)
    found = where(text, col)
    if found is None:
        return []
    levels = _levels(text, found)
    if found.slot is Slot.KEY:
        return _keys(doc, text, line, col, found, levels)
    if found.slot is Slot.VALUE:
        return _values(doc, text, line, col, found, levels)
    return []


def _levels(text: str, found: Where) -> list[dict[str, Any]]:
    """Scalar members of each container on the path: those read before the cursor, plus any the complete part of
    the line has after it."""
    root = jsonscan.scan(text)
    out: list[dict[str, Any]] = []
    for depth, known in enumerate(found.levels):
        merged = dict(known)
        node = jsonscan.find(root, found.container[:depth]) if root is not None else None
        for key, _, _, value in (node.members or ()) if node is not None else ():
            if value.kind == "string" and key not in merged:
                merged[key] = jsonscan.string_value(text, value)
        out.append(merged)
    return out


def _present_keys(text: str, found: Where) -> set[str]:
    root = jsonscan.scan(text)
    node = jsonscan.find(root, found.container) if root is not None else None
    keys = {key for key, *_ in (node.members or ())} if node is not None else set()
    return keys | set(found.levels[-1])


def _token_end(text: str, found: Where, col: int) -> int:
    """Where the token under the cursor ends (the whole string, quotes included, or the bare word)."""
    if found.in_string:
        match = jsonscan.STRING.match(text, found.token_start)
        return match.end() if match is not None else col
    end = col
    while end < len(text) and text[end] not in ' \t\r,:]}{["':
        end += 1
    return end


def _keys(doc: Document, text: str, line: int, col: int, found: Where,
          levels: list[dict[str, Any]]) -> list[CompletionItem]:
    container = schemas.type_at(doc.face, found.container, levels)
    if container is None:
        return []
    struct = schemas.pick_struct(container, levels[-1])
    if struct is not None:
        fields = schemas.fields_at(doc.face, doc.format.version, found.container, struct)
    else:
        tagged = schemas.tag_values(container)
        if tagged is None:
            return []
        fields = [schemas.FieldInfo(tagged[0], None, True)]
    present = _present_keys(text, found)
    typed = found.prefix if found.in_string else ""
    end = _token_end(text, found, col)
    rest = text[end:].lstrip()
    has_colon = rest.startswith(":")
    span = Span(line, found.token_start, line, end)
    out: list[CompletionItem] = []
    for rank, field in enumerate(fields):
        if field.name in present and field.name != typed:
            continue
        quoted = msgspec.json.encode(field.name).decode()
        insert = quoted if has_colon else f"{quoted}: {snippets.placeholder(field.type)}"
        need = "required" if field.required else "optional"
        out.append(CompletionItem(
            label=field.name, kind="field", detail=f"{schemas.type_name(field.type)} ({need})",
            insert_text=insert, edit_span=span, is_snippet=not has_colon,
            sort_text=f"{0 if field.required else 1}{rank:03d}", filter_text=quoted,
        ))
    return out


def _values(doc: Document, text: str, line: int, col: int, found: Where,
            levels: list[dict[str, Any]]) -> list[CompletionItem]:
    face = doc.face
    end = _token_end(text, found, col)
    span = Span(line, found.token_start, line, end)
    out: list[CompletionItem] = []
    container = schemas.type_at(face, found.container, levels)
    tagged = schemas.tag_values(container) if container is not None and found.key is not None else None
    if tagged is not None and tagged[0] == found.key:
        for struct in tagged[1]:
            if not _flagged(doc, line, found.container, found.key, struct.tag, levels):
                detail = _variant_detail(struct) + face.unknown_to_target(found.container, found.key, struct.tag,
                                                                          doc.options)
                out.append(_value_item(struct.tag, "enum_member", detail, span, len(out)))
        return out
    if found.key is not None:
        for value, detail in reference_values(doc, line, found.key, levels):
            out.append(_value_item(value, "reference", detail, span, len(out)))
    declared = schemas.type_at(face, found.value_path, levels)
    for value in schemas.enum_values(declared) if declared is not None else ():
        if _flagged(doc, line, found.container, found.key, value, levels):
            continue
        out.append(_value_item(value, "enum_member", schemas.type_name(declared), span, len(out)))
    for value, detail in face.known_values(found.key, doc.options) if found.key is not None else ():
        out.append(_value_item(value, "value", detail, span, len(out)))
    return out


def _flagged(doc: Document, line: int, container: jsonscan.Path, key: str | None, value: Any,
             levels: list[dict[str, Any]]) -> bool:
    """Values the schema allows but the checker flags where the cursor is (a second header, a status a record
    cannot have, ...), so completion does not offer them."""
    return doc.session.flagged(line, container, key, value, levels)


def _variant_detail(struct: mi.StructType) -> str:
    required = [f.encode_name for f in struct.fields if f.required]
    return "fields: " + (", ".join(required) if required else "none required")


def _value_item(value: Any, kind: str, detail: str, span: Span, rank: int) -> CompletionItem:
    encoded = msgspec.json.encode(value).decode()
    label = value if isinstance(value, str) else encoded
    return CompletionItem(label=label, kind=kind, detail=detail, insert_text=encoded, edit_span=span,
                          sort_text=f"{rank:05d}", filter_text=encoded)
