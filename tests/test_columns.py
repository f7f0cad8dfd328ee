"""A run of an integer column shifted at C speed equals the same run shifted value by value; a `ColumnMap` is the
dictionary it stands for."""

from __future__ import annotations

from array import array

from hypothesis import given
from hypothesis import strategies as st

from session_lsp.analysis.columns import LOW, PART, ColumnMap, counting, cut_and_insert, shift

LIMIT = 2**31 - 1


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[int], int, int, int]:
    values = draw(st.lists(st.integers(0, LIMIT), max_size=40))
    start = draw(st.integers(0, len(values)))
    stop = draw(st.integers(start, len(values)))
    run = values[start:stop]
    by = draw(st.integers(-min(run, default=0), LIMIT - max(run, default=0)))
    return values, start, stop, by


@given(runs())
def test_a_shifted_run_equals_each_value_shifted(case: tuple[list[int], int, int, int]) -> None:
    values, start, stop, by = case
    column = array("i", values)
    shift(column, start, stop, by)
    assert column.tolist() == values[:start] + [value + by for value in values[start:stop]] + values[stop:]


def test_values_at_the_ends_of_the_range_do_not_carry_into_their_neighbours() -> None:
    column = array("i", [LIMIT, 0, LIMIT, 5, 0])
    shift(column, 1, 4, 0)
    assert column.tolist() == [LIMIT, 0, LIMIT, 5, 0]
    shift(column, 1, 2, LIMIT)
    shift(column, 2, 4, -5)
    assert column.tolist() == [LIMIT, LIMIT, LIMIT - 5, 0, 0]


@given(st.lists(st.integers(0, 9), max_size=20), st.data())
def test_cut_and_insert_moves_a_run(values: list[int], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(values)))
    stop = data.draw(st.integers(start, len(values)))
    at = data.draw(st.integers(0, len(values) - (stop - start)))
    rest = values[:start] + values[stop:]
    expected = rest[:at] + values[start:stop] + rest[at:]
    column, flags = array("i", values), bytearray(values)
    cut_and_insert(column, start, stop, at)
    cut_and_insert(flags, start, stop, at)
    assert column.tolist() == expected
    assert list(flags) == expected


@given(st.integers(0, LIMIT - 5000), st.integers(0, 5000))
def test_counting_equals_a_range(start: int, count: int) -> None:
    assert counting(start, count) == array("i", range(start, start + count))


LINES = 6
VALUES = [-1, 0, 1, 7, 2**31, 2**32 - 2, 2**32 - 1, 2**40, 2**64 - 2, 2**64 - 1]
"""Around what a slot holds: from 0, below 2**32 with a shift, below 2**64 - 1 without."""
OPERATIONS = st.lists(st.tuples(st.sampled_from(["set", "claim", "slot", "delete"]), st.integers(0, LINES + 1),
                                st.integers(0, 3), st.sampled_from(VALUES)), max_size=60)


@given(st.sampled_from([0, 20]), OPERATIONS)
def test_a_column_map_is_the_dictionary_it_stands_for(shift_by: int,
                                                      operations: list[tuple[str, int, int, int]]) -> None:
    """Keys `line << shift | part` on and past the lines it has slots for, parts that share a line's slot, values
    too large for a slot with a part; set, claimed (`claim`, a first value kept), written into an empty slot as
    the pairing writes a new key (`slots`, then `recount`) and deleted, in any order."""
    table: dict[int, int] = {}
    mapped = ColumnMap(LINES, shift_by)
    for action, line, part, value in operations:
        key = line << shift_by | (part if shift_by else 0)
        if action == "set":
            table[key] = mapped[key] = value
        elif action == "claim":
            assert mapped.claim(key, value) == table.get(key)
            table.setdefault(key, value)
        elif action == "slot":
            if line < LINES and not mapped.slots[line] and key not in table and 0 <= value < (LOW if shift_by else
                                                                                              2**64 - 1):
                mapped.slots[line] = (part << PART | value + 1) if shift_by else value + 1
                mapped.recount()
                table[key] = value
        elif key in mapped:
            del mapped[key]
            del table[key]
    assert dict(mapped.items()) == table and len(mapped) == len(table)
    keys = [line << shift_by | part for line in range(LINES + 2) for part in range(4)]
    for key in keys:
        assert mapped.get(key) == table.get(key) and (key in mapped) == (key in table)
    assert mapped.missing(keys) == [key for key in keys if key not in table]


def test_a_column_map_over_a_filled_column_reads_it() -> None:
    mapped = ColumnMap.over(array("Q", [0, 5, 0, 2**52 + 1]))
    assert dict(mapped.items()) == {1: 4, 3: 2**52} and len(mapped) == 2
