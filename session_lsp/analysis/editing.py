"""New lines as a format would write them, in data: which variant, and the values its place in the file fixes.

A format knows what a line appended at some place says (the parent pi would give it, the next seq, the open tool
call); the editor's snippet builder (`features/snippets.py`) knows how to turn that into snippet text, with a tab
stop for every required field left open. This is what passes between the two.
"""

from __future__ import annotations

from typing import Any

import msgspec


class Stop(msgspec.Struct, frozen=True):
    """A value left for the user to type: a tab stop inside a string."""


STOP = Stop()


class Choice(msgspec.Struct, frozen=True):
    """A string value left for the user to pick among `values` (a tab stop offering them; the first is the
    default): for a field whose values depend on the line's type, which a key's known values cannot tell."""

    values: tuple[str, ...]


class FreshId(msgspec.Struct, frozen=True):
    """An id no line of the file uses yet, derived from `seed` (the builder draws it, avoiding the ids in use)."""

    seed: str


class ObjectTemplate(msgspec.Struct, frozen=True):
    """An object of the variant `tags` select (`{"type": "message"}`), with `fixed` members: JSON values, `STOP`,
    a `Choice`, a `FreshId`, or a nested `ObjectTemplate` for a member whose value is itself an object. Members in
    `order` come first (after the tag), then the other required fields of the variant."""

    tags: dict[str, str]
    fixed: dict[str, Any] = {}
    order: tuple[str, ...] = ()


class LineTemplate(msgspec.Struct, frozen=True):
    """A whole line offered as a completion."""

    label: str
    detail: str
    line: ObjectTemplate


HORIZON = 5000
"""How far up a request walks the lines above the cursor (lines) before giving up; keeps a request independent of
file size."""
