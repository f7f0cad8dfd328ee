"""A run of an integer column shifted at C speed equals the same run shifted value by value."""

from __future__ import annotations

from array import array

from hypothesis import given
from hypothesis import strategies as st

from session_lsp.analysis.columns import counting, cut_and_insert, shift

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
