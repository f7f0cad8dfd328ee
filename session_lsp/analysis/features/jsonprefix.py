"""Where the cursor is in a JSON line that is still being typed: which container, and whether a key or a value
comes next. `jsonscan` needs complete members; this reads only the text before the cursor, token by token, so
it also works on `{"type":"message","pa` and `{"message":{"role":"` .
"""

from __future__ import annotations

import enum
import re
from typing import Any

import msgspec

from ..jsonscan import STRING, Path, PathItem

_BARE = re.compile(r"[^\s,:\[\]{}\"]+")
_WS = re.compile(r"[ \t\r\n]*")


class Slot(enum.Enum):
    KEY = "key"
    """A member key is expected (after `{` or `,` in an object)."""
    VALUE = "value"
    """A member value or an array item is expected."""
    OTHER = "other"
    """Nothing can be completed here (after a complete value, outside any object)."""


class Frame(msgspec.Struct):
    kind: str
    """"object" or "array"."""
    members: dict[str, Any] = {}
    """Scalar members read so far (tags such as `type`/`role` resolve unions with them)."""
    key: str | None = None
    index: int = 0
    expect: str = "key"


class Where(msgspec.Struct, frozen=True):
    container: Path
    """Path of the object or array the cursor is directly in."""
    container_kind: str
    slot: Slot
    key: str | None
    """For a member value: its key."""
    index: int
    """For an array item: its index."""
    token_start: int
    """Column where the token under the cursor starts (its opening quote, or the cursor itself)."""
    in_string: bool
    prefix: str
    """What is typed of the token so far (without the opening quote)."""
    levels: tuple[dict[str, Any], ...]
    """Scalar members read so far of each container from the root down (`levels[i]` is at `container[:i]`)."""

    @property
    def value_path(self) -> Path:
        """The path of the value being typed."""
        if self.container_kind == "array":
            return (*self.container, self.index)
        return (*self.container, self.key) if self.key is not None else self.container


def _path(stack: list[Frame]) -> Path:
    items: list[PathItem] = []
    for frame in stack[:-1]:
        items.append(frame.key if frame.kind == "object" and frame.key is not None else frame.index)
    return tuple(items)


def _scalar(token: str) -> Any:
    try:
        return msgspec.json.decode(token)
    except msgspec.DecodeError:
        return None


def where(text: str, col: int) -> Where | None:
    """None when the cursor is not inside any object or array."""
    stack: list[Frame] = []
    pos = 0
    while True:
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= col:
            return _result(stack, col, col, False, "")
        char = text[pos]
        if char in "{[":
            if stack:
                stack[-1].expect = "comma"
            stack.append(Frame("object" if char == "{" else "array", {}, expect="key" if char == "{" else "value"))
            pos += 1
        elif char in "}]":
            if stack:
                stack.pop()
            if not stack:
                return None
            pos += 1
        elif char == ":":
            if stack:
                stack[-1].expect = "value"
            pos += 1
        elif char == ",":
            if stack:
                top = stack[-1]
                if top.kind == "object":
                    top.expect, top.key = "key", None
                else:
                    top.expect, top.index = "value", top.index + 1
            pos += 1
        elif char == '"':
            match = STRING.match(text, pos)
            if match is None or match.end() > col:
                return _result(stack, col, pos, True, text[pos + 1 : col])
            _token(stack, match.group())
            pos = match.end()
        else:
            match = _BARE.match(text, pos)
            end = match.end() if match is not None else pos + 1
            if end >= col:
                return _result(stack, col, pos, False, text[pos:col])
            _token(stack, text[pos:end])
            pos = end


def _token(stack: list[Frame], token: str) -> None:
    if not stack:
        return
    top = stack[-1]
    if top.kind == "object" and top.expect == "key":
        value = _scalar(token)
        top.key = value if isinstance(value, str) else None
        top.expect = "colon"
        return
    if top.kind == "object" and top.key is not None and top.expect == "value":
        top.members[top.key] = _scalar(token)
    top.expect = "comma"


def _result(stack: list[Frame], col: int, start: int, in_string: bool, prefix: str) -> Where | None:
    if not stack:
        return None
    top = stack[-1]
    if top.expect == "key" and top.kind == "object":
        slot = Slot.KEY
    elif top.expect == "value":
        slot = Slot.VALUE
    else:
        slot = Slot.OTHER
    return Where(_path(stack), top.kind, slot, top.key if top.kind == "object" else None, top.index, start,
                 in_string, prefix, tuple(frame.members for frame in stack))
