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
