"""thndrs's answers to the custom requests `sessionLsp/tree` (one node per turn, its records inside, and per record
outside any turn) and `sessionLsp/context` (the texts of the turn a line belongs to), as the Structs of
`payload_types`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from .. import excerpt
from ..detect import FormatInfo
from ..editing import HORIZON
from ..payload_types import (
    Buffer,
    RecordNode,
    ThndrsMessage,
    ThndrsRecord,
    ThndrsTree,
    TurnContext,
    TurnNode,
    around_last,
    array,
)
from ..results import LineResult
from .model import ThndrsModel, Turn
from .turns import Group, groups

_ROLES = {"user": "user", "assistant_finished": "assistant", "reasoning_finished": "reasoning",
          "failed": "error", "cancelled": "cancelled"}


def tree(info: FormatInfo, results: Sequence[LineResult], title: Callable[[int], str],
         model: ThndrsModel) -> list[Buffer]:
    last_line = {turn_id: turn.lines[-1] for turn_id, turn in model.turns.items() if turn.lines}
    found = groups(results, last_line)
    before, after = around_last(ThndrsTree(info.kind.value, info.version, info.label,
                                           sum(len(group.lines) for group in found), model.session_id, model.title,
                                           []))
    return [before, *array(_nodes(results, title, model, found)), after]


def _nodes(results: Sequence[LineResult], title: Callable[[int], str], model: ThndrsModel,
           found: list[Group]) -> Iterator[TurnNode | RecordNode]:
    for group in found:
        if group.turn_id is None:
            line = group.lines[0]
            yield RecordNode(line, results[line].facts.type, title(line))
            continue
        turn = model.turns.get(group.turn_id)
        yield TurnNode(group.turn_id, group.user if group.user is not None else group.lines[0],
                       title(group.user) if group.user is not None else "no user record",
                       turn is not None and turn.closing is not None,
                       [ThndrsRecord(line, results[line].facts.type, title(line)) for line in group.lines])


def _turn_around(results: Sequence[LineResult], model: ThndrsModel, line: int) -> Turn | None:
    """The turn of the record on `line`; for a record without a turn_id (usage, context...), the turn whose lines
    enclose it, found by walking up a bounded stretch."""
    for number in range(line, max(-1, line - HORIZON), -1):
        turn_id = getattr(results[number].facts, "turn_id", None)
        if turn_id is not None:
            turn = model.turns.get(turn_id)
            return turn if turn is not None and turn.lines[-1] >= line else None
    return None


def context(info: FormatInfo, lines: Sequence[str], results: Sequence[LineResult], model: ThndrsModel | None,
            line: int) -> TurnContext:
    """Also the empty answer for a file that is not a session (no model)."""
    turn = _turn_around(results, model, line) if model is not None and 0 <= line < len(lines) else None
    texts: list[ThndrsMessage] = []
    for number in turn.lines if turn is not None else ():
        role = _ROLES.get(results[number].facts.type)
        obj = excerpt.record(lines[number]) if role is not None else None
        text = excerpt.entry_text(obj) if obj is not None else None
        if role is not None and text is not None:
            texts.append(ThndrsMessage(role, text, number))
    return TurnContext(info.kind.value, info.version, info.label, turn.turn_id if turn is not None else None, texts)
