"""The format-neutral shapes a format's face builds from its link model for the structural features (outline,
folding, lenses, hints, rename, renumbering), so that a feature reads every format alike, through `formats.Format`.
Lines are 0-based; columns are left to the features, which hold the text."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import msgspec

from .jsonscan import Path


class Budget:
    """How many outline nodes may still be shown, and how many entries the outline left out. One per request."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.cut = 0

    def take(self) -> bool:
        if self.left > 0:
            self.left -= 1
            return True
        return False


class OutlineNode(msgspec.Struct):
    """One symbol of the outline: it spans lines `first`..`last` and names line `line`. `kind` is a symbol kind of
    `features.types.Symbol`. Mutable while its model fills `children` in."""

    name: str
    detail: str
    kind: str
    first: int
    last: int
    line: int
    children: list[OutlineNode] = []


class Outline(msgspec.Struct):
    nodes: list[OutlineNode]
    noun: str
    """What the budget counts ("entries", "records"), for the note that says how many were left out."""


class Lens(msgspec.Struct, frozen=True):
    """A code lens on `line`; `target` is the line it moves the cursor to, None for a lens that only shows."""

    line: int
    title: str
    target: int | None = None


class Hint(msgspec.Struct, frozen=True):
    """An inlay hint shown at the end of `line`."""

    line: int
    label: str
    tooltip: str = ""


class RenameTarget(msgspec.Struct, frozen=True):
    """A value a rename changes at every place it is written: the declaration first, then the lines naming it."""

    kind: str
    """What the value is, in the words of the model that made it (only that model reads it back)."""
    value: str
    places: tuple[tuple[int, Path], ...]


Place = tuple[int, Path]


def renamed_below(kind: str, old: str, place: Place, declared: list[int], naming: list[Place]) -> RenameTarget:
    """A new id for the later of two declarations of `old` at `place`, and the places naming `old` below it up to
    the next line declaring it (records appended while it was the last, so they meant it). `declared`: the lines
    declaring `old`, in order; `naming`: the places naming it, in line order (by bisection: a file with thousands of
    duplicates read every line below each)."""
    line = place[0]
    at = bisect_right(declared, line)
    stop = declared[at] if at < len(declared) else None
    first = bisect_right(naming, (line, _AFTER))
    last = bisect_left(naming, (stop, ())) if stop is not None else len(naming)
    return RenameTarget(kind, old, (place, *naming[first:last]))


_AFTER: Path = ("\U0010ffff",)
"""A path after every path a format names an id in (on one line, places compare by their paths; `()` is first)."""


class Renumbering(msgspec.Struct, frozen=True):
    """The numbers a format writes on its records in line order: `count` records, and (line, path, number) for each
    record whose written number differs."""

    count: int
    changes: tuple[tuple[int, Path, int], ...]
