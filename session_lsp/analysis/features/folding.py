"""Folding ranges. A branch's entries are scattered over the file in general, so what folds is each stretch of
consecutive entries that belong to one run of the tree (Elyra) or to one turn (thndrs)."""

from __future__ import annotations

from array import array

from ..document import Document
from ..elyra.model import ElyraModel
from . import turns
from .elyra_tree import layout
from .types import FoldingRange
from .views import elyra_view, thndrs_model


def folding_ranges(doc: Document) -> list[FoldingRange]:
    elyra = elyra_view(doc)
    if elyra is not None:
        return _elyra(elyra)
    model = thndrs_model(doc)
    if model is None:
        return []
    last_line = {turn_id: turn.lines[-1] for turn_id, turn in model.turns.items() if turn.lines}
    found = turns.groups(doc.results, last_line)
    return [FoldingRange(first, last) for group, first, last in turns.segments(found)
            if group.turn_id is not None and last > first]


def _elyra(model: ElyraModel) -> list[FoldingRange]:
    """Consecutive means adjacent among the entry lines (a blank or broken line between them does not count)."""
    position = array("i", [-1]) * len(model.line_facts)
    for index, line in enumerate(model.entry_lines):
        position[line] = index
    out: list[FoldingRange] = []
    for run in layout(model).order:
        lines = sorted(run.lines)
        begin = 0
        for index in range(1, len(lines) + 1):
            if index == len(lines) or position[lines[index]] != position[lines[index - 1]] + 1:
                if lines[index - 1] > lines[begin]:
                    out.append(FoldingRange(lines[begin], lines[index - 1]))
                begin = index
    out.sort(key=lambda r: (r.start_line, r.end_line))
    return out
