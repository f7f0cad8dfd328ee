"""Elyra's answers to the custom requests `sessionLsp/tree` (one node per entry, children by line, active branch
first) and `sessionLsp/context` (the messages pi sends from a leaf), as the Structs of `payload_types`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ..detect import FormatInfo
from ..payload_types import Buffer, ElyraContext, ElyraMessage, ElyraNode, ElyraTree, around_last, array
from ..results import LineResult
from .context import build_context
from .facts import EntryFacts
from .model import NONE, ElyraModel


def tree(info: FormatInfo, results: Sequence[LineResult], title: Callable[[int], str],
         model: ElyraModel) -> list[Buffer]:
    """Nodes are named by line number, since ids may be missing or repeated; they go out in parts (`array`)."""
    before, after = around_last(ElyraTree(
        info.kind.value, info.version, info.label, len(model.entry_lines), model.header_line,
        model.leaf, list(model.active_path), list(model.roots), model.session_name, []))
    return [before, *array(_nodes(title, model)), after]


def _nodes(title: Callable[[int], str], model: ElyraModel) -> Iterator[ElyraNode]:
    """Read from the model's columns (`entry_id_of`, `entry_kind_of`): no facts object is made for a line."""
    active = model.active_path  # an O(1) membership test, where a set of a million lines would take 60 MB
    labels = {model.by_id[target]: label for target, (label, _) in model.labels.items() if target in model.by_id}
    parent_of, first_child, next_sibling = model.parent_of, model.first_child, model.next_sibling
    entry_id_of, entry_kind_of = model.line_facts.entry_id_of, model.line_facts.entry_kind_of
    for line in model.entry_lines:
        children = []
        child = first_child[line]
        while child != NONE:
            children.append(child)
            child = next_sibling[child]
        if len(children) > 1:
            children.sort(key=lambda child: child not in active)
        up = parent_of[line]
        yield ElyraNode(entry_id_of(line), line, *entry_kind_of(line), title(line), labels.get(line),
                        None if up == NONE else up, children, line in active, line == model.leaf,
                        orphan(model, line) if up == NONE else None)


def orphan(model: ElyraModel, line: int) -> str | None:
    """Why the root on `line` is one although it names a parent (or names none at all in a tree version); None for
    a root with `parentId: null` and in a v1 file."""
    facts = model.line_facts[line]
    if not model.tree or type(facts) is not EntryFacts:
        return None
    parent_id = facts.parent_id
    if parent_id is None:
        return None if facts.has_parent else "it has no `parentId`"
    if parent_id == facts.id:
        return "its `parentId` is its own id"
    if parent_id not in model.by_id:
        return f"its parentId {parent_id!r} names no entry in this file"
    return None


def context(info: FormatInfo, lines: Sequence[str], model: ElyraModel, line: int,
            pi_version: str | None) -> ElyraContext:
    """From the entry on `line` as the leaf (the file's leaf when `line` is not an entry)."""
    leaf = line if model.is_entry(line) else model.leaf
    messages = build_context(lines, model, leaf, pi_version)
    cut_short = None
    if leaf is not None:
        root = model.path_to_root(leaf)[-1]
        why = orphan(model, root)
        if why is not None:
            cut_short = (f"pi's walk from the leaf stops at the entry on line {root + 1}: {why}, so the context "
                         "starts mid-conversation and nothing above that entry is sent")
    return ElyraContext(info.kind.value, info.version, info.label, leaf,
                        [ElyraMessage(m.role, m.text, m.line, m.note) for m in messages], cut_short)
