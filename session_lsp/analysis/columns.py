"""Integer columns changed a run at a time at C speed, without numpy: the link models keep per-position arrays that
move with the subtrees they describe, and a relink adds one amount to long runs of them (every depth in a moved
subtree, every subtree end on a 50,000-entry path)."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, MutableMapping
from itertools import compress, count
from typing import TypeVar

_ORDER = sys.byteorder
Column = TypeVar("Column", "array[int]", bytearray)
U64 = "L" if array("L").itemsize == 8 else "Q"
"""The type code of 64-bit unsigned values whose conversion from an int takes CPython's fast path (`Q` goes through
`_PyLong_AsByteArray`, about 400 instructions a value, where `L` takes 30 when it is 64 bits wide)."""


def shift(column: array[int], start: int, stop: int, by: int) -> None:
    """Add `by` to `column[start:stop]`, each of whose values is, before and after, within 0 .. 2**31 - 1.
    The run is read as one unsigned integer, a digit of `itemsize` bytes a value, and `by` is added to every digit
    in one big-integer addition: no digit leaves its range, so none carries into the next. About 0.7 ms for 50,000
    values, against 7 ms for a Python loop."""
    if not by or stop <= start:
        return
    width = column.itemsize
    view = memoryview(column).cast("B")[start * width : stop * width]
    ones = int.from_bytes((1).to_bytes(width, _ORDER) * (stop - start), _ORDER)
    view[:] = (int.from_bytes(view, _ORDER) + by * ones).to_bytes(len(view), _ORDER)


def cut_and_insert(column: Column, start: int, stop: int, at: int) -> None:
    """Move `column[start:stop]` so that it begins at `at`, an index of the column with the run taken out."""
    run = column[start:stop]
    del column[start:stop]
    column[at:at] = run


def line_column(lines: Iterable[int]) -> array[int]:
    """Line numbers (each within 0 .. 2**31 - 1) as an `i` column, converted through the unsigned type and a list:
    `array("i", ...)` parses each value with `PyArg_Parse`, three times the cost, and more from an iterator."""
    column = array("i")
    column.frombytes(array("I", lines if type(lines) in (list, range) else list(lines)).tobytes())
    return column


def counting(start: int, count: int) -> array[int]:
    """`array("i", range(start, start + count))`, for values within 0 .. 2**31 - 1, built by doubling: each copy of
    the run so far is shifted by its length at once (see `shift`). About 1 ms for 100,000 values, against 6 ms
    through `range`, which the array reads value by value."""
    if count < 64:
        return line_column(range(start, start + count))
    column = array("i", [start])
    while len(column) < count:
        more = column[: count - len(column)]
        shift(more, 0, len(more), len(column))
        column.extend(more)
    return column


class ColumnMap(MutableMapping[int, int]):
    """A mapping of integers to integers for keys `line << shift | part`, most lines having one key (a result's
    line, shift 0; a call packed with its block index, shift 20): a line's slot, one 64-bit value, holds its first
    key's value + 1 (0: none) and, with a shift, that key's part above bit 32; 8 bytes where a dictionary spends
    about 100 with its two int objects. A second key of a line, and a value a slot cannot hold (below 0, or from
    2**32 with a shift), are in a dictionary."""

    __slots__ = ("_column", "_mask", "_others", "_shift", "_size")

    def __init__(self, lines: int, shift: int = 0) -> None:
        self._column = array(U64, bytes(8 * lines))
        self._others: dict[int, int] = {}
        self._shift = shift
        self._mask = (1 << shift) - 1
        self._size = 0

    @classmethod
    def over(cls, column: array[int]) -> ColumnMap:
        """The mapping (shift 0) whose slots are `column`, filled already: a line's value + 1, 0 for none."""
        new = cls(0)
        new._column, new._size = column, len(column) - column.count(0)
        return new

    def claim(self, key: int, value: int) -> int | None:
        """`key`'s value; None when it had none, and then it is `value` (a pairing's first answers, set once each:
        one call a key, where `get` and a set would be two)."""
        shift, column = self._shift, self._column
        line = key >> shift
        if 0 <= line < len(column):
            found = column[line]
            if not found:
                if 0 <= value < (LOW if shift else _FULL) and (not self._others or key not in self._others):
                    column[line] = (key & self._mask) << PART | value + 1 if shift else value + 1
                    self._size += 1
                    return None
            elif not shift:
                return found - 1
            elif found >> PART == key & self._mask:
                return (found & LOW) - 1
        given = self._others.get(key)
        if given is None:  # no slot can hold it: out of the lines, a value too large, or another part in the slot
            self._others[key] = value
            self._size += 1
        return given

    @property
    def slots(self) -> array[int]:
        """The slot a line (of a key with a part: part << PART | value + 1, the value below LOW), for a loop over a
        million keys that sets them inline (a method call a key would cost more than the loop) and calls `recount`
        when it is done. A key goes to the dictionary only when its line's slot holds another part, so a loop that
        only adds keys may take an empty slot for one its key is not in."""
        return self._column

    def recount(self) -> None:
        self._size = len(self._column) - self._column.count(0) + len(self._others)

    def missing(self, keys: Iterable[int]) -> list[int]:
        """The keys among `keys` that the mapping does not hold, in their order, in one loop (not a call a key)."""
        shift, column, mask, others = self._shift, self._column, self._mask, self._others
        size = len(column)
        return [key for key in keys if not (0 <= (line := key >> shift) < size and (found := column[line]) and (
            not shift or found >> PART == key & mask)) and key not in others]

    def _slot(self, key: object) -> int:
        """The line whose slot `key` may have, or -1 when only the dictionary can hold it."""
        if type(key) is int and 0 <= key >> self._shift < len(self._column):
            return key >> self._shift
        return -1

    def get(self, key: int, default: int | None = None) -> int | None:  # type: ignore[override]
        line = self._slot(key)
        if line >= 0:
            found = self._column[line]
            if not self._shift:
                if found:
                    return found - 1
            elif found and found >> PART == key & self._mask:
                return (found & LOW) - 1
        return self._others.get(key, default)

    def __getitem__(self, key: int) -> int:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None  # type: ignore[arg-type]

    def __setitem__(self, key: int, value: int) -> None:
        line = self._slot(key)
        if line >= 0:
            found, shift = self._column[line], self._shift
            part = key & self._mask
            holds = bool(found) and (not shift or found >> PART == part)
            if (not found or holds) and 0 <= value < (LOW if shift else _FULL):
                if not found and self._others.pop(key, None) is None:
                    self._size += 1
                self._column[line] = part << PART | (value + 1) if shift else value + 1
                return
            if holds:  # a value the slot cannot hold: the key moves to the dictionary
                self._column[line] = 0
                self._size -= 1
        if key not in self._others:
            self._size += 1
        self._others[key] = value

    def __delitem__(self, key: int) -> None:
        line = self._slot(key)
        if line >= 0:
            found = self._column[line]
            if found and (not self._shift or found >> PART == key & self._mask):
                self._column[line] = 0
                self._size -= 1
                return
        del self._others[key]
        self._size -= 1

    def __iter__(self) -> Iterator[int]:
        shift, column = self._shift, self._column
        for line in compress(count(), column):
            yield line << shift | (column[line] >> PART if shift else 0)
        yield from self._others

    def __len__(self) -> int:
        return self._size


PART = 32
LOW = (1 << PART) - 1
_FULL = (1 << 64) - 1
"""A slot of a `ColumnMap` with a shift: the key's part above bit 32, the value + 1 below it."""
