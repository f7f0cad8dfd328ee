"""JSON payloads of the custom requests `sessionLsp/tree` (the whole conversation structure, for a tree view) and
`sessionLsp/context` (what the agent would send from a line). Plain dicts, lists, strings and numbers only."""

from __future__ import annotations

from typing import Any

from ..document import Document
from ..elyra.context import build_context
from ..elyra.facts import EntryFacts
from . import excerpt, turns
from .views import elyra_view, entry_label, thndrs_model


def _base(doc: Document) -> dict[str, Any]:
    return {"format": doc.format.kind.value, "version": doc.format.version, "label": doc.format.label}


def tree(doc: Document) -> dict[str, Any]:
    """Elyra: one node per entry (children by line, active branch first), the active path and the leaf.
    thndrs: one node per turn (its records inside) and per record outside any turn. Nodes are named by line
    number, since ids may be missing or repeated."""
    out = _base(doc)
    model = elyra_view(doc)
    if model is not None:
        nodes = []
        active = model.active_path
        for line in model.entry_lines:
            facts: EntryFacts = model.line_facts[line]
            children = model.children(line)
            children.sort(key=lambda child: child not in active)
            nodes.append({
                "id": facts.id, "line": line, "type": facts.type, "role": facts.role,
                "title": doc.results[line].title, "label": entry_label(model, line), "parent": model.parent(line),
                "children": children, "on_active_path": line in active, "is_leaf": line == model.leaf,
            })
        out.update(entry_count=len(model.entry_lines), header_line=model.header_line, leaf=model.leaf,
                   active_path=list(active), roots=list(model.roots), session_name=model.session_name,
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


_THNDRS_ROLES = {"user": "user", "assistant_finished": "assistant", "reasoning_finished": "reasoning",
                 "failed": "error", "cancelled": "cancelled"}


def context(doc: Document, line: int) -> dict[str, Any]:
    """Elyra: the messages pi sends when the entry on `line` is the leaf (the file's leaf when `line` is not an
    entry). thndrs: the texts of the turn `line` belongs to."""
    out = _base(doc)
    model = elyra_view(doc)
    if model is not None:
        leaf = line if model.is_entry(line) else model.leaf
        messages = build_context(doc.lines, model, leaf)
        out.update(leaf=leaf, messages=[{"role": m.role, "text": m.text, "line": m.line, "note": m.note}
                                        for m in messages])
        return out
    thndrs = thndrs_model(doc)
    facts = doc.results[line].facts if thndrs is not None and 0 <= line < len(doc.lines) else None
    turn = thndrs.turns.get(facts.turn_id) if thndrs is not None and facts is not None and facts.turn_id else None
    if turn is None:
        out.update(turn_id=None, messages=[])
        return out
    messages = []
    for number in turn.lines:
        role = _THNDRS_ROLES.get(doc.results[number].facts.type)
        obj = excerpt.record(doc.lines[number]) if role is not None else None
        text = excerpt.entry_text(obj) if obj is not None else None
        if role is not None and text is not None:
            messages.append({"role": role, "text": text, "line": number})
    out.update(turn_id=turn.turn_id, messages=messages)
    return out
