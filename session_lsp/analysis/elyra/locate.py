"""Columns of one JSON path in a line, found without parsing the rest of the line.

Hints and notes (usage without totalTokens, aborted messages) fire on a large share of the lines of real older
files, and those lines are long (tool output, file contents). `jsonscan` builds a node for every value of the
line; this walks only the objects on the path and skips every other value in C: strings by one regex match,
objects and arrays by a `msgspec.Raw` decode whose "trailing characters" error says where the value ends.
Like `JSON.parse`, the last of duplicate keys wins. Never raises: a path it cannot follow gives None.
"""

from __future__ import annotations

import re

import msgspec

from ..jsonscan import Path
from ..lines import bracket_end, too_deep
from ..text import byte_to_col

_WS = re.compile(r"[ \t\r\n]*")
_STR = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_STRING = re.compile(_STR)
_SCALAR = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null"
_MEMBER = re.compile(rf"[ \t\r\n]*({_STR})[ \t\r\n]*:[ \t\r\n]*(?:({_STR}|{_SCALAR})[ \t\r\n]*([,}}]))?")
"""One object member: key, then (for a string or scalar value) the value and the separator after it."""
_SEPARATOR = re.compile(r"[ \t\r\n]*([,}\]])")
_SCALAR_VALUE = re.compile(_SCALAR)
_TRAILING = re.compile(r"trailing characters \(byte (\d+)\)")
_RAW = msgspec.json.Decoder(msgspec.Raw)

Span = tuple[int, int]


def _ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _skip(text: str, pos: int) -> int | None:
    """Column just past the JSON value starting at `pos`."""
    if pos >= len(text):
        return None
    char = text[pos]
    if char == '"':
        match = _STRING.match(text, pos)
        return None if match is None else match.end()
    if char in "{[":
        rest = text[pos:]
        if too_deep(rest):
            return bracket_end(text, pos)
        try:
            _RAW.decode(rest)
        except msgspec.DecodeError as error:
            found = _TRAILING.search(str(error))
            if found is None:
                return None
            # msgspec names the byte after the first unexpected one, which may follow whitespace
            return pos + len(rest[: byte_to_col(rest, int(found.group(1)) - 1)].rstrip())
        return pos + len(rest.rstrip())
    match = _SCALAR_VALUE.match(text, pos)
    return None if match is None or match.end() == pos else match.end()


def _member(text: str, start: int, key: str) -> tuple[Span, Span] | None:
    """(key span, value span) of the last member `key` of the object at `start`."""
    if not text.startswith("{", start):
        return None
    found = None
    pos = start + 1
    while True:
        match = _MEMBER.match(text, pos)
        if match is None:
            return found
        literal = match.group(1)
        name = literal[1:-1] if "\\" not in literal else msgspec.json.decode(literal)
        if match.group(2) is not None:
            if name == key:
                found = (match.span(1), match.span(2))
            if match.group(3) == "}":
                return found
            pos = match.end()
            continue
        value = match.end()
        end = _skip(text, value)
        if end is None:
            return found
        if name == key:
            found = (match.span(1), (value, end))
        separator = _SEPARATOR.match(text, end)
        if separator is None or separator.group(1) != ",":
            return found
        pos = separator.end()


def _item(text: str, start: int, index: int) -> Span | None:
    if not text.startswith("[", start):
        return None
    pos = _ws(text, start + 1)
    current = 0
    while pos < len(text) and text[pos] != "]":
        end = _skip(text, pos)
        if end is None:
            return None
        if current == index:
            return pos, end
        current += 1
        separator = _SEPARATOR.match(text, end)
        if separator is None or separator.group(1) != ",":
            return None
        pos = _ws(text, separator.end())
    return None


def spans(text: str, path: Path) -> tuple[Span | None, Span] | None:
    """(key span or None for an array item or the root, value span) of the value at `path`."""
    start = _ws(text, 0)
    key: Span | None = None
    value: Span = (start, len(text.rstrip()))
    for item in path:
        if isinstance(item, str):
            member = _member(text, value[0], item)
            if member is None:
                return None
            key, value = member
        else:
            found = _item(text, value[0], item)
            if found is None:
                return None
            key, value = None, found
    return key, value


def first_key(text: str, path: Path) -> Span | None:
    """The key span of the first member of the object at `path`."""
    found = spans(text, path)
    if found is None or not text.startswith("{", found[1][0]):
        return None
    match = _STRING.match(text, _ws(text, found[1][0] + 1))
    return None if match is None else (match.start(), match.end())
