"""Definition, references, prepareRename and rename through the server, on `elyra-compacted.jsonl` and
`thndrs-permissions.jsonl` (see test_hover.py for what is on which line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_features import (
    ELYRA,
    THNDRS,
    apply_workspace_edit,
    doc,
    find,
    fixture_lines,
    fixture_text,
    inside,
    location_tuple,
    locations,
    needle_range,
    open_session,
    range_tuple,
    span,
)
from lsp_harness import Editor, shape
from lsprotocol import types
from pygls.exceptions import JsonRpcException

pytestmark = pytest.mark.asyncio(loop_scope="module")

SESSION_ID = "session-20260201-110000"


def value_position(editor: Editor, uri: str, line: int, field: str, value: str) -> types.Position:
    """Inside the value of the member `"field":"value"` on `line`."""
    return inside(editor, uri, line, f'"{field}":"{value}"', offset=len(field) + 5)


DEFINITIONS = [
    # (fixture, line, field, value, the line it names, the declaration there)
    (ELYRA, 2, "parentId", "e0000001", 1, '"e0000001"'),
    (ELYRA, 5, "parentId", "e0000004", 4, '"e0000004"'),
    (ELYRA, 10, "firstKeptEntryId", "e0000007", 7, '"e0000007"'),
    (ELYRA, 7, "fromId", "e0000006", 6, '"e0000006"'),
    (ELYRA, 9, "targetId", "e0000004", 4, '"e0000004"'),
    (ELYRA, 3, "toolCallId", "toolu_01", 2, '"toolu_01"'),  # the toolCall block's id in the assistant message
    (THNDRS, 5, "call_id", "call-1", 2, '"call-1"'),  # tool_finished -> its tool_started
    (THNDRS, 10, "call_id", "call-2", 9, '"call-2"'),
    (THNDRS, 4, "tool_call_id", "perm-1", 3, '"perm-1"'),  # outcome -> the permission request
    (THNDRS, 7, "turn_id", "turn-1", 1, '"turn-1"'),  # any record of a turn -> the turn's user record
    (THNDRS, 11, "turn_id", "turn-2", 8, '"turn-2"'),
]


@pytest.mark.parametrize(("name", "line", "field", "value", "target", "declaration"), DEFINITIONS,
                         ids=[f"{d[2]}@{d[1]}" for d in DEFINITIONS])
async def test_definition_goes_to_what_the_reference_names(shared_editor: Editor, name: str, line: int, field: str,
                                                           value: str, target: int, declaration: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(name), SESSION_ID)
    found = await editor.client.text_document_definition_async(types.DefinitionParams(
        doc(uri), value_position(editor, uri, line, field, value)))
    assert isinstance(found, list)
    assert [location_tuple(location) for location in found] == [
        (uri, *range_tuple(needle_range(editor, uri, target, declaration)))]


@pytest.mark.parametrize(("name", "line", "needle"), [
    (ELYRA, 4, '"e0000004"'),  # a declaration goes nowhere
    (ELYRA, 4, '"2026-02-01T10:00:04.000Z"'),  # nor does a value that is no reference
    (THNDRS, 1, '"turn-1"'),
])
async def test_definition_of_what_is_no_reference_is_empty(shared_editor: Editor, name: str, line: int,
                                                           needle: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(name), SESSION_ID)
    found = await editor.client.text_document_definition_async(types.DefinitionParams(
        doc(uri), inside(editor, uri, line, needle)))
    assert not found


async def test_definition_of_a_dangling_reference_is_empty(shared_editor: Editor) -> None:
    editor = shared_editor
    lines = fixture_lines(ELYRA)
    lines[5] = lines[5].replace('"parentId":"e0000004"', '"parentId":"ffffffff"')
    uri, _ = await open_session(editor, "\n".join(lines) + "\n")
    found = await editor.client.text_document_definition_async(types.DefinitionParams(
        doc(uri), value_position(editor, uri, 5, "parentId", "ffffffff")))
    assert not found


def with_parent_session(path: Path) -> str:
    lines = fixture_lines(ELYRA)
    assert '"parentSession":"/work/sessions/older.jsonl"' in lines[0]
    lines[0] = lines[0].replace("/work/sessions/older.jsonl", path.as_posix())
    return "\n".join(lines) + "\n"


async def test_parent_session_goes_to_the_file_when_it_exists(shared_editor: Editor, tmp_path: Path) -> None:
    editor = shared_editor
    older = tmp_path / "older.jsonl"
    older.write_text(fixture_text(ELYRA), encoding="utf-8")
    uri, diagnostics = await open_session(editor, with_parent_session(older))
    assert "ELY018" not in {str(d.code) for d in diagnostics}  # the file exists
    where = value_position(editor, uri, 0, "parentSession", older.as_posix())
    found = await editor.client.text_document_definition_async(types.DefinitionParams(doc(uri), where))
    assert isinstance(found, list)
    assert [location_tuple(location) for location in found] == [(older.as_uri(), 0, 0, 0, 0)]
    hover = await editor.client.text_document_hover_async(types.HoverParams(doc(uri), where))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value == ("`parentSession`: the session file this one was forked or branched from\n\n"
                                    f"`{older.as_posix()}`")


async def test_parent_session_that_does_not_exist_goes_nowhere(shared_editor: Editor, tmp_path: Path) -> None:
    editor = shared_editor
    missing = tmp_path / "gone.jsonl"
    uri, diagnostics = await open_session(editor, with_parent_session(missing))
    assert "ELY018" in {str(d.code) for d in diagnostics}
    where = value_position(editor, uri, 0, "parentSession", missing.as_posix())
    assert not await editor.client.text_document_definition_async(types.DefinitionParams(doc(uri), where))
    hover = await editor.client.text_document_hover_async(types.HoverParams(doc(uri), where))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.endswith("\n\nThis file does not exist: go to definition has nowhere to go.")


REFERENCES = [
    # (fixture, where the cursor is: line and text, every place naming the same thing: (line, text, occurrence))
    (ELYRA, (4, '"e0000004"'), [(4, '"e0000004"', 0), (5, '"e0000004"', 0), (7, '"e0000004"', 0),
                                (9, '"e0000004"', 0)]),
    (ELYRA, (9, '"targetId":"e0000004"'), [(4, '"e0000004"', 0), (5, '"e0000004"', 0), (7, '"e0000004"', 0),
                                           (9, '"e0000004"', 0)]),
    (ELYRA, (7, '"e0000007"'), [(7, '"e0000007"', 0), (8, '"e0000007"', 0), (10, '"e0000007"', 0)]),
    (ELYRA, (2, '"toolu_01"'), [(2, '"toolu_01"', 0), (3, '"toolu_01"', 0)]),
    (THNDRS, (8, '"turn-2"'), [(8, '"turn-2"', 0), (9, '"turn-2"', 0), (10, '"turn-2"', 0), (11, '"turn-2"', 0)]),
    (THNDRS, (5, '"call-1"'), [(2, '"call-1"', 0), (5, '"call-1"', 0)]),
    (THNDRS, (3, '"perm-1"'), [(3, '"perm-1"', 0), (4, '"perm-1"', 0)]),
]


@pytest.mark.parametrize(("name", "cursor", "expected"), REFERENCES, ids=[f"{r[1][1]}@{r[1][0]}" for r in REFERENCES])
@pytest.mark.parametrize("declaration", [True, False], ids=["with-declaration", "without"])
async def test_references_list_every_line_naming_the_same_thing(shared_editor: Editor, name: str,
                                                                cursor: tuple[int, str],
                                                                expected: list[tuple[int, str, int]],
                                                                declaration: bool) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(name), SESSION_ID)
    line, needle = cursor
    where = inside(editor, uri, line, needle, offset=len(needle) - 3)
    found = await editor.client.text_document_references_async(types.ReferenceParams(
        text_document=doc(uri), position=where, context=types.ReferenceContext(include_declaration=declaration)))
    places = [(uri, *range_tuple(needle_range(editor, uri, number, text, nth))) for number, text, nth in expected]
    assert [location_tuple(location) for location in found or []] == (places if declaration else places[1:])


PREPARE = [
    # (line, where the cursor is, the id a rename changes)
    (4, '"e0000004"', "e0000004"),  # the id itself
    (5, '"parentId":"e0000004"', "e0000004"),
    (9, '"targetId":"e0000004"', "e0000004"),
    (7, '"fromId":"e0000006"', "e0000006"),
    (10, '"firstKeptEntryId":"e0000007"', "e0000007"),
]


@pytest.mark.parametrize(("line", "needle", "placeholder"), PREPARE, ids=[p[1] for p in PREPARE])
async def test_prepare_rename_names_the_id_without_its_quotes(shared_editor: Editor, line: int, needle: str,
                                                              placeholder: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    found = await editor.client.text_document_prepare_rename_async(types.PrepareRenameParams(
        doc(uri), inside(editor, uri, line, needle, offset=len(needle) - 3)))
    assert isinstance(found, types.PrepareRenamePlaceholder), found
    start = find(editor, uri, line, needle) + len(needle) - len(placeholder) - 1
    assert found.placeholder == placeholder
    assert found.range == span(editor, uri, line, start, start + len(placeholder))


@pytest.mark.parametrize(("name", "line", "needle"), [
    (ELYRA, 4, '"2026-02-01T10:00:04.000Z"'),
    (ELYRA, 3, '"read"'),  # nor is a tool's name
    (ELYRA, 0, '"0194b000-0000-7000-8000-0000000000aa"'),  # nor is the session id
    (THNDRS, 1, '"turn-1"'),  # thndrs ids are not renamed
])
async def test_prepare_rename_refuses_what_is_not_an_entry_id(shared_editor: Editor, name: str, line: int,
                                                              needle: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(name), SESSION_ID)
    found = await editor.client.text_document_prepare_rename_async(types.PrepareRenameParams(
        doc(uri), inside(editor, uri, line, needle)))
    assert found is None


RENAMES = [
    # (where the cursor is, old id, new id, the lines that name it)
    ((4, '"e0000004"'), "e0000004", "fedcba98", [4, 5, 7, 9]),
    ((9, '"targetId":"e0000004"'), "e0000004", "0000beef", [4, 5, 7, 9]),
    ((7, '"fromId":"e0000006"'), "e0000006", "abad0001", [6, 7]),
    ((10, '"firstKeptEntryId":"e0000007"'), "e0000007", "cafe0007", [7, 8, 10]),
]


@pytest.mark.parametrize(("cursor", "old", "new", "lines"), RENAMES, ids=[r[2] for r in RENAMES])
async def test_rename_changes_the_id_and_every_reference(shared_editor: Editor, cursor: tuple[int, str], old: str,
                                                         new: str, lines: list[int]) -> None:
    editor = shared_editor
    uri, before = await open_session(editor, fixture_text(ELYRA))
    original = list(editor.texts[uri])
    line, needle = cursor
    edit = await editor.client.text_document_rename_async(types.RenameParams(
        text_document=doc(uri), position=inside(editor, uri, line, needle, offset=len(needle) - 3), new_name=new))
    renamed = apply_workspace_edit(editor, uri, edit).split("\n")
    expected = [text.replace(f'"{old}"', f'"{new}"') if number in lines else text
                for number, text in enumerate(original)]
    assert renamed == expected
    assert [number for number, text in enumerate(original) if renamed[number] != text] == lines
    after = await editor.replace_all(uri, "\n".join(renamed))
    assert shape(after) == shape(before)  # same diagnostics: the tree is unchanged
    # The links still resolve: a reference to the new id leads to the renamed entry.
    target = lines[0]
    for number in lines[1:]:
        field = next(f for f in ("parentId", "targetId", "fromId", "firstKeptEntryId")
                     if f'"{f}":"{new}"' in renamed[number])
        found = await editor.client.text_document_definition_async(types.DefinitionParams(
            doc(uri), value_position(editor, uri, number, field, new)))
        assert [location_tuple(location) for location in locations(found)] == [
            (uri, *range_tuple(needle_range(editor, uri, target, f'"{new}"')))]


@pytest.mark.parametrize(("new", "message"), [
    ("e0000001", "id 'e0000001' is already used by line 2: pi keeps only the later of two entries with one id"),
    ("", "an entry id cannot be empty: pi would index the entry under an empty key"),
    ("root", '"root" is what branch_summary.fromId writes for "before the first entry"; an entry with this id '
             "would be ambiguous"),
])
async def test_rename_refuses_an_id_that_would_clash(shared_editor: Editor, new: str, message: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    with pytest.raises(JsonRpcException) as raised:
        await editor.client.text_document_rename_async(types.RenameParams(
            text_document=doc(uri), position=inside(editor, uri, 4, '"e0000004"'), new_name=new))
    assert raised.value.code == types.LSPErrorCodes.RequestFailed.value
    assert raised.value.message == message


@pytest.mark.parametrize("cursor", [(2, '"id":"toolu_01"'), (3, '"toolCallId":"toolu_01"')],
                         ids=["on the call", "on the result"])
async def test_rename_a_tool_call_id_and_the_results_that_answer_it(shared_editor: Editor,
                                                                    cursor: tuple[int, str]) -> None:
    editor = shared_editor
    uri, before = await open_session(editor, fixture_text(ELYRA))
    original = list(editor.texts[uri])
    line, needle = cursor
    where = inside(editor, uri, line, needle, offset=len(needle) - 3)
    prepared = await editor.client.text_document_prepare_rename_async(types.PrepareRenameParams(doc(uri), where))
    assert isinstance(prepared, types.PrepareRenamePlaceholder) and prepared.placeholder == "toolu_01"
    edit = await editor.client.text_document_rename_async(types.RenameParams(
        text_document=doc(uri), position=where, new_name="toolu_99"))
    renamed = apply_workspace_edit(editor, uri, edit).split("\n")
    assert renamed == [text.replace('"toolu_01"', '"toolu_99"') if number in (2, 3) else text
                       for number, text in enumerate(original)]
    after = await editor.replace_all(uri, "\n".join(renamed))
    assert shape(after) == shape(before)  # the result still answers its call


async def test_rename_refuses_a_tool_call_id_in_use(shared_editor: Editor) -> None:
    editor = shared_editor
    lines = fixture_lines(ELYRA)
    lines[2] = lines[2].replace('"content":[', '"content":[{"type":"toolCall","id":"toolu_02","name":"ls",'
                                '"arguments":{}},', 1)
    uri, _ = await open_session(editor, "\n".join(lines) + "\n")
    with pytest.raises(JsonRpcException) as raised:
        await editor.client.text_document_rename_async(types.RenameParams(
            text_document=doc(uri), position=inside(editor, uri, 3, '"toolu_01"'), new_name="toolu_02"))
    assert raised.value.code == types.LSPErrorCodes.RequestFailed.value
    assert raised.value.message == ("tool call id 'toolu_02' is already used on line 3: provider APIs require tool "
                                    "call ids to be unique")
