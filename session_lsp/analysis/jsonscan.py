"""A tolerant JSON scanner that keeps positions: which key or value sits at a column, and where a path's value is.

msgspec decodes fast but gives no positions. This scanner runs only on demand (a line with a diagnostic, a hover, a
rename), so it favours clarity over speed; strings, the bulk of every session line, are matched by one regex each.
It never raises: on malformed input it returns what it could read.
"""

from __future__ import annotations

import re
from functools import lru_cache

import msgspec

PathItem = str | int
Path = tuple[PathItem, ...]

_WS = re.compile(r"[ \t\r\n]*")
STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"', re.DOTALL)
"""A JSON string literal. Possessive runs: the obvious `"(?:[^"\\]|\\.)*"` takes 15 s and 2.5 GB of backtracking
state for one 20 MB string; this one is linear and keeps no state."""
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERAL = re.compile(r"true|false|null")


class Node(msgspec.Struct):
    """One JSON value. For objects `members` holds (key, key_start, key_end, value); for arrays `items`."""

    kind: str
    start: int
    end: int
    members: list[tuple[str, int, int, Node]] | None = None
    items: list[Node] | None = None
    complete: bool = True

    def get(self, key: PathItem) -> Node | None:
        if isinstance(key, str) and self.members is not None:
            found = None
            for name, _, _, value in self.members:
                if name == key:
                    found = value
            return found
        if isinstance(key, int) and self.items is not None and 0 <= key < len(self.items):
            return self.items[key]
        return None

    def member(self, key: str) -> tuple[str, int, int, Node] | None:
        """The last member with this key (JSON.parse and serde keep the last)."""
        found = None
        for member in self.members or ():
            if member[0] == key:
                found = member
        return found


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text

    def ws(self, pos: int) -> int:
        return _WS.match(self.text, pos).end()  # type: ignore[union-attr]

    def value(self, pos: int, depth: int = 0) -> Node | None:
        text = self.text
        pos = self.ws(pos)
        if pos >= len(text) or depth > 200:
            return None
        char = text[pos]
        if char == "{":
            return self.obj(pos, depth)
        if char == "[":
            return self.arr(pos, depth)
        if char == '"':
            match = STRING.match(text, pos)
            if match is None:
                return Node("string", pos, len(text), complete=False)
            return Node("string", pos, match.end())
        for kind, pattern in (("number", _NUMBER), ("literal", _LITERAL)):
            match = pattern.match(text, pos)
            if match is not None and match.end() > pos:
                return Node(kind, pos, match.end())
        return None

    def obj(self, start: int, depth: int) -> Node:
        text = self.text
        node = Node("object", start, start + 1, members=[])
        pos = self.ws(start + 1)
        if pos < len(text) and text[pos] == "}":
            node.end = pos + 1
            return node
        while True:
            match = STRING.match(text, pos)
            if match is None:
                node.end, node.complete = pos, False
                return node
            key = _decode_string(match.group())
            key_start, key_end = match.start(), match.end()
            pos = self.ws(key_end)
            if pos >= len(text) or text[pos] != ":":
                node.end, node.complete = pos, False
                return node
            value = self.value(pos + 1, depth + 1)
            if value is None:
                node.end, node.complete = pos + 1, False
                return node
            node.members.append((key, key_start, key_end, value))  # type: ignore[union-attr]
            if not value.complete:
                node.end, node.complete = value.end, False
                return node
            pos = self.ws(value.end)
            if pos < len(text) and text[pos] == ",":
                pos = self.ws(pos + 1)
                continue
            if pos < len(text) and text[pos] == "}":
                node.end = pos + 1
                return node
            node.end, node.complete = pos, False
            return node

    def arr(self, start: int, depth: int) -> Node:
        text = self.text
        node = Node("array", start, start + 1, items=[])
        pos = self.ws(start + 1)
        if pos < len(text) and text[pos] == "]":
            node.end = pos + 1
            return node
        while True:
            value = self.value(pos, depth + 1)
            if value is None:
                node.end, node.complete = pos, False
                return node
            node.items.append(value)  # type: ignore[union-attr]
            if not value.complete:
                node.end, node.complete = value.end, False
                return node
            pos = self.ws(value.end)
            if pos < len(text) and text[pos] == ",":
                pos += 1
                continue
            if pos < len(text) and text[pos] == "]":
                node.end = pos + 1
                return node
            node.end, node.complete = pos, False
            return node


def _decode_string(literal: str) -> str:
    try:
        return msgspec.json.decode(literal, type=str)
    except msgspec.DecodeError:
        return literal[1:-1]


def scan(text: str, start: int = 0) -> Node | None:
    """The first JSON value at or after `start`, or None if there is none."""
    return _Scanner(text).value(start)


def find(root: Node | None, path: Path) -> Node | None:
    node = root
    for item in path:
        if node is None:
            return None
        node = node.get(item)
    return node


def value_span(text: str, path: Path, root: Node | None = None) -> tuple[int, int] | None:
    """Columns of the value at `path`, or None when the path is not in the line."""
    node = find(root if root is not None else scan(text), path)
    return None if node is None else (node.start, node.end)


def path_span(text: str, path: Path, key: bool = False, root: Node | None = None) -> tuple[int, int] | None:
    """Columns of the value at `path` (of its key, with `key`), else of the value that should hold it, so a
    diagnostic about a missing or misplaced member still points near it; None when neither is in the line."""
    found = key_span(text, path, root) if key else value_span(text, path, root)
    if found is None and len(path) > 1:
        found = value_span(text, path[:-1], root)
    return found


@lru_cache(maxsize=4096)
def dotted(path: Path) -> str:
    """`message.content[2].text`: how messages name a place in the line. Cached: a file repeats a few paths in
    thousands of notes (a pure function of the path; the cache is bounded)."""
    out = ""
    for item in path:
        out += f"[{item}]" if isinstance(item, int) else (f".{item}" if out else item)
    return out


def key_span(text: str, path: Path, root: Node | None = None) -> tuple[int, int] | None:
    """Columns of the key that holds the value at `path` (an object member); falls back to the value's span."""
    if not path:
        return None
    parent = find(root if root is not None else scan(text), path[:-1])
    if parent is None:
        return None
    last = path[-1]
    if isinstance(last, str):
        member = parent.member(last)
        return None if member is None else (member[1], member[2])
    node = parent.get(last)
    return None if node is None else (node.start, node.end)


class Hit(msgspec.Struct, frozen=True):
    """What the cursor is on: the path of the innermost value, and whether the cursor is on its key."""

    path: Path
    start: int
    end: int
    on_key: bool
    kind: str


def at(text: str, col: int, root: Node | None = None) -> Hit | None:
    node = root if root is not None else scan(text)
    if node is None or not (node.start <= col <= node.end):
        return None
    path: list[PathItem] = []
    while True:
        if node.members is not None:
            for key, key_start, key_end, value in node.members:
                if key_start <= col < key_end:
                    return Hit((*path, key), key_start, key_end, True, value.kind)
                if value.start <= col <= value.end and (col < value.end or value.kind not in ("object", "array")):
                    path.append(key)
                    node = value
                    break
            else:
                return Hit(tuple(path), node.start, node.end, False, node.kind)
            continue
        if node.items is not None:
            for index, value in enumerate(node.items):
                if value.start <= col <= value.end and (col < value.end or value.kind not in ("object", "array")):
                    path.append(index)
                    node = value
                    break
            else:
                return Hit(tuple(path), node.start, node.end, False, node.kind)
            continue
        return Hit(tuple(path), node.start, node.end, False, node.kind)


def string_value(text: str, node: Node) -> str | None:
    if node.kind != "string" or not node.complete:
        return None
    return _decode_string(text[node.start : node.end])
