"""`FactColumns`: every line's facts of one Elyra file, the plain messages among them as integer columns.

Most lines pi writes are plain messages (`line_pass._plain_message`): their facts are an 8-hex id, a parent that is
null or another 8-hex id, a timestamp in pi's form, a role, a stop reason and, for tool lines, the calls or the call
answered. A `check` of 100,000 such lines kept an `EntryFacts` object for each (112 bytes, 57 more for its id); here a
plain line is a code byte, its id and parent as 32-bit integers and its timestamp as a 64-bit one (the digits of
pi's fixed-width form, which compare as the strings do). Any other line keeps its facts object. Indexing gives facts
equal to the object the line pass would have made (`EntryFacts`), made when asked for; the link model reads the
columns themselves (`codes`, `ids`, the `*_of` readers) without making one.

The server's document, whose lines an edit replaces, keeps a list of objects, which `wrap` reads through the same
interface (every line an object).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from ..columns import U64
from .facts import EntryFacts, ToolCallFact

OBJECT = 0
"""The code of a line whose facts are an object (or None) in `objects`."""
USER, ASSISTANT, TOOL_RESULT = 1, 2, 3
ROLE = 3
"""The code's bits that name the role of a plain message (0: an object line)."""
STOPS = (None, "stop", "length", "toolUse")
STOP_SHIFT = 2
"""An assistant's stop reason, as its index in `STOPS`, in the code's bits 2 and 3."""
STOP_CODES = {stop: index << STOP_SHIFT for index, stop in enumerate(STOPS) if stop is not None}
NULL_PARENT = 16
"""The code's bit of a plain message whose `parentId` is null (a root)."""

_HEX = "0123456789abcdef"
_DIGITS = 17
"""A timestamp in pi's form, 2026-03-01T09:00:00.123Z, as the integer of its 17 digits."""


def stamp_key(stamp: str) -> int:
    """An ASCII timestamp in pi's form as an integer that orders as the text does (same width, same order of
    fields): its digits, the separators deleted from its bytes (about 0.2 µs; a line pi wrote has a timestamp of
    its own, so this runs on every line)."""
    return int(stamp.encode().translate(None, b"-T:.Z"))


def earlier(stamp: int | str, other: int | str) -> bool:
    """Whether timestamp `stamp` is before `other`, each the text or the integer of the columns (`stamp_key`);
    text where they differ, as pi compares them (the columns hold only ASCII forms, which the integer gives back)."""
    if type(stamp) is type(other):
        return stamp < other  # type: ignore[operator]
    return (stamp if isinstance(stamp, str) else stamp_text(stamp)) < (
        other if isinstance(other, str) else stamp_text(other))


def stamp_text(key: int) -> str:
    digits = f"{key:0{_DIGITS}d}"
    return (f"{digits[:4]}-{digits[4:6]}-{digits[6:8]}T{digits[8:10]}:{digits[10:12]}:{digits[12:14]}."
            f"{digits[14:]}Z")


def id_text(key: int) -> str:
    return f"{key:08x}"


def hex_key(entry_id: str) -> int | None:
    """The integer of an id of 8 lowercase hex characters (the ids the columns hold); else None."""
    if len(entry_id) == 8 and not entry_id.strip(_HEX):
        return int(entry_id, 16)
    return None


Writer = tuple[Callable[[int], None], Callable[[int], None], Callable[[int], None], Callable[[int], None],
               Callable[[int], None], list[Any]]
"""`FactColumns.writer`: the appends of its columns, and its list of tool items."""


class FactColumns(Sequence[Any]):
    """Filled once, in line order (`append`, and the file pass through `writer`); afterwards a line is only replaced
    (`__setitem__`, on a `copy`, which shares the columns). The columns hold a value for every line of a store the
    line pass fills, meaningful where its code is not OBJECT; a wrapped list has none (every line an object)."""

    __slots__ = ("codes", "ids", "objects", "parents", "stamps", "tool_at", "tools")

    def __init__(self, objects: list[Any] | None = None) -> None:
        self.objects: Any = {} if objects is None else objects
        """The facts objects (None for a line pi cannot parse): by line, of every OBJECT line (a dictionary, of
        the few lines a store the line pass fills has; or the wrapped list)."""
        self.codes = bytearray(len(objects) if objects is not None else 0)
        self.ids = array("I")
        self.parents = array("I")
        """Per line: its id and its parent's id (0 for a null parent), each 8 hex characters as an integer."""
        self.stamps = array(U64)
        self.tool_at = array("I")
        """Per line: where its calls (a tuple of `ToolCallFact`), or its call id and tool name, are in `tools`;
        0 for a line with neither."""
        self.tools: list[Any] = [None]

    @classmethod
    def wrap(cls, facts: Sequence[Any]) -> FactColumns:
        """`facts` as they are (a store, or a list of objects: then the list itself, which must not change)."""
        if type(facts) is FactColumns:
            return facts
        return cls(facts if type(facts) is list else list(facts))

    def append(self, facts: Any) -> None:
        """A line whose facts are an object (or None)."""
        self.objects[len(self.codes)] = facts
        self.codes.append(OBJECT)
        self.ids.append(0)
        self.parents.append(0)
        self.stamps.append(0)
        self.tool_at.append(0)

    def writer(self) -> Writer:
        """What the file pass writes a plain message with, each the `append` of a column (`codes`, `ids`,
        `parents`, `stamps`, `tool_at`) and `tools` itself: a line is one append to each column, `tool_at` given
        `len(tools)` before its calls are added (one item), or its call id and tool name (two), or 0 and nothing."""
        return (self.codes.append, self.ids.append, self.parents.append, self.stamps.append, self.tool_at.append,
                self.tools)

    def __setitem__(self, line: int, facts: Any) -> None:
        self.objects[line] = facts
        self.codes[line] = OBJECT
        if line < len(self.tool_at) and self.tool_at[line]:  # the columns' list of tool lines is `tool_at`'s
            self.tool_at = array("I", self.tool_at)  # shared with the stores copied from this one
            self.tool_at[line] = 0

    def copy(self) -> FactColumns:
        new = FactColumns.__new__(FactColumns)
        new.objects, new.codes, new.tools = self.objects.copy(), self.codes[:], self.tools
        new.ids, new.parents, new.stamps, new.tool_at = self.ids, self.parents, self.stamps, self.tool_at
        return new

    def __len__(self) -> int:
        return len(self.codes)

    @overload
    def __getitem__(self, line: int) -> Any: ...

    @overload
    def __getitem__(self, line: slice) -> list[Any]: ...

    def __getitem__(self, line: int | slice) -> Any:
        if isinstance(line, slice):
            return [self[number] for number in range(*line.indices(len(self)))]
        if line < 0:  # `objects` may be a dictionary by line
            line += len(self.codes)
        code = self.codes[line]
        if code == OBJECT:
            return self.objects[line]
        return self._plain(line, code)

    def __iter__(self) -> Iterator[Any]:
        for line, code in enumerate(self.codes):
            yield self.objects[line] if code == OBJECT else self._plain(line, code)

    def _plain(self, line: int, code: int) -> EntryFacts:
        """The facts `line_pass._plain_message` gives the line, as an object."""
        entry_id = id_text(self.ids[line])
        parent = None if code & NULL_PARENT else id_text(self.parents[line])
        stamp = stamp_text(self.stamps[line])
        role = code & ROLE
        if role == USER:
            return EntryFacts("message", entry_id, True, parent, True, stamp, "user")
        at = self.tool_at[line]
        if role == ASSISTANT:
            return EntryFacts("message", entry_id, True, parent, True, stamp, "assistant",
                              STOPS[code >> STOP_SHIFT & 3], self.tools[at] if at else ())
        return EntryFacts("message", entry_id, True, parent, True, stamp, "toolResult", None, (), self.tools[at],
                          self.tools[at + 1])

    # -- what the link model reads of a line, without an object made for it --------------------------------------

    def stamp_of(self, line: int) -> int | str | None:
        """The timestamp in pi's form, as its integer (`stamp_key`) in the columns, else as text (see `earlier`);
        None when the line has none."""
        if self.codes[line] != OBJECT:
            return self.stamps[line]
        found = self.objects[line]
        stamp: str | None = found.timestamp if isinstance(found, EntryFacts) else None
        return stamp

    def tool_calls_of(self, line: int) -> tuple[ToolCallFact, ...]:
        code = self.codes[line]
        if code == OBJECT:
            calls: tuple[ToolCallFact, ...] = self.objects[line].tool_calls
            return calls
        at = self.tool_at[line]
        return self.tools[at] if at and code & ROLE == ASSISTANT else ()

    def call_id_of(self, line: int) -> str | None:
        """The toolCallId of a result."""
        code = self.codes[line]
        found: str | None = self.objects[line].tool_call_id if code == OBJECT else \
            self.tools[self.tool_at[line]] if code & ROLE == TOOL_RESULT else None
        return found

    def entry_id_of(self, line: int) -> str | None:
        if self.codes[line] != OBJECT:
            return id_text(self.ids[line])
        found: str | None = self.objects[line].id
        return found

    def parent_id_of(self, line: int) -> str | None:
        code = self.codes[line]
        if code == OBJECT:
            found: str | None = self.objects[line].parent_id
            return found
        return None if code & NULL_PARENT else id_text(self.parents[line])

    def parent_key_of(self, line: int) -> int | None:
        """The parent's id as an integer (`hex_key`), when it is one."""
        code = self.codes[line]
        if code == OBJECT:
            parent_id = self.objects[line].parent_id
            return None if parent_id is None else hex_key(parent_id)
        return None if code & NULL_PARENT else self.parents[line]

    def has_parent_of(self, line: int) -> bool:
        return self.codes[line] != OBJECT or self.objects[line].has_parent

    def is_entry(self, line: int) -> bool:
        """Whether the line is an entry (its facts an `EntryFacts`, not a header's, a `null` line's or none)."""
        return self.codes[line] != OBJECT or type(self.objects[line]) is EntryFacts
