"""Helpers of the feature tests (hover, navigation, outline, completion, code actions, custom requests): open a
fixture session in the shared editor under a URI of its own, address places in it by the text written there, and
apply the WorkspaceEdits the server returns.

Positions here are counted in the client's units with the harness's `units` and `column`, which encode the text
and never call the server's conversion helpers.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsp_harness import Editor, column, units
from lsprotocol import types

from session_lsp.analysis.text import Encoding

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "features"
ELYRA = "elyra-compacted.jsonl"
"""Branch point, abandoned branch, branch summary, label, compaction, tool call and result (see its lines)."""
THNDRS = "thndrs-permissions.jsonl"
"""Two settled turns: tool calls, a permission request and its outcome, a usage record inside turn 1."""

_numbers = itertools.count()


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture_lines(name: str) -> list[str]:
    """The lines of a fixture (without the end of file after the last newline)."""
    return fixture_text(name).split("\n")[:-1]


def fresh_uri(stem: str = "session") -> str:
    """A URI no other test uses, so pushes and versions of one test never answer another's wait. The file name
    is `stem` (a thndrs file is named after its session id, or the checker notes the mismatch)."""
    return f"file:///work/sessions/t{next(_numbers)}/{stem}.jsonl"


async def open_session(editor: Editor, text: str, stem: str = "session") -> tuple[str, list[types.Diagnostic]]:
    uri = fresh_uri(stem)
    return uri, await editor.open(uri, text)


# positions -------------------------------------------------------------------------------------------------------

def position(editor: Editor, uri: str, line: int, col: int) -> types.Position:
    return types.Position(line, units(editor.texts[uri][line], col, editor.encoding))


def span(editor: Editor, uri: str, line: int, start: int, end: int, end_line: int | None = None) -> types.Range:
    last = line if end_line is None else end_line
    return types.Range(position(editor, uri, line, start), position(editor, uri, last, end))


def needle_range(editor: Editor, uri: str, line: int, needle: str, nth: int = 0) -> types.Range:
    """The range of the `nth` occurrence of `needle` on `line`."""
    col = find(editor, uri, line, needle, nth)
    return span(editor, uri, line, col, col + len(needle))


def inside(editor: Editor, uri: str, line: int, needle: str, nth: int = 0, offset: int = 1) -> types.Position:
    """A position `offset` code points into the `nth` occurrence of `needle` on `line`."""
    return position(editor, uri, line, find(editor, uri, line, needle, nth) + offset)


def find(editor: Editor, uri: str, line: int, needle: str, nth: int = 0) -> int:
    text = editor.texts[uri][line]
    col = -1
    for _ in range(nth + 1):
        col = text.find(needle, col + 1)
        assert col != -1, f"{needle!r} (occurrence {nth}) not on line {line}: {text}"
    return col


def whole_line(editor: Editor, uri: str, line: int) -> types.Range:
    return span(editor, uri, line, 0, len(editor.texts[uri][line]))


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def locations(found: types.Location | Sequence[types.Location] | Sequence[types.LocationLink] | None,
              ) -> list[types.Location]:
    """A definition answer as the list of Locations this server sends (it never sends a LocationLink)."""
    out: list[types.Location] = []
    for item in [] if found is None else [found] if isinstance(found, types.Location) else found:
        assert isinstance(item, types.Location), item
        out.append(item)
    return out


def location_tuple(location: types.Location) -> tuple[str, int, int, int, int]:
    r = location.range
    return location.uri, r.start.line, r.start.character, r.end.line, r.end.character


def range_tuple(r: types.Range) -> tuple[int, int, int, int]:
    return r.start.line, r.start.character, r.end.line, r.end.character


# edits -----------------------------------------------------------------------------------------------------------

def edits_of(edit: types.WorkspaceEdit, uri: str, version: int) -> list[types.TextEdit]:
    """The text edits for `uri`, whichever shape the server chose for this client: `documentChanges` (versioned,
    for clients that declare them) or `changes`."""
    if edit.document_changes is not None:
        assert edit.changes is None
        found: list[types.TextEdit] = []
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit), change
            assert change.text_document.uri == uri
            assert change.text_document.version == version, "the edit must name the version it was computed for"
            found.extend(e for e in change.edits if isinstance(e, types.TextEdit))
        return found
    assert edit.changes is not None and set(edit.changes) == {uri}
    return list(edit.changes[uri])


def apply_edits(lines: Sequence[str], edits: Sequence[types.TextEdit], encoding: Encoding) -> str:
    """Apply LSP text edits (ranges in the client's units, all against the original text, non-overlapping)."""
    offsets = [0]
    for text in lines:
        offsets.append(offsets[-1] + len(text) + 1)
    whole = "\n".join(lines)

    def offset(pos: types.Position) -> int:
        return offsets[pos.line] + column(lines[pos.line], pos.character, encoding)

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for (next_start, _, _), (_, end, _) in itertools.pairwise(spans):
        assert end <= next_start, "edits overlap"
    for start, end, new_text in spans:
        whole = whole[:start] + new_text + whole[end:]
    return whole


def apply_workspace_edit(editor: Editor, uri: str, edit: types.WorkspaceEdit | None) -> str:
    """The editor's text of `uri` with `edit` applied (the editor's copy is left alone)."""
    assert edit is not None
    return apply_edits(editor.texts[uri], edits_of(edit, uri, editor.versions[uri]), editor.encoding)


# payloads --------------------------------------------------------------------------------------------------------

def plain(value: Any) -> Any:
    """pygls hands custom results over as namedtuples; turn them back into JSON-like values."""
    if hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def markdown(hover: types.Hover | None) -> str:
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent), hover.contents
    assert hover.contents.kind == types.MarkupKind.Markdown
    return hover.contents.value
