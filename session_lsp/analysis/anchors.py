"""Turns link-pass anchors (line + JSON path) into column spans, scanning a line only when a diagnostic needs it."""

from __future__ import annotations

from collections.abc import Sequence

from . import jsonscan
from .diagnostics import Span
from .results import Anchor


def line_span(lines: Sequence[str], number: int) -> Span:
    """The line's content without surrounding whitespace (a whole-line diagnostic should not cover indentation)."""
    line = lines[number] if 0 <= number < len(lines) else ""
    stripped = line.strip()
    start = line.find(stripped) if stripped else 0
    return Span(number, start, number, start + len(stripped))


class AnchorResolver:
    def __init__(self) -> None:
        self._trees: dict[int, jsonscan.Node | None] = {}

    def forget(self) -> None:
        self._trees.clear()

    def span(self, lines: Sequence[str], anchor: Anchor) -> Span:
        number = anchor.line
        if not anchor.path or not 0 <= number < len(lines):
            return line_span(lines, number)
        if number not in self._trees:
            self._trees[number] = jsonscan.scan(lines[number])
        root = self._trees[number]
        line = lines[number]
        found = (jsonscan.key_span(line, anchor.path, root) if anchor.key
                 else jsonscan.value_span(line, anchor.path, root))
        if found is None:
            parent = anchor.path[:-1]
            found = jsonscan.value_span(line, parent, root) if parent else None
        if found is None:
            return line_span(lines, number)
        return Span(number, found[0], number, found[1])
