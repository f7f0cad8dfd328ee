"""Claude Code's structure for the editor: the outline (the resumed conversation, then what is off it), hover card
rows, and the `sessionLsp/tree` payload (every chain record by uuid/parentUuid, sidechains apart, the resume leaf
marked), read from the model."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..detect import FormatInfo
from ..payload_types import Buffer, ElyraNode, ElyraTree, around_last, array
from ..results import LineResult
from ..structure import Budget, Hint, Lens, Outline, OutlineNode
from . import turns
from .context import context
from .model import ClaudeModel
from .turns import branch_lenses

__all__ = ["call_card", "card_rows", "context", "folds", "hints", "lenses", "outline", "tree"]


def _named(results: Sequence[LineResult], title: Callable[[int], str], line: int) -> str:
    """A line's title, or what names a line without one."""
    return title(line) or _untitled(results, line)


def _untitled(results: Sequence[LineResult], line: int) -> str:
    """What names a line without a title: its record's type."""
    return results[line].facts.tag if hasattr(results[line].facts, "tag") else ""


def outline(model: ClaudeModel, results: Sequence[LineResult], title: Callable[[int], str],
            budget: Budget) -> Outline:
    """The resumed conversation turn by turn (a prompt, then the records answering it), then "off the resumed
    chain": the records Claude Code does not send (other branches, sidechains, rows a later one replaced)."""
    nodes: list[OutlineNode] = []
    turn: OutlineNode | None = None
    for index in model.chain:
        record = model.records[index]
        f = record.facts
        if f.tag not in ("user", "assistant", "system"):
            continue
        if not budget.take():
            budget.cut += 1
            continue
        detail = "resume leaf" if index == model.leaf else f.subtype or f.tag
        node = OutlineNode(_named(results, title, record.line) or f.tag, detail, "event", record.line, record.line,
                           record.line, [])
        if (f.tag == "user" and not f.results) or f.subtype == "compact_boundary":
            turn = OutlineNode(node.name, detail, "namespace", record.line, record.line, record.line, [])
            nodes.append(turn)
        elif turn is not None:
            turn.children.append(node)
            turn.last = record.line
        else:
            nodes.append(node)
    off = [r for i, r in enumerate(model.records)
           if r.facts.tag in ("user", "assistant") and i not in model.on_chain and r.part == 0]
    if off:
        group = OutlineNode("off the resumed chain", f"{len(off)} records Claude Code does not send", "object",
                            off[0].line, off[-1].line, off[0].line, [])
        for record in off:
            if not budget.take():
                budget.cut += 1
                continue
            detail = "sidechain" if record.facts.sidechain else "not sent"
            group.children.append(OutlineNode(_named(results, title, record.line) or record.facts.tag, detail, "object",
                                              record.line, record.line, record.line, []))
        nodes.append(group)
    return Outline(nodes, "records")


def lenses(model: ClaudeModel) -> list[Lens]:
    """Where the conversation branches (and which branch is resumed), each compaction boundary on the chain, and the
    leaf Claude Code resumes from."""
    out = branch_lenses(model)
    out += [Lens(model.records[i].line, "⧉ compaction: Claude Code sends the summary below, not what is above")
           for i in model.chain if model.records[i].facts.subtype == "compact_boundary"]
    if model.leaf is not None:
        out.append(Lens(model.records[model.leaf].line,
                        f"● leaf: Claude Code resumes from this record ({len(model.chain)} records on the chain)"))
    return out


def card_rows(model: ClaudeModel, line: int, obj: Mapping[str, Any]) -> list[str]:
    """Where the record sits and what it links to, with its time and (a response's) model from `obj`, the record
    as decoded for the card."""
    record = model.at_line.get(line)
    if record is None:
        return []
    f = record.facts
    rows = [f"`{f.subtype}`"] if f.subtype else []
    message = obj.get("message")
    written = message.get("model") if isinstance(message, dict) and f.tag == "assistant" else None
    if isinstance(written, str):
        rows.append(f"model `{written}`")
    if isinstance(obj.get("timestamp"), str):
        rows.append(f"time {obj['timestamp']}")
    place = chain_row(model, line)
    if place:
        rows.append(place)
    if f.sidechain:
        rows.append("sidechain (a subagent's record)")
    if f.message_id is not None:
        rows.append(f"API message `{f.message_id}`")
    if f.uses:
        rows.append("calls: " + ", ".join(f"`{name}` {call}" for call, name in zip(f.uses, f.tool_names,
                                                                                      strict=False)))
    if f.agent_result is not None:
        rows.append(f"subagent transcript: `subagents/agent-{f.agent_result}.jsonl`")
    return rows


def chain_row(model: ClaudeModel, line: int) -> str | None:
    """Where the record on `line` sits on the chain Claude Code resumes."""
    record = model.at_line.get(line)
    f = record.facts if record is not None else None
    index = model.by_uuid.get(f.uuid) if f is not None and f.uuid is not None else None
    if index is not None and index == model.leaf:
        return "the leaf Claude Code resumes from"
    if index is not None and index in model.on_chain:
        return f"on the resumed chain ({model.chain.index(index) + 1} of {len(model.chain)})"
    if f is not None and f.uuid is not None and f.has_parent:
        return "not on the chain Claude Code resumes: not sent"
    return None


def call_card(model: ClaudeModel, line: int, call_id: str) -> tuple[str, list[str]] | None:
    return turns.call_card(model, line, call_id, chain_row(model, line))


def folds(model: ClaudeModel) -> list[tuple[int, int]]:
    return turns.folds(model)


def hints(model: ClaudeModel, first: int, last: int) -> list[Hint]:
    return turns.hints(model, first, last)


def tree(info: FormatInfo, results: Sequence[LineResult], title: Callable[[int], str],
         model: ClaudeModel) -> list[Buffer]:
    """Every record of the conversation by uuid. The resumed chain is shown in the order Claude Code sends it, each
    record below the one sent before it: the result of one of parallel calls, which the file hangs below its own
    call, and a response's records off the chain are not branches of it. Records off the chain hang below their
    `parentUuid` (a dangling one bridged as Claude Code bridges it), so a rewind or an earlier resume is a branch."""
    chain_lines = [model.records[i].line for i in model.chain]
    leaf = model.records[model.leaf].line if model.leaf is not None else None
    indices = [i for i, r in enumerate(model.records)
               if r.facts.uuid is not None and r.facts.has_parent and model.by_uuid.get(r.facts.uuid) == i]
    nodes = set(indices)
    parents: dict[int, int | None] = {}
    previous = None
    for index in model.chain:
        if index in nodes:
            parents[index] = previous
            previous = index
    children: dict[int, list[int]] = {}
    roots: list[int] = []
    for index in indices:
        if index not in parents:
            f = model.records[index].facts
            parent = model.by_uuid.get(f.parent) if f.parent is not None else None
            parents[index] = parent if parent is not None else model.bridged.get(index)
        parent = parents[index]
        if parent is None or parent == index:
            parents[index] = None
            roots.append(model.records[index].line)
        else:
            children.setdefault(parent, []).append(index)
    session = next((r.facts.session for r in model.records if r.facts.session is not None), None)
    before, after = around_last(ElyraTree(info.kind.value, info.version, info.label, len(indices), info.header_line,
                                          leaf, chain_lines, roots, session, []))
    return [before, *array(_nodes(results, title, model, indices, parents, children)), after]


def _nodes(results: Sequence[LineResult], title: Callable[[int], str], model: ClaudeModel, indices: list[int],
           parents: dict[int, int | None], children: dict[int, list[int]]) -> Iterator[ElyraNode]:
    for index in indices:
        record = model.records[index]
        f = record.facts
        parent = parents[index]
        kids = sorted(children.get(index, ()), key=lambda i: i not in model.on_chain)
        yield ElyraNode(f.uuid, record.line, f.tag, f.subtype if f.tag != "user" and f.tag != "assistant" else f.tag,
                        _named(results, title, record.line), "sidechain" if f.sidechain else None,
                        model.records[parent].line if parent is not None else None,
                        [model.records[k].line for k in kids], index in model.on_chain, index == model.leaf)
