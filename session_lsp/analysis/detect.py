"""Which format a file is in (spec section 3), decided from its first JSON object."""

from __future__ import annotations

import enum
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
    """Elyra: the header's version (absent means 1); thndrs: the first record's schema_version."""
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


def detect(lines: Sequence[str]) -> FormatInfo:
    found = _first_object(lines)
    if found is None:
        return UNKNOWN
    number, obj = found
    kind = obj["type"] if isinstance(obj.get("type"), str) else None
    thndrs_envelope = (_is_int(obj.get("schema_version")) and _is_int(obj.get("seq"))
                       and isinstance(obj.get("time"), str))
    if kind == "session" and "schema_version" not in obj and "seq" not in obj:
        version = obj.get("version", 1)
        return FormatInfo(Kind.ELYRA, version if _is_int(version) else None, number)
    if thndrs_envelope and "payload" not in obj and (kind in THNDRS_TYPES or kind in THNDRS_OTHER_BUILD_TYPES):
        return FormatInfo(Kind.THNDRS, obj["schema_version"], number)
    if kind in ELYRA_ENTRY_TYPES and "schema_version" not in obj and (
        ("id" in obj and "parentId" in obj)
        or (kind == "message" and isinstance(obj.get("message"), dict) and "role" in obj["message"])
    ):
        return FormatInfo(Kind.ELYRA, None, number)
    return UNKNOWN
