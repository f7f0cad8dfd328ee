"""A raw dict seen through the schema, for lines that failed the typed decode.

The semantic checks and the facts builder read attributes (`entry.parent_id`, `message.usage.total_tokens`) and
rely on the Struct contract: a value is either `UNSET` or of its declared type. `Loose` keeps that contract for
a dict: absent keys and values of the wrong JSON type read as `UNSET` (the schema walk has already reported the
type error), nested objects come back as `Loose` views of the struct their tag selects, and the tag itself
(`type`, `role`) reads raw when it is a string. So one set of checks serves both paths.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from msgspec import UNSET
from msgspec import inspect as mi

from . import schema

_TAGS = ("type", "role")


class Loose:
    __slots__ = ("_fields", "_raw")

    def __init__(self, raw: dict[str, Any], cls: type[msgspec.Struct] | None) -> None:
        self._raw = raw
        self._fields = _fields(cls) if cls is not None else {}

    def __getattr__(self, name: str) -> Any:
        if name in _TAGS:
            tag = self._raw.get(name, UNSET)
            return tag if isinstance(tag, str) else UNSET
        spec = self._fields.get(name)
        if spec is None or spec[0] not in self._raw:
            return UNSET
        return _view(self._raw[spec[0]], spec[1])

    def has(self, name: str) -> bool:
        """Whether the key is in the object at all, whatever its value."""
        spec = self._fields.get(name)
        return spec is not None and spec[0] in self._raw


def has(obj: Any, name: str) -> bool:
    """Whether `obj` (a Struct or a `Loose`) has the member, even with a value of the wrong type."""
    if isinstance(obj, Loose):
        return obj.has(name)
    return getattr(obj, name, UNSET) is not UNSET


NOTHING = Loose({}, None)
"""What a list item that is not an object reads as: every attribute UNSET."""


@cache
def _fields(cls: type[msgspec.Struct]) -> dict[str, tuple[str, mi.Type]]:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    return {field.name: (field.encode_name, field.type) for field in info.fields}


def _structs(t: mi.Type) -> list[mi.StructType]:
    if isinstance(t, mi.StructType):
        return [t]
    if isinstance(t, mi.UnionType):
        return [member for member in t.types if isinstance(member, mi.StructType)]
    return []


def _list_item(t: mi.Type) -> mi.Type | None:
    members = t.types if isinstance(t, mi.UnionType) else (t,)
    for member in members:
        if isinstance(member, mi.ListType):
            return member.item_type
    return None


def _view(value: Any, t: mi.Type) -> Any:
    if isinstance(value, dict):
        structs = _structs(t)
        if structs:
            return Loose(value, _pick(value, structs))
    elif isinstance(value, list):
        item = _list_item(t)
        if item is not None:
            if _structs(item):
                return [_view(entry, item) if isinstance(entry, dict) else NOTHING for entry in value]
            return value if all(_fits(entry, item) for entry in value) else UNSET
    return value if _fits(value, t) else UNSET


def _pick(value: dict[str, Any], structs: list[mi.StructType]) -> type[msgspec.Struct] | None:
    if len(structs) == 1 and structs[0].tag_field is None:
        return structs[0].cls
    tag = value.get(structs[0].tag_field or "")
    for struct in structs:
        if struct.tag == tag:
            return struct.cls
    return None


def _fits(value: Any, t: mi.Type) -> bool:
    """Whether a scalar (or plain container) value has the JSON type `t` asks for."""
    if isinstance(t, mi.AnyType):
        return True
    if isinstance(t, mi.UnionType):
        return any(_fits(value, member) for member in t.types)
    if isinstance(t, mi.StrType):
        return isinstance(value, str)
    if isinstance(t, mi.BoolType):
        return isinstance(value, bool)
    if isinstance(t, mi.IntType):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(t, mi.FloatType):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(t, mi.NoneType):
        return value is None
    if isinstance(t, mi.DictType):
        return isinstance(value, dict)
    if isinstance(t, mi.ListType):
        return isinstance(value, list) and all(_fits(item, t.item_type) for item in value)
    return False


@cache
def _line_structs() -> list[mi.StructType]:
    """The structs of a line, built when a line first needs its view (every `check` would otherwise pay for the
    schema's type information at import)."""
    return _structs(mi.type_info(schema.Line))


def line_view(raw: dict[str, Any]) -> Loose:
    """The view of a whole line: the struct its `type` selects, else the entry base (for unknown types)."""
    cls = _pick(raw, _line_structs())
    return Loose(raw, cls if cls is not None else schema.EntryBase)
