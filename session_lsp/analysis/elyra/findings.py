"""Columns for the Elyra line pass's findings (`results.Finding`: a code, a JSON path, which part to mark).

Checks only name paths; `to_issues` turns them into columns with `locate`, which walks just the path, so a clean
line never pays for positions and a line with a note pays little.
"""

from __future__ import annotations

from ..diagnostics import LineIssue
from ..results import Finding, Mark
from ..text import content_span
from . import locate


def to_issues(text: str, findings: list[Finding]) -> tuple[LineIssue, ...]:
    whole = content_span(text)
    out: list[LineIssue] = []
    for found in findings:
        start, end = _span(text, found) or whole
        # a missing field's path goes with it: the fix that adds the field needs it, and the span only shows where
        data = {"missing": list(found.path)} if found.mark is Mark.MISSING and found.path else None
        out.append(LineIssue(found.code, start, end, found.message, found.severity, data))
    return tuple(out)


def _span(text: str, found: Finding) -> tuple[int, int] | None:
    path = found.path
    if not path:
        return None
    if found.mark is not Mark.MISSING:
        spans = locate.spans(text, path)
        if spans is None:
            return None
        key, value = spans
        return key if found.mark is Mark.KEY and key is not None else value
    enclosing = path[:-1]
    if enclosing and isinstance(enclosing[-1], str):
        spans = locate.spans(text, enclosing)
        return None if spans is None else spans[0]
    first = locate.first_key(text, enclosing)
    if first is not None:
        return first
    spans = locate.spans(text, enclosing)
    return None if spans is None else spans[1]
