"""Change events -> `Document.edit`, in process: client units are read against the line as it is when each event
applies (the end-to-end tests cover the same through a real server)."""

from __future__ import annotations

import pytest
from lsprotocol import types

from session_lsp.analysis import Document
from session_lsp.analysis.line_store import LineStore
from session_lsp.analysis.text import Encoding
from session_lsp.server.documents import apply_changes
from session_lsp.server.memory import settling

LINE = "a😀b é c"


def _change(line: int, start: int, end_line: int, end: int, text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(line, start), types.Position(end_line, end)), text=text)


@pytest.mark.parametrize(("encoding", "after_emoji", "acute_start", "acute_end"), [
    (Encoding.UTF16, 3, 5, 6),  # 😀 is two UTF-16 units
    (Encoding.UTF8, 5, 7, 9),  # 😀 is four bytes, é two
    (Encoding.UTF32, 2, 4, 5),
])
def test_units_are_converted_per_line(encoding: Encoding, after_emoji: int, acute_start: int, acute_end: int) -> None:
    doc = Document(f"first\n{LINE}\nlast")
    apply_changes(doc, [_change(1, after_emoji, 1, after_emoji, "X")], encoding)
    assert doc.lines[1] == "a😀Xb é c"
    # The second event is read against the line the first one left.
    apply_changes(doc, [_change(1, 0, 1, 1, ""), _change(1, acute_start, 1, acute_end, "E")], encoding)
    assert doc.lines[1] == "😀Xb E c"


def test_events_in_one_notification_apply_in_order() -> None:
    doc = Document("one\ntwo\nthree")
    apply_changes(doc, [_change(0, 3, 1, 0, " "), _change(1, 0, 1, 5, "3")], Encoding.UTF16)
    assert doc.lines == ["one two", "3"]


def test_positions_past_the_end_mean_the_end() -> None:
    doc = Document("one\ntwo")
    apply_changes(doc, [_change(1, 99, 7, 0, "!")], Encoding.UTF16)
    assert doc.lines == ["one", "two!"]


def test_whole_document_change_replaces_the_text() -> None:
    doc = Document("one\ntwo")
    apply_changes(doc, [types.TextDocumentContentChangeWholeDocument(text="fresh\ntext\n")], Encoding.UTF8)
    assert doc.lines == ["fresh", "text", ""]


def settle(doc: Document) -> None:
    for _ in settling(doc):
        pass


def test_settling_compresses_the_lines_and_keeps_them() -> None:
    """What the server does once a document's diagnostics are out (`memory.settling`)."""
    header = '{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:15:00.000Z","cwd":"/w"}'
    text = "\n".join([header, *(f'{{"type":"custom","id":"{n:08x}","data":"{LINE}"}}' for n in range(500))]) + "\n"
    doc = Document(text)
    before = doc.diagnostics()
    store = doc.lines
    assert isinstance(store, LineStore)
    assert all(block.data is None for block in store._blocks)
    settle(doc)
    assert all(block.data is not None and block.lines is None for block in store._blocks)
    assert doc.text == text and doc.lines[250] == text.split("\n")[250]
    apply_changes(doc, [_change(250, 0, 250, 1, "[")], Encoding.UTF16)
    settle(doc)  # the edited block stays decompressed while it is in use
    assert doc.lines[250].startswith("[") and doc.diagnostics() != before
