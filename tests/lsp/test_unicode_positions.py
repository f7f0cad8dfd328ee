"""Positions after non-ASCII text and emoji, for both clients: Neovim counts UTF-8 bytes (😀 is 4, é is 2),
VS Code UTF-16 units (😀 is 2, é is 1). The lines below put such text before the references, and the declarations
they name after such text too, so a request, the range it returns and the edits of a rename all have to be
converted on the right line in the right units."""

from __future__ import annotations

import json
import os

import pytest
from lsp_features import (
    apply_workspace_edit,
    doc,
    fixture_lines,
    location_tuple,
    locations,
    markdown,
    open_session,
    plain,
    position,
    range_tuple,
    span,
)
from lsp_harness import Editor, saved, shape, units
from lsprotocol import types

from session_lsp.analysis import Options, analyze, features
from session_lsp.analysis.text import Encoding

pytestmark = pytest.mark.asyncio(loop_scope="module")


def _line(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


USAGE = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
ELYRA = "\n".join([
    fixture_lines("elyra-compacted.jsonl")[0].replace(',"parentSession":"/work/sessions/older.jsonl"', ""),
    _line({"type": "message", "message": {"role": "user", "content": "naïve 😀😀😀😀 question",
                                          "timestamp": 1769940001000},
           "timestamp": "2026-02-01T10:00:01.000Z", "id": "f0000001", "parentId": None}),
    _line({"type": "message", "message": {"role": "assistant",
                                          "content": [{"type": "text", "text": "ünï 😀😀😀😀 answer"}],
                                          "api": "anthropic-messages", "provider": "anthropic", "model": "claude",
                                          "usage": USAGE, "stopReason": "stop", "timestamp": 1769940002000},
           "timestamp": "2026-02-01T10:00:02.000Z", "parentId": "f0000001", "id": "f0000002"}),
]) + "\n"
THNDRS = "\n".join([
    fixture_lines("thndrs-permissions.jsonl")[0],
    _line({"type": "user", "schema_version": 1, "seq": 1, "time": "2026-02-01T11:00:01Z",
           "text": "héllo 😀😀😀😀", "turn_id": "turn-1"}),
    _line({"type": "tool_started", "schema_version": 1, "seq": 2, "time": "2026-02-01T11:00:02Z",
           "arguments": '{"q":"😀😀😀😀é"}', "name": "grep", "turn_id": "turn-1", "call_id": "call-1"}),
    _line({"type": "tool_finished", "schema_version": 1, "seq": 3, "time": "2026-02-01T11:00:03Z",
           "output": ["😀 ünï 😀😀😀"], "turn_id": "turn-1", "call_id": "call-1", "status": "Ok"}),
    _line({"type": "assistant_finished", "schema_version": 1, "time": "2026-02-01T11:00:04Z",
           "text": "done 😀😀😀😀", "turn_id": "turn-1", "seq": 4}),
]) + "\n"
"""Four emoji before every reference, and another member right after it: a position read in the wrong units
lands at least four columns further right, on that member's key, and the hover or definition changes."""

CASES = [
    # (text, file stem, line, the reference, the line it names, the declaration there, hover head)
    (ELYRA, "session", 2, '"parentId":"f0000001"', 1, '"id":"f0000001"', "`parentId` → line 2"),
    (THNDRS, "session-20260201-110000", 3, '"call_id":"call-1"', 2, '"call_id":"call-1"', "`call_id` → line 3"),
    (THNDRS, "session-20260201-110000", 3, '"turn_id":"turn-1"', 1, '"turn_id":"turn-1"', "`turn_id` → line 2"),
    (THNDRS, "session-20260201-110000", 4, '"turn_id":"turn-1"', 1, '"turn_id":"turn-1"', "`turn_id` → line 2"),
]


def value_columns(text: str, member: str) -> tuple[int, int]:
    """Code-point columns of the value (with quotes) of `member` ("key":"value") on a line."""
    end = text.index(member) + len(member)
    return end - len(member.split(":", 1)[1]), end


@pytest.mark.parametrize(("text", "stem", "line", "member", "target", "declaration", "head"), CASES,
                         ids=[f"{c[3]}@{c[2]}" for c in CASES])
async def test_hover_and_definition_after_emoji(shared_editor: Editor, text: str, stem: str, line: int, member: str,
                                                target: int, declaration: str, head: str) -> None:
    editor = shared_editor
    uri, diagnostics = await open_session(editor, text, stem)
    assert [d for d in diagnostics if d.severity in (types.DiagnosticSeverity.Error,
                                                     types.DiagnosticSeverity.Warning)] == []
    lines = editor.texts[uri]
    start, end = value_columns(lines[line], member)
    # The emoji really move the column, differently in each encoding.
    assert units(lines[line], start, editor.encoding) != start
    assert units(lines[line], start, Encoding.UTF8) != units(lines[line], start, Encoding.UTF16)
    # On the last character of the value, so a column off by even one unit falls outside it.
    where = position(editor, uri, line, end - 2)
    hover = await editor.client.text_document_hover_async(types.HoverParams(doc(uri), where))
    assert markdown(hover).startswith(f"{head}\n\n**")
    assert hover is not None and hover.range is not None
    assert range_tuple(hover.range) == range_tuple(span(editor, uri, line, start, end))
    found = await editor.client.text_document_definition_async(types.DefinitionParams(doc(uri), where))
    target_start, target_end = value_columns(lines[target], declaration)
    assert units(lines[target], target_start, editor.encoding) != target_start
    assert [location_tuple(location) for location in locations(found)] == [
        (uri, *range_tuple(span(editor, uri, target, target_start, target_end)))]


async def test_rename_edits_land_after_emoji(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, ELYRA)
    _start, end = value_columns(editor.texts[uri][1], '"id":"f0000001"')
    edit = await editor.client.text_document_rename_async(types.RenameParams(
        text_document=doc(uri), position=position(editor, uri, 1, end - 2), new_name="ab12cd34"))
    renamed = apply_workspace_edit(editor, uri, edit)
    assert renamed == ELYRA.replace('"f0000001"', '"ab12cd34"')


async def test_selection_range_after_emoji(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, THNDRS, "session-20260201-110000")
    text = editor.texts[uri][3]
    start, end = value_columns(text, '"call_id":"call-1"')
    found = await editor.client.text_document_selection_range_async(types.SelectionRangeParams(
        text_document=doc(uri), positions=[position(editor, uri, 3, end - 2)]))
    assert found is not None
    assert range_tuple(found[0].range) == range_tuple(span(editor, uri, 3, start, end))
    assert found[0].parent is not None
    assert range_tuple(found[0].parent.range) == range_tuple(span(editor, uri, 3, text.index('"call_id"'), end))


async def test_edits_after_a_lone_surrogate(shared_editor: Editor) -> None:
    """A lone surrogate in the editor's text (a UTF-16 client sends it as `"\\ud800"`): every edit after it on its
    line lands where it does in the editor, and the diagnostics keep coming, equal to those of the editor's text as
    it would be saved (the surrogate as U+FFFD), in this client's units."""
    editor = shared_editor
    text = ELYRA.replace("naïve 😀😀😀😀 question", "naïve \ud800 😀 question")
    uri, diagnostics = await open_session(editor, text, "surrogate")
    assert shape(diagnostics) == editor.expected(uri)
    line = editor.texts[uri][1]
    for needle, offset, length, new in [("\ud800", 1, 0, " more"), ('question"', 8, 1, ""),
                                        ("question", 8, 0, '"'), ("question", 0, 0, "\udfff")]:
        line = editor.texts[uri][1]
        start = line.index(needle) + offset
        diagnostics = await editor.edit(uri, 1, start, 1, start + length, new)
        assert shape(diagnostics) == editor.expected(uri), (needle, new)
    tree = plain(await editor.client.protocol.send_request_async("sessionLsp/tree", {"textDocument": {"uri": uri}}))
    options = Options(path=uri.removeprefix("file://"), exists=os.path.exists)
    assert tree == features.tree(analyze(saved(editor.text(uri)), options))
    assert tree["nodes"][0]["title"] == "user: naïve \ufffd more 😀 \ufffdquestion"
