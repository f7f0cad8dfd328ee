"""How outlines and trees name an Elyra line: kind and first words, one short line.

The helpers read values through attribute names, so they work on schema Structs and on the raw-dict view the
line pass uses for lines that failed the typed decode; anything of the wrong type is simply left out. Only the line
pass of a document that shows titles calls them (`check` shows none, so it makes none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from ..text import ellipsized
from .facts import FAILED_STOPS, EntryFacts
from .loose import has
from .schema import SUMMARY_ROLES

UNSET = msgspec.UNSET
MAX_TITLE = 60


def clip(text: str, limit: int = MAX_TITLE) -> str:
    """One line of at most `limit` characters (an ellipsis marks a cut). A short printable text is kept as it is;
    anything else has its whitespace runs (newlines, tabs) collapsed to single spaces."""
    if len(text) <= limit and text.isprintable():
        return text
    return ellipsized(" ".join(text.lstrip()[: limit * 2].split()), limit)


def first_text(content: Any) -> str | None:
    """The first text of a message's content: the string itself, or the first text block's text."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        for block in content:
            if getattr(block, "type", None) == "text":
                text = getattr(block, "text", None)
                if isinstance(text, str):
                    return text
    return None


def with_text(head: str, text: str | None) -> str:
    """`head: first words of text`, clipped to the title length."""
    if not text:
        return head
    room = MAX_TITLE - len(head) - 2
    if room < 8:
        return clip(head)
    snippet = text[:room]
    if snippet.isprintable() and "  " not in snippet and snippet[:1] != " ":
        if len(text) <= room:
            return f"{head}: {snippet.rstrip()}"
        return f"{head}: {ellipsized(snippet, room, shortened=True)}"
    flat = " ".join(text.lstrip()[: room * 2].split())
    if not flat:
        return head
    return f"{head}: {ellipsized(flat, room, shortened=len(text) > room * 2)}"


def tokens(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{int(value):,} tokens"
    return "? tokens"


def header_title(header: Any) -> str:
    version = header.version
    if version is not UNSET:
        return f"session v{version}"
    return "session" if has(header, "version") else "session v1"


def entry_title(entry: Any, facts: EntryFacts, shared: Callable[[str], str]) -> str:
    """`entry` is the decoded line (a Struct or the raw-dict view), `facts` what the line pass made of it, and
    `shared` the document's vocabulary, so that titles that repeat (`assistant → read`) are one object."""
    kind = entry.type
    if kind == "message":
        return _message(entry.message, facts, shared)
    form = _FORMS.get(kind)
    if form is None:
        return "entry without a type" if kind is UNSET else clip(kind)
    return form(entry, facts)


def _message(message: Any, facts: EntryFacts, shared: Callable[[str], str]) -> str:
    role = facts.role
    if role is None:
        return "message"
    if role == "assistant":
        stop = facts.stop_reason
        suffix = f" [{stop}]" if stop in FAILED_STOPS else ""
        calls = facts.tool_calls
        if calls:
            names = (calls[0].name or "?") if len(calls) == 1 else ", ".join(
                dict.fromkeys(c.name or "?" for c in calls))
            return shared(clip("assistant → " + names) + suffix)
        return with_text("assistant" + suffix, first_text(message.content))
    if role == "toolResult":
        return shared(clip(f"toolResult {facts.tool_name or '?'}") + (" ✗" if message.is_error is True else ""))
    if role == "user" or role == "system":
        return with_text(role, first_text(message.content))
    if role == "bashExecution":
        command = message.command
        return with_text("bashExecution", None if command is UNSET else command)
    if role == "custom" or role == "hookMessage":
        custom = message.custom_type
        return with_text(role if custom is UNSET else f"{role} {custom}", first_text(message.content))
    if role in SUMMARY_ROLES:
        summary = message.summary
        return with_text(role, None if summary is UNSET else summary)
    return clip(f"message {role}")


def _label(entry: Any, facts: EntryFacts) -> str:
    label = entry.label
    if label == "" or not has(entry, "label"):
        return "label cleared"
    return "label" if label is UNSET else clip(f'label "{label}"')


def _session_info(entry: Any, facts: EntryFacts) -> str:
    name = entry.name
    if not has(entry, "name") or (name is not UNSET and not name.strip()):
        return "session name cleared"
    return "session_info" if name is UNSET else clip(f'session "{name}"')


def _custom_message(entry: Any, facts: EntryFacts) -> str:
    custom = entry.custom_type
    return with_text("custom_message" if custom is UNSET else f"custom_message {custom}", first_text(entry.content))


def _model_change(entry: Any, facts: EntryFacts) -> str:
    provider, model = entry.provider, entry.model_id
    return clip(f"model {'?' if provider is UNSET else provider}/{'?' if model is UNSET else model}")


def _summary(entry: Any, facts: EntryFacts) -> str:
    summary = entry.summary
    return with_text("branch_summary", None if summary is UNSET else summary)


def _usage(entry: Any, facts: EntryFacts) -> str:
    """Titled so that our tree says what pi's does not show: pi 1.x hides usage entries from its /tree."""
    kind = entry.kind
    return clip(f"usage {'?' if kind is UNSET else kind} (hidden in pi's /tree)")


_FORMS: dict[str, Callable[[Any, EntryFacts], str]] = {
    "compaction": lambda entry, facts: f"compaction ({tokens(entry.tokens_before)})",
    "branch_summary": _summary,
    "label": _label,
    "session_info": _session_info,
    "custom_message": _custom_message,
    "custom": lambda entry, facts: "custom" if entry.custom_type is UNSET else clip(f"custom {entry.custom_type}"),
    "model_change": _model_change,
    "thinking_level_change": lambda entry, facts: (
        "thinking_level_change" if entry.thinking_level is UNSET else clip(f"thinking {entry.thinking_level}")),
    "context_edit": lambda entry, facts: clip(
        f"context_edit {'omits' if facts.omits else 'edits'} {facts.target_id or '?'}"),
    "usage": _usage,
}
