"""Checks a decoded JSON value against a msgspec type and reports every problem, not just the first.

The msgspec Structs in each format's `schema` module are the single source of truth: the fast path decodes a line
straight into them (msgspec stops at the first error), and only when that fails does this walker, driven by
`msgspec.inspect.type_info` of the same types, list all problems with their JSON paths.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from functools import cache
from typing import Any, NamedTuple

import msgspec
from msgspec import inspect as mi

from .jsonscan import Path

U64_MAX = 2**64 - 1


class IssueKind(enum.Enum):
    MISSING = "missing"
    TYPE = "type"
    UNKNOWN_FIELD = "unknown-field"
    ENUM = "enum"
    UNKNOWN_TAG = "unknown-tag"
    RANGE = "range"


class SchemaIssue(NamedTuple):
    kind: IssueKind
    path: Path
    message: str
    owner: type | None
    """The Struct class whose field is at fault (lets a format map block problems to their own code)."""


@cache
def _info(tp: Any) -> mi.Type:
    return mi.type_info(tp)


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def describe(t: mi.Type) -> str:
    """A short human name for a type, as messages show it."""
    if isinstance(t, mi.Metadata):
        return describe(t.type)
    if isinstance(t, mi.StrType):
        return "string"
    if isinstance(t, mi.IntType):
        return "non-negative integer" if t.ge == 0 else "integer"
    if isinstance(t, mi.FloatType):
        return "number"
    if isinstance(t, mi.BoolType):
        return "boolean"
    if isinstance(t, mi.NoneType):
        return "null"
    if isinstance(t, (mi.ListType, mi.TupleType, mi.VarTupleType)):
        return "array"
    if isinstance(t, (mi.DictType, mi.StructType, mi.TypedDictType)):
        return "object"
    if isinstance(t, mi.LiteralType):
        return " | ".join(msgspec.json.encode(v).decode() for v in t.values)
    if isinstance(t, mi.UnionType):
        names: list[str] = []
        for member in t.types:
            name = describe(member)
            if name not in names:
                names.append(name)
        return " or ".join(names)
    return "any value"


def check(value: Any, tp: Any) -> list[SchemaIssue]:
    return list(_walk(value, _info(tp), (), None))


def _walk(value: Any, t: mi.Type, path: Path, owner: type | None) -> Iterator[SchemaIssue]:
    extra: dict[str, Any] = {}
    while isinstance(t, mi.Metadata):
        extra.update(t.extra or {})
        t = t.type
    if isinstance(t, mi.AnyType | mi.RawType):  # Raw: any JSON value, kept undecoded
        return
    if isinstance(t, mi.UnionType):
        yield from _walk_union(value, t, path, owner)
        return
    if isinstance(t, mi.StructType):
        yield from _walk_struct(value, t, path)
        return
    if isinstance(t, mi.LiteralType):
        if value not in t.values or isinstance(value, bool) != any(isinstance(v, bool) for v in t.values):
            kind = IssueKind.ENUM if isinstance(value, type(t.values[0])) else IssueKind.TYPE
            got = msgspec.json.encode(value).decode() if kind is IssueKind.ENUM else json_type(value)
            yield SchemaIssue(kind, path, f"expected {describe(t)}, got {got}", owner)
        return
    if isinstance(t, mi.StrType):
        if not isinstance(value, str):
            yield _type_issue(value, t, path, owner)
        return
    if isinstance(t, mi.BoolType):
        if not isinstance(value, bool):
            yield _type_issue(value, t, path, owner)
        return
    if isinstance(t, mi.IntType):
        if not isinstance(value, int) or isinstance(value, bool):
            yield _type_issue(value, t, path, owner)
            return
        low = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None)
        high = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None)
        if extra.get("u64"):
            high = U64_MAX
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f">= {low}" if high is None else f"in {low}..{high}"
            yield SchemaIssue(IssueKind.RANGE, path, f"expected an integer {bounds}, got {value}", owner)
        return
    if isinstance(t, mi.FloatType):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            yield _type_issue(value, t, path, owner)
        return
    if isinstance(t, mi.NoneType):
        if value is not None:
            yield _type_issue(value, t, path, owner)
        return
    if isinstance(t, (mi.ListType, mi.VarTupleType)):
        if not isinstance(value, list):
            yield _type_issue(value, t, path, owner)
            return
        for index, item in enumerate(value):
            yield from _walk(item, t.item_type, (*path, index), owner)
        return
    if isinstance(t, mi.DictType):
        if not isinstance(value, dict):
            yield _type_issue(value, t, path, owner)
            return
        for key, item in value.items():
            yield from _walk(item, t.value_type, (*path, key), owner)
        return
    yield SchemaIssue(IssueKind.TYPE, path, f"unsupported schema type {t!r}", owner)


def _type_issue(value: Any, t: mi.Type, path: Path, owner: type | None) -> SchemaIssue:
    return SchemaIssue(IssueKind.TYPE, path, f"expected {describe(t)}, got {json_type(value)}", owner)


def _walk_union(value: Any, t: mi.UnionType, path: Path, owner: type | None) -> Iterator[SchemaIssue]:
    members = list(t.types)
    structs = [m for m in members if isinstance(m, mi.StructType)]
    if isinstance(value, dict) and structs:
        if len(structs) == 1 or structs[0].tag_field is None:
            yield from _walk_struct(value, structs[0], path)
            return
        tag_field = structs[0].tag_field
        tag = value.get(tag_field)
        for struct in structs:
            if struct.tag == tag:
                yield from _walk_struct(value, struct, path)
                return
        if tag_field not in value:
            yield SchemaIssue(IssueKind.MISSING, (*path, tag_field), f"`{tag_field}` is required", structs[0].cls)
        else:
            allowed = ", ".join(repr(s.tag) for s in structs)
            yield SchemaIssue(IssueKind.UNKNOWN_TAG, (*path, tag_field),
                              f"`{tag_field}` {tag!r} is not one of {allowed}", structs[0].cls)
        return
    best: list[SchemaIssue] | None = None
    for member in members:
        issues = list(_walk(value, member, path, owner))
        if not issues:
            return
        shallow = all(issue.path == path and issue.kind is IssueKind.TYPE for issue in issues)
        if not shallow and (best is None or len(issues) < len(best)):
            best = issues
    if best is not None:
        yield from best
        return
    yield _type_issue(value, t, path, owner)


def _walk_struct(value: Any, t: mi.StructType, path: Path) -> Iterator[SchemaIssue]:
    if not isinstance(value, dict):
        yield _type_issue(value, t, path, t.cls)
        return
    known = {field.encode_name: field for field in t.fields}
    for name, field in known.items():
        if name in value:
            yield from _walk(value[name], field.type, (*path, name), t.cls)
        elif field.required:
            yield SchemaIssue(IssueKind.MISSING, (*path, name), f"`{name}` is required", t.cls)
    for name in value:
        if name not in known and name != t.tag_field:
            yield SchemaIssue(IssueKind.UNKNOWN_FIELD, (*path, name), f"`{name}` is not a known field", t.cls)
