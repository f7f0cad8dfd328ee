"""Which format a file is in (spec section 3), decided from its first JSON object."""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Sequence
from typing import Any

import msgspec

from .lines import LineKind, decode, is_blank

ELYRA_ENTRY_TYPES = frozenset({
    "message", "thinking_level_change", "model_change", "compaction", "branch_summary", "custom",
    "custom_message", "label", "session_info",
})

THNDRS_TYPES = frozenset({
    "session_meta", "context", "context_ledger", "context_pin", "context_drop", "context_recovery", "compaction",
    "compaction_review", "user", "prompt_metadata", "assistant_finished", "reasoning_finished", "usage",
    "request_accounting", "tool_started", "tool_finished", "cancelled", "failed", "acp_session", "session_renamed",
    "file_write", "mcp_config_changed", "shell_exec", "skill_activated", "queued_input", "acp_permission_request",
    "acp_permission_outcome",
})
"""The 27 record types of thndrs 0.1.0, the target schema."""

THNDRS_OTHER_BUILD_TYPES = frozenset({
    "memory_write", "memory_delete", "session_fork", "context_capture_policy", "request_content_captured",
    "context_snapshot", "context_lifecycle",
})


class Kind(enum.Enum):
    ELYRA = "elyra"
    THNDRS = "thndrs"
    UNKNOWN = "unknown"


class FormatInfo(msgspec.Struct, frozen=True):
    kind: Kind
    version: int | None = None
    """Elyra: the version pi migrates the file from (`pi_version`: absent or null means 1, 2.5 means 2); thndrs: the
    first record's schema_version."""
    header_line: int | None = None
    """The line the format was recognised on."""

    @property
    def label(self) -> str:
        if self.kind is Kind.ELYRA:
            return f"Elyra v{self.version}" if self.version is not None else "Elyra"
        if self.kind is Kind.THNDRS:
            return "thndrs"
        return "not a session"


UNKNOWN = FormatInfo(Kind.UNKNOWN)

BOM = "\ufeff"

DETECTION_HORIZON = 50
"""Lines looked at before giving up; an edit below this line cannot change the verdict of a file whose first
object lies above it."""


def _first_object(lines: Sequence[str]) -> tuple[int, dict[str, Any]] | None:
    for number, line in enumerate(lines[:DETECTION_HORIZON]):
        if number == 0 and line.startswith(BOM):
            line = line[1:]  # pi trims the file before splitting it: a byte order mark at its start is not read
        if is_blank(line):
            continue
        decoded = decode(line)
        if decoded.kind is LineKind.OBJECT:
            return number, decoded.value
        if decoded.kind is LineKind.GLUED:
            first = decode(line[decoded.parts[0] : decoded.parts[1]])
            if first.kind is LineKind.OBJECT:
                return number, first.value
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_JS_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Infinity)\Z")


def js_number(value: Any) -> float:
    """JavaScript's `Number(value)` for a decoded JSON value (NaN when it is not a number): what pi's
    `version >= 3` and `version < 2` compare."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if value is None:
        return 0.0
    if isinstance(value, list):
        if len(value) > 1:
            return math.nan
        value = "" if not value or value[0] is None else value[0]
        if isinstance(value, list | dict):
            return js_number(value) if isinstance(value, list) else math.nan
        return js_number(value if isinstance(value, str) else str(value).lower())
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0.0
        if re.fullmatch(r"0[xX][0-9a-fA-F]+", text):
            return float(int(text, 16))
        return float(text) if _JS_NUMBER.match(text) else math.nan
    return math.nan


def pi_version(header: dict[str, Any]) -> int | None:
    """The version pi migrates a file from: `header.version ?? 1`, compared with 3 and 2 as JavaScript compares
    (`3.0` is 3, `2.5` a v2, `true` a v1, a string by its number). None when it is not a number (NaN): no migration
    step applies, so the file is read as the current version."""
    raw = header.get("version")
    number = 1.0 if raw is None else js_number(raw)
    if math.isnan(number):
        return None
    if number >= 3:
        return int(number) if math.isfinite(number) else 3
    return 2 if number >= 2 else 1


def detect(lines: Sequence[str]) -> FormatInfo:
    found = _first_object(lines)
    if found is None:
        return UNKNOWN
    number, obj = found
    kind = obj["type"] if isinstance(obj.get("type"), str) else None
    thndrs_envelope = (_is_int(obj.get("schema_version")) and _is_int(obj.get("seq"))
                       and isinstance(obj.get("time"), str))
    if kind == "session" and "schema_version" not in obj and "seq" not in obj:
        return FormatInfo(Kind.ELYRA, pi_version(obj), number)
    if thndrs_envelope and "payload" not in obj and (kind in THNDRS_TYPES or kind in THNDRS_OTHER_BUILD_TYPES):
        return FormatInfo(Kind.THNDRS, obj["schema_version"], number)
    if kind in ELYRA_ENTRY_TYPES and "schema_version" not in obj and (
        ("id" in obj and "parentId" in obj)
        or (kind == "message" and isinstance(obj.get("message"), dict) and "role" in obj["message"])
    ):
        return FormatInfo(Kind.ELYRA, None, number)
    return UNKNOWN
