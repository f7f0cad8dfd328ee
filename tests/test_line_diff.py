"""`fix --diff`'s unified diff: difflib's own on small texts; on large ones, split at the lines that occur once in
both, a diff that patches the old text into the new one, and difflib's on the edits a fix makes."""

from __future__ import annotations

import difflib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp import line_diff

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n")


def _patched(old: list[str], diff: list[str]) -> list[str]:
    """`old` with the hunks of a unified diff applied (each hunk's context and removed lines checked)."""
    out: list[str] = []
    at = 0
    for line in diff[2:]:
        hunk = _HUNK.fullmatch(line)
        if hunk:
            start = int(hunk[1]) - (0 if hunk[2] == "0" else 1)
            out += old[at:start]
            at = start
        elif line[0] == "+":
            out.append(line[1:])
        else:
            assert old[at] == line[1:]
            at += 1
            if line[0] == " ":
                out.append(line[1:])
    return out + old[at:]


lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "[]\n", "{}\n"]) | st.integers(0, 40).map(lambda n: f"{n}\n"),
                 max_size=60)


@settings(max_examples=400, deadline=None)
@given(lines, lines)
def test_the_diff_of_any_two_texts_patches_one_into_the_other(old: list[str], new: list[str]) -> None:
    assert line_diff.unified_diff(old, new, "a", "b") == list(difflib.unified_diff(old, new, "a", "b"))
    forced = _anchored(old, new)
    assert _patched(old, forced) == new
    assert (forced == []) == (old == new)


@st.composite
def fixed_files(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A file of distinct lines and the file a fix makes of it: lines changed in place, deleted, inserted."""
    old = [f'{{"id":"{number:08x}"}}\n' for number in range(draw(st.integers(0, 80)))]
    new: list[str] = []
    for number, line in enumerate(old):
        action = draw(st.sampled_from(["keep", "keep", "keep", "change", "delete", "insert"]))
        if action == "insert":
            new.append(f'{{"inserted":{number}}}\n')
        if action != "delete":
            new.append(line if action != "change" else line.replace('"}', '","parentId":null}'))
    return old, new


def _anchored(old: list[str], new: list[str]) -> list[str]:
    """The diff with every text split at its anchors first, as a large one is."""
    whole = line_diff.WHOLE
    line_diff.WHOLE = 0
    try:
        return line_diff.unified_diff(old, new, "a", "b")
    finally:
        line_diff.WHOLE = whole


@settings(max_examples=400, deadline=None)
@given(fixed_files())
def test_the_edits_of_a_fix_diff_as_difflib_diffs_them(pair: tuple[list[str], list[str]]) -> None:
    old, new = pair
    assert _anchored(old, new) == list(difflib.unified_diff(old, new, "a", "b"))


@pytest.mark.parametrize(("start", "stop", "written"), [(0, 0, "0,0"), (4, 4, "4,0"), (4, 5, "5"), (4, 7, "5,3")])
def test_a_hunk_range_is_written_as_unified_diffs_write_it(start: int, stop: int, written: str) -> None:
    assert line_diff._range(start, stop) == written
