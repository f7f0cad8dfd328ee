"""thndrs records grouped the way an outline shows them: each turn with its records, in file order. A record
without a turn_id (usage, context, ...) that sits inside a turn's lines belongs to that turn; others stand alone."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..results import LineResult
from .facts import RecordFacts


class Group(msgspec.Struct):
    turn_id: str | None
    """None for a record outside every turn (then `lines` has one line)."""
    lines: list[int]
    user: int | None = None


def groups(results: Sequence[LineResult], last_line: dict[str, int]) -> list[Group]:
    """`last_line`: turn id -> its last line (from the model), so a turn knows where it ends."""
    out: list[Group] = []
    open_turns: dict[str, Group] = {}
    current: Group | None = None
    for number, result in enumerate(results):
        facts = result.facts
        if not isinstance(facts, RecordFacts):
            continue
        turn_id = facts.turn_id
        if turn_id is not None:
            group = open_turns.get(turn_id)
            if group is None:
                group = open_turns[turn_id] = Group(turn_id, [])
                out.append(group)
            group.lines.append(number)
            if facts.type == "user" and group.user is None:
                group.user = number
            current = group if last_line.get(turn_id, number) > number else None
        elif current is not None and current.turn_id is not None and last_line.get(current.turn_id, -1) > number:
            current.lines.append(number)
        else:
            current = None
            out.append(Group(None, [number]))
    return out


def segments(found: Sequence[Group]) -> list[tuple[Group, int, int]]:
    """Maximal stretches of records (in file order) that belong to one group, as (group, first, last line):
    lines that hold no record (blank, broken) do not interrupt a stretch."""
    owner = sorted((line, index) for index, group in enumerate(found) for line in group.lines)
    out: list[tuple[Group, int, int]] = []
    last_index = -1
    for line, index in owner:
        if out and index == last_index:
            out[-1] = (out[-1][0], out[-1][1], line)
        else:
            out.append((found[index], line, line))
        last_index = index
    return out
