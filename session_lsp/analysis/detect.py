"""What names a file's format (`Kind`, `FormatInfo`) and where detection looks (the first JSON object, spec section
3). Each format says itself whether that object is one of its lines (`formats.detect` asks them in turn)."""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from .lines import LineKind, decode, is_blank


class Kind(enum.Enum):
    ELYRA = "elyra"
    THNDRS = "thndrs"
    CLAUDE = "claude"
    CODEX = "codex"
    UNKNOWN = "unknown"


class FormatInfo(msgspec.Struct, frozen=True):
    kind: Kind
    version: int | None = None
    """Elyra: the version pi migrates the file from (`pi_version`: absent or null means 1, 2.5 means 2); thndrs: the
    first record's schema_version."""
    header_line: int | None = None
    """The line the format was recognised on."""

    @property
    def label(self) -> str:
        if self.kind is Kind.ELYRA:
            return f"Elyra v{self.version}" if self.version is not None else "Elyra"
        if self.kind is Kind.THNDRS:
            return "thndrs"
        if self.kind is Kind.CLAUDE:
            return "Claude Code"
        if self.kind is Kind.CODEX:
            return "Codex"
        return "not a session"


UNKNOWN = FormatInfo(Kind.UNKNOWN)

BOM = "\ufeff"
_JS_SPACE = frozenset(" \t\r\n\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                      "\u2028\u2029\u202f\u205f\u3000\ufeff")
"""What JavaScript's `String.prototype.trim` removes (pi 0.73 trims the whole file before splitting it)."""
_JSON_SPACE = frozenset(" \t\r\n")


def leading_trim(line: str) -> int:
    """How many characters at the start of the file's first line are space `trim` removes, when some of them are
    space JSON does not allow (a byte order mark, `\\v`, `\\f`, a no-break space): 0 when there are none."""
    end = 0
    while end < len(line) and line[end] in _JS_SPACE:
        end += 1
    return end if any(char not in _JSON_SPACE for char in line[:end]) else 0

DETECTION_HORIZON = 50
"""Lines looked at before giving up; an edit below this line cannot change the verdict of a file whose first
object lies above it."""


def first_objects(lines: Sequence[str], count: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """The first `count` JSON objects of the first lines (of a glued line, its first record), with their line
    numbers."""
    for number, line in enumerate(lines[:DETECTION_HORIZON]):
        if count <= 0:
            return
        if number == 0 and (lead := leading_trim(line)):
            line = line[lead:]  # pi 0.73 trims the file before splitting it: a byte order mark at its start is not read
        if is_blank(line):
            continue
        decoded = decode(line)
        if decoded.kind is LineKind.GLUED:
            decoded = decode(line[decoded.parts[0] : decoded.parts[1]])
        if decoded.kind is LineKind.OBJECT:
            count -= 1
            yield number, decoded.value


_JS_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Infinity)\Z")


def js_number(value: Any) -> float:
    """JavaScript's `Number(value)` for a decoded JSON value (NaN when it is not a number): what pi's
    `version >= 3` and `version < 2` compare."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if value is None:
        return 0.0
    if isinstance(value, list):
        if len(value) > 1:
            return math.nan
        value = "" if not value or value[0] is None else value[0]
        if isinstance(value, list | dict):
            return js_number(value) if isinstance(value, list) else math.nan
        return js_number(value if isinstance(value, str) else str(value).lower())
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0.0
        if re.fullmatch(r"0[xX][0-9a-fA-F]+", text):
            return float(int(text, 16))
        return float(text) if _JS_NUMBER.match(text) else math.nan
    return math.nan


def pi_version(header: dict[str, Any]) -> int | None:
    """The version pi migrates a file from: `header.version ?? 1`, compared with 3 and 2 as JavaScript compares
    (`3.0` is 3, `2.5` a v2, `true` a v1, a string by its number). None when it is not a number (NaN): no migration
    step applies, so the file is read as the current version."""
    raw = header.get("version")
    number = 1.0 if raw is None else js_number(raw)
    if math.isnan(number):
        return None
    if number >= 3:
        return int(number) if math.isfinite(number) else 3
    return 2 if number >= 2 else 1
