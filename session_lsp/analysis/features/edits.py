"""Small helpers that build TextEdits against the document's lines, and the pieces every format's fixers share."""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from .. import jsonscan
from ..diagnostics import Span
from ..jsonscan import Path
from ..registry import rule
from .types import Fix, TextEdit


def rule_fix(code: str, title: str, *edits: TextEdit) -> Fix:
    """A fix of one rule, with the applicability its registry entry declares."""
    applicability = rule(code).fix
    assert applicability is not None, f"{code} declares no fix in the registry"
    return Fix(title, (code,), applicability, edits)


def json_text(value: object) -> str:
    return msgspec.json.encode(value).decode()


def delete_line(lines: Sequence[str], line: int) -> TextEdit:
    """The whole line and its line break (the one before it for the last line), so no blank line is left."""
    if line + 1 < len(lines):
        return TextEdit(Span(line, 0, line + 1, 0), "")
    if line == 0:
        return TextEdit(Span(0, 0, 0, len(lines[0])), "")
    return TextEdit(Span(line - 1, len(lines[line - 1]), line, len(lines[line])), "")


_BAD_ESCAPE = re.compile(r'\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})')
"""A backslash JSON does not allow after it (a hand edit's `\\q`, `\\x41`, `\\u12`)."""


def _an_object(text: str) -> bool:
    try:
        return isinstance(msgspec.json.decode(text), dict)
    except (msgspec.DecodeError, RecursionError):
        return False


def salvaged(text: str) -> tuple[str, str] | None:
    """The line as one record, when a mechanical repair gives one: NUL bytes left out, a stray backslash escaped, or
    a torn start cut (a record appended after a write that never finished). With what was done, for the title."""
    if "\x00" in text and _an_object(mended := text.replace("\x00", "")):
        return mended, "Remove the NUL bytes"
    if _an_object(mended := _BAD_ESCAPE.sub(r"\\\\", text)):
        return mended, "Escape the stray backslash"
    for found in re.finditer(r'\{"', text):
        if found.start() and _an_object(text[found.start():]):
            return text[found.start():], "Cut the torn start (the record after it is whole)"
    return None


def replace_line(lines: Sequence[str], line: int, new_text: str) -> TextEdit:
    return TextEdit(Span(line, 0, line, len(lines[line])), new_text)


def replace_value(lines: Sequence[str], line: int, path: Path, new_json: str,
                  root: jsonscan.Node | None = None) -> TextEdit | None:
    """Replace the JSON value at `path` on `line` with the JSON text `new_json`; None when the path is not there."""
    found = jsonscan.value_span(lines[line], path, root)
    if found is None:
        return None
    return TextEdit(Span(line, found[0], line, found[1]), new_json)


def insert_line_after(lines: Sequence[str], line: int, new_text: str) -> TextEdit:
    end = len(lines[line])
    return TextEdit(Span(line, end, line, end), "\n" + new_text)
