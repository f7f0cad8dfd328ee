"""The line classifier on hostile lines: deep nesting decoded in layers, glued records split in linear time."""

from __future__ import annotations

import pytest

from session_lsp.analysis.lines import MAX_DEPTH, LineKind, decode, split_glued


def test_glued_parts_are_code_point_columns_past_multibyte_text_and_spaces() -> None:
    line = '{"a":"é"} {"b":1}\t{"c":"☃"}'
    decoded = decode(line)
    assert decoded.kind is LineKind.GLUED
    assert split_glued(line, decoded.parts) == ['{"a":"é"}', '{"b":1}', '{"c":"☃"}']


def test_400000_glued_records_split_into_every_record() -> None:
    """Time is bounded by the attack suite (tests/attack), which runs it as a subprocess."""
    decoded = decode("{}" * 400_000)
    assert len(decoded.parts) == 400_000 and decoded.parts[-1] == 799_998


def test_nesting_past_the_limit_is_decoded_in_layers_and_brackets_in_strings_do_not_count() -> None:
    deep = decode("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert deep.too_deep and deep.kind is LineKind.NON_OBJECT and deep.deep == (MAX_DEPTH, MAX_DEPTH + 2)
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


def test_a_deep_value_is_null_in_the_entry_around_it() -> None:
    decoded = decode('{"type":"custom","extra":' + '{"a":' * 2000 + "1" + "}" * 2000 + ',"id":"x"}')
    assert decoded.kind is LineKind.OBJECT and decoded.too_deep
    assert decoded.value["type"] == "custom" and decoded.value["id"] == "x"


@pytest.mark.parametrize(("line", "error"), [
    ("[" * 1500 + "1,,2" + "]" * 1500, "invalid character"),  # broken below the first layer
    ("[" * 600 + '"\\q"' + "]" * 600, "invalid escape"),
    ("[" * 600 + "}" + "]" * 599, "invalid character"),  # a mismatched closer
    ("[" * 600 + "]" * 601, "closes nothing"),
    ('{"a":' * 600 + "1" + "}" * 600 + "}", "closes nothing"),
])
def test_a_deep_line_is_still_checked_as_json_all_through(line: str, error: str) -> None:
    """pi's JSON.parse would throw on each, so each is invalid however deep the fault sits."""
    decoded = decode(line)
    assert decoded.kind is LineKind.INVALID and error in decoded.error
