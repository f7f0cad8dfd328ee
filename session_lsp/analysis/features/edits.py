"""Small helpers that build TextEdits against the document's lines, and the pieces every format's fixers share."""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from .. import jsonscan
from ..diagnostics import Diagnostic, Span
from ..document import Document
from ..jsonscan import Path
from ..lines import LineKind
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


def utf8_fix(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """The text already holds U+FFFD where the bytes were invalid, as the agent reads them; writing it makes that
    replacement permanent, which is what the agent's own rewrite would do."""
    spans = [diagnostic.span, *(related.span for related in diagnostic.related)]
    edits: list[TextEdit] = []
    for number in sorted({span.line for span in spans if span.line == span.end_line}):
        mine = [span for span in spans if span.line == number and span.end_line == number]
        text = doc.lines[number]
        # where a stray byte broke the JSON (it sits between tokens), dropping it lets the agent read the line
        kept = text
        for span in sorted(mine, key=lambda span: span.start, reverse=True):
            kept = kept[:span.start] + kept[span.end:]
        if doc.results[number].kind is LineKind.INVALID and _parses(kept):
            edits.append(replace_line(doc.lines, number, kept))
        else:
            edits.extend(TextEdit(span, text[span.start:span.end]) for span in mine)
    return rule_fix(diagnostic.code, "Write the invalid bytes as U+FFFD, as the agent reads them", *edits)


def _parses(text: str) -> bool:
    try:
        msgspec.json.decode(text)
    except msgspec.DecodeError:
        return False
    return True
