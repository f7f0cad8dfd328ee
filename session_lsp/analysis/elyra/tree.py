"""The Elyra tree cut into runs: a run is a chain of entries each the only child of the one before; it ends at a
leaf or at a branch point, where its branches (one run per child, the active one first) begin. An outline nests
only at branch points, so a linear session of any length is one run. Built iteratively in O(n)."""

from __future__ import annotations

from array import array

import msgspec

from .model import NONE, ElyraModel


class Run(msgspec.Struct):
    lines: list[int]
    branches: list[Run] = []
    active: bool = False
    """Whether the leaf is in this run or below it."""
    number: int = 1
    """Its place among its siblings as pi's tree view orders them (by timestamp), from 1."""
    size: int = 0
    """Entries in the run and every branch below it."""
    first: int = 0
    last: int = 0
    """The lowest and highest line in the run and below it."""


class Layout(msgspec.Struct):
    top: Run
    """The roots: one root's run directly, or a run without lines whose branches are the roots."""
    unreached: list[int]
    """Entries no root leads to (they sit on a parentId loop, where pi's walk hangs)."""
    order: list[Run]
    """Every run, parents before their branches."""


def layout(model: ElyraModel) -> Layout:
    """One layout per model, kept in the model's `views`: the model is replaced whenever the link pass runs again,
    and kept while edits leave the links alone, so outline, folding and tree requests between two link passes share
    one layout, and it goes with its model."""
    found = model.views.get("layout")
    if not isinstance(found, Layout):
        found = model.views["layout"] = _build(model)
    return found


def _build(model: ElyraModel) -> Layout:
    active = model.active_path
    first_child, next_sibling = model.first_child, model.next_sibling

    def chain(line: int) -> tuple[Run, list[int]]:
        """The run from `line` down, and the children where it ends (none, or two and more)."""
        lines = [line]
        child = first_child[line]
        while child != NONE and next_sibling[child] == NONE:
            line = child
            lines.append(line)
            child = first_child[line]
        return Run(lines, [], lines[0] in active), model.children(line) if child != NONE else []

    roots = model.roots
    if len(roots) == 1:
        top, below = chain(roots[0])
        pending = [(top, below)]
    else:
        top = Run([], [], bool(roots))
        pending = [(top, list(roots))]
    order: list[Run] = []
    while pending:
        run, below = pending.pop()
        order.append(run)
        if below:
            made = [chain(child) for child in below]
            run.branches = _ordered([branch for branch, _ in made])
            pending.extend(made)
    reached = array("b", bytes(len(model.line_facts)))
    for run in reversed(order):
        run.size = len(run.lines) + sum(branch.size for branch in run.branches)
        lows = [*run.lines, *(branch.first for branch in run.branches)]
        highs = [*run.lines, *(branch.last for branch in run.branches)]
        run.first, run.last = (min(lows), max(highs)) if lows else (0, 0)
        for line in run.lines:
            reached[line] = 1
    unreached = [line for line in model.entry_lines if not reached[line]]
    return Layout(top, unreached, order)


def _ordered(branches: list[Run]) -> list[Run]:
    """The active branch first, the others in the order pi's tree view shows them."""
    for number, run in enumerate(branches, 1):
        run.number = number
    return sorted(branches, key=lambda run: not run.active)
