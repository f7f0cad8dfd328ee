"""A layered mapping reads, writes and iterates as a copy of its base would, and never writes the base."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from session_lsp.analysis import layered
from session_lsp.analysis.layered import Layered

OPS = st.lists(st.tuples(st.sampled_from(("set", "del", "pop", "new layer")), st.integers(0, 12), st.integers()),
               max_size=40)


@given(st.dictionaries(st.integers(0, 12), st.integers()), OPS)
def test_a_layered_table_acts_as_a_copy(base: dict[int, int], ops: list[tuple[str, int, int]]) -> None:
    original = dict(base)
    table, model = Layered.over(base), dict(base)
    for op, key, value in ops:
        if op == "set":
            table[key] = model[key] = value
        elif op == "del" and key in model:
            del table[key], model[key]
        elif op == "pop":
            assert table.pop(key, None) == model.pop(key, None)
        elif op == "new layer":
            table = Layered.over(table)
        assert len(table) == len(model)
        assert dict(table.items()) == model
        assert all(table.get(probe) == model.get(probe) and (probe in table) == (probe in model)
                   for probe in range(13))
    assert base == original


def test_many_changes_are_flattened_into_a_plain_table() -> None:
    table = Layered.over({0: 0})
    for key in range(1, layered.FLATTEN_AT + 1):
        table[key] = key
    flat = Layered.over(table)
    assert type(flat) is dict
    assert flat == {key: key for key in range(layered.FLATTEN_AT + 1)}
