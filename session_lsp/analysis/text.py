"""Lines and columns.

A document is the list of its lines split on "\\n" only, the way both agents read their files. A line keeps a
trailing "\\r" (JSON whitespace to both parsers). When the text ends with "\\n" the list ends with an empty string,
exactly as an LSP client counts lines. Columns inside the core are code points; the helpers below convert to the
UTF-16 or UTF-8 units a client negotiated. Also here: the few string helpers every layer shares (a line's content
span, the ellipsis of a clipped title, a fresh id).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from typing import Any


class Encoding(enum.StrEnum):
    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"


def split_lines(text: str) -> list[str]:
    return text.split("\n")


def to_units(line: str, col: int, encoding: Encoding) -> int:
    """Code-point column -> column in the client's units."""
    if encoding is Encoding.UTF32 or line.isascii():
        return col
    head = line[:col]
    if encoding is Encoding.UTF16:
        return len(head.encode("utf-16-le")) // 2
    return len(head.encode("utf-8"))


def from_units(line: str, units: int, encoding: Encoding) -> int:
    """Column in the client's units -> code-point column, clamped to the line (LSP says: past the end means the end)."""
    if encoding is Encoding.UTF32 or line.isascii():
        return min(units, len(line))
    if encoding is Encoding.UTF16:
        data = line.encode("utf-16-le")
        return len(data[: units * 2].decode("utf-16-le", errors="ignore"))
    return len(line.encode("utf-8")[:units].decode("utf-8", errors="ignore"))


_SURROGATE = re.compile("[\ud800-\udfff]")

REPLACEMENT = "\ufffd"


def without_surrogates(text: str) -> str:
    """`text` with every lone UTF-16 surrogate (a JSON string can escape one, `"\\ud800"`; no file can hold one)
    as U+FFFD: the character an editor writes for it when it saves the file as UTF-8, so what an agent will read.
    It has the width of the surrogate in UTF-16 (1 unit) and UTF-32 (1), and in UTF-8 the 3 bytes a UTF-8 editor
    holds for either, so every position a client sends means the same place in both texts."""
    return _SURROGATE.sub(REPLACEMENT, text) if has_surrogates(text) else text


_ENCODED_AT_ONCE = 1 << 20
"""Characters `has_surrogates` encodes at a time: a 50 MB text is not copied whole."""


def has_surrogates(text: str) -> bool:
    """Whether `text` holds a lone surrogate, the one thing UTF-8 cannot encode: encoding finds out at C speed, about
    four times as fast as the regular expression that replaces them scans (on a 50 MB text 0.06 s against 0.2 s, which
    a newly opened session beyond ASCII paid whole), a part at a time (a slice cannot cut a character in two)."""
    if text.isascii():
        return False
    try:
        for start in range(0, len(text), _ENCODED_AT_ONCE):
            text[start:start + _ENCODED_AT_ONCE].encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def byte_to_col(line: str, byte_offset: int) -> int:
    """A UTF-8 byte offset (as msgspec reports errors) -> code-point column."""
    if line.isascii():
        return min(byte_offset, len(line))
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))


def content_span(line: str) -> tuple[int, int]:
    """The columns of the line without the whitespace around it: what a diagnostic about the whole line covers (it
    should not cover indentation)."""
    stripped = line.strip()
    start = line.find(stripped) if stripped else 0
    return start, start + len(stripped)


def ellipsized(text: str, limit: int, shortened: bool = False) -> str:
    """`text` in at most `limit` characters, an ellipsis marking a cut (made before trailing whitespace).
    `shortened`: the text is already a cut of something longer, so it is marked even when it fits."""
    if len(text) <= limit and not shortened:
        return text
    return text[: limit - 1].rstrip() + "…"


def fresh_id(seed: str, taken: Callable[[str], bool]) -> str:
    """8 lowercase hex characters, as pi draws an entry id, derived from `seed` (so a fix or a snippet is
    reproducible) and different from every id in use."""
    import hashlib  # here: it loads OpenSSL, which a check of a file without ids to invent never needs

    for attempt in range(1000):
        candidate = hashlib.sha256(f"{seed}/{attempt}".encode("utf-8", "surrogatepass")).hexdigest()[:8]
        if not taken(candidate):
            return candidate
    return hashlib.sha256(seed.encode()).hexdigest()[:8] + "-0000-4000-8000-000000000000"


def decode_line(raw: bytes) -> tuple[str, list[int]]:
    """One line's bytes (without its "\\n") -> text, each invalid UTF-8 sequence replaced by U+FFFD, plus the columns
    of the replacements. Both agents read UTF-8; this is how a checker still reads the rest. A line is decoded alone:
    no UTF-8 sequence holds the byte "\\n", so the file decodes to the same text line by line as at once."""
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    line = raw.decode("utf-8", errors="replace")
    columns = []
    col = line.find("\ufffd")
    while col != -1:
        columns.append(col)
        col = line.find("\ufffd", col + 1)
    return line, columns


def decode_bytes(data: bytes) -> tuple[str, list[tuple[int, int, int]]]:
    """A whole file's bytes -> text, plus where invalid UTF-8 was replaced, as (line, start column, end column)."""
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    lines: list[str] = []
    bad: list[tuple[int, int, int]] = []
    for number, raw in enumerate(data.split(b"\n")):
        line, columns = decode_line(raw)
        lines.append(line)
        bad.extend((number, col, col + 1) for col in columns)
    return "\n".join(lines), bad


class LastSeen:
    """A one-slot cache of the string read last (an id, a turn id, a time). Consecutive lines of a session repeat
    these, so reading the next line's equal copy as this object saves a string a line. A cache only: an equal
    string replaces an equal string. Each line pass state holds its own (see `Vocabulary`)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value: str | None = None

    def same(self, value: Any) -> Any:
        """`value`, or the remembered object when they are equal."""
        return self.value if value == self.value else value

    def again(self, value: Any) -> Any:
        """`same(value)`, remembering it."""
        if value == self.value:
            return self.value
        self.value = value
        return value


VOCABULARY_LIMIT = 4096


class Vocabulary:
    """One string object per value of a small vocabulary (stop reasons, tool names, the titles made of them): a
    100,000-line session would otherwise hold tens of thousands of copies of "toolUse". One table per document (its
    line pass state owns it), so analysis threads never share one and it goes when the document goes. Bounded, so
    a file full of distinct values fills it once and is then left alone."""

    __slots__ = ("_table",)

    def __init__(self) -> None:
        self._table: dict[str, str] = {}

    def shared(self, value: str) -> str:
        """`value`, or the equal string this vocabulary already holds."""
        table = self._table
        found = table.get(value)
        if found is not None:
            return found
        if len(table) < VOCABULARY_LIMIT and len(value) <= 64:
            table[value] = value
        return value
