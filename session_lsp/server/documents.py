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

from ..analysis import Document, Options
from ..analysis.payload_types import COMPRESSED_SCHEME
from ..analysis.text import REPLACEMENT, Encoding, decode_bytes, from_units, to_units
from ..files import FileLines, NotReadable, read_uncompressed
from ..forked import SPLIT_SIZES, fork
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
        self.rereads = 0
        """How often the file on disk was read again since the open (`reread`): its diagnostics may change."""

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


def options_for(path: str | None, releases: Releases) -> Options:
    """The server may look at the disk, so references to other files (parentSession) can be checked."""
    return Options(path=path, exists=os.path.exists, pi_version=dict(releases).get("pi"), releases=releases)


def path_of(uri: str) -> str | None:
    """The file a document is: a `file:` URI's path, and the path of a `.jsonl.zst` an editor shows as its text
    under `COMPRESSED_SCHEME` (whose path is the file's)."""
    if uri.startswith(f"{COMPRESSED_SCHEME}:"):
        uri = "file:" + uri[len(COMPRESSED_SCHEME) + 1:]
    return to_fs_path(uri) if uri.startswith("file:") else None


def replaced_lines(path: str | None, text: str | None = None) -> dict[str, tuple[int, ...]]:
    """The lines of the file on disk with invalid UTF-8, as an editor decodes them (each invalid sequence a U+FFFD),
    with the columns of those U+FFFD: the lines of the editor's text equal to one of them are that line as read
    from the disk (`Document.replaced`). Only read when the editor's `text` has a U+FFFD (None: always)."""
    if path is None or (text is not None and REPLACEMENT not in text):
        return {}
    try:
        data = read_uncompressed(path)  # a .jsonl.zst is shown decompressed
    except (OSError, NotReadable):
        return {}
    decoded, bad = decode_bytes(data)
    if not bad:
        return {}
    lines = decoded.split("\n")
    columns: dict[int, list[int]] = {}
    for line, start, _end in bad:
        columns.setdefault(line, []).append(start)
    return {lines[line]: tuple(found) for line, found in columns.items()}


def build(uri: str, text: str, releases: Releases) -> Document:
    """A newly opened file. Its lines get no titles: a feature that names lines makes those it reads
    (`Document.titled`). A text of a size in `SPLIT_SIZES` has the line pass of its second half run in a forked
    process, on the other core, as `check` does with a large file."""
    path = path_of(uri)
    return Document(text, options_for(path, releases), replaced=replaced_lines(path, text),
                    elsewhere=fork if len(text) in SPLIT_SIZES else None)


def reread(uri: str, doc: Document) -> bool:
    """After a save: what the file on disk now holds of the lines the editor decoded with U+FFFD (an editor writes
    valid UTF-8, so usually none are left). Whether anything changed."""
    replaced = replaced_lines(path_of(uri))
    if replaced == doc.replaced:
        return False
    doc.reread(replaced)
    return True


def retarget(uri: str, doc: Document, releases: Releases) -> None:
    doc.retarget(options_for(path_of(uri), releases))


@contextmanager
def read_file(path: str, releases: Releases, max_bytes: int) -> Iterator[Document]:
    """Analyse a file from disk without opening it as a document (the `sessionLsp/analyzeFile` request): a regular
    file of at most `max_bytes` (`sessionLsp.analyzeFileMaxBytes`), streamed, so the server holds the per-line
    results and never the text (the second half of a large one read by a forked process, as `check` reads it);
    its lines are read back while the document is in use."""
    with FileLines(path, max_bytes, split_sizes=SPLIT_SIZES) as lines:
        yield Document.streamed(lines, options_for(path, releases))


def _split_pair(doc: Document, position: types.Position, encoding: Encoding) -> None:
    """A UTF-16 position between the two halves of an astral character (😀 is two units): the edit there leaves
    each half a lone surrogate in the editor's text, so the character becomes two U+FFFD first, as the server
    holds a lone surrogate (`text.without_surrogates`), and the edit lands between them as it does in the editor."""
    if encoding is not Encoding.UTF16 or position.line >= len(doc.lines):
        return
    line = doc.lines[position.line]
    if line.isascii():
        return
    col = from_units(line, position.character, encoding)
    if col < len(line) and to_units(line, col, encoding) != position.character:
        doc.edit(position.line, col, position.line, col + 1, REPLACEMENT * 2)


def apply_changes(doc: Document, changes: Sequence[types.TextDocumentContentChangeEvent], encoding: Encoding) -> None:
    """Apply change events in order; each event's positions are read against the text left by the one before."""
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            _split_pair(doc, change.range.start, encoding)
            _split_pair(doc, change.range.end, encoding)
            start_line, start_col = from_position(doc.lines, change.range.start, encoding)
            end_line, end_col = from_position(doc.lines, change.range.end, encoding)
            doc.edit(start_line, start_col, end_line, end_col, change.text)
        else:
            doc.replace(change.text)
