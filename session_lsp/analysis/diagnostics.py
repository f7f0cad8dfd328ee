"""Diagnostics as the core produces them: positions are 0-based lines and code-point columns.

The core never knows about UTF-16 or LSP types; the server converts at its edge. These values hold only atoms,
tuples and plain data, never a cycle, so the garbage collector does not track them (`gc=False`): a broken or busy
file has tens of thousands, and each collection would scan them all.
"""

from __future__ import annotations

import enum
from typing import Any

import msgspec


class Severity(enum.IntEnum):
    """Numbered as LSP numbers them, so the server can pass the value straight through."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()


class Span(msgspec.Struct, frozen=True, gc=False):
    line: int
    start: int
    end_line: int
    end: int

    @classmethod
    def on_line(cls, line: int, start: int, end: int) -> Span:
        return cls(line, start, line, end)


class Related(msgspec.Struct, frozen=True, gc=False):
    """The other end of a problem: the first of two duplicate ids, the call a result should answer."""

    span: Span
    message: str


class LineIssue(msgspec.Struct, frozen=True, gc=False):
    """A problem found by looking at one line alone. It carries no line number, so a cached result stays valid
    when lines above it are inserted or deleted."""

    code: str
    start: int
    end: int
    message: str
    severity: Severity | None = None
    data: dict[str, Any] | None = None


class Diagnostic(msgspec.Struct, frozen=True, gc=False):
    code: str
    span: Span
    message: str
    severity: Severity
    related: tuple[Related, ...] = ()
    data: dict[str, Any] | None = None
