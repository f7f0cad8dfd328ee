"""Duplicate keys (THN010): serde rejects an object that names a field twice; msgspec silently keeps the last.

Finding them costs nothing on a line thndrs wrote. The line pass re-encodes the decoded record (one C call) and
compares it with the line: the schema's field order and `omit_defaults` follow thndrs's writer, so its lines come
back byte for byte, and a line equal to the encoding of a Struct cannot name a key twice. Only a line that differs
(hand edits, other whitespace, a `null` the writer would have omitted) is checked here, first with the C `json`
parser (`has_duplicates`, exact), and only when that finds one with the position-keeping scanner (`findings`).
"""

from __future__ import annotations

import json
from typing import Any

from .. import jsonscan


class _Repeated(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> None:
    if len(pairs) > 1 and len({key for key, _ in pairs}) != len(pairs):
        raise _Repeated
    return None


def has_duplicates(text: str) -> bool:
    """True when some object on the line (which must be valid JSON) names a key twice."""
    try:
        json.loads(text, object_pairs_hook=_pairs)
    except _Repeated:
        return True
    except (ValueError, RecursionError):
        return bool(findings(jsonscan.scan(text)))
    return False


def findings(node: jsonscan.Node | None) -> list[tuple[int, int, str]]:
    """(start, end, message) for every repeated key, at each repetition after the first."""
    out: list[tuple[int, int, str]] = []
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if current.members is not None:
            first: dict[str, int] = {}
            for key, start, end, value in current.members:
                if key in first:
                    out.append((start, end,
                                f"key {key!r} appears again in this object (first at column {first[key] + 1}): "
                                "thndrs refuses a record that names a field twice, so the 0.1.0 reader drops this "
                                "line and later builds refuse to resume the session; delete one of the two"))
                else:
                    first[key] = start
                stack.append(value)
        elif current.items is not None:
            stack.extend(current.items)
    out.sort()
    return out
