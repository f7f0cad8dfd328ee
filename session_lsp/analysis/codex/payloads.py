"""Codex's structure for the editor: the outline by turn, hover card rows, lenses, and the `sessionLsp/tree` payload
(turns with their records, the records outside every turn apart), read from the model."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial

from ..detect import FormatInfo
from ..payload_types import Buffer, RecordNode, ThndrsRecord, ThndrsTree, TurnNode, around_last, array
from ..results import LineResult
from ..structure import Budget, Lens, Outline, OutlineNode
from . import schema as s
from .context import context
from .model import CodexModel, Turn

__all__ = ["card_rows", "context", "folds", "lenses", "outline", "tree"]

_SHOWN = frozenset({"response_item", "compacted"})


def _named(results: Sequence[LineResult], title: Callable[[int], str], line: int) -> str:
    """A line's title, or what names a line without one."""
    return title(line) or _untitled(results, line)


def _untitled(results: Sequence[LineResult], line: int) -> str:
    """What names a line without a title: its item's kind, or its record's type."""
    facts = results[line].facts
    return getattr(facts, "kind", None) or getattr(facts, "tag", "") or ""


def _prompt(model: CodexModel, named: Callable[[int], str], turn: Turn) -> str:
    """A turn's name: its prompt's, as `named` names a line."""
    for index in turn.records:
        if model.records[index].facts.prompt:
            return named(model.records[index].line)
    return f"turn {turn.turn_id or ''}".strip()


def outline(model: CodexModel, results: Sequence[LineResult], title: Callable[[int], str],
            budget: Budget) -> Outline:
    """One node a turn (named by its prompt), its response items and compactions inside; the lines before the first
    turn (the session metadata, the initial context) first."""
    named = partial(_named, results, title)
    nodes: list[OutlineNode] = []
    in_turn = {index for turn in model.turns for index in turn.records}
    for index, record in enumerate(model.records):
        if index in in_turn or record.facts.tag not in (*_SHOWN, "session_meta"):
            continue
        if not budget.take():
            budget.cut += 1
            continue
        nodes.append(OutlineNode(named(record.line), record.facts.tag, "object", record.line, record.line,
                                 record.line, []))
    for turn in model.turns:
        if not budget.take():
            budget.cut += 1
            continue
        detail = {"task_complete": "complete", "turn_complete": "complete",
                  "turn_aborted": "aborted"}.get(turn.end or "", "not finished")
        node = OutlineNode(_prompt(model, named, turn), detail, "namespace", turn.line, turn.last, turn.line, [])
        for index in turn.records:
            record = model.records[index]
            if record.facts.tag not in _SHOWN:
                continue
            if not budget.take():
                budget.cut += 1
                continue
            sent = index in model.sent or record.facts.tag == "compacted"
            node.children.append(OutlineNode(named(record.line), "" if sent else "not sent on resume",
                                             "event", record.line, record.line, record.line, []))
        nodes.append(node)
    nodes.sort(key=lambda n: n.first)
    return Outline(nodes, "records")


def folds(model: CodexModel) -> list[tuple[int, int]]:
    """Each turn, from its task_started event to the record before the next turn (the outline's ranges)."""
    return [(turn.line, turn.last) for turn in model.turns if turn.last > turn.line]


def lenses(model: CodexModel) -> list[Lens]:
    """Each compaction (the history restarts there) and the end of the history Codex resumes."""
    out = [Lens(r.line, "⧉ compaction: on resume Codex sends its replacement history, not what is above")
           for r in model.records if r.facts.tag == "compacted" and r.facts.readable]
    if model.records and model.meta is not None:
        out.append(Lens(model.records[-1].line, f"● Codex resumes with {len(model.history)} items in the history"))
    return out


def card_rows(model: CodexModel, line: int) -> list[str]:
    index = model.at_line.get(line)
    if index is None:
        return []
    f = model.records[index].facts
    rows = [f"`{f.tag}`" + (f" `{f.kind}`" if f.kind else "")]
    if f.tag == "response_item":
        rows.append("sent on resume" if index in model.sent else "not sent on resume")
    if f.call_id is not None and f.kind in s.CALLS:
        outputs = model.outputs.get(f.call_id, [])
        rows.append(f"call `{f.name or ''}` {f.call_id}: " + (
            ", ".join(f"output on line {model.records[o].line + 1}" for o in outputs) if outputs
            else "no output (Codex answers it \"aborted\")"))
    if f.turn_id is not None:
        start = model.turn_starts.get(f.turn_id)
        rows.append(f"turn {f.turn_id}" + (f" (started on line {model.records[start].line + 1})"
                                           if start is not None else ""))
    if f.session is not None:
        rows.append(f"thread {f.session}" + (f", forked from {f.forked_from}" if f.forked_from else ""))
    return rows


def tree(info: FormatInfo, results: Sequence[LineResult], title: Callable[[int], str],
         model: CodexModel) -> list[Buffer]:
    session = model.records[0].facts.session if model.meta is not None else None
    before, after = around_last(ThndrsTree(info.kind.value, info.version, info.label, len(model.records), session,
                                           None, []))
    return [before, *array(_nodes(results, title, model)), after]


def _nodes(results: Sequence[LineResult], title: Callable[[int], str],
           model: CodexModel) -> Iterator[TurnNode | RecordNode]:
    named = partial(_named, results, title)
    in_turn = {index: turn for turn in model.turns for index in turn.records}
    emitted: set[int] = set()
    for index, record in enumerate(model.records):
        turn = in_turn.get(index)
        if turn is None:
            yield RecordNode(record.line, record.facts.tag, named(record.line))
            continue
        if turn.line in emitted:
            continue
        emitted.add(turn.line)
        yield TurnNode(turn.turn_id or "", turn.line, _prompt(model, named, turn), turn.end is not None,
                       [ThndrsRecord(model.records[i].line, model.records[i].facts.kind or model.records[i].facts.tag,
                                     named(model.records[i].line)) for i in turn.records])
