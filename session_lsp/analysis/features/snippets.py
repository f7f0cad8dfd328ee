"""Snippets: a placeholder for one value, and whole new lines (an Elyra entry, a thndrs record) built from the
schema's required fields, with the envelope filled in: a fresh id, the parent or sequence number the line above
implies, and the time the caller passed (the core reads no clock).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from msgspec import inspect as mi

from ..detect import Kind
from ..diagnostics import Span
from ..document import Document
from ..elyra.link_pass import id_in_file_name
from ..text import fresh_id as fresh_id
from ..thndrs.checks import SESSION_ID
from ..thndrs.link_pass import file_parts
from . import schemas
from .types import CompletionItem
from .values import elyra_parent_above, id_taken, open_elyra_calls, thndrs_context_above, unknown_to_target
from .views import thndrs_model


def escape(text: str) -> str:
    """Literal text inside an LSP snippet."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


class _Stops:
    def __init__(self) -> None:
        self.count = 0

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


def _value(t: mi.Type | None, stops: _Stops, depth: int = 0) -> str:
    """Snippet text for a value of type `t`: strings and choices become tab stops, objects get their required
    fields, everything else a neutral value."""
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
        return "{" + _literal(tagged[0]) + ':"' + stops.choice([str(s.tag) for s in tagged[1]]) + '"}'
    for member in kinds:
        if isinstance(member, mi.StrType):
            return '"' + stops.stop() + '"'
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
            order: tuple[str, ...] = ()) -> str:
    """`{...}` with the tag, then the keys in `order`, then the other required fields; `fixed` maps a key to the
    snippet text of its value."""
    fields = [f for f in schemas.fields_of(struct) if f.required]
    names = [f.name for f in fields]
    ordered = [n for n in names[:1] if struct.tag_field == n]
    ordered += [n for n in order if n in names or n in fixed]
    ordered += [n for n in names if n not in ordered]
    types = {f.name: f.type for f in fields}
    parts = []
    for name in dict.fromkeys(ordered):
        text = fixed[name] if name in fixed else _value(types.get(name), stops, depth)
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


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _millis(now: datetime) -> int:
    """Milliseconds since the epoch, exactly (no float): the same millisecond as `elyra_time(now)`."""
    return (now - _EPOCH) // timedelta(milliseconds=1)


def elyra_time(now: datetime) -> str:
    """`Date.prototype.toISOString()`: milliseconds and `Z`."""
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def thndrs_time(now: datetime) -> str:
    return now.strftime("%Y-%m-%dT%H:%M:%SZ")


def first_line_items(doc: Document, line: int, now: datetime | str) -> list[CompletionItem]:
    """A file with nothing in it yet: the line that makes it a session of either format, with the ids its name
    gives when it is named as the agent names its files (`<time>_<id>.jsonl`, `session-<date>-<time>.jsonl`)."""
    span = Span(line, 0, line, len(doc.lines[line]))
    when = _utc(now)
    out: list[CompletionItem] = []
    elyra = schemas.root_type(Kind.ELYRA)
    header = schemas.pick_struct(elyra, {"type": "session"}) if elyra is not None else None
    if header is not None:
        session_id = id_in_file_name(doc.options.path) or _uuid7(when)
        fixed = {"version": "3", "id": _literal(session_id), "timestamp": _literal(elyra_time(when))}
        text = _object(header, _Stops(), fixed, order=("version", "id", "timestamp"))
        out.append(_snippet("Elyra v3 session header", "first line of an Elyra (pi) session", text, span, 0))
    thndrs = schemas.root_type(Kind.THNDRS)
    meta = schemas.pick_struct(thndrs, {"type": "session_meta"}) if thndrs is not None else None
    if meta is not None:
        stem, _ = file_parts(doc.options.path)
        session_id = stem if stem and SESSION_ID.fullmatch(stem) else when.strftime("session-%Y%m%d-%H%M%S")
        fixed = {"schema_version": "1", "seq": "0", "time": _literal(thndrs_time(when)),
                 "session_id": _literal(session_id)}
        text = _object(meta, _Stops(), fixed, order=("type", "schema_version", "seq", "time", "session_id"))
        out.append(_snippet("thndrs session_meta record", "first line of a thndrs session", text, span, 1))
    return out


def _uuid7(now: datetime) -> str:
    """A UUID of version 7, as pi makes session ids: the time in milliseconds, then bits derived from it."""
    millis = _millis(now)
    rest = hashlib.sha256(str(millis).encode()).hexdigest()
    raw = f"{millis & (2 ** 48 - 1):012x}7{rest[:3]}{'89ab'[int(rest[3], 16) % 4]}{rest[4:19]}"
    return f"{raw[:8]}-{raw[8:12]}-{raw[12:16]}-{raw[16:20]}-{raw[20:]}"


def new_line_items(doc: Document, line: int, col: int, now: datetime | str) -> list[CompletionItem]:
    span = Span(line, 0, line, len(doc.lines[line]))
    when = _utc(now)
    if doc.format.kind is Kind.ELYRA:
        return _elyra_items(doc, line, span, when)
    if doc.format.kind is Kind.THNDRS:
        return _thndrs_items(doc, line, span, when)
    return []


_MESSAGE_ROLES = ("user", "assistant", "toolResult", "bashExecution", "custom", "system")
_ELYRA_ORDER = ("id", "parentId", "timestamp")


def _elyra_items(doc: Document, line: int, span: Span, now: datetime) -> list[CompletionItem]:
    root = schemas.root_type(Kind.ELYRA)
    if root is None:
        return []
    parent = elyra_parent_above(doc, line)
    entry_id = fresh_id(f"{elyra_time(now)}/{line}", lambda candidate: id_taken(doc, candidate))
    base = {"id": _literal(entry_id), "parentId": _literal(parent), "timestamp": _literal(elyra_time(now))}
    millis = _millis(now)
    calls = open_elyra_calls(doc, parent)
    out: list[CompletionItem] = []
    for struct in schemas.structs(root):
        if struct.tag == "session":
            continue
        if struct.tag == "message":
            field = schemas.field_named(struct, "message")
            for role in _MESSAGE_ROLES:
                variant = schemas.pick_struct(field.type, {"role": role}) if field is not None else None
                if variant is None:
                    continue
                stops = _Stops()
                fixed = {"timestamp": str(millis)}
                if role == "toolResult" and calls:
                    fixed.update(toolCallId=_literal(calls[0][0]), toolName=_literal(calls[0][1]))
                if role == "assistant":
                    fixed["content"] = '[{"type":"text","text":"' + stops.stop() + '"}]'
                message = _object(variant, stops, fixed)
                text = _object(struct, stops, {**base, "message": message}, order=_ELYRA_ORDER)
                detail = f"message entry, role {role}" + unknown_to_target(doc, ("message",), "role", role)
                out.append(_snippet(f"{role} message entry", detail, text, span, len(out)))
            continue
        text = _object(struct, _Stops(), base, order=_ELYRA_ORDER)
        detail = f"{struct.tag} entry" + unknown_to_target(doc, (), "type", struct.tag)
        out.append(_snippet(f"{struct.tag} entry", detail, text, span, len(out)))
    return out


def _thndrs_items(doc: Document, line: int, span: Span, now: datetime) -> list[CompletionItem]:
    root = schemas.root_type(Kind.THNDRS)
    if root is None:
        return []
    above = thndrs_context_above(doc, line)
    base = {"schema_version": "1", "seq": str(above.next_seq), "time": _literal(thndrs_time(now))}
    out: list[CompletionItem] = []
    for struct in schemas.structs(root):
        if struct.tag == "session_meta" and other_meta(doc, line):
            continue
        fixed = dict(base)
        names = {f.encode_name for f in struct.fields}
        if "turn_id" in names:
            turn = above.next_turn if struct.tag == "user" else above.turn
            if turn is not None:
                fixed["turn_id"] = _literal(turn)
        if struct.tag == "tool_finished" and above.open_calls:
            fixed["call_id"] = _literal(above.open_calls[-1])
        text = _object(struct, _Stops(), fixed, order=("type", "schema_version", "seq", "time", "turn_id"))
        out.append(_snippet(f"{struct.tag} record", f"{struct.tag} record, seq {above.next_seq}", text, span,
                            len(out)))
    return out


def other_meta(doc: Document, line: int) -> bool:
    """Whether a `session_meta` record other than the one on `line` exists: a second one is THN021."""
    model = thndrs_model(doc)
    return model is not None and any(meta != line for meta in model.metas)


def _snippet(label: str, detail: str, text: str, span: Span, rank: int) -> CompletionItem:
    return CompletionItem(label=label, kind="snippet", detail=detail, insert_text=text, edit_span=span,
                          is_snippet=True, sort_text=f"{rank:03d}", filter_text=label)
