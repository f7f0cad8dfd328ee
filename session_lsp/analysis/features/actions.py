"""Code actions: the editor's face of `fixes.py`. A quick fix is one diagnostic's `Fix` (safe ones preferred); the
"fix all" source action is `fixes.fix_document` with the safe fixes, the same run as `session-lsp fix`, as one
edit of the lines it changed.

Input is the core `Diagnostic`s the client sent for the range; a fix reads what it needs from the document (and
from the diagnostic's `data` when the rule left a suggestion there).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..diagnostics import Diagnostic, Span
from ..document import Document
from ..registry import Applicability
from .fixes import Select, fix_document, fixable, fixes
from .types import CodeAction, TextEdit

FIX_ALL = "source.fixAll.session-lsp"


def _touches(diagnostic: Diagnostic, span: Span) -> bool:
    return diagnostic.span.line <= span.end_line and diagnostic.span.end_line >= span.line


def code_actions(doc: Document, span: Span, diagnostics: Sequence[Diagnostic]) -> list[CodeAction]:
    """A quick fix for each diagnostic touching `span` that has one (unsafe ones say so in their title)."""
    touching = [d for d in diagnostics if _touches(d, span) and 0 <= d.span.line < len(doc.lines)]
    return [CodeAction(fix.title if fix.safe else f"{fix.title} (unsafe fix)", "quickfix", fix.edits, fix.codes,
                       fix.safe) for fix in fixes(doc, touching)]


def fix_all(doc: Document, select: Select = lambda found: found) -> CodeAction | None:
    """Every safe fix, to a fixpoint, as one edit from the first changed line to the last; None when nothing
    changes."""
    if not any(fixable(d) is Applicability.SAFE for d in select(doc.diagnostics())):
        return None
    repaired = fix_document(doc, select)
    if not repaired.applied:
        return None
    edit = changed_lines(doc.lines, repaired.text.split("\n"))
    if edit is None:
        return None
    count = len(repaired.applied)
    codes = tuple(dict.fromkeys(code for fix in repaired.applied for code in fix.codes))
    return CodeAction(f"Fix all safe problems ({count} fix{'es' if count != 1 else ''}, session-lsp)", FIX_ALL,
                      (edit,), codes)


def changed_lines(old: Sequence[str], new: Sequence[str]) -> TextEdit | None:
    """One edit replacing the lines that differ (from the first to the last) with their new text."""
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    if head == len(old) == len(new):
        return None
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    old_end = len(old) - 1 - tail
    new_lines = new[head:len(new) - tail]
    if old_end < head:  # lines inserted only: at the start of line `head`
        return TextEdit(Span(head, 0, head, 0), "".join(line + "\n" for line in new_lines))
    if not new_lines:  # lines deleted only: with their line breaks
        if old_end + 1 < len(old):
            return TextEdit(Span(head, 0, old_end + 1, 0), "")
        return TextEdit(Span(head - 1, len(old[head - 1]), old_end, len(old[old_end])), "")
    return TextEdit(Span(head, 0, old_end, len(old[old_end])), "\n".join(new_lines))
