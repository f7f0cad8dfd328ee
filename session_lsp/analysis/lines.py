"""What one line is, before any format looks at it: blank, not JSON (and where it breaks), several JSON values glued
together (and where they split), JSON but not an object, or an object.

Both agents read their files line by line and drop a line that does not parse, so everything here is per line and
never raises.
"""

from __future__ import annotations

import enum
import json
import math
import re
from itertools import accumulate
from typing import Any

import msgspec

from .text import byte_to_col

_DECODER = msgspec.json.Decoder()
_BYTE = re.compile(r"\(byte (\d+)\)")

MAX_DEPTH = 512
"""Deepest nesting read: msgspec recurses per level and overflows the C stack far below what a line can hold."""
_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)', re.DOTALL)
"""A string, or an unterminated one running to the end of the line: no attempt fails, so a substitution is one
linear pass (a failed attempt would scan the rest of the line again from every later quote)."""
_TOKEN = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)|[\[\]{}]', re.DOTALL)
"""A string (skipped whole, as `_STRING`) or a bracket."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SPACE = re.compile(rb"[ \t\r\n]*")
_SEAM = re.compile(r"[}\]][ \t\r\n]*([{\[])")
"""Where one glued object or array may end and the next begin."""
_DELTA = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _depths(line: str) -> list[int]:
    """The running bracket depth outside strings, one value per bracket, in passes that run at C speed."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", line))
    return list(accumulate(map(_DELTA.__getitem__, brackets.encode())))


def too_deep(line: str, limit: int = MAX_DEPTH) -> bool:
    """Whether brackets outside strings nest deeper than `limit`; cheap unless the line has that many brackets (a
    line no longer than `limit` cannot have them)."""
    if len(line) <= limit or line.count("[") + line.count("{") <= limit:
        return False
    return max(_depths(line), default=0) > limit


def may_decode_too_deep(line: str) -> bool:
    """Whether the decoder could read `line` as JSON nested deeper than MAX_DEPTH, so that it must not be given it:
    valid JSON that deep holds more than MAX_DEPTH brackets that open and as many that close. A shorter line that
    nests that deep is invalid JSON, which the decoder refuses (a DecodeError, or a RecursionError past its own
    limit) before the slow path measures it; most lines of a session are shorter, and are not counted at all."""
    return len(line) > 2 * MAX_DEPTH + 1 and too_deep(line)


def first_past(line: str, limit: int) -> int | None:
    """The column of the first array or object that opens more than `limit` levels deep (outside strings)."""
    if line.count("[") + line.count("{") <= limit:
        return None
    depth = 0
    for match in _TOKEN.finditer(line):
        char = line[match.start()]
        if char == '"':
            continue
        depth += 1 if char in "[{" else -1
        if depth > limit:
            return match.start()
    return None


class LineKind(enum.Enum):
    BLANK = "blank"
    INVALID = "invalid"
    GLUED = "glued"
    NON_OBJECT = "non-object"
    OBJECT = "object"


class Decoded(msgspec.Struct):
    kind: LineKind
    value: Any = None
    error: str = ""
    error_col: int = 0
    parts: tuple[int, ...] = ()
    """For GLUED: the column where each JSON value starts (the first is where the line's value starts)."""
    overflow: bool = False
    """The line holds a number beyond a double's range, which JavaScript's JSON.parse reads as Infinity (`value` has
    inf there); msgspec refuses it."""
    too_deep: bool = False
    """The line nests deeper than MAX_DEPTH: for OBJECT and NON_OBJECT, `value` has null where an array or object
    opens at that depth (every part was still checked to be JSON)."""
    deep: tuple[int, int] = (0, 0)
    """With `too_deep`: the columns of the first value nested that deep."""


def is_blank(line: str) -> bool:
    return not line.strip()


def _error_col(line: str, error: msgspec.DecodeError) -> tuple[str, int]:
    """The decoder's message without its byte offset, and the code-point column it names."""
    text = str(error)
    match = _BYTE.search(text)
    message = _BYTE.sub("", text).replace("JSON is malformed: ", "").strip()
    if match is None:
        return ("the line ends in the middle of a JSON value" if "truncated" in text else message), len(line.rstrip())
    offset = int(match.group(1))
    if "trailing characters" in text:
        offset -= 1  # msgspec names the byte after the first unexpected one here
    return message, byte_to_col(line, offset)


def _value_end(data: memoryview, start: int) -> int | None:
    """Byte just past the complete JSON value that starts at byte `start`, or None if none ends on this line.
    A zero-copy view, not a slice, keeps a line of many glued records linear."""
    try:
        _DECODER.decode(data[start:])
        return len(data)
    except msgspec.DecodeError as error:
        text = str(error)
        match = _BYTE.search(text)
        if "trailing characters" not in text or match is None:
            return None
        return start + int(match.group(1)) - 1


def _cols(data: bytes, offsets: list[int]) -> tuple[int, ...]:
    """Code-point columns of ascending byte offsets, in one pass over the line."""
    cols: list[int] = []
    col = prev = 0
    for offset in offsets:
        col += len(data[prev:offset].decode("utf-8", errors="ignore"))
        cols.append(col)
        prev = offset
    return tuple(cols)


def decode(line: str) -> Decoded:
    """Classify a line with the generic decoder. Used on the slow path, after a typed decode has failed."""
    if is_blank(line):
        return Decoded(LineKind.BLANK)
    if too_deep(line):
        return _decode_deep(line)
    try:
        value = _DECODER.decode(line)
    except msgspec.DecodeError as error:
        read = _as_javascript(line, str(error))
        if read is None:
            return _invalid_or_glued(line, error)
        value, overflow = read
        return Decoded(LineKind.OBJECT if isinstance(value, dict) else LineKind.NON_OBJECT, value, overflow=overflow)
    return Decoded(LineKind.OBJECT if isinstance(value, dict) else LineKind.NON_OBJECT, value)


_ESCAPE = re.compile(r"\\(?:u([dD][89a-fA-F][0-9a-fA-F]{2})|.)")
"""Every escape, so an escaped backslash is consumed whole; group 1 is set for a UTF-16 surrogate."""


def mend_surrogates(text: str) -> str:
    """`JSON.stringify` writes a lone UTF-16 surrogate as an escape (`\\ud800`) and `JSON.parse` reads it back; msgspec
    refuses it. Each lone one becomes `\\ufffd`, the same length, so the line reads as pi reads it, columns intact."""
    if "\\ud" not in text and "\\uD" not in text:
        return text
    units = [(match.start(), match.group(1)) for match in _ESCAPE.finditer(text) if match.group(1)]
    lone: list[int] = []
    paired_low = -1
    for index, (start, unit) in enumerate(units):
        if unit[1] in "89abAB":
            after = units[index + 1] if index + 1 < len(units) else None
            if after is not None and after[0] == start + 6 and after[1][1] not in "89abAB":
                paired_low = after[0]
                continue
            lone.append(start)
        elif start != paired_low:
            lone.append(start)
    if not lone:
        return text
    pieces = list(text)
    for start in lone:
        pieces[start : start + 6] = "\\ufffd"
    return "".join(pieces)


def _refuse(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _as_javascript(line: str, error: str) -> tuple[Any, bool] | None:
    """What JavaScript's JSON.parse reads where msgspec refuses the line: lone surrogate escapes (read as U+FFFD)
    and numbers beyond a double (Infinity). The value and whether a number overflowed; None when JSON.parse fails
    too."""
    mended = mend_surrogates(line)
    if mended is not line:
        try:
            return _DECODER.decode(mended), False
        except msgspec.DecodeError as again:
            error = str(again)
    if "out of range" not in error:
        return None
    try:
        return json.loads(mended, parse_constant=_refuse), True
    except (ValueError, RecursionError):
        return None


_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


def overflowing_numbers(line: str) -> list[tuple[int, int]]:
    """The columns of the numbers outside strings that a double cannot hold (JSON.parse reads them as Infinity)."""
    bare = _STRING.sub(lambda match: " " * len(match.group()), line)
    return [(match.start(), match.end()) for match in _NUMBER.finditer(bare)
            if math.isinf(float(match.group()))]


def bracket_end(line: str, start: int) -> int | None:
    """The column just past the array or object opening at `start`, by counting brackets outside strings: for a
    value too deep to decode. None when the line ends first."""
    depth = 0
    for match in _TOKEN.finditer(line, start):
        char = line[match.start()]
        if char == '"':
            continue
        depth += 1 if char in "[{" else -1
        if depth == 0:
            return match.end()
    return None


def _decode_deep(line: str) -> Decoded:
    """A line nesting deeper than the decoder can go, decoded in layers of MAX_DEPTH levels: each array or object
    that opens at a multiple of MAX_DEPTH is cut out, decoded on its own (with its own deep parts cut out) and left
    as null in the layer above. Every character is copied and decoded once, so the cost stays linear in the line
    whatever its depth, and a syntax error anywhere is still found."""
    layers: list[tuple[int, list[str], int]] = [(0, [], 0)]  # (start column, text so far, next column to copy)
    depth = 0
    deep = (0, 0)
    for match in _TOKEN.finditer(line):
        pos = match.start()
        char = line[pos]
        if char == '"':
            continue
        if char in "[{":
            if depth and depth % MAX_DEPTH == 0:
                start, pieces, copied = layers[-1]
                pieces.append(line[copied:pos])
                pieces.append("null")
                layers.append((pos, [], pos))
            depth += 1
            continue
        depth -= 1
        if depth < 0:
            return Decoded(LineKind.INVALID, error="a closing bracket that closes nothing", error_col=pos)
        if depth and depth % MAX_DEPTH == 0:
            start, pieces, copied = layers.pop()
            pieces.append(line[copied : pos + 1])
            try:
                _DECODER.decode("".join(pieces))
            except msgspec.DecodeError as error:
                message = _BYTE.sub("", str(error)).replace("JSON is malformed: ", "").strip()
                return Decoded(LineKind.INVALID, error=f"{message}, in a value nested {depth} levels deep",
                               error_col=start)
            if len(layers) == 1 and deep == (0, 0):
                deep = (start, pos + 1)
            outer = layers[-1]
            layers[-1] = (outer[0], outer[1], pos + 1)
    if depth:
        return Decoded(LineKind.INVALID, error="the line ends in the middle of a JSON value",
                       error_col=len(line.rstrip()))
    _, pieces, copied = layers[0]
    pieces.append(line[copied:])
    try:
        value = _DECODER.decode("".join(pieces))
    except msgspec.DecodeError as error:
        message = _BYTE.sub("", str(error)).replace("JSON is malformed: ", "").strip()
        return Decoded(LineKind.INVALID, error=message, error_col=len(line) - len(line.lstrip()))
    kind = LineKind.OBJECT if isinstance(value, dict) else LineKind.NON_OBJECT
    return Decoded(kind, value, too_deep=True, deep=deep)


def _split_at_brackets(line: str, first: int, second: int) -> tuple[int, ...] | None:
    """The columns where each glued value starts, when every `}{`-like seam after `second` (the column where the
    decoder saw the second value begin) is one: each piece then decodes on its own, with no exception raised
    per record. None when a seam falls inside a string or a piece is not a value; objects and arrays are
    prefix-free, so a split into values is the only one and equals what the step-by-step scan finds."""
    starts = [first, second, *(match.start(1) for match in _SEAM.finditer(line, second + 1))]
    ends = [*starts[1:], len(line)]
    decode_piece = _DECODER.decode
    try:
        for start, end in zip(starts, ends, strict=True):
            decode_piece(line[start:end])
    except (msgspec.DecodeError, UnicodeEncodeError):
        return None
    return tuple(starts)


def _invalid_or_glued(line: str, error: msgspec.DecodeError) -> Decoded:
    message, col = _error_col(line, error)
    if "trailing characters" not in str(error) or line[col] not in "{[":
        return Decoded(LineKind.INVALID, error=message, error_col=col)
    first = len(line) - len(line.lstrip())
    parts = _split_at_brackets(line, first, col)
    if parts is not None:
        return Decoded(LineKind.GLUED, error=message, error_col=col, parts=parts)
    data = line.encode("utf-8", "surrogatepass")
    view = memoryview(data)
    first = len(data) - len(data.lstrip())
    pos = len(line[:col].encode("utf-8", "surrogatepass"))
    offsets = [first, pos]
    stop = len(data.rstrip())
    while True:
        end = _value_end(view, pos)
        if end is None or end >= stop:
            break
        rest = _SPACE.match(data, end).end()  # type: ignore[union-attr]
        if data[rest : rest + 1] not in (b"{", b"["):
            break
        offsets.append(rest)
        pos = rest
    parts = _cols(data, offsets)
    return Decoded(LineKind.GLUED, error=message, error_col=col, parts=parts)


def glue_point(line: str, parts: tuple[int, ...]) -> tuple[int, int]:
    """The columns of the first seam (`}{`): the last character of the first record to the first of the second,
    where the missing newline belongs."""
    first_end = len(line[:parts[1]].rstrip())
    return max(first_end - 1, 0), parts[1] + 1


def split_glued(line: str, parts: tuple[int, ...]) -> list[str]:
    """The pieces of a glued line, each stripped of surrounding whitespace: what a split quick fix writes."""
    bounds = [*parts, len(line)]
    return [line[bounds[i] : bounds[i + 1]].strip() for i in range(len(parts))]
