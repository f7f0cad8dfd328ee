"""How outlines and trees name an Elyra line: kind and first words, one short line.

The helpers read values through attribute names, so they work on schema Structs and on the raw-dict view the
line pass uses for lines that failed the typed decode; anything of the wrong type is simply left out.
"""

from __future__ import annotations

from typing import Any

from ..text import ellipsized

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
