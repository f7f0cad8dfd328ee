"""Turns link-pass anchors (line + JSON path) into column spans, scanning a line only when a diagnostic needs it."""

from __future__ import annotations

from collections.abc import Sequence

from . import jsonscan
from .diagnostics import Span
from .results import Anchor
from .text import content_span


def line_span(lines: Sequence[str], number: int) -> Span:
    """The line's content without surrounding whitespace (a whole-line diagnostic should not cover indentation)."""
    start, end = content_span(lines[number] if 0 <= number < len(lines) else "")
    return Span(number, start, number, end)


class AnchorResolver:
    """Resolved spans are kept until an edit touches their line: typing in one line re-scans only that line's
    anchors, not those of every link issue in the file."""

    def __init__(self) -> None:
        self._spans: dict[Anchor, Span] = {}

    def forget(self, touched: range | None = None) -> None:
        """Drop the spans on the `touched` lines, or every span (lines were added or removed: all may have moved)."""
        if touched is None:
            self._spans.clear()
        else:
            for anchor in [anchor for anchor in self._spans if anchor.line in touched]:
                del self._spans[anchor]

    def span(self, lines: Sequence[str], anchor: Anchor) -> Span:
        found = self._spans.get(anchor)
        if found is None:
            found = self._spans[anchor] = _resolve(lines, anchor)
        return found


def _resolve(lines: Sequence[str], anchor: Anchor) -> Span:
    number = anchor.line
    if not anchor.path or not 0 <= number < len(lines):
        return line_span(lines, number)
    line = lines[number]
    found = jsonscan.path_span(line, anchor.path, anchor.key, jsonscan.scan(line))
    if found is None:
        return line_span(lines, number)
    return Span(number, found[0], number, found[1])
