"""A line of a session as a terminal shows it under a diagnostic: a window of it around the column, the bytes a
terminal would act on made visible, and a caret under the flagged text.

Session lines run to thousands of characters, so a window of `WIDTH` cells is shown, with `…` where it is cut. A
control character becomes its Unicode control picture (U+2400 + n) and a format character (a bidirectional
override, a zero-width space) U+FFFD, so a hostile line can neither move the cursor nor reorder the text around
the caret; both take one cell, so the caret stays under its column. East Asian wide characters take two cells.
"""

from __future__ import annotations

import unicodedata

import msgspec

WIDTH = 100
"""Cells of a line shown under a diagnostic."""
BEFORE = 40
"""Cells kept before the flagged column when a line is cut."""
ELLIPSIS = "…"


class Snippet(msgspec.Struct, array_like=True, gc=False, frozen=True):
    """A window of one line: its text, the cells before the caret and the caret's width (at least 1)."""

    text: str
    indent: int
    width: int


def _visible(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    category = unicodedata.category(char)
    if category in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
        return "\ufffd"
    return char


def _cells(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def snippet(line: str, start: int, end: int | None) -> Snippet:
    """The window of `line` around code-point columns [start, end) (end None: to the end of the line)."""
    line = line.removesuffix("\r")
    start = min(max(start, 0), len(line))
    stop = len(line) if end is None else min(max(end, start), len(line))
    low = max(0, start - BEFORE) if len(line) > WIDTH else 0
    high = min(len(line), low + WIDTH)
    low = max(0, min(low, high - WIDTH))
    text = "".join(_visible(char) for char in line[low:high])
    head = ELLIPSIS if low else ""
    tail = ELLIPSIS if high < len(line) else ""
    indent = len(head) + sum(_cells(char) for char in text[:start - low])
    width = sum(_cells(char) for char in text[start - low:min(stop, high) - low])
    return Snippet(head + text + tail, indent, max(1, width))
