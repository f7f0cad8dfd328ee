"""`LineStore` behaves as the list of lines it replaces, whatever splices are made and whichever blocks are hot."""

from __future__ import annotations

import importlib.util
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp.analysis.line_store import BLOCK, LineStore

TEXTS = st.text(alphabet=st.sampled_from("ab{}\":é😀\r\ud800 "), max_size=6)


@st.composite
def splices(draw: st.DrawFn) -> tuple[list[str], list[tuple[int, int, list[str]]]]:
    lines = draw(st.lists(TEXTS, min_size=1, max_size=5 * BLOCK))
    steps = []
    size = len(lines)
    for _ in range(draw(st.integers(1, 12))):
        start = draw(st.integers(0, size - 1))
        stop = draw(st.integers(start + 1, min(size, start + 3 * BLOCK)))
        new = draw(st.lists(TEXTS, min_size=1, max_size=3 * BLOCK))
        steps.append((start, stop, new))
        size += len(new) - (stop - start)
    return lines, steps


@settings(max_examples=150, deadline=None)
@given(splices(), st.integers(1, 4))
def test_splices_and_reads_match_a_list(case: tuple[list[str], list], hot: int) -> None:
    lines, steps = case
    store, expected = LineStore(lines, hot), list(lines)  # few hot blocks: edited ones are packed and read back
    for start, stop, new in steps:
        store.replace(start, stop, new)
        expected[start:stop] = new
        assert len(store) == len(expected)
        assert [store[n] for n in range(len(expected) - 1, -1, -3)] == expected[::-1][::3]
        assert store[-1] == expected[-1]
    assert list(store) == expected
    assert store[1:BLOCK + 3] == expected[1:BLOCK + 3]
    wide = {number for number, line in enumerate(expected) if not line.isascii()}
    assert store.wide_lines() == wide
    store.compact()  # which lines are ASCII is known without their text, before and after compression
    assert [store.is_ascii(n) for n in range(len(expected))] == [line.isascii() for line in expected]
    assert store.wide_lines() == wide


@settings(max_examples=150, deadline=None)
@given(splices(), st.integers(1, 4))
def test_labels_follow_their_lines_through_splices_and_compression(case: tuple[list[str], list], hot: int) -> None:
    """A label (a document's title of a line) is made once for its block and kept with the lines: through splices
    elsewhere, and packed with the lines when the block cools; a block a splice replaces makes its labels again."""
    lines, steps = case
    lines = [*lines, *(f"x{number}" for number in range(2 * BLOCK + 1))]  # three blocks at least; the splices stay
    store, expected = LineStore(lines, hot), list(lines)
    made: list[str] = []

    def label(number: int, line: str) -> str:
        made.append(line)
        return f"<{line}>"

    for start, stop, new in steps:
        assert [store.label(n, label) for n in range(len(expected))] == [f"<{line}>" for line in expected]
        made.clear()
        store.compact()
        assert [store.label(n, label) for n in range(len(expected) - 1, -1, -1)] == [
            f"<{line}>" for line in reversed(expected)]
        assert made == []  # made once, then read back from the compressed blocks
        store.replace(start, stop, new)
        expected[start:stop] = new
        assert [store.label(n, label) for n in range(len(expected))] == [f"<{line}>" for line in expected]
        assert len(made) <= len(new) + 6 * BLOCK  # the blocks the splice made, and no others
        made.clear()
    assert list(store) == expected


def test_a_label_of_more_than_one_line_is_made_each_time() -> None:
    """The labels are packed after the lines, a line each: one holding a line break is never kept."""
    store, made = LineStore(["a", "b"]), []

    def label(number: int, line: str) -> str:
        made.append(number)
        return f"{line}\n{line}"

    assert store.label(1, label) == store.label(1, label) == "b\nb"
    assert made == [0, 1, 0, 1]
    store.compact()
    assert list(store) == ["a", "b"]


def test_an_index_past_either_end_is_refused() -> None:
    store = LineStore(["a", "b"])
    assert store[-2] == "a"
    with pytest.raises(IndexError):
        store[2]
    with pytest.raises(IndexError):
        store[-3]


def test_lines_are_held_compressed() -> None:
    lines = [f'{{"type":"message","id":"{n:08x}","text":"the same words again and again"}}' for n in range(10 * BLOCK)]
    store = LineStore(lines)
    held = sum(len(block.data) for block in store._blocks if block.data is not None)
    assert held < sum(map(len, lines)) / 3
    assert store[5 * BLOCK + 7] == lines[5 * BLOCK + 7]


def test_without_lz4_zlib_does_the_same_job(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lz4", None)
    monkeypatch.setitem(sys.modules, "lz4.block", None)
    spec = importlib.util.find_spec("session_lsp.analysis.line_store")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module._lz4 is None
    lines = [f"line {n} é" for n in range(3 * BLOCK)]
    store = module.LineStore(lines, hot=1)
    store.replace(BLOCK - 1, BLOCK + 2, ["a", "b"])
    lines[BLOCK - 1 : BLOCK + 2] = ["a", "b"]
    assert store[2 * BLOCK] == lines[2 * BLOCK]  # evicts the edited block, which is packed with zlib
    assert list(store) == lines
