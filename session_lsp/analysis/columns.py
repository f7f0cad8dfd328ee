"""Integer columns changed a run at a time at C speed, without numpy: the link models keep per-position arrays that
move with the subtrees they describe, and a relink adds one amount to long runs of them (every depth in a moved
subtree, every subtree end on a 50,000-entry path)."""

from __future__ import annotations

import sys
from array import array
from typing import TypeVar

_ORDER = sys.byteorder
Column = TypeVar("Column", "array[int]", bytearray)


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


def counting(start: int, count: int) -> array[int]:
    """`array("i", range(start, start + count))`, for values within 0 .. 2**31 - 1, built by doubling: each copy of
    the run so far is shifted by its length at once (see `shift`). About 1 ms for 100,000 values, against 6 ms
    through `range`, which the array reads value by value."""
    if count < 64:
        return array("i", range(start, start + count))
    column = array("i", [start])
    while len(column) < count:
        more = column[: count - len(column)]
        shift(more, 0, len(more), len(column))
        column.extend(more)
    return column
