"""`IdIndex`: pi's index of entries by id (the last entry with an id wins), read as a mapping from id to line.

The ids of the plain messages a `FactColumns` holds are its `ids` column, 8 hex characters as a 32-bit integer a
line: the index reads that column where it is, so those ids cost nothing beyond it, instead of a string and a
dictionary slot each. Any other id (of a line kept as an object) is in a dictionary, as before. The link pass looks
up only the parents that are not the entry above: `resolve` finds them in one pass over the column at C speed.
A lookup it did not answer is one `in` (absent: a fresh id) or one more pass; after `_PASSES` of those, the
column's ids are sorted once, for bisection.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping
from itertools import compress, count

from ..columns import U64
from .fact_columns import FactColumns, hex_key, id_text

_LINE_BITS = 32
_LINE_MASK = (1 << _LINE_BITS) - 1
_NONE = -1
_PASSES = 8


class IdIndex(Mapping[str, int]):
    """Built once over a store's columns as they are then (`ids` and `codes`: a line is in the columns where its
    code is not 0) and `named`, the ids of the other entries (the later line kept for a repeated id); then only
    looked up (which fills its caches). A store's copy replaces `codes`, never changes it, and shares `ids`, which
    never changes."""

    __slots__ = ("_codes", "_found", "_ids", "_named", "_passes", "_size", "_sorted")

    def __init__(self, facts: FactColumns, named: dict[str, int]) -> None:
        self._ids, self._codes = facts.ids, facts.codes
        self._named = named
        self._found: dict[int, int] = {}
        """id -> its last line in the columns (`_NONE`: none), for the ids `resolve` looked for."""
        self._sorted: array[int] | None = None
        """id << 32 | line of every line in the columns, sorted, once lookups need it: after `_PASSES` passes for
        one id each (a pass costs a tenth of the sort)."""
        self._passes = 0
        self._size = -1

    def _keys(self) -> Iterator[int]:
        """The ids of the lines in the columns, in line order, at C speed."""
        return compress(self._ids, self._codes)

    def repeats(self) -> bool:
        """Whether an id of the columns is declared twice, or is also the id of a line kept as an object. The ids of
        each half of the lines are a set in turn, and the second half's are looked up in the first's (one set of every
        id made the peak of the scan in a 1 GB check 319 MiB, now 250: benchmarks/phase_memory.py)."""
        ids, codes = self._ids, self._codes
        if not ids:
            return False
        half = len(codes) // 2
        first = set(compress(ids[:half], codes))
        if len(first) != half - codes.count(0, 0, half) or any(map(first.__contains__,
                                                                     compress(ids[half:], codes[half:]))):
            return True
        del first
        rest = codes[half:]
        if len(set(compress(ids[half:], rest))) != len(rest) - rest.count(0):
            return True
        return any(key is not None and self._line_of(key) is not None for key in map(hex_key, self._named))

    def resolve(self, keys: Iterable[int | None]) -> None:
        """Find the last lines of these ids (integers of 8-hex ids; None for another id) in one pass over the
        column, so that looking them up needs no sorted index."""
        if self._sorted is not None or not self._ids:  # before `keys` is read: a list of objects has no column
            return
        found = self._found
        wanted = {key for key in keys if key is not None}.difference(found)
        if not wanted:
            return
        for key in wanted:
            found[key] = _NONE
        ids, codes = self._ids, self._codes
        for line in compress(count(), map(wanted.__contains__, ids)):
            if codes[line]:
                found[ids[line]] = line

    def _line_of(self, key: int) -> int | None:
        """The last line whose columns declare id `key`."""
        line = self._found.get(key)
        if line is None and self._sorted is None and self._passes < _PASSES:
            self._passes += 1
            if key in self._ids:  # `in` is a third of a pass's cost, and a fresh id is never there
                self.resolve((key,))
            else:
                self._found[key] = _NONE
            line = self._found.get(key)
        if line is not None:
            return line if line != _NONE else None
        if not self._ids:
            return None
        keyed = self._sorted
        if keyed is None:
            keyed = self._sorted = array(U64, sorted(key << _LINE_BITS | line for key, line in
                                                     zip(self._keys(), compress(count(), self._codes), strict=True)))
        at = bisect_left(keyed, (key + 1) << _LINE_BITS) - 1
        if at >= 0 and keyed[at] >> _LINE_BITS == key:
            return keyed[at] & _LINE_MASK
        return None

    def get(self, entry_id: object, default: int | None = None) -> int | None:  # type: ignore[override]
        named = self._named.get(entry_id) if isinstance(entry_id, str) else None
        if self._ids and isinstance(entry_id, str):
            key = hex_key(entry_id)
            if key is not None:
                line = self._line_of(key)
                if line is not None and (named is None or line > named):
                    return line
        return default if named is None else named

    def __getitem__(self, entry_id: str) -> int:
        line = self.get(entry_id)
        if line is None:
            raise KeyError(entry_id)
        return line

    def __contains__(self, entry_id: object) -> bool:
        return self.get(entry_id) is not None

    def __iter__(self) -> Iterator[str]:
        named = self._named
        yield from named
        for key in sorted(set(self._keys())):
            entry_id = id_text(key)
            if entry_id not in named:
                yield entry_id

    def __len__(self) -> int:
        if self._size < 0:
            self._size = sum(1 for _ in self)
        return self._size
