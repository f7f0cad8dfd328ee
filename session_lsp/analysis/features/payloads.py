"""JSON payloads of the custom requests `sessionLsp/tree` (the whole conversation structure, for a tree view) and
`sessionLsp/context` (what the agent would send from a line). Plain dicts, lists, strings and numbers only."""

from __future__ import annotations

from typing import Any

from ..document import Document
from ..elyra.context import build_context
from ..elyra.facts import EntryFacts
from ..elyra.model import NONE
from ..thndrs.model import ThndrsModel, Turn
from . import excerpt, turns
from .values import HORIZON
from .views import elyra_view, thndrs_model


def _base(doc: Document) -> dict[str, Any]:
    return {"format": doc.format.kind.value, "version": doc.format.version, "label": doc.format.label}


def tree(doc: Document) -> dict[str, Any]:
    """Elyra: one node per entry (children by line, active branch first), the active path and the leaf.
    thndrs: one node per turn (its records inside) and per record outside any turn. Nodes are named by line
    number, since ids may be missing or repeated."""
    out = _base(doc)
    model = elyra_view(doc)
    if model is not None:
        nodes: list[dict[str, Any]] = []
        active = set(model.active_path)
        labels = {model.by_id[target]: label for target, (label, _) in model.labels.items() if target in model.by_id}
        results, facts_of, parent_of = doc.results, model.line_facts, model.parent_of
        first_child, next_sibling = model.first_child, model.next_sibling
        for line in model.entry_lines:
            facts: EntryFacts = facts_of[line]
            children = []
            child = first_child[line]
            while child != NONE:
                children.append(child)
                child = next_sibling[child]
            if len(children) > 1:
                children.sort(key=lambda child: child not in active)
            up = parent_of[line]
            nodes.append({
                "id": facts.id, "line": line, "type": facts.type, "role": facts.role,
                "title": results[line].title, "label": labels.get(line), "parent": None if up == NONE else up,
                "children": children, "on_active_path": line in active, "is_leaf": line == model.leaf,
            })
        out.update(entry_count=len(model.entry_lines), header_line=model.header_line, leaf=model.leaf,
                   active_path=list(model.active_path), roots=list(model.roots), session_name=model.session_name,
                   nodes=nodes)
        return out
    thndrs = thndrs_model(doc)
    if thndrs is None:
        out.update(entry_count=0, nodes=[])
        return out
    last_line = {turn_id: turn.lines[-1] for turn_id, turn in thndrs.turns.items() if turn.lines}
    nodes = []
    count = 0
    for group in turns.groups(doc.results, last_line):
        records = [{"line": line, "type": doc.results[line].facts.type, "title": doc.results[line].title}
                   for line in group.lines]
        count += len(records)
        if group.turn_id is None:
            nodes.append({"kind": "record", **records[0]})
            continue
        turn = thndrs.turns.get(group.turn_id)
        head = group.user if group.user is not None else group.lines[0]
        nodes.append({
            "kind": "turn", "id": group.turn_id, "line": head,
            "title": doc.results[group.user].title if group.user is not None else "no user record",
            "settled": turn is not None and turn.closing is not None, "records": records,
        })
    out.update(entry_count=count, session_id=thndrs.session_id, title=thndrs.title, nodes=nodes)
    return out


def _turn_around(doc: Document, model: ThndrsModel, line: int) -> Turn | None:
    """The turn of the record on `line`; for a record without a turn_id (usage, context...), the turn whose lines
    enclose it, found by walking up a bounded stretch."""
    for number in range(line, max(-1, line - HORIZON), -1):
        facts = doc.results[number].facts
        turn_id = getattr(facts, "turn_id", None)
        if turn_id is not None:
            turn = model.turns.get(turn_id)
            return turn if turn is not None and turn.lines[-1] >= line else None
    return None


_THNDRS_ROLES = {"user": "user", "assistant_finished": "assistant", "reasoning_finished": "reasoning",
                 "failed": "error", "cancelled": "cancelled"}


def context(doc: Document, line: int) -> dict[str, Any]:
    """Elyra: the messages pi sends when the entry on `line` is the leaf (the file's leaf when `line` is not an
    entry). thndrs: the texts of the turn `line` belongs to."""
    out = _base(doc)
    model = elyra_view(doc)
    if model is not None:
        leaf = line if model.is_entry(line) else model.leaf
        messages = build_context(doc.lines, model, leaf, doc.options.pi_version)
        out.update(leaf=leaf, messages=[{"role": m.role, "text": m.text, "line": m.line, "note": m.note}
                                        for m in messages])
        return out
    thndrs = thndrs_model(doc)
    turn = _turn_around(doc, thndrs, line) if thndrs is not None and 0 <= line < len(doc.lines) else None
    if turn is None:
        out.update(turn_id=None, messages=[])
        return out
    texts: list[dict[str, Any]] = []
    for number in turn.lines:
        role = _THNDRS_ROLES.get(doc.results[number].facts.type)
        obj = excerpt.record(doc.lines[number]) if role is not None else None
        text = excerpt.entry_text(obj) if obj is not None else None
        if role is not None and text is not None:
            texts.append({"role": role, "text": text, "line": number})
    out.update(turn_id=turn.turn_id, messages=texts)
    return out
