"""Quick fixes for diagnostics that have exactly one sensible repair. Every fix keeps every line's content: it
changes values, or splits a line, and never deletes one.

Input is the core `Diagnostic`s the client sent for the range; a fix reads what it needs from the document (and
from the diagnostic's `data` when the rule left a suggestion there).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .. import jsonscan
from ..diagnostics import Diagnostic, Span
from ..document import Document
from ..lines import LineKind, split_glued
from ..text import fresh_id
from .edits import replace_line, replace_value
from .types import CodeAction, TextEdit
from .values import elyra_parent_above

SEQ_CODES = ("THN030", "THN031", "THN032", "THN033")


def _touches(diagnostic: Diagnostic, span: Span) -> bool:
    return diagnostic.span.line <= span.end_line and diagnostic.span.end_line >= span.line


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _split_glued(doc: Document, diagnostic: Diagnostic) -> CodeAction | None:
    line = diagnostic.span.line
    if doc.results[line].kind is not LineKind.GLUED:
        return None
    pieces = split_glued(doc.lines[line], doc.results[line].parts)
    edit = replace_line(doc.lines, line, "\n".join(pieces))
    return CodeAction(f"Split into {len(pieces)} lines", "quickfix", (edit,), (diagnostic.code,), True)


def _reparent(doc: Document, diagnostic: Diagnostic) -> CodeAction | None:
    line = diagnostic.span.line
    data = diagnostic.data or {}
    parent = data["suggested_parent"] if "suggested_parent" in data else elyra_parent_above(doc, line)
    edit = replace_value(doc.lines, line, ("parentId",), _json(parent))
    if edit is None:
        return None
    title = (f"Set parentId to {parent!r} (the entry above)" if parent is not None
             else "Set parentId to null (no entry above: make this a root)")
    return CodeAction(title, "quickfix", (edit,), (diagnostic.code,), True)


def _reid(doc: Document, diagnostic: Diagnostic) -> CodeAction | None:
    """The later of two entries with one id gets a fresh id (one a rename would take), and the lines the model says
    meant this entry by it are pointed at it."""
    model, face = doc.linked.model, doc.face
    line = diagnostic.span.line
    target = face.reid(model, line) if model is not None else None
    if model is None or target is None:
        return None
    data = diagnostic.data or {}
    new = data.get("new_id") or fresh_id(f"{target.value}/{line}",
                                         lambda candidate: face.rename_refusal(model, target, candidate) is not None)
    (number, path), *later = target.places
    edit = replace_value(doc.lines, number, path, _json(new))
    if edit is None:
        return None
    edits = [edit]
    for number, path in later:
        change = replace_value(doc.lines, number, path, _json(new))
        if change is not None:
            edits.append(change)
    moved = len(edits) - 1
    title = f"Give this entry the fresh id {new!r}" + (f" and update the {moved} line{'s' if moved != 1 else ''} "
                                                       "written after it" if moved else "")
    return CodeAction(title, "quickfix", tuple(edits), (diagnostic.code,), True)


def _hook_message(doc: Document, diagnostic: Diagnostic) -> CodeAction | None:
    edit = replace_value(doc.lines, diagnostic.span.line, ("message", "role"), '"custom"')
    if edit is None:
        return None
    return CodeAction('Rename role "hookMessage" to "custom"', "quickfix", (edit,), (diagnostic.code,), True)


def _renumber(doc: Document, codes: tuple[str, ...]) -> CodeAction | None:
    """The record numbers in line order, as the format's writer numbers them."""
    model = doc.linked.model
    if model is None:
        return None
    numbering = doc.face.renumbering(model)
    edits: list[TextEdit] = []
    for number, path, value in numbering.changes:
        found = jsonscan.value_span(doc.lines[number], path)
        if found is not None:
            edits.append(TextEdit(Span(number, found[0], number, found[1]), str(value)))
    if not edits:
        return None
    count = numbering.count
    title = f"Renumber seq 0..{count - 1} in line order ({len(edits)} record{'s' if len(edits) != 1 else ''} change)"
    return CodeAction(title, "quickfix", tuple(edits), codes, False)


_FIXES = {"ELY042": _reparent, "ELY040": _reid, "ELY024": _hook_message}
"""Fixes that depend on what a code means; splitting a glued line is every format's (the line pass says a line is
glued), so it is offered for the diagnostic on such a line (ELY002, THN001, CCD002, ...) whatever its code."""


def code_actions(doc: Document, span: Span, diagnostics: Sequence[Diagnostic]) -> list[CodeAction]:
    out: list[CodeAction] = []
    seq_codes: list[str] = []
    split: set[int] = set()
    for diagnostic in diagnostics:
        if not _touches(diagnostic, span) or not 0 <= diagnostic.span.line < len(doc.lines):
            continue
        line = diagnostic.span.line
        if doc.results[line].kind is LineKind.GLUED:
            action = _split_glued(doc, diagnostic) if line not in split else None
            split.add(line)
            if action is not None:
                out.append(action)
            continue
        if diagnostic.code in SEQ_CODES:
            seq_codes.append(diagnostic.code)
            continue
        fix = _FIXES.get(diagnostic.code)
        action = fix(doc, diagnostic) if fix is not None else None
        if action is not None:
            out.append(action)
    if seq_codes:
        action = _renumber(doc, tuple(dict.fromkeys(seq_codes)))
        if action is not None:
            out.append(action)
    return out
