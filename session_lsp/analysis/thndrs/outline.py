"""What an editor shows of a thndrs file's turns: the outline (one symbol per turn holding its records), the folds
(each turn's consecutive lines), the lenses (per turn: its records and whether it is settled), the card rows, and
the seq numbers its writer would give the records."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..jsonscan import Path
from ..results import LineResult
from ..structure import Budget, Lens, Outline, OutlineNode, Renumbering
from .model import ThndrsModel
from .turns import Group, groups, segments


def turn_groups(model: ThndrsModel, results: Sequence[LineResult]) -> list[Group]:
    last_line = {turn_id: turn.lines[-1] for turn_id, turn in model.turns.items() if turn.lines}
    return groups(results, last_line)


def _record(title: Callable[[int], str], number: int) -> OutlineNode:
    return OutlineNode(title(number) or f"line {number + 1}", f"line {number + 1}", "event", number, number,
                       number)


def outline(model: ThndrsModel, results: Sequence[LineResult], title: Callable[[int], str],
            budget: Budget) -> Outline:
    out: list[OutlineNode] = []
    for group in turn_groups(model, results):
        if group.turn_id is None:
            if budget.take():
                out.append(_record(title, group.lines[0]))
            else:
                budget.cut += 1
            continue
        if not budget.take():
            budget.cut += len(group.lines)
            continue
        head = group.user if group.user is not None else group.lines[0]
        turn = model.turns.get(group.turn_id)
        settled = turn is not None and turn.closing is not None
        name = title(group.user) if group.user is not None else "no user record"
        own = len(turn.lines) if turn is not None else len(group.lines)
        loose = len(group.lines) - own  # records without a turn_id (usage, context) written inside this turn
        detail = (f"{own} record{'s' if own != 1 else ''}" + (f" + {loose} without a turn_id" if loose else "")
                  + ("" if settled else ", not settled"))
        node = OutlineNode(f"{group.turn_id} — {name}", detail, "namespace", group.lines[0], group.lines[-1], head,
                           [])
        for number in group.lines:
            if budget.take():
                node.children.append(_record(title, number))
            else:
                budget.cut += 1
        out.append(node)
    return Outline(out, "records")


def folds(model: ThndrsModel, results: Sequence[LineResult]) -> list[tuple[int, int]]:
    return [(first, last) for group, first, last in segments(turn_groups(model, results))
            if group.turn_id is not None and last > first]


def lenses(model: ThndrsModel) -> list[Lens]:
    out: list[Lens] = []
    for turn in model.turns.values():
        if turn.user is None:
            continue
        state = "settled" if turn.closing is not None else "not settled (cannot be forked)"
        count = len(turn.lines)
        out.append(Lens(turn.user, f"{turn.turn_id}: {count} record{'s' if count != 1 else ''}, {state}",
                        turn.closing))
    out.sort(key=lambda lens: lens.line)
    return out


def card_rows(model: ThndrsModel, record: Mapping[str, Any]) -> list[str]:
    rows: list[str] = []
    for key, shown in (("seq", "seq"), ("time", "time"), ("turn_id", "turn"), ("call_id", "call"),
                       ("name", "tool"), ("status", "status")):
        value = record.get(key)
        if value is not None and not isinstance(value, (dict, list)):
            rows.append(f"{shown} `{value}`")
    turn_id = record.get("turn_id")
    if isinstance(turn_id, str) and turn_id in model.turns:
        turn = model.turns[turn_id]
        settled = "settled" if turn.closing is not None else "not settled (no closing record)"
        rows.append(f"turn has {len(turn.lines)} record{'s' if len(turn.lines) != 1 else ''}, {settled}")
    return rows


def renumbering(model: ThndrsModel) -> Renumbering:
    """seq 0, 1, 2, ... over the records in line order, as thndrs' writer numbers them."""
    count = 0
    changes: list[tuple[int, Path, int]] = []
    for number, facts in enumerate(model.facts):
        if facts is None:
            continue
        if facts.seq is not None and facts.seq != count:
            changes.append((number, ("seq",), count))
        count += 1
    return Renumbering(count, tuple(changes))
