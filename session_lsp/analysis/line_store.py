"""A document's lines, kept LZ4-compressed in blocks.

After the line pass has read a line, it is looked at again only when a request or a diagnostic points at it. Held as
100,000 Python strings, a session's lines cost more memory than the file itself; compressed in blocks of `BLOCK`
lines they cost about a third of it, and reading a line back costs one block's decompression (tens of
microseconds). The `HOT` most recently used blocks stay decompressed, so a run of requests on nearby lines, or a
burst of typing, decompresses nothing. An edited block is compressed again only when it leaves the hot set.

A new store holds its lines as they came: compressing costs about 70 ms on 50 MB, which a one-shot check has no
reason to pay and a server pays once the first diagnostics are out (`compact()`). Where LZ4 has no wheel (the VS
Code extension's Alpine build), zlib at its fastest level does the same job, about four times slower to compress.

The store is a `Sequence[str]` like the list it replaces; `replace()` is its one mutation, the splice an edit makes.
A line's label (a document's title of it, `label()`), once made, is kept with its line and compressed with it: most
of a title is words of its line, so LZ4 keeps it in about 9 bytes a line of a session pi wrote, and a block an edit
replaces drops its labels with its lines.
"""

from __future__ import annotations

import threading
import zlib
from abc import abstractmethod
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate
from typing import TypeVar, overload

try:
    import lz4.block as _lz4
except ImportError:
    _lz4 = None

BLOCK = 64
"""Lines per block: small enough that reading one line back is cheap, large enough to compress well."""
HOT = 32
"""Blocks kept decompressed (a few thousand lines)."""


_compress = _lz4.compress if _lz4 is not None else lambda data: zlib.compress(data, 1)
_decompress = _lz4.decompress if _lz4 is not None else zlib.decompress


def _pack(lines: list[str], labels: list[str] | None = None) -> bytes:
    """The lines, and their labels after them when there are any (none holds a "\n")."""
    # surrogatepass: a client's JSON may carry lone surrogates, which must come back exactly as they were.
    return _compress("\n".join(lines if labels is None else [*lines, *labels]).encode("utf-8", "surrogatepass"))


def _unpack(data: bytes, count: int) -> tuple[list[str], list[str] | None]:
    """A block's `count` lines, and their labels if it holds them."""
    items = _decompress(data).decode("utf-8", "surrogatepass").split("\n")
    return (items, None) if len(items) == count else (items[:count], items[count:])


class _Block:
    __slots__ = ("count", "data", "labels", "lines", "wide")

    def __init__(self, lines: list[str], packed: bool) -> None:
        self.count = len(lines)
        self.wide = frozenset(number for number, line in enumerate(lines) if not line.isascii())
        """The lines (by offset) with characters beyond ASCII: an editor's columns count those in its own units,
        so converting a column on any other line needs no decompression (`LineStore.is_ascii`)."""
        self.data: bytes | None = _pack(lines) if packed else None
        """The compressed lines; None until the block is first compacted, and again after an edit."""
        self.lines: list[str] | None = None if packed else lines
        """The lines as strings: while the block is hot, or before it is first compacted."""
        self.labels: list[str] | None = None
        """The lines' labels as strings, once made, while `lines` are strings (else in `data`, with them)."""

    def pack(self) -> None:
        """Compress the lines (and their labels), unless `data` holds them already, and drop the strings."""
        if self.data is None:
            self.data = _pack(self.lines, self.labels)  # type: ignore[arg-type]
        self.lines = self.labels = None

    def unpack(self) -> list[str]:
        self.lines, self.labels = _unpack(self.data, self.count)  # type: ignore[arg-type]
        return self.lines


T = TypeVar("T")


class ByLine(Sequence[T]):
    """A sequence read one line at a time (`_read`): negative numbers and slices are handled here (a document's
    lines, and its results made when read, `result_store`)."""

    __slots__ = ()

    @abstractmethod
    def _read(self, index: int) -> T:
        """Line `index`'s item, `index` known to be in range."""

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        size = len(self)
        if isinstance(index, slice):
            return [self._read(number) for number in range(*index.indices(size))]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("line index out of range")
        return self._read(index)


class Lines(ByLine[str]):
    """A document's lines, read one at a time."""

    def is_ascii(self, index: int) -> bool:
        """Whether line `index` (in range) is ASCII: its columns are the same in every encoding."""
        return self._read(index).isascii()


class LineStore(Lines):
    def __init__(self, lines: Iterable[str] = ("",), hot: int = HOT) -> None:
        self._hot_size = hot
        self._lock = threading.Lock()
        """Reads move blocks in and out of the hot set, so even two readers must not interleave."""
        self._blocks = self._chunks(list(lines) or [""], packed=False)
        self._hot: OrderedDict[_Block, None] = OrderedDict()
        self._starts: list[int] | None = None
        self._size = sum(block.count for block in self._blocks)
        self._last: tuple[int, int, list[str]] = (0, 0, [])
        """(first line, end, lines) of the block read last: a run of reads in one block skips the lookup."""
        self._labelled: tuple[int, int, list[str]] = (0, 0, [])
        """The same for `label`: (first line, end, labels) of the block labelled last."""

    @staticmethod
    def _chunks(lines: list[str], packed: bool) -> list[_Block]:
        return [_Block(lines[at : at + BLOCK], packed) for at in range(0, len(lines), BLOCK)]

    def __len__(self) -> int:
        return self._size

    def _read(self, index: int) -> str:
        start, stop, lines = self._last
        if start <= index < stop:
            return lines[index - start]
        with self._lock:
            at, offset = self._locate(index)
            block = self._blocks[at]
            lines = self._open(block)
            self._last = (index - offset, index - offset + block.count, lines)
            return lines[offset]

    def is_ascii(self, index: int) -> bool:
        """Known without reading the line: a publish converts the columns of every diagnostic, on lines spread over
        more blocks than stay decompressed."""
        with self._lock:
            at, offset = self._locate(index)
            return offset not in self._blocks[at].wide

    def __iter__(self) -> Iterator[str]:
        """Every line in order; blocks that are not hot are decompressed in passing, leaving the hot set as it is."""
        for block in list(self._blocks):
            with self._lock:
                lines = block.lines if block.lines is not None else \
                    _unpack(block.data, block.count)[0]  # type: ignore[arg-type]
            yield from lines

    def replace(self, start: int, stop: int, new: list[str]) -> None:
        """Put `new` where lines `start` to `stop` (exclusive) were, as `list[start:stop] = new` does; a document
        always keeps at least one line."""
        start = min(max(start, 0), self._size)
        stop = min(max(stop, start), self._size)
        with self._lock:
            first, offset = self._locate(min(start, self._size - 1))
            if start == self._size:
                offset = self._blocks[first].count
            last = first
            lines = list(self._open(self._blocks[first]))
            while offset + (stop - start) > len(lines):
                last += 1
                lines.extend(self._open(self._blocks[last]))
            lines[offset : offset + stop - start] = new
            if not lines and len(self._blocks) == last - first + 1:
                lines = [""]
            for block in self._blocks[first : last + 1]:
                self._hot.pop(block, None)
            fresh = self._chunks(lines, packed=len(lines) > 2 * BLOCK) if len(lines) > 2 * BLOCK or not lines \
                else [_Block(lines, packed=False)]
            for block in fresh:
                if block.lines is not None:
                    self._keep(block)
            self._blocks[first : last + 1] = fresh
            self._size += len(new) - (stop - start)
            self._starts = None
            self._last = self._labelled = (0, 0, [])

    def wide_lines(self) -> set[int]:
        """The numbers of the lines with characters beyond ASCII (see `is_ascii`), all at once: a publish converts
        the columns of thousands of diagnostics."""
        with self._lock:
            return {start + offset for start, block in zip(self._block_starts(), self._blocks, strict=True)
                    for offset in block.wide}

    def _block_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [0, *accumulate(block.count for block in self._blocks)][:-1]
        return self._starts

    def _locate(self, index: int) -> tuple[int, int]:
        starts = self._block_starts()
        at = bisect_right(starts, index) - 1
        return at, index - starts[at]

    def label(self, index: int, make: Callable[[int, str], str]) -> str:
        """Line `index`'s label: what `make(number, line)` gives it, made for every line of its block at once when
        first asked (a document's titles, `Document.title`) and kept with the lines. `make` must not read the
        store, and must give a line the same label wherever the line is."""
        start, stop, labels = self._labelled
        if start <= index < stop:
            return labels[index - start]
        with self._lock:
            at, offset = self._locate(index)
            block = self._blocks[at]
            lines = self._open(block)
            start = index - offset
            if block.labels is not None:
                labels = block.labels
            else:
                labels = [make(number, line) for number, line in enumerate(lines, start)]
                if block.lines is None or any("\n" in label for label in labels):  # made again when asked
                    return labels[offset]  # (or the block cooled as it was read: its data stays as it is)
                block.labels, block.data = labels, None  # packed again, with them, when it cools
            self._labelled = (start, start + block.count, labels)
            return labels[offset]

    def _open(self, block: _Block) -> list[str]:
        if block.lines is None:
            lines = block.unpack()
            self._keep(block)
            return lines
        if block in self._hot:
            self._hot.move_to_end(block)
        return block.lines

    def compact(self, most: int | None = None) -> int:
        """Compress every block that is not hot, or the first `most` of those still held as strings; how many were
        compressed (so a caller taking `most` at a time is done when it gets fewer)."""
        packed = 0
        with self._lock:
            for block in self._blocks:
                if block.lines is not None and block not in self._hot:
                    if most is not None and packed == most:
                        break
                    if block.data is None:
                        packed += 1
                    block.pack()
        return packed

    def _keep(self, block: _Block) -> None:
        hot = self._hot
        hot[block] = None
        while len(hot) > self._hot_size:
            cold, _ = hot.popitem(last=False)
            cold.pack()

    def __eq__(self, other: object) -> bool:
        """Equal to a list (or store) of the same lines, as the list it replaces was."""
        if not isinstance(other, (list, LineStore)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LineStore({self._size} lines in {len(self._blocks)} blocks)"
