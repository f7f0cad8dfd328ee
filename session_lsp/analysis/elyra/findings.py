"""Line-pass problems before they have columns: a code, a JSON path and which part of the member to mark.

Checks only name paths; `to_issues` scans the line once with `jsonscan` to turn them into columns, so a clean
line never pays for a scan.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from .. import jsonscan
from ..diagnostics import LineIssue, Severity
from ..jsonscan import Path


class Mark(enum.Enum):
    VALUE = "value"
    KEY = "key"
    MISSING = "missing"
    """The path names an absent member: mark the enclosing object's key, or its first key when it has none."""


class Finding(NamedTuple):
    code: str
    path: Path
    mark: Mark
    message: str
    severity: Severity | None = None


def to_issues(text: str, findings: list[Finding]) -> tuple[LineIssue, ...]:
    root = jsonscan.scan(text)
    whole = _whole(text)
    out: list[LineIssue] = []
    for found in findings:
        start, end = _span(text, root, found) or whole
        out.append(LineIssue(found.code, start, end, found.message, found.severity))
    return tuple(out)


def _whole(text: str) -> tuple[int, int]:
    stripped = text.strip()
    start = text.find(stripped) if stripped else 0
    return start, start + len(stripped)


def _span(text: str, root: jsonscan.Node | None, found: Finding) -> tuple[int, int] | None:
    path = found.path
    if not path or root is None:
        return None
    if found.mark is Mark.VALUE:
        return jsonscan.value_span(text, path, root) or jsonscan.key_span(text, path, root)
    if found.mark is Mark.KEY:
        return jsonscan.key_span(text, path, root)
    enclosing = path[:-1]
    if enclosing and isinstance(enclosing[-1], str):
        return jsonscan.key_span(text, enclosing, root)
    node = jsonscan.find(root, enclosing)
    if node is None:
        return None
    if node.members:
        _, start, end, _ = node.members[0]
        return start, end
    return node.start, node.end
