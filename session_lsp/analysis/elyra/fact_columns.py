"""`FactColumns`: every line's facts of one Elyra file, the plain messages among them as integer columns.

Most lines pi writes are plain messages (`line_pass._plain_message`): their facts are an 8-hex id, a parent that is
null or another 8-hex id, a timestamp in pi's form, a role, a stop reason and, for tool lines, the calls or the call
answered. A `check` of 100,000 such lines kept an `EntryFacts` object for each (112 bytes, 57 more for its id); here a
plain line is a code byte, its id and parent as 32-bit integers and its timestamp as a 64-bit one (the digits of
pi's fixed-width form, which compare as the strings do). Each tool call, and each result, is a record of 8 bytes:
its call id's number among the file's distinct call ids (the id's key for the pairing; the ids are in one byte
array, each once), and its tool name's number and its block's index. A tuple of `ToolCallFact`s and their id
strings took 64 bytes a line of a session pi wrote; the records and the ids take about 17. Any other line keeps its
facts object. Indexing gives facts equal to the object the line pass would have made (`EntryFacts`), made when
asked for; the link model reads the columns themselves (`codes`, `ids`, the records, the `*_of` readers) without
making one.

An edit replaces lines on a `copy` (`__setitem__`; a run of lines by a slice): each new line is an object, and the
columns are shared with the store copied until a run of lines changes length. A list of objects (results a caller
made as a list) is read through the same interface by `wrap` (every line an object).
"""

from __future__ import annotations

import itertools
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from ..columns import U64
from .facts import EntryFacts, ToolCallFact

OBJECT = 0
"""The code of a line whose facts are an object (or None) in `objects`."""
USER, ASSISTANT, TOOL_RESULT = 1, 2, 3
ROLE = 3
"""The code's bits that name the role of a plain message (0: an object line)."""
ROLES = (None, "user", "assistant", "toolResult")
"""The role of a plain message, by its code's role bits."""
STOPS = (None, "stop", "length", "toolUse")
STOP_SHIFT = 2
"""An assistant's stop reason, as its index in `STOPS`, in the code's bits 2 and 3."""
STOP_CODES = {stop: index << STOP_SHIFT for index, stop in enumerate(STOPS) if stop is not None}
NULL_PARENT = 16
"""The code's bit of a plain message whose `parentId` is null (a root)."""
COUNT_SHIFT = 5
"""An assistant's number of tool calls (1 to `MAX_CALLS`), in the code's bits 5 to 7."""
MAX_CALLS = 7
MAX_NAMES = MAX_INDEX = 256
"""A record's mark (`call_marks`): its tool name's number (of at most 256 names) | its block's index (below 256)
<< 8."""
END = 0xFF
"""What ends a call id in `call_ids`: a byte no UTF-8 holds."""
_UTF8 = ("utf-8", "surrogatepass")
"""How `call_ids` holds a call id: any string, a lone surrogate too (the line pass's full path reads them)."""

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
               Callable[[int], None], "FactColumns"]
"""`FactColumns.writer`: the appends of its line columns, and the store itself, which writes the call records."""


class FactColumns(Sequence[Any]):
    """Filled once, in line order (`append`, and the file pass through `writer`); afterwards lines are only replaced
    (`__setitem__`, on a `copy`, which shares the columns, never changing one in place). The columns hold a value
    for every line of a store the line pass fills, meaningful where its code is not OBJECT; a wrapped list has none
    (every line an object)."""

    __slots__ = ("call_ids", "call_keys", "call_marks", "codes", "id_starts", "ids", "keyed", "name_numbers", "names",
                 "object_keys", "objects", "parents", "sealed", "stamps", "tool_at")

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
        """Per line: its first call record (an assistant's calls are the next `code >> COUNT_SHIFT`, a result's
        call is one); 0 for a line with neither."""
        self.call_keys = array("I")
        """Per record (from 1): its call id's number among the file's distinct call ids, which is the id's key
        (`call_key`): equal ids, one key, and the pairing's tables can be arrays by key; made when the store is
        filled (`seal`)."""
        self.id_starts = array("I")
        """Per key: where its id starts in `call_ids`, in ascending order."""
        self.call_marks = array("I", [0])
        """Per record: its tool name's number in `names` | its block's index in the message's content << 8 (a
        result's is 0)."""
        self.call_ids = bytearray()
        """The call ids of the records in UTF-8, each ended by `END`: while the line pass fills the store, each
        record's (from 1), written there by the line pass; once sealed, each id once."""
        self.sealed = objects is not None
        self.names: list[str] = []
        self.name_numbers: dict[str, int] = {}
        self.keyed = objects is None
        """Whether the tool-call pairing reads call ids by key (`call_key`): a store the line pass fills; a wrapped
        list is read by its ids."""
        self.object_keys: dict[int, tuple[tuple[Any, ...], Any]] = {}
        """The lines kept as objects with tool calls or a toolCallId -> the keys of those calls' ids, and of that
        id (until `seal`, the ids)."""

    @classmethod
    def wrap(cls, facts: Sequence[Any]) -> FactColumns:
        """`facts` as they are (a store, or a list of objects: then the list itself, which must not change). A
        store the line pass filled is sealed here, when a link model first reads it: the file pass cannot seal it,
        since a later part of the file, read by a pass of its own, may still be joined to it (`extend`)."""
        if type(facts) is FactColumns:
            facts.seal()
            return facts
        return cls(facts if type(facts) is list else list(facts))

    def append(self, facts: Any) -> None:
        """A line whose facts are an object (or None)."""
        line = len(self.codes)
        self.objects[line] = facts
        self.codes.append(OBJECT)
        self.ids.append(0)
        self.parents.append(0)
        self.stamps.append(0)
        self.tool_at.append(0)
        self._key_object(line, facts)

    def extend(self, other: FactColumns) -> None:
        """Append the lines of `other`, the store of the file's lines after these filled by a line pass of its own
        (another process's, `Document.streamed`): its columns as they are, its records after these (a line's first
        record moved by as many), its tool names numbered among these, its object lines by their new numbers. Both
        stores are unsealed: nothing has read them yet. The lines are held as one pass over both parts would hold
        them: a call or result of a tool name past the file's 256th keeps its line an object (`_extend_lines`)."""
        if self.sealed or other.sealed:
            raise ValueError("a sealed store is read-only")
        table = array("I")
        """`other`'s tool names' numbers here, by their number there; `MAX_NAMES` for a name past the 256th."""
        for name in other.names:
            number = self.name_numbers.get(name)
            if number is None:
                number = self.number(name)
            table.append(MAX_NAMES if number is None else number)
        if MAX_NAMES in table:
            self._extend_lines(other, table)
            return
        lines, moved = len(self.codes), len(self.call_marks) - 1
        self.codes += other.codes
        self.ids.extend(other.ids)
        self.parents.extend(other.parents)
        self.stamps.extend(other.stamps)
        self.tool_at.extend(array("I", [at + moved if at else 0 for at in other.tool_at]) if moved else other.tool_at)
        marks = other.call_marks[1:]
        if table != array("I", range(len(table))):
            marks = array("I", [table[mark & 0xFF] | mark & ~0xFF for mark in marks])
        self.call_marks.extend(marks)
        self.call_ids += other.call_ids
        self.objects.update({line + lines: facts for line, facts in other.objects.items()})
        self.object_keys.update({line + lines: keys for line, keys in other.object_keys.items()})

    def _extend_lines(self, other: FactColumns, table: array[int]) -> None:
        """`extend`, a line at a time, when some of `other`'s tool names have no number here (`MAX_NAMES` in
        `table`): a line whose records name one of those is appended as its facts object."""
        ids = bytes(other.call_ids).split(b"\xff")  # record r's id is ids[r - 1]
        marks = other.call_marks
        for line, code in enumerate(other.codes):
            at = other.tool_at[line]
            count = 0 if not at else code >> COUNT_SHIFT if code & ROLE == ASSISTANT else 1
            records = range(at, at + count)
            if code == OBJECT or any(table[marks[record] & 0xFF] == MAX_NAMES for record in records):
                self.append(other.objects[line] if code == OBJECT else other._plain(line, code))
                continue
            self.tool_at.append(len(self.call_marks) if at else 0)
            for record in records:
                self.call_marks.append(table[marks[record] & 0xFF] | marks[record] & ~0xFF)
                self.call_ids += ids[record - 1]
                self.call_ids.append(END)
            self.codes.append(code)
            self.ids.append(other.ids[line])
            self.parents.append(other.parents[line])
            self.stamps.append(other.stamps[line])

    def call_key(self, call_id: str) -> int | str:
        """What the pairing knows a call id by in a sealed store: its number among the distinct ids of `call_ids`
        (an int, where an id read back would be a string of its own, 80 bytes a call); an id not there, itself (no
        other id has its key then, either)."""
        encoded, ids = call_id.encode(*_UTF8) + b"\xff", self.call_ids
        if ids.startswith(encoded):  # the first id; each other follows an END (no copy of the ids to find it)
            return 0
        found = ids.find(b"\xff" + encoded)
        return bisect_left(self.id_starts, found + 1) if found >= 0 else call_id

    def _key_object(self, line: int, facts: Any) -> None:
        """Note the call ids of an object line (see `object_keys`), by key once sealed."""
        if self.keyed and isinstance(facts, EntryFacts) and (facts.tool_calls or facts.tool_call_id is not None):
            answered: str | None = facts.tool_call_id
            calls = tuple(call.id for call in facts.tool_calls)
            if self.sealed:
                key = self.call_key
                self.object_keys[line] = (tuple(map(key, calls)), None if answered is None else key(answered))
            else:
                self.object_keys[line] = (calls, answered)

    def seal(self) -> None:
        """The store is filled: each distinct call id stays in `call_ids` once, and each record gets its key.
        A link model seals the store it reads (`wrap`), as do the readers of the records, and nothing may be
        written into it afterwards.
        At C speed, and the ids are objects only here, made and dropped together: a string a call kept through the
        line pass left the memory it took scattered among what the line pass keeps, where the link pass could not
        use it (README, "tool calls as records"). The records' array goes before their ids are objects, one
        dictionary numbers the distinct ids in place, and the new array is joined in parts (a join holds 80 bytes
        a part while it runs): in a 1 GB check this step's peak was 326 MiB, now 270 (benchmarks/phase_memory.py)."""
        if self.sealed:
            return
        self.sealed = True
        data = b"\xff" + self.call_ids
        self.call_ids = bytearray()  # its copy is `data`: the array's memory goes before the ids are split
        pending = data.split(b"\xff")
        del data
        pending.pop()  # after the last id's END; the first item, before record 1's id, stands for record 0
        objects = {line: (tuple(found.encode(*_UTF8) for found in calls), None if answered is None else
                          answered.encode(*_UTF8)) for line, (calls, answered) in self.object_keys.items()}
        held = [found for calls, answered in objects.values() for found in (*calls, answered) if found is not None]
        key_of = dict.fromkeys(itertools.chain(pending, held), 0)
        key_of.update(zip(key_of, itertools.count()))  # each id's number, in place: values change, keys do not
        self.call_keys = array("I", map(key_of.__getitem__, pending))
        del pending
        self.call_ids = ids = bytearray()
        distinct = iter(key_of)
        while chunk := tuple(itertools.islice(distinct, 4096)):
            ids += b"\xff".join(chunk)
            ids.append(END)
        sizes = map((1).__add__, map(len, itertools.islice(key_of, len(key_of) - 1)))
        self.id_starts = array("I" if len(self.call_ids) < 1 << 32 else U64, itertools.accumulate(sizes, initial=0))
        self.object_keys = {line: (tuple(map(key_of.__getitem__, calls)),
                                   None if answered is None else key_of[answered])
                            for line, (calls, answered) in objects.items()}

    def writer(self) -> Writer:
        """What the file pass writes a plain message with, each the `append` of a column (`codes`, `ids`,
        `parents`, `stamps`, `tool_at`) and the store itself, whose call records the file pass writes first: a
        line is one append to each column, `tool_at` its first record, or 0."""
        return (self.codes.append, self.ids.append, self.parents.append, self.stamps.append, self.tool_at.append,
                self)

    def number(self, name: str) -> int | None:
        """A tool name's number (in `call_marks`), given when first met; None past 256 names."""
        if len(self.names) == MAX_NAMES:
            return None
        number = self.name_numbers[name] = len(self.names)
        self.names.append(name)
        return number

    def record_id(self, record: int) -> str:
        if not self.sealed:
            self.seal()
        ids, start = self.call_ids, self.id_starts[self.call_keys[record]]
        return ids[start:ids.index(END, start)].decode(*_UTF8)

    def record_calls(self, first: int, code: int) -> tuple[ToolCallFact, ...]:
        """The calls of the assistant line with `code` whose first record is `first`."""
        marks, names, record_id = self.call_marks, self.names, self.record_id
        return tuple(ToolCallFact(record_id(record), names[marks[record] & 0xFF], marks[record] >> 8)
                     for record in range(first, first + (code >> COUNT_SHIFT)))

    @overload
    def __setitem__(self, line: int, facts: Any) -> None: ...

    @overload
    def __setitem__(self, line: slice, facts: list[Any]) -> None: ...

    def __setitem__(self, line: int | slice, facts: Any) -> None:
        if isinstance(line, slice):
            self._splice(*line.indices(len(self.codes))[:2], facts)
            return
        self.objects[line] = facts
        self.codes[line] = OBJECT
        if line < len(self.tool_at) and self.tool_at[line]:  # the columns' list of tool lines is `tool_at`'s
            self.tool_at = array("I", self.tool_at)  # shared with the stores copied from this one
            self.tool_at[line] = 0
        self.object_keys.pop(line, None)
        self._key_object(line, facts)

    def _splice(self, start: int, stop: int, facts: list[Any]) -> None:
        """Lines `start` to `stop` replaced by a line for each of `facts`, an object each (an edit): when their
        number changes, each column is made anew (at C speed: about a millisecond for 100,000 lines), the object
        lines after them renumbered. The call records stay: the lines after keep theirs, the lines replaced leave
        theirs unread."""
        stop = max(start, stop)
        if stop - start == len(facts):
            for line, found in enumerate(facts, start):
                self[line] = found
            return
        count, shift, size = len(facts), len(facts) - (stop - start), len(self.codes)

        def spliced(column: array[int]) -> array[int]:
            if len(column) != size:  # a wrapped list's columns are empty
                return column
            return column[:start] + array(column.typecode, bytes(count * column.itemsize)) + column[stop:]

        self.ids, self.parents, self.stamps, self.tool_at = map(spliced, (self.ids, self.parents, self.stamps,
                                                                          self.tool_at))
        self.codes = self.codes[:start] + bytes(count) + self.codes[stop:]
        if isinstance(self.objects, list):
            self.objects = [*self.objects[:start], *facts, *self.objects[stop:]]
        else:
            self.objects = {line if line < start else line + shift: found for line, found in self.objects.items()
                            if not start <= line < stop}
        self.object_keys = {line if line < start else line + shift: keys for line, keys in self.object_keys.items()
                            if not start <= line < stop}
        for line, found in enumerate(facts, start):
            self.objects[line] = found
            self._key_object(line, found)

    def copy(self) -> FactColumns:
        new = FactColumns.__new__(FactColumns)
        new.objects, new.codes = self.objects.copy(), self.codes[:]
        new.ids, new.parents, new.stamps, new.tool_at = self.ids, self.parents, self.stamps, self.tool_at
        new.call_keys, new.call_marks, new.call_ids, new.id_starts = self.call_keys, self.call_marks, self.call_ids, \
            self.id_starts
        new.names, new.name_numbers = self.names, self.name_numbers
        new.keyed, new.sealed, new.object_keys = self.keyed, self.sealed, dict(self.object_keys)
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
                              STOPS[code >> STOP_SHIFT & 3], self.record_calls(at, code) if at else ())
        return EntryFacts("message", entry_id, True, parent, True, stamp, "toolResult", None, (), self.record_id(at),
                          self.names[self.call_marks[at] & 0xFF])

    def named(self, line: int) -> Any:
        """What a title reads of a line's facts (`line_pass.line_title`: the role, the stop reason, the tool names):
        of a plain message an `EntryFacts` without its ids, time and call ids, whose making took most of the time
        of naming a line; of any other line, its object."""
        code = self.codes[line]
        if code == OBJECT:
            return self.objects[line]
        role = code & ROLE
        if role == USER:
            return _USER_NAMED
        at, names, marks = self.tool_at[line], self.names, self.call_marks
        if role == ASSISTANT:
            calls = tuple(ToolCallFact("", names[marks[record] & 0xFF], marks[record] >> 8)
                          for record in range(at, at + (code >> COUNT_SHIFT))) if at else ()
            return EntryFacts("message", None, True, None, True, None, "assistant", STOPS[code >> STOP_SHIFT & 3],
                              calls)
        return EntryFacts("message", None, True, None, True, None, "toolResult", None, (), None,
                          names[marks[at] & 0xFF])

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
        return self.record_calls(at, code) if at and code & ROLE == ASSISTANT else ()

    def call_key_of(self, line: int) -> int | str | None:
        """The key (`call_key`) of a result's toolCallId, as the pairing knows it."""
        code = self.codes[line]
        if not self.sealed:
            self.seal()
        if code != OBJECT:
            return self.call_keys[self.tool_at[line]] if code & ROLE == TOOL_RESULT else None
        if self.keyed:
            keys = self.object_keys.get(line)
            return None if keys is None else keys[1]
        found: str | None = self.objects[line].tool_call_id
        return found

    def call_id_of(self, line: int) -> str | None:
        """The toolCallId of a result."""
        code = self.codes[line]
        found: str | None = self.objects[line].tool_call_id if code == OBJECT else \
            self.record_id(self.tool_at[line]) if code & ROLE == TOOL_RESULT else None
        return found

    def entry_id_of(self, line: int) -> str | None:
        if self.codes[line] != OBJECT:
            return id_text(self.ids[line])
        found: str | None = self.objects[line].id
        return found

    def entry_kind_of(self, line: int) -> tuple[str | None, str | None]:
        """An entry's type and its message's role (None where it has none)."""
        code = self.codes[line]
        if code == OBJECT:
            found = self.objects[line]
            return found.type, found.role
        return "message", ROLES[code & ROLE]

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


_USER_NAMED = EntryFacts("message", None, True, None, True, None, "user")
"""What a title reads of every plain user message (`FactColumns.named`)."""
