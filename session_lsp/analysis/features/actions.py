"""Quick fixes for diagnostics that have exactly one sensible repair. Every fix keeps every line's content."""

from __future__ import annotations

from collections.abc import Sequence

from ..diagnostics import Diagnostic, Span
from ..document import Document
from ..lines import LineKind, split_glued
from .edits import replace_line
from .types import CodeAction


def _touches(diagnostic: Diagnostic, span: Span) -> bool:
    return diagnostic.span.line <= span.end_line and diagnostic.span.end_line >= span.line


def _split_glued(doc: Document, diagnostic: Diagnostic) -> CodeAction | None:
    line = diagnostic.span.line
    if not 0 <= line < len(doc.lines) or doc.results[line].kind is not LineKind.GLUED:
        return None
    parts = doc.results[line].parts
    pieces = split_glued(doc.lines[line], parts)
    edit = replace_line(doc.lines, line, "\n".join(pieces))
    return CodeAction(f"Split into {len(pieces)} lines", "quickfix", (edit,), (diagnostic.code,), True)


def code_actions(doc: Document, span: Span, diagnostics: Sequence[Diagnostic]) -> list[CodeAction]:
    out: list[CodeAction] = []
    for diagnostic in diagnostics:
        if not _touches(diagnostic, span):
            continue
        fix = None
        if diagnostic.code in ("ELY002", "THN001"):
            fix = _split_glued(doc, diagnostic)
        if fix is not None:
            out.append(fix)
    return out
