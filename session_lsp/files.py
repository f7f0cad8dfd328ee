"""Reading a session file from a path a user or an editor names: the CLI's `check` and the server's
`sessionLsp/analyzeFile` share it, so both refuse the same things the same way, and both stream it: a file is read
in chunks and its text is never held whole (`FileLines`). A Zstandard-compressed file (`.jsonl.zst`, told by its
magic number, whatever its name) is read as the text it holds: `uncompressed`."""

from __future__ import annotations

import os
import stat
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from itertools import accumulate
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .analysis import Span
from .analysis.document import Part, StreamedLines
from .analysis.text import decode_line
from .forked import Forked, fork

Later = tuple[Part, "array[int]", list[Span], dict[int, int], int]
"""What the process reading a file's later lines sends back (`FileLines.split`): `later`'s value, the starts of
those lines, the invalid UTF-8 and the lines too long it met, and where the file ended."""

_NEWLINE = 1
"""The byte a line's "\\n" adds to its length."""

if TYPE_CHECKING:
    from hashlib import _Hash

    if sys.version_info >= (3, 14):
        from compression.zstd import ZstdDecompressor, ZstdError
    else:
        from backports.zstd import ZstdDecompressor, ZstdError

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""The first bytes of a Zstandard frame."""

CHUNK = 1 << 20
"""Bytes read at a time while streaming: large enough that the reads cost nothing, small beside any session."""

LINE_LIMIT = 0x1FFFFFE8
"""Bytes of the longest line that is read: V8's longest string (536,870,888 UTF-16 units), so no line pi can hold is
refused. A longer line is not held: the stream drops it as it goes, looks only for its end, and hands the core an
empty stand-in with `too_long` saying how long it was (SLS002)."""


class NotReadable(Exception):
    """A path that is not read: not a regular file, or larger than the caller allows."""


def unusable(path: str) -> str | None:
    """Why no file can have this name, else None: the OS refuses these with ValueError before any lookup, so they
    are a caller's mistake to report as such, not a file that could not be read."""
    if "\0" in path:
        return "a path cannot contain a NUL character"
    try:
        os.fsencode(path)
    except UnicodeEncodeError:
        return "a path cannot contain a lone surrogate (no file name decodes to one)"
    return None


def open_regular(path: str, max_bytes: int | None = None) -> int:
    """A descriptor for the regular file at `path`. A FIFO would block the reader forever, /dev/zero would never
    end, and a directory has nothing to analyse: the path is opened without blocking and checked with fstat before
    any read. With `max_bytes`, a larger file is refused."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotReadable("not a regular file")
        if max_bytes is not None and status.st_size > max_bytes:
            raise NotReadable(f"{status.st_size} bytes, over the limit of {max_bytes}")
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def is_zstd(data: bytes) -> bool:
    return data[:4] == ZSTD_MAGIC


def _zstd() -> tuple[type[ZstdDecompressor], type[ZstdError]]:
    """The decompressor and its error, imported for the first Zstandard file: loading them is some 10 ms of every
    run's start-up otherwise."""
    if sys.version_info >= (3, 14):
        from compression.zstd import ZstdDecompressor, ZstdError
    else:
        from backports.zstd import ZstdDecompressor, ZstdError
    return ZstdDecompressor, ZstdError


def uncompressed(data: bytes, max_bytes: int | None = None) -> bytes:
    """The text a `.zst` file's bytes hold (every frame); bytes that are not Zstandard are returned as they are. A
    file that does not decompress, or holds more than `max_bytes`, is NotReadable."""
    if not is_zstd(data):
        return data
    decompressor_type, zstd_error = _zstd()
    out = bytearray()
    try:
        while data:
            decompressor = decompressor_type()
            out += decompressor.decompress(data, -1 if max_bytes is None else max_bytes + 1 - len(out))
            if max_bytes is not None and len(out) > max_bytes:
                raise NotReadable(f"holds more than the limit of {max_bytes} bytes once decompressed")
            if not decompressor.eof:
                raise NotReadable("a Zstandard file cut short (its last frame is incomplete)")
            data = decompressor.unused_data
    except zstd_error as error:
        raise NotReadable(f"not a readable Zstandard file ({error})") from error
    return bytes(out)


def read_uncompressed(path: str, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file at `path`, decompressed when it is Zstandard: what an editor shows of a
    `.jsonl.zst` (the server's `sessionLsp/decompress`). More than `max_bytes`, compressed or not, is NotReadable."""
    with open(open_regular(path, max_bytes), "rb") as handle:
        data = handle.read()
    return uncompressed(data, max_bytes)


def _decompressed(descriptor: int, max_bytes: int | None, digest: _Hash | None = None) -> int:
    """For a descriptor on a Zstandard file: a descriptor on an anonymous temporary file holding its text (read
    back by offset like any file), the original closed; any other file's descriptor as it is. `digest` is fed the
    compressed bytes as they are read."""
    if os.pread(descriptor, 4, 0) != ZSTD_MAGIC:
        return descriptor
    import tempfile  # here: it loads random, shutil and the compression modules, which plain files never need

    try:
        with tempfile.TemporaryFile() as target:
            _decompress_into(descriptor, target.fileno(), max_bytes, digest)
            os.lseek(target.fileno(), 0, os.SEEK_SET)  # the stream reads from the start
            return os.dup(target.fileno())
    finally:
        os.close(descriptor)


def _decompress_into(source: int, target: int, max_bytes: int | None, digest: _Hash | None = None) -> None:
    """Every frame of the Zstandard file `source`, decompressed into `target` a chunk at a time."""
    decompressor_type, zstd_error = _zstd()
    written = offset = 0
    decompressor: ZstdDecompressor | None = None
    try:
        while chunk := os.pread(source, CHUNK, offset):
            offset += len(chunk)
            if digest is not None:
                digest.update(chunk)
            while chunk or (decompressor is not None and not decompressor.needs_input):
                if decompressor is None:
                    decompressor = decompressor_type()
                piece = decompressor.decompress(chunk, CHUNK)  # a chunk at a time: a frame can hold 1000 times its size
                chunk = b""
                written += len(piece)
                if max_bytes is not None and written > max_bytes:
                    raise NotReadable(f"holds more than the limit of {max_bytes} bytes once decompressed")
                while piece:
                    piece = piece[os.write(target, piece):]
                if decompressor.eof:  # a file of several frames: the next frame starts in what is left
                    chunk, decompressor = decompressor.unused_data, None
    except zstd_error as error:
        raise NotReadable(f"not a readable Zstandard file ({error})") from error
    if decompressor is not None:
        raise NotReadable("a Zstandard file cut short (its last frame is incomplete)")


def sha256(data: bytes = b"") -> _Hash:
    """hashlib's SHA-256, imported on first use: hashlib loads OpenSSL, which only SARIF's digests need."""
    import hashlib

    return hashlib.sha256(data)


class FileLines(StreamedLines):
    """The lines of a regular file, streamed once in chunks and afterwards read back one at a time at the offsets
    the stream recorded (8 bytes a line are all that is kept). Reads go through `pread` on the descriptor opened
    first, so a line read back comes from the file that was streamed, even if it was renamed or replaced since.
    Use it as a context manager: it closes the descriptor."""

    def __init__(self, path: str, max_bytes: int | None = None, chunk: int = CHUNK,
                 max_line: int = LINE_LIMIT, digest: bool = False, split_sizes: range | None = None) -> None:
        """`split_sizes`: the sizes in bytes of a file that may be split (`split`); None: none."""
        descriptor = open_regular(path, max_bytes)
        self.stored_size = os.fstat(descriptor).st_size
        """The file's size as stored (compressed, for a `.jsonl.zst`)."""
        self._digest = sha256() if digest else None
        self._descriptor = _decompressed(descriptor, max_bytes, self._digest)
        self._stream_digest = self._digest if self._descriptor == descriptor else None
        """The digest the stream feeds: the file's own bytes (a compressed file's were hashed as it was read)."""
        self._max_bytes = max_bytes
        self._max_line = max_line
        self._long: dict[int, int] = {}
        self._chunk = chunk
        self._starts = array("q", [0])
        """Where each line starts; one more entry, for the line after the last "\\n", ends the list."""
        self._end = 0
        self._bad: list[Span] = []
        self._streamed = False
        self._done = False
        self._split_sizes = split_sizes
        self._offset = 0
        """The bytes streamed so far."""
        self._stop: int | None = None
        """Where the stream ends while another process reads the lines after it (`split`)."""
        self._child: Forked[Later[Any]] | None = None
        """That process, until its result is taken."""

    def __enter__(self) -> FileLines:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._child is not None:  # the stream was left early (an error): the process reading the rest is stopped
            self._child.stop()
            self._child = None
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1

    @property
    def invalid_utf8(self) -> Sequence[Span]:
        return self._bad

    @property
    def too_long(self) -> Mapping[int, int]:
        return self._long

    @property
    def sha256(self) -> str | None:
        """The SHA-256 of the stored file's bytes, once they have all been streamed (with `digest`); else None."""
        return self._digest.hexdigest() if self._digest is not None and self._done else None

    def stream(self) -> Iterator[str]:
        if self._streamed:
            raise RuntimeError("a file's lines are streamed once; read them back by number")
        self._streamed = True
        return self._stream(0)

    def _stream(self, offset: int) -> Iterator[str]:
        """The lines from byte `offset` (a line's start) on, read with `pread` (a process forked by `split` shares
        the descriptor's position); up to `_stop` while another process reads the lines after it."""
        size, pending = offset, bytearray()
        dropped = -1
        """Bytes of a line too long to hold read so far, while its end is looked for (-1: none)."""
        while True:
            stop = self._stop
            if stop is not None and size == stop:  # a line starts at `stop`: nothing is pending
                return
            chunk = os.pread(self._descriptor, self._chunk if stop is None else min(self._chunk, stop - size), size)
            if not chunk:
                break
            size += len(chunk)
            self._offset = size
            if self._stream_digest is not None:
                self._stream_digest.update(chunk)
            if self._max_bytes is not None and size > self._max_bytes:
                raise NotReadable(f"grew past the limit of {self._max_bytes} bytes while being read")
            if dropped >= 0:
                cut = chunk.find(b"\n")
                if cut < 0:
                    dropped += len(chunk)
                    continue
                yield self._dropped(dropped + cut)
                dropped, chunk = -1, chunk[cut + 1 :]
            cut = chunk.rfind(b"\n")
            if cut < 0:
                pending += chunk  # a line longer than a chunk is put together in place, not copied again each time
                if len(pending) > self._max_line:
                    dropped, pending = len(pending), bytearray()
                continue
            view = memoryview(chunk)
            block = b"".join((pending, view[:cut]))  # the chunk's bytes copied once
            pending = bytearray(view[cut + 1 :])
            yield from self._lines(block)
        self._end = size
        self._done = True
        if dropped >= 0:
            yield self._dropped(dropped, last=True)
        else:
            yield from self._lines(bytes(pending), last=True)

    def split(self, later: Callable[[Iterator[str]], Part]) -> Callable[[], Part] | None:
        """The lines from the first line start past the file's middle (and past what was read) go to a forked
        process (`forked.fork`), which runs `later` on them while this one streams the lines before; the answer
        waits for that process and takes its result with what it recorded of its lines (starts, invalid UTF-8,
        lines too long), numbered after these. Should that process fail, the lines after are streamed and read
        here; should this stream have met the file's end before them (the file was cut short meanwhile), they are
        none. None (the stream goes on to the end): a file whose size is not in `split_sizes`, a digest taken as
        the stream reads (SARIF, of a file not compressed), no fork, or no line start in the 1 MiB after the
        middle."""
        size = os.fstat(self._descriptor).st_size
        if self._split_sizes is None or size not in self._split_sizes or self._stream_digest is not None \
                or self._done:
            return None
        middle = max(size // 2, self._offset)
        cut = os.pread(self._descriptor, CHUNK, middle).find(b"\n")
        if cut < 0 or middle + cut + 1 >= size:
            return None
        at = middle + cut + 1
        child = fork(partial(self._read_later, later, at))
        if child is None:
            return None
        self._stop, self._child = at, child

        def result() -> Part:
            self._child = None
            found = child.result()
            self._stop = None
            if found is not None and not self._done:
                value, starts, bad, long, end = found
                first = len(self._starts) - 1
                self._starts.extend(starts[1:])
                self._bad.extend(Span(span.line + first, span.start, span.end_line + first, span.end) for span in bad)
                self._long.update({line + first: length for line, length in long.items()})
                self._end, self._done = end, True
                return value
            return later(self._stream(at) if not self._done else iter(()))

        return result

    def _read_later(self, later: Callable[[Iterator[str]], Part], at: int) -> Later[Part]:
        """In the forked process: `later` on the lines from `at` on, streamed afresh, with what was recorded of those
        lines."""
        self._starts, self._bad, self._long, self._stop = array("q", [at]), [], {}, None
        value = later(self._stream(at))
        return value, self._starts, self._bad, self._long, self._end

    def _dropped(self, length: int, last: bool = False) -> str:
        """The stand-in of a line of `length` bytes too long to hold, its start and length recorded."""
        self._long[len(self._starts) - 1] = length
        if not last:
            self._starts.append(self._starts[-1] + length + 1)
        return ""

    def _lines(self, block: bytes, last: bool = False) -> list[str]:
        """The lines of `block` (whole lines, "\\n" between them), decoded at once unless some are not UTF-8 or too
        long (a line just past the limit, completed by the chunk that ended it); their starts are recorded (the one
        after `block` too, unless it is the file's last line)."""
        number = len(self._starts) - 1
        if len(block) <= self._max_line:
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:  # the byte lengths from the text: of an ASCII line (most, or the whole block) its length
                lines = text.split("\n")
                self._record(map(len, lines) if text.isascii() else
                             (len(line) if line.isascii() else len(line.encode()) for line in lines), last)
                return lines
        raws = block.split(b"\n")
        self._record(map(len, raws), last)
        if len(block) > self._max_line:
            for offset, raw in enumerate(raws):
                if len(raw) > self._max_line:
                    self._long[number + offset] = len(raw)
                    raws[offset] = b""
        return [self._decode(number + offset, raw) for offset, raw in enumerate(raws)]

    def _record(self, lengths: Iterable[int], last: bool) -> None:
        """The starts of the lines after those of `lengths` (bytes, without their "\n"), the file's last aside."""
        starts = accumulate(map(_NEWLINE.__add__, lengths), initial=self._starts[-1])
        next(starts)
        self._starts.extend(starts)
        if last:
            self._starts.pop()

    def _decode(self, number: int, raw: bytes) -> str:
        line, columns = decode_line(raw)
        self._bad.extend(Span.on_line(number, col, col + 1) for col in columns)
        return line

    def __len__(self) -> int:
        return len(self._starts)

    def _read(self, index: int) -> str:
        if index in self._long:
            return ""
        start = self._starts[index]
        end = self._starts[index + 1] - 1 if index + 1 < len(self._starts) else self._end
        return decode_line(os.pread(self._descriptor, end - start, start))[0]
