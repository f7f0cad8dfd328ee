"""Our own store of open documents: one `analysis.Document` per URI, updated in place by change events.

pygls's TextDocument re-splits the whole text on every access and rebuilds it on every change; `Document` keeps
its lines and re-parses only what an edit touched, so it is the only copy of an open file's text the server keeps.

All work on one document is serialised by its lock (held while a worker thread builds, edits or reads it), so a
request sees every change the client sent before it, and a slow first analysis never races an edit.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Iterator, Sequence

from lsprotocol import types
from pygls.uris import to_fs_path

from ..analysis import Document, Options, Span
from ..analysis.text import Encoding, decode_bytes
from .convert import from_position


class OpenDocument:
    def __init__(self, uri: str, version: int) -> None:
        self.uri = uri
        self.version = version
        """The version of the text in `doc`."""
        self.latest = version
        """The newest version the client has sent (its change may still wait for the lock)."""
        self.doc: Document | None = None
        self.lock = asyncio.Lock()
        self.closed = False

    @property
    def current(self) -> bool:
        """Whether `doc` holds the newest text the client sent: only then may its diagnostics be published."""
        return not self.closed and self.doc is not None and self.version == self.latest


class DocumentStore:
    def __init__(self) -> None:
        self._open: dict[str, OpenDocument] = {}

    def add(self, uri: str, version: int) -> OpenDocument:
        previous = self._open.get(uri)
        if previous is not None:
            previous.closed = True
        entry = self._open[uri] = OpenDocument(uri, version)
        return entry

    def get(self, uri: str) -> OpenDocument | None:
        return self._open.get(uri)

    def remove(self, uri: str) -> OpenDocument | None:
        entry = self._open.pop(uri, None)
        if entry is not None:
            entry.closed = True
        return entry

    def __iter__(self) -> Iterator[OpenDocument]:
        return iter(list(self._open.values()))


def options_for(path: str | None, pi_version: str | None) -> Options:
    """The server may look at the disk, so references to other files (parentSession) can be checked."""
    return Options(path=path, exists=os.path.exists, pi_version=pi_version)


def path_of(uri: str) -> str | None:
    return to_fs_path(uri) if uri.startswith("file:") else None


def _invalid_utf8(path: str | None, text: str) -> list[Span]:
    """Where the file on disk has invalid UTF-8, when the editor's text is that file decoded with replacement
    characters (the editor never shows the bad bytes, but the agents read the bytes)."""
    if path is None or "\ufffd" not in text:
        return []
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return []
    decoded, bad = decode_bytes(data)
    if not bad or decoded != text:
        return []
    return [Span.on_line(line, start, end) for line, start, end in bad]


def build(uri: str, text: str, pi_version: str | None) -> Document:
    path = path_of(uri)
    return Document(text, options_for(path, pi_version), _invalid_utf8(path, text))


def retarget(uri: str, doc: Document, pi_version: str | None) -> None:
    doc.retarget(options_for(path_of(uri), pi_version))


class NotReadable(Exception):
    """A path `sessionLsp/analyzeFile` refuses to read: not a regular file, or larger than the setting allows."""


def read_file(path: str, pi_version: str | None, max_bytes: int) -> Document:
    """Analyse a file from disk without opening it as a document (the `sessionLsp/analyzeFile` request). Only a
    regular file of at most `max_bytes` is read: a FIFO would block the worker, /dev/zero would never end, and a
    directory has nothing to analyse. The size is checked on the open handle, and the read stops one byte past
    the limit, so a file that grows meanwhile cannot take more."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotReadable(f"{path} is not a regular file")
        if status.st_size > max_bytes:
            raise NotReadable(f"{path} is {status.st_size} bytes, over sessionLsp.analyzeFileMaxBytes ({max_bytes})")
    except BaseException:
        os.close(descriptor)
        raise
    with open(descriptor, "rb") as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise NotReadable(f"{path} grew past sessionLsp.analyzeFileMaxBytes ({max_bytes}) while being read")
    text, bad = decode_bytes(data)
    del data
    return Document(text, options_for(path, pi_version), [Span.on_line(line, start, end) for line, start, end in bad])


def apply_changes(doc: Document, changes: Sequence[types.TextDocumentContentChangeEvent], encoding: Encoding) -> None:
    """Apply change events in order; each event's positions are read against the text left by the one before."""
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            start_line, start_col = from_position(doc.lines, change.range.start, encoding)
            end_line, end_col = from_position(doc.lines, change.range.end, encoding)
            doc.edit(start_line, start_col, end_line, end_col, change.text)
        else:
            doc.invalid_utf8 = ()
            doc.replace(change.text)
