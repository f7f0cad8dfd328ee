"""The first line of an entry's text, decoded from its line on demand (facts keep no message text)."""

from __future__ import annotations

from typing import Any

from .lines import LineKind, decode
from .text import ellipsized

LIMIT = 160


def record(text: str) -> dict[str, Any] | None:
    """The line's JSON object (the first record of a glued line), or None."""
    decoded = decode(text)
    if decoded.kind is LineKind.GLUED:
        decoded = decode(text[decoded.parts[0] : decoded.parts[1]])
    if decoded.kind is LineKind.OBJECT:
        value: dict[str, Any] = decoded.value
        return value
    return None


def first_line(text: str, limit: int = LIMIT) -> str:
    """The first non-empty line of `text`, at most `limit` characters (an ellipsis marks a cut)."""
    for part in text.splitlines():
        part = part.strip()
        if part:
            return ellipsized(part, limit)
    return ""


def _content(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return None
    for block in content:
        if not isinstance(block, dict):
            continue
        text = block.get("text")
        if block.get("type") == "text" and isinstance(text, str) and text.strip():
            return text
    for block in content:
        if not isinstance(block, dict):
            continue
        kind, thinking = block.get("type"), block.get("thinking")
        if kind == "toolCall":
            return f"tool call {block.get('name')}"
        if kind == "thinking" and isinstance(thinking, str):
            return thinking
        if kind == "image":
            return f"[image {block.get('mimeType')}]"
    return None


_TEXT_KEYS = ("text", "summary", "error", "reason", "command", "title", "label", "arguments", "outcome", "name")


def entry_text(obj: dict[str, Any]) -> str | None:
    """What the entry says, for Elyra entries and thndrs records alike."""
    message = obj.get("message")
    if isinstance(message, dict):
        command = message.get("command")
        if message.get("role") == "bashExecution" and isinstance(command, str):
            return "$ " + command
        return _content(message.get("content"))
    if "content" in obj:
        found = _content(obj.get("content"))
        if found is not None:
            return found
    audit = obj.get("audit")
    summary = audit.get("summary") if isinstance(audit, dict) else None
    if isinstance(summary, str):
        return summary
    for key in _TEXT_KEYS:
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            return value
    output = obj.get("output")
    first = output[0] if isinstance(output, list) and output else None
    if isinstance(first, str):
        return first
    return None
