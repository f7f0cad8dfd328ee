"""A unified diff of a file and its fixed text (`fix --diff`) that stays fast on large files.

difflib's matcher looks for the longest common run again inside every gap it leaves, and each search reads the whole
gap: a fix that changes every other line of 20,000 made it take a minute, and the time grows with the square of the
file. A fix never moves a line, so the lines that occur once in both texts pin the rest in place: the longest run of
them in the same order in both (patience sorting) splits the texts into gaps, each small, which difflib diffs as
before. Two texts that are small together are diffed by difflib whole, exactly as before.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Literal

Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]

WHOLE = 1_000_000
"""difflib diffs two texts whole while the product of their line counts is at most this (a gap between anchors
too); beyond it, the lines that occur once in both split them first."""
CONTEXT = 3


def unified_diff(old: Sequence[str], new: Sequence[str], old_name: str, new_name: str) -> list[str]:
    """The lines of a unified diff (each line of the texts keeps its own ending), as `difflib.unified_diff` writes
    it, with 3 lines of context."""
    matcher = difflib.SequenceMatcher(None, old, new) if len(old) * len(new) <= WHOLE else \
        _Anchored(list(_merged(_opcodes(old, new, 0, len(old), 0, len(new)))))
    out: list[str] = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        if not out:
            out += (f"--- {old_name}\n", f"+++ {new_name}\n")
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += (" " + line for line in old[i1:i2])
                continue
            out += ("-" + line for line in old[i1:i2])
            out += ("+" + line for line in new[j1:j2])
    return out


class _Anchored(difflib.SequenceMatcher[str]):
    """difflib's grouping into hunks, of opcodes found another way."""

    def __init__(self, opcodes: list[Opcode]) -> None:
        super().__init__(None, [], [])
        self.given = opcodes

    def get_opcodes(self) -> list[Opcode]:
        return self.given


def _range(start: int, stop: int) -> str:
    """A hunk's range as unified diffs write it: 1-based, the length left out when 1, the line before when empty."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _opcodes(old: Sequence[str], new: Sequence[str], a0: int, a1: int, b0: int, b1: int) -> Iterator[Opcode]:
    """The opcodes turning old[a0:a1] into new[b0:b1], positions absolute."""
    head = 0
    while a0 + head < a1 and b0 + head < b1 and old[a0 + head] == new[b0 + head]:
        head += 1
    if head:
        yield ("equal", a0, a0 + head, b0, b0 + head)
        a0, b0 = a0 + head, b0 + head
    tail = 0
    while a0 < a1 - tail and b0 < b1 - tail and old[a1 - tail - 1] == new[b1 - tail - 1]:
        tail += 1
    a1, b1 = a1 - tail, b1 - tail
    anchors = _anchors(old, new, a0, a1, b0, b1) if (a1 - a0) * (b1 - b0) > WHOLE else []
    if anchors:
        for i, j in anchors:
            yield from _opcodes(old, new, a0, i, b0, j)
            yield ("equal", i, i + 1, j, j + 1)
            a0, b0 = i + 1, j + 1
        yield from _opcodes(old, new, a0, a1, b0, b1)
    elif a0 < a1 or b0 < b1:
        yield from _gap(old, new, a0, a1, b0, b1)
    if tail:
        yield ("equal", a1, a1 + tail, b1, b1 + tail)


def _gap(old: Sequence[str], new: Sequence[str], a0: int, a1: int, b0: int, b1: int) -> Iterator[Opcode]:
    """difflib's opcodes of a gap no anchor splits (one too large for difflib is replaced whole)."""
    if not a0 < a1:
        yield ("insert", a0, a0, b0, b1)
    elif not b0 < b1:
        yield ("delete", a0, a1, b0, b0)
    elif (a1 - a0) * (b1 - b0) > WHOLE:
        yield ("replace", a0, a1, b0, b1)
    else:
        matcher = difflib.SequenceMatcher(None, old[a0:a1], new[b0:b1])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            yield (tag, a0 + i1, a0 + i2, b0 + j1, b0 + j2)


def _anchors(old: Sequence[str], new: Sequence[str], a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
    """The longest run of lines that occur once in old[a0:a1] and once in new[b0:b1], in the same order in both,
    as (old position, new position) pairs in order (patience sorting: O(n log n))."""
    once_old = _once(old, a0, a1)
    once_new = _once(new, b0, b1)
    pairs = [(i, once_new[line]) for line, i in once_old.items() if line in once_new]
    pairs.sort()
    tops: list[int] = []
    """Per pile, the new position on top (increasing across piles)."""
    top_pair: list[int] = []
    back: list[int] = []
    """Per pair, the pair on top of the pile before when it was placed (-1: none)."""
    for number, (_, j) in enumerate(pairs):
        pile = bisect_left(tops, j)
        back.append(top_pair[pile - 1] if pile else -1)
        if pile == len(tops):
            tops.append(j)
            top_pair.append(number)
        else:
            tops[pile] = j
            top_pair[pile] = number
    run: list[tuple[int, int]] = []
    number = top_pair[-1] if top_pair else -1
    while number >= 0:
        run.append(pairs[number])
        number = back[number]
    run.reverse()
    return run


def _once(lines: Sequence[str], start: int, stop: int) -> dict[str, int]:
    """The lines of lines[start:stop] that occur there once, with their positions."""
    seen: dict[str, int] = {}
    twice: set[str] = set()
    for number in range(start, stop):
        line = lines[number]
        if line in seen:
            twice.add(line)
        else:
            seen[line] = number
    for line in twice:
        del seen[line]
    return seen


def _merged(opcodes: Iterator[Opcode]) -> Iterator[Opcode]:
    """Adjacent opcodes of one tag as one, as difflib gives them."""
    held: Opcode | None = None
    for code in opcodes:
        if held is not None and held[0] == code[0] and held[2] == code[1] and held[4] == code[3]:
            held = (held[0], held[1], code[2], held[3], code[4])
            continue
        if held is not None:
            yield held
        held = code
    if held is not None:
        yield held
