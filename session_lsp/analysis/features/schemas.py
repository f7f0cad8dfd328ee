"""The schema Structs seen from the editor: which Struct describes the object at a JSON path, and its fields.

Hover cards and completion read the same msgspec types the line pass validates with (via `msgspec.inspect`), so
what the editor offers is exactly what the checker accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import msgspec
from msgspec import inspect as mi

from ..formats import Format
from ..jsonscan import Path
from ..validate import describe


def root_type(face: Format) -> mi.Type | None:
    """The inspected union of every line shape of the format (None for files that are not sessions)."""
    root = face.schema_root
    return None if root is None else _inspected(root)


@cache
def _inspected(root: object) -> mi.Type:
    return mi.type_info(root)


def strip(t: mi.Type) -> mi.Type:
    while isinstance(t, mi.Metadata):
        t = t.type
    return t


def members(t: mi.Type) -> list[mi.Type]:
    t = strip(t)
    if isinstance(t, mi.UnionType):
        return [strip(m) for m in t.types]
    return [t]


def structs(t: mi.Type) -> list[mi.StructType]:
    return [m for m in members(t) if isinstance(m, mi.StructType)]


def pick_struct(t: mi.Type, tags: Mapping[str, Any]) -> mi.StructType | None:
    """The Struct of `t` an object with these members is: the only one, or the one its tag selects."""
    found = structs(t)
    if len(found) == 1:
        return found[0]
    if not found or found[0].tag_field is None:
        return None
    tag = tags.get(found[0].tag_field)
    return next((s for s in found if s.tag == tag), None)


def child_type(t: mi.Type, tags: Mapping[str, Any], item: str | int) -> mi.Type | None:
    """The type of the value one step down from a value of type `t` (whose members, if an object, are `tags`)."""
    if isinstance(item, int):
        for member in members(t):
            if isinstance(member, (mi.ListType, mi.VarTupleType)):
                return member.item_type
        return None
    struct = pick_struct(t, tags)
    if struct is not None:
        field = field_named(struct, item)
        return None if field is None else field.type
    for member in members(t):
        if isinstance(member, mi.DictType):
            return member.value_type
    return None


def type_at(face: Format, path: Path, levels: Sequence[Mapping[str, Any]]) -> mi.Type | None:
    """The declared type of the value at `path` in a line; `levels[i]` are the members known of the object at
    `path[:i]` (used to resolve tagged unions)."""
    t = root_type(face)
    for depth, item in enumerate(path):
        if t is None:
            return None
        t = child_type(t, levels[depth] if depth < len(levels) else {}, item)
    return t


def field_named(struct: mi.StructType, key: str) -> mi.Field | None:
    return next((f for f in struct.fields if f.encode_name == key), None)


class FieldInfo(msgspec.Struct, frozen=True):
    name: str
    type: mi.Type | None
    required: bool


def fields_of(struct: mi.StructType) -> list[FieldInfo]:
    """The struct's keys as written in JSON, its tag first, then required, then optional fields."""
    out: list[FieldInfo] = []
    if struct.tag_field is not None:
        out.append(FieldInfo(struct.tag_field, mi.LiteralType((struct.tag,)), True))
    ordered = sorted(struct.fields, key=lambda f: not f.required)
    out.extend(FieldInfo(f.encode_name, f.type, f.required) for f in ordered)
    return out


def fields_at(face: Format, version: int | None, path: Path, struct: mi.StructType) -> list[FieldInfo]:
    """`fields_of` for the object at `path` of a line in a file of this format version: a line's own fields that
    the format requires or calls stale in this version although the schema, which accepts every version, leaves
    them optional (Elyra's tree fields from v2 on) say so."""
    fields = fields_of(struct)
    if path != ():
        return fields
    required, stale = face.required_fields(version, str(struct.tag))
    if not required and not stale:
        return fields
    fields = [FieldInfo(f.name, f.type, True) if f.name in required else f for f in fields if f.name not in stale]
    head = fields[:1] if struct.tag_field is not None else []
    return head + sorted(fields[len(head):], key=lambda f: not f.required)


def enum_values(t: mi.Type) -> list[Any]:
    """The JSON values an enum-like type allows (literals, enums, booleans), in declaration order."""
    out: list[Any] = []
    for member in members(t):
        if isinstance(member, mi.LiteralType):
            out.extend(member.values)
        elif isinstance(member, mi.EnumType):
            out.extend(e.value for e in member.cls)
        elif isinstance(member, mi.BoolType):
            out.extend((True, False))
        elif isinstance(member, mi.NoneType):
            out.append(None)
    return out


def tag_values(t: mi.Type) -> tuple[str, list[mi.StructType]] | None:
    """For a tagged union: the tag key and its variants."""
    found = structs(t)
    if len(found) < 2 or found[0].tag_field is None:
        return None
    return found[0].tag_field, found


def type_name(t: mi.Type | None) -> str:
    if t is None:
        return "any value"
    found = structs(t)
    if len(found) > 1 and found[0].tag_field is not None:
        return f"object ({found[0].tag_field}: " + " | ".join(str(s.tag) for s in found) + ")"
    return describe(t)
