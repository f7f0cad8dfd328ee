"""How outlines name a thndrs line: the record type and what tells it apart (`user: first words…`,
`tool_started bash #call-1`, `tool_finished Ok #call-1`). Not read by the link pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..text import ellipsized

WORDS = 48
"""Characters of free text shown after the type."""


def words(text: Any) -> str:
    if type(text) is not str:
        return ""
    head = text[: WORDS + 1]
    if not head.isprintable() or "  " in head:
        head = " ".join(text[: WORDS * 4].split())[: WORDS + 1]
    return ellipsized(head, WORDS)


def _field(obj: Any, name: str) -> Any:
    return obj.get(name) if type(obj) is dict else getattr(obj, name, None)


_FORMS: dict[str, Callable[[Any], str]] = {
    "user": lambda r: "user: " + words(r.text),
    "assistant_finished": lambda r: "assistant: " + words(r.text),
    "reasoning_finished": lambda r: "reasoning: " + words(r.text),
    "tool_started": lambda r: f"tool_started {words(r.name)} #{words(r.call_id)}",
    "tool_finished": lambda r: f"tool_finished {words(r.status)} #{words(r.call_id)}",
    "file_write": lambda r: f"file_write {words(r.op)} {words(r.path)}",
    "shell_exec": lambda r: f"shell_exec {words(r.process_status)}: {words(r.command)}",
    "session_meta": lambda r: "session_meta: " + words(r.title),
    "session_renamed": lambda r: "session_renamed: " + words(r.title),
    "usage": lambda r: f"usage {r.input_tokens} in / {r.output_tokens} out",
    "failed": lambda r: "failed: " + words(r.error),
    "cancelled": lambda r: "cancelled: " + words(r.reason),
    "queued_input": lambda r: f"queued_input {words(r.kind)}: {words(r.text)}",
    "acp_permission_request": lambda r: "acp_permission_request: " + words(r.title),
    "acp_permission_outcome": lambda r: "acp_permission_outcome " + words(r.outcome),
    "skill_activated": lambda r: "skill_activated " + words(r.name),
    "compaction": lambda r: (f"compaction seq {_field(r.audit, 'covered_start_seq')}.."
                             f"{_field(r.audit, 'covered_end_seq')}"),
}


class _Fields:
    """Attribute access to a decoded dict, so one form serves Structs and the dicts of dropped records."""

    def __init__(self, obj: dict[str, Any]) -> None:
        self._obj = obj

    def __getattr__(self, name: str) -> Any:
        return self._obj.get(name)


_REPEATING = frozenset({"tool_started", "tool_finished", "file_write"})
"""Titles that recur across turns (the same tool, status and call id): one string object each
(`text.Vocabulary`)."""


def of_record(tag: str, record: Any, shared: Callable[[str], str]) -> str:
    """`shared` is the document's `Vocabulary.shared`."""
    form = _FORMS.get(tag)
    if form is None:
        return tag
    return shared(form(record)) if tag in _REPEATING else form(record)


def of_object(tag: str, obj: dict[str, Any], shared: Callable[[str], str]) -> str:
    """For a record thndrs drops: the decoded dict, whose fields may have any type or be absent."""
    return of_record(tag, _Fields(obj), shared)
