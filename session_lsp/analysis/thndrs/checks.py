"""Line-local checks of a record that thndrs 0.1.0 reads: values the writer never produces.

Each check looks at one decoded record Struct and returns `Finding`s addressed by JSON path; the line pass turns
paths into columns only when there is a finding, so a clean record costs a few attribute reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any

import msgspec
from msgspec import inspect as mi

from ..jsonscan import Path
from ..results import Finding, Mark
from . import schema as s

JS_SAFE = 2**53
U64_MAX = 2**64 - 1

TIME = re.compile(r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ")
"""The only form thndrs writes (a hand-rolled UTC formatter, second precision)."""
SESSION_ID = re.compile(r"session-\d{8}-\d{6}(?:-\d+)?")
ARTIFACT_HANDLE = re.compile(r"artifact_v1_[0-9a-f]{64}")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
MAX_TITLE_CHARS = 80

PROCESS_STATUSES = frozenset({"ok", "failed", "timeout", "cancelled", "running"})
SHELL_KINDS = frozenset({"one-shot", "background"})
QUEUE_KINDS = frozenset({"steering", "follow-up"})
OPTION_KINDS = frozenset({
    "allow once", "allow always", "reject once", "reject always", "unknown",
    "allow_once", "allow_always", "reject_once", "reject_always",
})


def title_problem(title: str) -> str | None:
    if not title:
        return "is empty"
    if len(title) > MAX_TITLE_CHARS:
        return f"is {len(title)} characters long (more than {MAX_TITLE_CHARS})"
    if CONTROL.search(title):
        return "contains control characters"
    return None


# ---------------------------------------------------------------------------------------------------------------
# u64 values beyond 2^53 (THN062) and beyond 2^64-1 (THN008, which msgspec cannot bound)

_INT, _STRUCT, _LIST = 0, 1, 2


def _unwrap(t: mi.Type) -> tuple[mi.Type, bool]:
    """The type under Metadata/Optional, and whether it is a u64/usize."""
    u64 = False
    while True:
        if isinstance(t, mi.Metadata):
            u64 = u64 or bool((t.extra or {}).get("u64"))
            t = t.type
        elif isinstance(t, mi.UnionType):
            members = [m for m in t.types if not isinstance(m, mi.NoneType)]
            if len(members) != 1:
                return t, u64
            t = members[0]
        else:
            return t, u64


@cache
def _plan(cls: type) -> tuple[tuple[str, int, Any], ...]:
    """Which fields of a Struct hold u64 values, directly or nested; empty when none do."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    steps: list[tuple[str, int, Any]] = []
    for field in info.fields:
        t, u64 = _unwrap(field.type)
        if isinstance(t, mi.IntType) and u64:
            steps.append((field.name, _INT, None))
        elif isinstance(t, mi.StructType) and _plan(t.cls):
            steps.append((field.name, _STRUCT, t.cls))
        elif isinstance(t, mi.ListType):
            item, _ = _unwrap(t.item_type)
            if isinstance(item, mi.StructType) and _plan(item.cls):
                steps.append((field.name, _LIST, item.cls))
    return tuple(steps)


@cache
def has_u64_beyond_seq(cls: type) -> bool:
    """Whether records of `cls` have u64 fields besides `seq` (for the others, comparing `seq` suffices); asked
    per record type when first met, not for every type at import, which would cost every `check` the schema's
    whole type information."""
    return any(step[0] != "seq" for step in _plan(cls))


Collector = Callable[[Any, Path, list[tuple[Path, int]]], None]


@cache
def _collector(cls: type) -> Collector:
    """Appends every u64 above 2^53 of a `cls` instance (path, value) to a list, in field order (the order of a
    canonical line). Specialised to the class: one C call reads every field that can hold one, so the common case
    (none) costs a short loop."""
    plan = _plan(cls)
    steps = tuple((name, kind, _collector(sub) if sub is not None else None) for name, kind, sub in plan)
    names = tuple(name for name, _, _ in plan)
    read = attrgetter(*names) if len(names) > 1 else (lambda obj: (getattr(obj, names[0]),)) if names else None

    def collect(obj: Any, path: Path, found: list[tuple[Path, int]]) -> None:
        if read is None:
            return
        for (name, kind, inner), value in zip(steps, read(obj), strict=True):
            if value is None:
                continue
            if kind == _INT:
                if value > JS_SAFE:
                    found.append(((*path, name), value))
            elif kind == _STRUCT:
                inner(value, (*path, name), found)  # type: ignore[misc]
            else:
                for index, item in enumerate(value):
                    inner(item, (*path, name, index), found)  # type: ignore[misc]

    return collect


def large_integers(record: msgspec.Struct) -> list[tuple[Path, int]]:
    """Every u64 value above 2^53 in the record, in field order (which is the order of a canonical line)."""
    found: list[tuple[Path, int]] = []
    _collector(type(record))(record, (), found)
    return found


# ---------------------------------------------------------------------------------------------------------------
# Record checks: each returns a (usually empty) list and returns early when the record is ordinary.

_NONE: list[Finding] = []


def envelope(record: Any, time_ok: bool) -> list[Finding]:
    found: list[Finding] = []
    if record.schema_version != 1:
        found.append(Finding("THN034", ("schema_version",), Mark.VALUE,
                             f"schema_version {record.schema_version} is not 1: every known thndrs build writes 1 (it "
                             "is never checked on read, so this record was written by something else or edited)"))
    if not time_ok:
        found.append(Finding("THN036", ("time",), Mark.VALUE,
                             f"time {record.time!r} is not YYYY-MM-DDTHH:MM:SSZ: thndrs only writes that exact UTC "
                             "form (it stores the value opaquely, so this comes from an edit or another writer)"))
    return found


def _title(path: Path, title: str) -> list[Finding]:
    problem = title_problem(title)
    if problem is None:
        return _NONE
    return [Finding("THN061", path, Mark.VALUE,
                    f"the title {problem}: later thndrs builds reject such names when renaming")]


def _session_meta(record: s.SessionMeta) -> list[Finding]:
    found = _title(("title",), record.title)
    if SESSION_ID.fullmatch(record.session_id) is None:
        found = [Finding("THN023", ("session_id",), Mark.VALUE,
                         f"session id {record.session_id!r} is not session-YYYYMMDD-HHMMSS[-N]: thndrs generates ids "
                         "that way, so this one comes from a hand edit or a test"), *found]
    return found


def _unnamed() -> Finding:
    return Finding("THN044", ("call_id",), Mark.VALUE,
                   "call_id \"?\": thndrs writes this when the tool row had no name#id suffix, so this record cannot "
                   "be paired with its start or finish")


def _tool_started(record: s.ToolStarted) -> list[Finding]:
    name, mcp = record.name, record.mcp
    if mcp is None and record.call_id != "?" and not name.startswith("mcp__"):
        return _NONE
    found = [_unnamed()] if record.call_id == "?" else []
    if mcp is None:
        if name.startswith("mcp__") and "__" in name[5:]:
            found.append(Finding("THN058", ("name",), Mark.VALUE,
                                 f"tool {name!r} is named like an MCP tool (mcp__<server>__<tool>) but has no `mcp` "
                                 "metadata: the writer derives `mcp` from the name"))
    elif name != f"mcp__{mcp.server_name}__{mcp.original_tool_name}":
        expected = f"mcp__{mcp.server_name}__{mcp.original_tool_name}"
        found.append(Finding("THN058", ("mcp",), Mark.VALUE,
                             f"`mcp` says {expected!r} but the tool is named {name!r}: the writer derives `mcp` from "
                             "the name, so they should agree"))
    return found


def _tool_finished(record: s.ToolFinished) -> list[Finding]:
    artifact = record.artifact
    if artifact is None and record.call_id != "?" and record.status != "Running":
        return _NONE
    found = [_unnamed()] if record.call_id == "?" else []
    if record.status == "Running":
        found.append(Finding("THN045", ("status",), Mark.VALUE,
                             "a finished tool with status \"Running\": thndrs writes tool_finished only once the "
                             "tool stopped; replay shows it as still running"))
    if artifact is not None:
        if ARTIFACT_HANDLE.fullmatch(artifact.handle) is None:
            found.append(Finding("THN059", ("artifact", "handle"), Mark.VALUE,
                                 f"artifact handle {artifact.handle!r} is not artifact_v1_ + 64 hex digits: it was "
                                 "produced by a different artifact store, so thndrs will not find <handle>.body"))
        if artifact.schema_version != 1:
            found.append(Finding("THN059", ("artifact", "schema_version"), Mark.VALUE,
                                 f"artifact schema_version {artifact.schema_version} is not 1: produced by a "
                                 "different artifact store"))
    return found


def _file_write(record: s.FileWrite) -> list[Finding]:
    hash_null, bytes_null = record.before_hash is None, record.before_bytes is None
    if record.op == "create":
        return [Finding("THN052", (name,), Mark.VALUE,
                        f"op \"create\" with a {name}: the writer writes null for a file that did not exist before")
                for name, null in (("before_hash", hash_null), ("before_bytes", bytes_null)) if not null]
    if hash_null and bytes_null:
        return [Finding("THN052", ("before_hash",), Mark.VALUE,
                        f"op {record.op!r} with null before_hash and before_bytes: the writer records the previous "
                        "hash and size of the file it replaced or edited")]
    if hash_null != bytes_null:
        name = "before_hash" if hash_null else "before_bytes"
        return [Finding("THN052", (name,), Mark.VALUE,
                        f"{name} is null but the other before_* value is not: the writer derives both from the same "
                        "previous state")]
    return _NONE


def _shell_exec(record: s.ShellExec) -> list[Finding]:
    status, kind = record.process_status, record.kind
    running = status == "running" and record.process_id is None
    if status in PROCESS_STATUSES and kind in SHELL_KINDS and not running:
        return _NONE
    found: list[Finding] = []
    if status not in PROCESS_STATUSES:
        found.append(Finding("THN053", ("process_status",), Mark.VALUE,
                             f"process_status {status!r} is not one of ok, failed, timeout, cancelled, running: the "
                             "writer uses only these labels"))
    if kind not in SHELL_KINDS:
        found.append(Finding("THN053", ("kind",), Mark.VALUE,
                             f"kind {kind!r} is not one-shot or background: the writer uses only these labels"))
    if running:
        found.append(Finding("THN053", ("process_status",), Mark.VALUE,
                             "a running shell record without process_id: background starts always carry the "
                             "registry id, and without it the terminal record cannot be matched"))
    return found


def _queued_input(record: s.QueuedInput) -> list[Finding]:
    if record.kind in QUEUE_KINDS:
        return _NONE
    return [Finding("THN055", ("kind",), Mark.VALUE,
                    f"queue kind {record.kind!r} is not steering or follow-up: thndrs has only these two queues")]


def _usage(record: s.Usage) -> list[Finding]:
    if record.input_tokens or record.output_tokens:
        return _NONE
    return [Finding("THN056", (), Mark.VALUE,
                    "usage with 0 input and 0 output tokens: the writer never writes an empty increment")]


def _request_accounting(record: s.RequestAccounting) -> list[Finding]:
    if record.accounting.turn_id == record.turn_id:
        return _NONE
    return [Finding("THN057", ("accounting", "turn_id"), Mark.VALUE,
                    f"accounting.turn_id {record.accounting.turn_id!r} differs from the record's turn_id "
                    f"{record.turn_id!r}: both come from the same turn")]


def _permission_request(record: s.AcpPermissionRequest) -> list[Finding]:
    return [Finding("THN060", ("options", index, "kind"), Mark.VALUE,
                    f"option kind {option.kind!r} is not allow once, allow always, reject once, reject always or "
                    "unknown (or the underscore forms): it is only a display label, shown as written")
            for index, option in enumerate(record.options) if option.kind not in OPTION_KINDS]


def _session_renamed(record: s.SessionRenamed) -> list[Finding]:
    return _title(("title",), record.title)


BY_TYPE: dict[type, Callable[[Any], list[Finding]]] = {
    s.SessionMeta: _session_meta,
    s.ToolStarted: _tool_started,
    s.ToolFinished: _tool_finished,
    s.FileWrite: _file_write,
    s.ShellExec: _shell_exec,
    s.QueuedInput: _queued_input,
    s.Usage: _usage,
    s.RequestAccounting: _request_accounting,
    s.AcpPermissionRequest: _permission_request,
    s.SessionRenamed: _session_renamed,
}
"""The value checks of each record type that has any; the caller adds `envelope` and THN062."""


def file_parts(path: str | None) -> tuple[str | None, str | None]:
    """(stem, parent directory name) of a path given by the caller, without touching the disk."""
    if not path:
        return None, None
    parts = [part for part in re.split(r"[\\/]", path) if part]
    if not parts:
        return None, None
    name = parts[-1]
    stem = name[: -len(".jsonl")] if name.endswith(".jsonl") else name.rpartition(".")[0] or name
    return stem, parts[-2] if len(parts) > 1 else None
