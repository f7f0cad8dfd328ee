"""The Elyra tree cut into runs: a run is a chain of entries each the only child of the one before; it ends at a
leaf or at a branch point, where its branches (one run per child, the active one first) begin. An outline nests
only at branch points, so a linear session of any length is one run. Built iteratively in O(n)."""

from __future__ import annotations

from array import array

import msgspec

from ..elyra.model import ElyraModel


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
    active = model.active_path
    start, children = model.child_start, model.child_list

    def chain(line: int) -> Run:
        lines = [line]
        while start[line + 1] - start[line] == 1:
            line = children[start[line]]
            lines.append(line)
        return Run(lines, [], lines[0] in active)

    roots = model.roots
    top = chain(roots[0]) if len(roots) == 1 else Run([], [], bool(roots))
    pending = [top] if len(roots) == 1 else []
    if len(roots) != 1:
        top.branches = _ordered([chain(root) for root in roots])
        pending.extend(top.branches)
    order = [top]
    while pending:
        run = pending.pop()
        if run is not top:
            order.append(run)
        end = run.lines[-1]
        count = start[end + 1] - start[end]
        if count > 1:
            run.branches = _ordered([chain(children[index]) for index in range(start[end], start[end + 1])])
            pending.extend(run.branches)
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
