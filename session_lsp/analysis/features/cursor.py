"""What is under the cursor: the JSON path and value at a column, and the link written there.

Scans only the cursor's line (a hover or definition costs O(line length)); on a glued line it scans the record
the cursor is in.
"""

from __future__ import annotations

import msgspec

from .. import jsonscan
from ..diagnostics import Span
from ..document import Document
from ..jsonscan import Path
from ..results import Reference


class Cursor(msgspec.Struct, frozen=True):
    line: int
    path: Path
    span: Span
    """The key or value under the cursor."""
    on_key: bool
    value: str | None
    """The string value at `path` (also when the cursor is on its key), else None."""
    value_span: Span | None
    """The span of the value at `path` (the string including its quotes)."""

    @property
    def field(self) -> str | None:
        last = self.path[-1] if self.path else None
        return last if isinstance(last, str) else None


def root_at(doc: Document, line: int, col: int) -> jsonscan.Node | None:
    if not 0 <= line < len(doc.lines):
        return None
    parts = doc.results[line].parts
    start = max((part for part in parts if part <= col), default=0)
    return jsonscan.scan(doc.lines[line], start)


def cursor_at(doc: Document, line: int, col: int) -> Cursor | None:
    root = root_at(doc, line, col)
    if root is None:
        return None
    text = doc.lines[line]
    hit = jsonscan.at(text, col, root)
    if hit is None:
        return None
    node = jsonscan.find(root, hit.path)
    value = jsonscan.string_value(text, node) if node is not None else None
    value_span = Span(line, node.start, line, node.end) if node is not None else None
    return Cursor(line, hit.path, Span(line, hit.start, line, hit.end), hit.on_key, value, value_span)


def reference_at(doc: Document, cursor: Cursor) -> Reference | None:
    """The link written at the cursor's path (cursor on its key or its value)."""
    model = doc.linked.model
    if model is None:
        return None
    for reference in model.references_from(cursor.line):
        if tuple(reference.path) == cursor.path:
            return reference
    return None


def is_identity(doc: Document, cursor: Cursor) -> bool:
    """The cursor is on the field other lines use to name this line's entry (an Elyra `id`, a thndrs turn id)."""
    model = doc.linked.model
    if model is None:
        return False
    found = model.identity(cursor.line)
    return found is not None and tuple(found[0]) == cursor.path
