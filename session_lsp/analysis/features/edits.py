"""Small helpers that build TextEdits against the document's lines."""

from __future__ import annotations

from collections.abc import Sequence

from .. import jsonscan
from ..diagnostics import Span
from ..jsonscan import Path
from .types import TextEdit


def replace_line(lines: Sequence[str], line: int, new_text: str) -> TextEdit:
    return TextEdit(Span(line, 0, line, len(lines[line])), new_text)


def replace_value(lines: Sequence[str], line: int, path: Path, new_json: str,
                  root: jsonscan.Node | None = None) -> TextEdit | None:
    """Replace the JSON value at `path` on `line` with the JSON text `new_json`; None when the path is not there."""
    found = jsonscan.value_span(lines[line], path, root)
    if found is None:
        return None
    return TextEdit(Span(line, found[0], line, found[1]), new_json)


def insert_line_after(lines: Sequence[str], line: int, new_text: str) -> TextEdit:
    end = len(lines[line])
    return TextEdit(Span(line, end, line, end), "\n" + new_text)


def remove_value(lines: Sequence[str], line: int, path: Path) -> TextEdit | None:
    """Remove the object member or array item at `path` on `line`, with the comma that separated it; None when the
    path is not there."""
    text = lines[line]
    parent = jsonscan.find(jsonscan.scan(text), path[:-1])
    last = path[-1] if path else None
    if parent is None:
        return None
    # each piece runs from where it starts (a member's key) to where its value ends
    if parent.members is not None:
        pieces = [(key_start, value.end) for _, key_start, _, value in parent.members]
        names = [name for name, _, _, _ in parent.members]
        index = len(names) - 1 - names[::-1].index(last) if isinstance(last, str) and last in names else None
    elif parent.items is not None:
        pieces = [(item.start, item.end) for item in parent.items]
        index = last if isinstance(last, int) and 0 <= last < len(pieces) else None
    else:
        return None
    if index is None:
        return None
    if index + 1 < len(pieces):
        start, end = pieces[index][0], pieces[index + 1][0]
    elif index > 0:
        start, end = pieces[index - 1][1], pieces[index][1]
    else:
        start, end = pieces[index]
    return TextEdit(Span(line, start, line, end), "")
