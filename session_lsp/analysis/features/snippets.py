"""Snippets: a placeholder for one value, and whole new lines built from the schema's required fields around what
the format fixes (`editing.LineTemplate`: a fresh id, the parent or sequence number the line above implies, and
the time the caller passed; the core reads no clock).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import msgspec
from msgspec import inspect as mi

from ..diagnostics import Span
from ..document import Document
from ..editing import Choice, FreshId, ObjectTemplate, Stop
from ..formats import FORMATS, Format, Session
from ..text import fresh_id
from . import schemas
from .types import CompletionItem


def escape(text: str) -> str:
    """Literal text inside an LSP snippet."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


Suggest = Callable[[str], list[str]]
"""The values to offer for a string field, by its key: what the agent writes there, and what a reference field can
name from where the line goes (the first is the default a snippet accepted as it is keeps)."""


class _Stops:
    def __init__(self, suggest: Suggest | None = None) -> None:
        self.count = 0
        self.suggest = suggest

    def stop(self, default: str = "") -> str:
        self.count += 1
        return f"${{{self.count}:{escape(default)}}}" if default else f"${self.count}"

    def choice(self, values: list[str]) -> str:
        self.count += 1
        escaped = [v.replace("\\", "\\\\").replace(",", "\\,").replace("|", "\\|").replace("$", "\\$") for v in values]
        return f"${{{self.count}|{','.join(escaped)}|}}"


def _json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _literal(value: Any) -> str:
    """A JSON value as literal snippet text."""
    return escape(_json(value))


def _value(t: mi.Type | None, stops: _Stops, depth: int = 0, key: str | None = None) -> str:
    """Snippet text for a value of type `t` (of the field `key`): strings and choices become tab stops (a string
    the format suggests values for, a choice of them), objects get their required fields (a tagged union: its first
    variant's), everything else a neutral value."""
    if t is None:
        return stops.stop("null")
    kinds = schemas.members(t)
    literals = [value for member in kinds if isinstance(member, mi.LiteralType) for value in member.values]
    if len(literals) == 1:
        return _literal(literals[0])
    if literals and all(isinstance(value, str) for value in literals):
        return '"' + stops.choice([str(value) for value in literals]) + '"'
    tagged = schemas.tag_values(t)
    if tagged is not None:
        if depth < 4:
            return _object(tagged[1][0], stops, {}, depth + 1)
        return "{" + _literal(tagged[0]) + ':"' + stops.choice([str(s.tag) for s in tagged[1]]) + '"}'
    for member in kinds:
        if isinstance(member, mi.StrType):
            suggested = stops.suggest(key) if stops.suggest is not None and key is not None else []
            return '"' + (stops.choice(suggested) if suggested else stops.stop()) + '"'
    for member in kinds:
        if isinstance(member, mi.BoolType):
            return stops.choice(["false", "true"])
        if isinstance(member, (mi.IntType, mi.FloatType)):
            return stops.stop("0")
        if isinstance(member, (mi.ListType, mi.VarTupleType)):
            return "[" + stops.stop() + "]"
        if isinstance(member, mi.StructType) and depth < 4:
            return _object(member, stops, {}, depth + 1)
        if isinstance(member, mi.DictType):
            return "{" + stops.stop() + "}"
    return stops.stop("null")


def _object(struct: mi.StructType, stops: _Stops, fixed: Mapping[str, str], depth: int = 0,
            order: tuple[str, ...] = (), fields: list[schemas.FieldInfo] | None = None) -> str:
    """`{...}` with the tag, then the keys in `order`, then the other required fields (of `fields`, when the
    format requires more than the schema); `fixed` maps a key to the snippet text of its value."""
    fields = [f for f in (fields if fields is not None else schemas.fields_of(struct)) if f.required]
    names = [f.name for f in fields]
    ordered = [n for n in names[:1] if struct.tag_field == n]
    ordered += [n for n in order if n in names or n in fixed]
    ordered += [n for n in names if n not in ordered]
    types = {f.name: f.type for f in fields}
    parts = []
    for name in dict.fromkeys(ordered):
        text = fixed[name] if name in fixed else _value(types.get(name), stops, depth, name)
        parts.append(f"{_literal(name)}:{text}")
    return "{" + ",".join(parts) + "}"


def placeholder(t: mi.Type | None) -> str:
    """The value part of a `"key": value` completion."""
    return _value(t, _Stops())


def _utc(now: datetime | str) -> datetime:
    if isinstance(now, str):
        try:
            now = datetime.fromisoformat(now.replace("Z", "+00:00"))
        except ValueError:
            now = datetime(1970, 1, 1, tzinfo=UTC)
    return now.replace(tzinfo=UTC) if now.tzinfo is None else now.astimezone(UTC)




def first_line_items(doc: Document, line: int, now: datetime | str) -> list[CompletionItem]:
    """A file with nothing in it yet: the line that makes it a session of each format, with the ids its name
    gives when it is named as the agent names its files."""
    span = Span(line, 0, line, len(doc.lines[line]))
    when = _utc(now)
    out: list[CompletionItem] = []
    for face in FORMATS.values():
        template = face.first_line(when, doc.options.path)
        root = schemas.root_type(face)
        known = _suggest(face, None, doc, None, line)
        text = _line(template.line, root, lambda _: False, known) if template is not None and root is not None \
            else None
        if template is not None and text is not None:
            out.append(_snippet(template.label, template.detail, text, span, len(out)))
    return out


def new_line_items(doc: Document, line: int, col: int, now: datetime | str) -> list[CompletionItem]:
    span = Span(line, 0, line, len(doc.lines[line]))
    face, session = doc.face, doc.session
    root = schemas.root_type(face)
    if root is None:
        return []
    out: list[CompletionItem] = []
    for template in session.new_lines(doc.results, line, _utc(now)):
        text = _line(template.line, root, session.id_in_use, _suggest(face, session, doc, template.line, line), face,
                     doc.format.version)
        if text is not None:
            out.append(_snippet(template.label, template.detail, text, span, len(out)))
    return out


def _suggest(face: Format, session: Session | None, doc: Document, template: ObjectTemplate | None,
             line: int) -> Suggest:
    """What a line template's string fields offer: the values a reference can name from `line` (the nearest
    first; `session`: the document's, for a template of its own format), then the values the agent writes in that
    key."""
    level: dict[str, Any] = dict(template.tags) if template is not None else {}
    if template is not None:
        level.update((key, value) for key, value in template.fixed.items() if isinstance(value, str | int | None))

    def suggest(key: str) -> list[str]:
        found = [value for value, _ in session.reference_values(doc.titled, line, key, [level])] \
            if session is not None and template is not None else []
        found += [value for value, _ in face.known_values(key, doc.options)]
        return [value for value in dict.fromkeys(found) if isinstance(value, str)]
    return suggest


def _line(template: ObjectTemplate, t: mi.Type, taken: Callable[[str], bool], suggest: Suggest,
          face: Format | None = None, version: int | None = None) -> str | None:
    """The snippet text of a template for a value of type `t` (None when `t` has no such variant), with the
    fields the format requires in a file of this version (`face`) although the schema leaves them optional."""
    return _filled(template, t, _Stops(suggest), taken, face, version)


def _filled(template: ObjectTemplate, t: mi.Type | None, stops: _Stops, taken: Callable[[str], bool],
            face: Format | None = None, version: int | None = None) -> str | None:
    struct = schemas.pick_struct(t, template.tags) if t is not None else None
    if struct is None:
        return None
    fixed: dict[str, str] = {}
    for key, value in template.fixed.items():
        if isinstance(value, ObjectTemplate):
            field = schemas.field_named(struct, key)
            text = _filled(value, field.type if field is not None else None, stops, taken)
            if text is None:
                return None
            fixed[key] = text
        else:
            fixed[key] = _fixed(value, stops, taken)
    fields = schemas.fields_at(face, version, (), struct) if face is not None else None
    return _object(struct, stops, fixed, order=template.order, fields=fields)


def _fixed(value: Any, stops: _Stops, taken: Callable[[str], bool]) -> str:
    """Snippet text of a fixed JSON value: `Stop` becomes a tab stop in a string, `FreshId` an unused id."""
    if isinstance(value, Stop):
        return '"' + stops.stop() + '"'
    if isinstance(value, Choice):
        return '"' + stops.choice(list(value.values)) + '"'
    if isinstance(value, FreshId):
        return _literal(fresh_id(value.seed, taken))
    if isinstance(value, dict):
        return "{" + ",".join(f"{_literal(k)}:{_fixed(v, stops, taken)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_fixed(item, stops, taken) for item in value) + "]"
    return _literal(value)


def _snippet(label: str, detail: str, text: str, span: Span, rank: int) -> CompletionItem:
    return CompletionItem(label=label, kind="snippet", detail=detail, insert_text=text, edit_span=span,
                          is_snippet=True, sort_text=f"{rank:03d}", filter_text=label)
