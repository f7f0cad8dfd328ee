"""How outlines name a thndrs line: the record type and what tells it apart (`user: first words…`,
`tool_started bash #call-1`, `tool_finished Ok #call-1`). Not read by the link pass."""

from __future__ import annotations

from typing import Any

WORDS = 48
"""Characters of free text shown after the type."""


def _words(text: Any) -> str:
    if not isinstance(text, str):
        return ""
    flat = " ".join(text[: WORDS * 4].split())
    return flat if len(flat) <= WORDS else flat[: WORDS - 1].rstrip() + "…"


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if type(obj) is dict else getattr(obj, name, None)


def title(tag: str, obj: Any) -> str:
    """`obj` is a record Struct or, for a record thndrs drops, the decoded dict (then fields may have any type)."""
    get = obj.get if type(obj) is dict else obj.__getattribute__
    if tag in ("user", "assistant_finished", "reasoning_finished"):
        role = "assistant" if tag == "assistant_finished" else "reasoning" if tag == "reasoning_finished" else "user"
        return f"{role}: {_words(get('text'))}"
    if tag == "tool_started":
        return f"tool_started {_words(get('name'))} #{_words(get('call_id'))}"
    if tag == "tool_finished":
        return f"tool_finished {_words(get('status'))} #{_words(get('call_id'))}"
    if tag == "file_write":
        return f"file_write {_words(get('op'))} {_words(get('path'))}"
    if tag == "shell_exec":
        return f"shell_exec {_words(get('process_status'))}: {_words(get('command'))}"
    if tag in ("session_meta", "session_renamed"):
        return f"{tag}: {_words(get('title'))}"
    if tag == "usage":
        return f"usage {get('input_tokens')} in / {get('output_tokens')} out"
    if tag == "failed":
        return f"failed: {_words(get('error'))}"
    if tag == "cancelled":
        return f"cancelled: {_words(get('reason'))}"
    if tag == "queued_input":
        return f"queued_input {_words(get('kind'))}: {_words(get('text'))}"
    if tag == "acp_permission_request":
        return f"acp_permission_request: {_words(get('title'))}"
    if tag == "acp_permission_outcome":
        return f"acp_permission_outcome {_words(get('outcome'))}"
    if tag == "skill_activated":
        return f"skill_activated {_words(get('name'))}"
    if tag == "compaction":
        audit = get("audit")
        start, end = _get(audit, "covered_start_seq"), _get(audit, "covered_end_seq")
        return f"compaction seq {start}..{end}"
    return tag
