"""Code lenses and inlay hints, as the format's model places them: at each branch point how many branches there are
and which one is active, on the leaf that pi resumes from there, and (thndrs) at each turn how many records it has
and whether it is settled."""

from __future__ import annotations

from ..anchors import line_span
from ..document import Document
from .types import CodeLens, InlayHint

REVEAL = "sessionLsp.revealLine"
"""Client command the lenses name: move the cursor to the 0-based line in `arguments[0]`."""


def code_lenses(doc: Document) -> list[CodeLens]:
    return [CodeLens(line_span(doc.lines, lens.line), lens.title, REVEAL if lens.target is not None else None,
                     (lens.target,) if lens.target is not None else ()) for lens in doc.session.lenses()]


def inlay_hints(doc: Document, start_line: int, end_line: int) -> list[InlayHint]:
    """Hints for lines start_line..end_line inclusive; costs O(lines in the range)."""
    hints = doc.session.hints(max(start_line, 0), min(end_line, len(doc.lines) - 1))
    return [InlayHint(hint.line, len(doc.lines[hint.line].rstrip()), hint.label, tooltip=hint.tooltip)
            for hint in hints]
