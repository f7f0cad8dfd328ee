"""Our own store of open documents: one `analysis.Document` per URI, updated in place by change events.

pygls's TextDocument re-splits the whole text on every access and rebuilds it on every change; `Document` keeps
its lines and re-parses only what an edit touched, so it is the only copy of an open file's text the server keeps.

All work on one document is serialised by its lock (held while a worker thread builds, edits or reads it), so a
request sees every change the client sent before it, and a slow first analysis never races an edit.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from lsprotocol import types
from pygls.uris import to_fs_path

from ..analysis import Document, Options, Span
from ..analysis.text import Encoding, decode_bytes
from ..files import FileLines
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


Releases = tuple[tuple[str, str], ...]
"""The release chosen for each format (`Settings.releases`)."""


def options_for(path: str | None, releases: Releases, titles: bool = True) -> Options:
    """The server may look at the disk, so references to other files (parentSession) can be checked."""
    return Options(path=path, exists=os.path.exists, pi_version=dict(releases).get("pi"), releases=releases,
                   titles=titles)


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


def build(uri: str, text: str, releases: Releases) -> Document:
    """A newly opened file, analysed without titles: its first diagnostics need none, and a line pass without them
    is about a quarter shorter. `Document.show_titles` adds them once the diagnostics are out (`memory.settle`),
    or first thing when a request comes sooner (`SessionServer.read`)."""
    path = path_of(uri)
    return Document(text, options_for(path, releases, titles=False), _invalid_utf8(path, text))


def retarget(uri: str, doc: Document, releases: Releases) -> None:
    doc.retarget(options_for(path_of(uri), releases))


@contextmanager
def read_file(path: str, releases: Releases, max_bytes: int) -> Iterator[Document]:
    """Analyse a file from disk without opening it as a document (the `sessionLsp/analyzeFile` request): a regular
    file of at most `max_bytes` (`sessionLsp.analyzeFileMaxBytes`), streamed, so the server holds the per-line
    results and never the text; its lines are read back while the document is in use."""
    with FileLines(path, max_bytes) as lines:
        yield Document.streamed(lines, options_for(path, releases))


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
