"""Document symbols. Elyra: the conversation tree, nested only where it branches (a linear run of any length is
one level), the active branch first. thndrs: one symbol per turn holding its records. Past `limit` symbols a last
symbol says how many entries were left out, so a huge file is never cut silently.

Built without recursion (a tree can be as deep as the file is long) and from the line titles the line pass
already made: nothing is decoded again.
"""

from __future__ import annotations

import msgspec

from ..anchors import line_span
from ..diagnostics import Span
from ..document import Document
from ..elyra.model import ElyraModel
from ..thndrs.model import ThndrsModel
from . import turns
from .elyra_tree import Run, layout
from .types import Symbol
from .views import child_count, elyra_view, entry_label, thndrs_model


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit
        self.cut = 0

    def take(self) -> bool:
        if self.left > 0:
            self.left -= 1
            return True
        return False


class _Node(msgspec.Struct):
    """A symbol under construction (children are still being added)."""

    name: str
    detail: str
    kind: str
    span: Span
    selection: Span
    children: list[_Node] = []


def _freeze(nodes: list[_Node]) -> list[Symbol]:
    """Post-order, iteratively: every child becomes a Symbol before its parent does."""
    done: dict[int, Symbol] = {}
    stack: list[tuple[_Node, bool]] = [(node, False) for node in reversed(nodes)]
    while stack:
        node, expanded = stack.pop()
        if not expanded:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.children))
            continue
        kids = tuple(done.pop(id(child)) for child in node.children)
        done[id(node)] = Symbol(node.name, node.detail, node.kind, node.span, node.selection, kids)
    return [done[id(node)] for node in nodes]


def _line(doc: Document, number: int) -> Span:
    return line_span(doc.lines, number)


def _around(doc: Document, first: int, last: int) -> Span:
    return Span(first, _line(doc, first).start, last, _line(doc, last).end)


def document_symbols(doc: Document, limit: int = 5000) -> list[Symbol]:
    budget = _Budget(limit)
    thndrs = thndrs_model(doc)
    elyra = elyra_view(doc)
    if thndrs is not None:
        nodes, noun = _thndrs(doc, thndrs, budget), "records"
    elif elyra is not None:
        nodes, noun = _elyra(doc, elyra, budget), "entries"
    else:
        return []
    if budget.cut:
        where = _line(doc, len(doc.lines) - 1)
        nodes.append(_Node(f"… {budget.cut:,} more {noun} not shown", f"the outline stops at {limit:,} symbols",
                           "null", where, where))
    return _freeze(nodes)


def _record(doc: Document, number: int) -> _Node:
    span = _line(doc, number)
    return _Node(doc.results[number].title or f"line {number + 1}", f"line {number + 1}", "event", span, span)


def _thndrs(doc: Document, model: ThndrsModel, budget: _Budget) -> list[_Node]:
    last_line = {turn_id: turn.lines[-1] for turn_id, turn in model.turns.items() if turn.lines}
    out: list[_Node] = []
    for group in turns.groups(doc.results, last_line):
        if group.turn_id is None:
            if budget.take():
                out.append(_record(doc, group.lines[0]))
            else:
                budget.cut += 1
            continue
        if not budget.take():
            budget.cut += len(group.lines)
            continue
        head = group.user if group.user is not None else group.lines[0]
        turn = model.turns.get(group.turn_id)
        settled = turn is not None and turn.closing is not None
        title = doc.results[group.user].title if group.user is not None else "no user record"
        own = len(turn.lines) if turn is not None else len(group.lines)
        loose = len(group.lines) - own  # records without a turn_id (usage, context) written inside this turn
        detail = (f"{own} record{'s' if own != 1 else ''}" + (f" + {loose} without a turn_id" if loose else "")
                  + ("" if settled else ", not settled"))
        node = _Node(f"{group.turn_id} — {title}", detail, "namespace",
                     _around(doc, group.lines[0], group.lines[-1]), _line(doc, head), [])
        for number in group.lines:
            if budget.take():
                node.children.append(_record(doc, number))
            else:
                budget.cut += 1
        out.append(node)
    return out


def _entry(doc: Document, model: ElyraModel, number: int) -> _Node:
    span = _line(doc, number)
    label = entry_label(model, number)
    notes = [f"line {number + 1}"]
    if label:
        notes.append(f"label {label}")
    if model.leaf == number:
        notes.append("leaf")
    count = child_count(model, number)
    if count > 1:
        notes.append(f"{count} branches")
    return _Node(doc.results[number].title or f"line {number + 1}", " · ".join(notes), "event", span, span)


def _elyra(doc: Document, model: ElyraModel, budget: _Budget) -> list[_Node]:
    out: list[_Node] = []
    header = model.header_line
    if header is not None and budget.take():
        span = _line(doc, header)
        facts = model.facts(header)
        detail = " · ".join(part for part in (doc.results[header].title, facts.id) if part)
        out.append(_Node(model.session_name or "session", detail, "file", span, span))
    tree = layout(model)
    roots = len(tree.top.branches) if not tree.top.lines else 1
    stack: list[tuple[Run, list[_Node], int, int]] = [(tree.top, out, -1, 0)]
    while stack:
        run, into, index, count = stack.pop()
        if index >= 0:
            if not budget.take():
                budget.cut += run.size
                continue
            into.append(_branch(doc, run, count, "root" if into is out and roots > 1 else "branch"))
            into = into[-1].children
        for number in run.lines:
            if budget.take():
                into.append(_entry(doc, model, number))
            else:
                budget.cut += 1
        total = len(run.branches)
        stack.extend((branch, into, i, total) for i, branch in reversed(list(enumerate(run.branches))))
    if tree.unreached:
        first, last = tree.unreached[0], tree.unreached[-1]
        loop = _Node(f"⚠ {len(tree.unreached):,} entries on a parentId loop", "no root leads to them; pi's walk "
                     "from them never ends", "namespace", _around(doc, first, last), _line(doc, first), [])
        for number in tree.unreached:
            if budget.take():
                loop.children.append(_entry(doc, model, number))
            else:
                budget.cut += 1
        out.append(loop)
    return out


def _branch(doc: Document, run: Run, count: int, noun: str) -> _Node:
    first = run.lines[0]
    marker = f"active {noun}" if run.active else noun
    name = f"⎇ {marker} {run.number}/{count}: {doc.results[first].title}"
    detail = f"{run.size:,} entries from line {first + 1}"
    return _Node(name, detail, "namespace", _around(doc, run.first, run.last), _line(doc, first), [])
