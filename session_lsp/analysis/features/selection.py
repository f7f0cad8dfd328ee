"""Selection ranges: grow from the value under the cursor to its member, the enclosing objects, and the line."""

from __future__ import annotations

from collections.abc import Sequence

from .. import jsonscan
from ..anchors import line_span
from ..diagnostics import Span
from ..document import Document
from .types import SelectionRange


def _chain(text: str, col: int, parts: tuple[int, ...]) -> list[tuple[int, int]]:
    """Column ranges around `col`, innermost first: value (or key), member, object, member, ... root value.
    On a glued line the root is the record the cursor is in."""
    start = max((part for part in parts if part <= col), default=0)
    root = jsonscan.scan(text, start)
    if root is None or not root.start <= col <= root.end:
        return []
    outer: list[tuple[int, int]] = [(root.start, root.end)]
    node = root
    while True:
        inner: tuple[int, int] | None = None
        child: jsonscan.Node | None = None
        for _key, key_start, key_end, value in node.members or ():
            if key_start <= col < key_end:
                outer.append((key_start, value.end))
                inner = (key_start, key_end)
                break
            if value.start <= col < value.end or (col == value.end and value.kind not in ("object", "array")):
                outer.append((key_start, value.end))
                child = value
                break
        for value in node.items or ():
            if value.start <= col < value.end or (col == value.end and value.kind not in ("object", "array")):
                child = value
                break
        if inner is not None:
            outer.append(inner)
            break
        if child is None:
            break
        outer.append((child.start, child.end))
        node = child
    outer.reverse()
    return outer


def _at(doc: Document, line: int, col: int) -> SelectionRange:
    inside = 0 <= line < len(doc.lines)
    text = doc.lines[line] if inside else ""
    parts = doc.results[line].parts if inside else ()
    stripped = line_span(doc.lines, line)
    result = SelectionRange(Span(line, 0, line, len(text)))
    for start, end in reversed([*_chain(text, col, parts), (stripped.start, stripped.end)]):
        if (result.span.start, result.span.end) != (start, end):
            result = SelectionRange(Span(line, start, line, end), result)
    return result


def selection_ranges(doc: Document, positions: Sequence[tuple[int, int]]) -> list[SelectionRange]:
    return [_at(doc, line, col) for line, col in positions]
