"""Payloads of the custom requests `sessionLsp/tree` (the whole conversation structure, for a tree view) and
`sessionLsp/context` (what the agent would send from a line), as the Structs of `payload_types`, encoded to JSON.
`encode_tree` never holds a tree's nodes all at once: a million-entry session's tree goes out in parts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from ..document import Document
from ..elyra.context import build_context
from ..elyra.facts import EntryFacts
from ..elyra.model import NONE, ElyraModel
from ..payload_types import (
    Buffer,
    ElyraContext,
    ElyraMessage,
    ElyraNode,
    ElyraTree,
    OtherTree,
    RecordNode,
    ThndrsMessage,
    ThndrsRecord,
    ThndrsTree,
    TurnContext,
    TurnNode,
    around_last,
    array,
)
from ..thndrs.model import ThndrsModel, Turn
from . import excerpt, turns
from .values import HORIZON
from .views import elyra_view, thndrs_model


def encode_tree(doc: Document) -> list[Buffer]:
    """The JSON of `sessionLsp/tree`, in parts. Elyra: one node per entry (children by line, active branch first),
    the active path and the leaf. thndrs: one node per turn (its records inside) and per record outside any turn.
    Nodes are named by line number, since ids may be missing or repeated."""
    model = elyra_view(doc)
    if model is not None:
        return _elyra_tree(doc, model)
    thndrs = thndrs_model(doc)
    if thndrs is not None:
        return _thndrs_tree(doc, thndrs)
    return [msgspec.json.encode(OtherTree(doc.format.kind.value, doc.format.version, doc.format.label, 0, ()))]


def tree(doc: Document) -> dict[str, Any]:
    """The payload of `sessionLsp/tree` as JSON values (the CLI prints it)."""
    decoded: dict[str, Any] = msgspec.json.decode(b"".join(encode_tree(doc)))
    return decoded


def _elyra_tree(doc: Document, model: ElyraModel) -> list[Buffer]:
    before, after = around_last(ElyraTree(
        doc.format.kind.value, doc.format.version, doc.format.label, len(model.entry_lines), model.header_line,
        model.leaf, list(model.active_path), list(model.roots), model.session_name, []))
    return [before, *array(_elyra_nodes(doc, model)), after]


def _elyra_nodes(doc: Document, model: ElyraModel) -> Iterator[ElyraNode]:
    active = model.active_path  # an O(1) membership test, where a set of a million lines would take 60 MB
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
        yield ElyraNode(facts.id, line, facts.type, facts.role, results[line].title, labels.get(line),
                        None if up == NONE else up, children, line in active, line == model.leaf)


def _thndrs_tree(doc: Document, model: ThndrsModel) -> list[Buffer]:
    last_line = {turn_id: turn.lines[-1] for turn_id, turn in model.turns.items() if turn.lines}
    groups = turns.groups(doc.results, last_line)
    before, after = around_last(ThndrsTree(doc.format.kind.value, doc.format.version, doc.format.label,
                                           sum(len(group.lines) for group in groups), model.session_id, model.title,
                                           []))
    return [before, *array(_thndrs_nodes(doc, model, groups)), after]


def _thndrs_nodes(doc: Document, model: ThndrsModel, groups: list[turns.Group]) -> Iterator[TurnNode | RecordNode]:
    results = doc.results
    for group in groups:
        if group.turn_id is None:
            line = group.lines[0]
            yield RecordNode(line, results[line].facts.type, results[line].title)
            continue
        turn = model.turns.get(group.turn_id)
        yield TurnNode(group.turn_id, group.user if group.user is not None else group.lines[0],
                       results[group.user].title if group.user is not None else "no user record",
                       turn is not None and turn.closing is not None,
                       [ThndrsRecord(line, results[line].facts.type, results[line].title) for line in group.lines])


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


def encode_context(doc: Document, line: int) -> bytes:
    """The JSON of `sessionLsp/context`. Elyra: the messages pi sends when the entry on `line` is the leaf (the
    file's leaf when `line` is not an entry). thndrs: the texts of the turn `line` belongs to."""
    model = elyra_view(doc)
    if model is not None:
        return msgspec.json.encode(_elyra_context(doc, model, line))
    return msgspec.json.encode(_thndrs_context(doc, thndrs_model(doc), line))


def context(doc: Document, line: int) -> dict[str, Any]:
    """The payload of `sessionLsp/context` as JSON values (the CLI prints it)."""
    decoded: dict[str, Any] = msgspec.json.decode(encode_context(doc, line))
    return decoded


def _elyra_context(doc: Document, model: ElyraModel, line: int) -> ElyraContext:
    leaf = line if model.is_entry(line) else model.leaf
    messages = build_context(doc.lines, model, leaf, doc.options.pi_version)
    return ElyraContext(doc.format.kind.value, doc.format.version, doc.format.label, leaf,
                        [ElyraMessage(m.role, m.text, m.line, m.note) for m in messages])


def _thndrs_context(doc: Document, model: ThndrsModel | None, line: int) -> TurnContext:
    """Also the empty answer for a file that is not a session (no model)."""
    turn = _turn_around(doc, model, line) if model is not None and 0 <= line < len(doc.lines) else None
    texts: list[ThndrsMessage] = []
    for number in turn.lines if turn is not None else ():
        role = _THNDRS_ROLES.get(doc.results[number].facts.type)
        obj = excerpt.record(doc.lines[number]) if role is not None else None
        text = excerpt.entry_text(obj) if obj is not None else None
        if role is not None and text is not None:
            texts.append(ThndrsMessage(role, text, number))
    return TurnContext(doc.format.kind.value, doc.format.version, doc.format.label,
                       turn.turn_id if turn is not None else None, texts)
