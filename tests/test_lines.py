"""The line classifier on hostile lines: deep nesting is refused before decoding, glued records split in linear time."""

from __future__ import annotations

import time

import pytest

from session_lsp.analysis.lines import MAX_DEPTH, LineKind, decode, split_glued


def test_glued_parts_are_code_point_columns_past_multibyte_text_and_spaces() -> None:
    line = '{"a":"é"} {"b":1}\t{"c":"☃"}'
    decoded = decode(line)
    assert decoded.kind is LineKind.GLUED
    assert split_glued(line, decoded.parts) == ['{"a":"é"}', '{"b":1}', '{"c":"☃"}']


def test_400000_glued_records_split_in_linear_time() -> None:
    started = time.perf_counter()
    decoded = decode("{}" * 400_000)
    assert len(decoded.parts) == 400_000 and decoded.parts[-1] == 799_998
    assert time.perf_counter() - started < 5  # was 20 s when each record re-sliced the rest of the line


def test_nesting_past_the_limit_is_not_decoded_but_brackets_in_strings_do_not_count() -> None:
    assert decode("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)).too_deep
    assert decode("[" * MAX_DEPTH + "]" * MAX_DEPTH).kind is LineKind.NON_OBJECT
    assert decode('{"a":"' + "[" * 100_000 + '"}').kind is LineKind.OBJECT
    unclosed = decode("[" * 100_000)
    assert unclosed.kind is LineKind.INVALID and not unclosed.too_deep and unclosed.error_col == 100_000


@pytest.mark.parametrize(("line", "pieces"), [
    ('{"a":"}{"}{"b":1}  [1,2]{"c":"é}{"}', ['{"a":"}{"}', '{"b":1}', '[1,2]', '{"c":"é}{"}']),
    ('{"a":1}{"b":2}garbage', ['{"a":1}', '{"b":2}garbage']),
    ('{"a":[{}]}{"b":{"c":{}}}[[]]', ['{"a":[{}]}', '{"b":{"c":{}}}', '[[]]']),
])
def test_seams_inside_strings_and_trailing_junk_split_as_a_json_reader_would(line: str, pieces: list[str]) -> None:
    """A `}{` inside a string is no seam, and a line that stops being JSON keeps its last piece whole: the fast
    split falls back to the step-by-step one and both give the values a reader would find."""
    decoded = decode(line)
    assert decoded.kind is LineKind.GLUED
    assert split_glued(line, decoded.parts) == pieces
