"""Code lenses and inlay hints: at each branch point how many branches there are and which one is active, on the
leaf that pi resumes from there, and (thndrs) at each turn how many records it has and whether it is settled."""

from __future__ import annotations

from ..anchors import line_span
from ..document import Document
from ..elyra.model import ElyraModel
from .types import CodeLens, InlayHint
from .views import child_count, elyra_view, thndrs_model

REVEAL = "sessionLsp.revealLine"
"""Client command the lenses name: move the cursor to the 0-based line in `arguments[0]`."""


def _active_child(model: ElyraModel, line: int) -> tuple[int, int] | None:
    """(1-based branch number, child line) of the branch the active path takes at this branch point."""
    for number, child in enumerate(model.children(line), 1):
        if child in model.active_path:
            return number, child
    return None


def _branch_text(model: ElyraModel, line: int) -> tuple[str, int | None]:
    count = child_count(model, line)
    active = _active_child(model, line)
    if active is None:
        return f"⎇ {count} branches (none leads to the leaf)", None
    return f"⎇ {count} branches · active: branch {active[0]} (line {active[1] + 1})", active[1]


LEAF_TEXT = "● leaf: pi resumes from this entry (the last line, not the deepest or newest)"


def code_lenses(doc: Document) -> list[CodeLens]:
    model = elyra_view(doc)
    if model is not None:
        out: list[CodeLens] = []
        for line in model.branch_points:
            title, target = _branch_text(model, line)
            span = line_span(doc.lines, line)
            out.append(CodeLens(span, title, REVEAL if target is not None else None,
                                (target,) if target is not None else ()))
        if model.leaf is not None:
            out.append(CodeLens(line_span(doc.lines, model.leaf), LEAF_TEXT))
        return out
    thndrs = thndrs_model(doc)
    if thndrs is None:
        return []
    out = []
    for turn in thndrs.turns.values():
        if turn.user is None:
            continue
        state = "settled" if turn.closing is not None else "not settled (cannot be forked)"
        count = len(turn.lines)
        title = f"{turn.turn_id}: {count} record{'s' if count != 1 else ''}, {state}"
        if turn.closing is not None:
            out.append(CodeLens(line_span(doc.lines, turn.user), title, REVEAL, (turn.closing,)))
        else:
            out.append(CodeLens(line_span(doc.lines, turn.user), title))
    out.sort(key=lambda lens: lens.span.line)
    return out


def inlay_hints(doc: Document, start_line: int, end_line: int) -> list[InlayHint]:
    """Hints for lines start_line..end_line inclusive; costs O(lines in the range)."""
    model = elyra_view(doc)
    if model is None:
        return []
    out: list[InlayHint] = []
    for line in range(max(start_line, 0), min(end_line, len(doc.lines) - 1) + 1):
        end = len(doc.lines[line].rstrip())
        if child_count(model, line) > 1:
            out.append(InlayHint(line, end, _branch_text(model, line)[0]))
        if model.leaf == line:
            out.append(InlayHint(line, end, "● leaf", tooltip=LEAF_TEXT))
    return out
