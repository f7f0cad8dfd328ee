"""The schema Structs seen from the editor: which Struct describes the object at a JSON path, and its fields.

Hover cards and completion read the same msgspec types the line pass validates with (via `msgspec.inspect`), so
what the editor offers is exactly what the checker accepts.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import msgspec
from msgspec import inspect as mi

from ..detect import Kind
from ..jsonscan import Path
from ..validate import describe

_ROOTS: dict[Kind, tuple[str, str]] = {
    Kind.ELYRA: ("session_lsp.analysis.elyra.schema", "Line"),
    Kind.THNDRS: ("session_lsp.analysis.thndrs.schema", "Record"),
}


@cache
def root_type(kind: Kind) -> mi.Type | None:
    """The inspected union of every line shape of the format (None for files that are not sessions)."""
    where = _ROOTS.get(kind)
    if where is None:
        return None
    try:
        module = importlib.import_module(where[0])
    except ImportError:
        return None
    tp = getattr(module, where[1], None)
    return None if tp is None else mi.type_info(tp)


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


def type_at(kind: Kind, path: Path, levels: Sequence[Mapping[str, Any]]) -> mi.Type | None:
    """The declared type of the value at `path` in a line; `levels[i]` are the members known of the object at
    `path[:i]` (used to resolve tagged unions)."""
    t = root_type(kind)
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


TREE_FIELDS = frozenset({"id", "parentId"})
"""Elyra fields the schema leaves optional because v1 files lack them, but every v2+ entry must have (ELY021)."""
TREE_ONLY: dict[str, frozenset[str]] = {"compaction": frozenset({"firstKeptEntryId"})}
"""Per entry type: further fields required from v2 on (spec §1.6)."""
V1_ONLY: dict[str, frozenset[str]] = {"compaction": frozenset({"firstKeptEntryIndex"})}
"""Per entry type: fields only v1 files use (in a v2+ file they are stale: ELY023)."""


def fields_at(kind: Kind, version: int | None, path: Path, struct: mi.StructType) -> list[FieldInfo]:
    """`fields_of` for the object at `path` of a line in a file of this format version. The Elyra schema accepts
    every version, so it leaves an entry's `id`, `parentId` (and a compaction's `firstKeptEntryId`) optional: v1
    entries have none of them. From v2 on they are required (spec §1.5, §1.6) and the v1-only
    `firstKeptEntryIndex` is stale, so in such a file the list says so."""
    fields = fields_of(struct)
    if kind is not Kind.ELYRA or path != () or version is None or version < 2 or struct.tag == "session":
        return fields
    tag = str(struct.tag)
    required = TREE_FIELDS | TREE_ONLY.get(tag, frozenset())
    stale = V1_ONLY.get(tag, frozenset())
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
