"""The Elyra outline and folds, from the tree layout: the conversation tree nested only where it branches (a linear
run of any length is one level), the active branch first; a fold is a stretch of consecutive entries of one run.
Built without recursion (a tree can be as deep as the file is long) and from the line titles the line pass made."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence

from ..results import LineResult
from ..structure import Budget, Outline, OutlineNode
from .model import ElyraModel
from .tree import Run, layout


def outline(model: ElyraModel, results: Sequence[LineResult], title: Callable[[int], str], budget: Budget) -> Outline:
    out: list[OutlineNode] = []
    header = model.header_line
    if header is not None and budget.take():
        facts = model.facts(header)
        detail = " · ".join(part for part in (title(header), facts.id) if part)
        out.append(OutlineNode(model.session_name or "session", detail, "file", header, header, header))
    tree = layout(model)
    roots = len(tree.top.branches) if not tree.top.lines else 1
    stack: list[tuple[Run, list[OutlineNode], int, int]] = [(tree.top, out, -1, 0)]
    while stack:
        run, into, index, count = stack.pop()
        if index >= 0:
            if not budget.take():
                budget.cut += run.size
                continue
            into.append(_branch(title, run, count, "root" if into is out and roots > 1 else "branch"))
            into = into[-1].children
        for number in run.lines:
            if budget.take():
                into.append(_entry(model, title, number))
            else:
                budget.cut += 1
        total = len(run.branches)
        stack.extend((branch, into, i, total) for i, branch in reversed(list(enumerate(run.branches))))
    if tree.unreached:
        first, last = tree.unreached[0], tree.unreached[-1]
        loop = OutlineNode(f"⚠ {len(tree.unreached):,} entries on a parentId loop", "no root leads to them; pi's "
                           "walk from them never ends", "namespace", first, last, first, [])
        for number in tree.unreached:
            if budget.take():
                loop.children.append(_entry(model, title, number))
            else:
                budget.cut += 1
        out.append(loop)
    return Outline(out, "entries")


def _entry(model: ElyraModel, title: Callable[[int], str], number: int) -> OutlineNode:
    label = model.label(number)
    notes = [f"line {number + 1}"]
    if label:
        notes.append(f"label {label}")
    if model.leaf == number:
        notes.append("leaf")
    count = len(model.children(number))
    if count > 1:
        notes.append(f"{count} branches")
    return OutlineNode(title(number) or f"line {number + 1}", " · ".join(notes), "event", number, number,
                       number)


def _branch(title: Callable[[int], str], run: Run, count: int, noun: str) -> OutlineNode:
    first = run.lines[0]
    marker = f"active {noun}" if run.active else noun
    name = f"⎇ {marker} {run.number}/{count}: {title(first)}"
    detail = f"{run.size:,} entries from line {first + 1}"
    return OutlineNode(name, detail, "namespace", run.first, run.last, first, [])


def folds(model: ElyraModel) -> list[tuple[int, int]]:
    """A branch's entries are scattered over the file in general, so what folds is each stretch of entries of one
    run that are adjacent among the entry lines (a blank or broken line between them does not count)."""
    position = array("i", [-1]) * len(model.line_facts)
    for index, line in enumerate(model.entry_lines):
        position[line] = index
    out: list[tuple[int, int]] = []
    for run in layout(model).order:
        lines = sorted(run.lines)
        begin = 0
        for index in range(1, len(lines) + 1):
            if index == len(lines) or position[lines[index]] != position[lines[index - 1]] + 1:
                if lines[index - 1] > lines[begin]:
                    out.append((lines[begin], lines[index - 1]))
                begin = index
    out.sort()
    return out
