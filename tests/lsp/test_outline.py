"""The shape of a session through the server: document symbols (with the cap that announces itself on huge files),
folding ranges, selection ranges, code lenses (and the command they run) and inlay hints.

Fixtures: `elyra-compacted.jsonl` branches at line 4: the abandoned branch is lines 5-6, the active one lines 7-11
(branch summary, user, label, compaction, the leaf). `thndrs-permissions.jsonl` has turn-1 on lines 1-7 (with a
usage record, which carries no turn_id, on line 6) and turn-2 on lines 8-11.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from lsp_features import (
    ELYRA,
    THNDRS,
    doc,
    find,
    fixture_lines,
    fixture_text,
    inside,
    open_session,
    range_tuple,
    span,
    whole_line,
)
from lsp_harness import Editor
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

SESSION_ID = "session-20260201-110000"
LEAF_TEXT = "● leaf: pi resumes from this entry (the last line, not the deepest or newest)"
BRANCHES = "⎇ 2 branches · active: branch 2 (line 8)"

Symbol = tuple[str, str | None, types.SymbolKind, tuple[int, int, int, int], tuple[int, int, int, int], list[Any]]


def tree_of(symbols: Sequence[types.DocumentSymbol] | None) -> list[Symbol]:
    out = []
    for symbol in symbols or []:
        assert isinstance(symbol, types.DocumentSymbol), symbol
        out.append((symbol.name, symbol.detail, symbol.kind, range_tuple(symbol.range),
                    range_tuple(symbol.selection_range), tree_of(symbol.children)))
    return out


async def symbols_of(editor: Editor, uri: str) -> list[Symbol]:
    found = await editor.client.text_document_document_symbol_async(types.DocumentSymbolParams(doc(uri)))
    return tree_of(found)  # type: ignore[arg-type]


async def test_elyra_outline_nests_only_at_the_branch_point_active_branch_first(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))

    def entry(line: int, name: str, detail: str | None = None) -> Symbol:
        where = range_tuple(whole_line(editor, uri, line))
        return (name, detail or f"line {line + 1}", types.SymbolKind.Event, where, where, [])

    def branch(first: int, last: int, name: str, detail: str, children: list[Symbol]) -> Symbol:
        where = range_tuple(span(editor, uri, first, 0, len(editor.texts[uri][last]), end_line=last))
        return (name, detail, types.SymbolKind.Namespace, where, range_tuple(whole_line(editor, uri, first)), children)

    header = range_tuple(whole_line(editor, uri, 0))
    assert await symbols_of(editor, uri) == [
        ("session", "session v3 · 0194b000-0000-7000-8000-0000000000aa", types.SymbolKind.File, header, header, []),
        entry(1, "user: Plan the refactor in two steps"),
        entry(2, "assistant → read"),
        entry(3, "toolResult read"),
        entry(4, "assistant: Step one is done.", "line 5 · label step-one · 2 branches"),
        branch(7, 11, "⎇ active branch 2/2: branch_summary: Approach A failed on imports.", "5 entries from line 8", [
            entry(7, "branch_summary: Approach A failed on imports."),
            entry(8, "user: Try approach B"),
            entry(9, 'label "step-one"'),
            entry(10, "compaction (12,345 tokens)"),
            entry(11, "assistant: Approach B works.", "line 12 · leaf"),
        ]),
        branch(5, 6, "⎇ branch 1/2: user: Try approach A", "2 entries from line 6", [
            entry(5, "user: Try approach A"),
            entry(6, "assistant: Approach A fails."),
        ]),
    ]


async def test_thndrs_outline_has_one_symbol_per_turn(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(THNDRS), SESSION_ID)

    def record(line: int, name: str) -> Symbol:
        where = range_tuple(whole_line(editor, uri, line))
        return (name, f"line {line + 1}", types.SymbolKind.Event, where, where, [])

    def turn(first: int, last: int, name: str, detail: str, children: list[Symbol]) -> Symbol:
        where = range_tuple(span(editor, uri, first, 0, len(editor.texts[uri][last]), end_line=last))
        return (name, detail, types.SymbolKind.Namespace, where, range_tuple(whole_line(editor, uri, first)), children)

    assert await symbols_of(editor, uri) == [
        record(0, "session_meta: perms"),
        turn(1, 7, "turn-1 — user: List the files please", "6 records + 1 without a turn_id", [
            record(1, "user: List the files please"),
            record(2, "tool_started bash #call-1"),
            record(3, "acp_permission_request: Run ls?"),
            record(4, "acp_permission_outcome allow once"),
            record(5, "tool_finished Ok #call-1"),
            record(6, "usage 10 in / 5 out"),
            record(7, "assistant: There is a.txt"),
        ]),
        turn(8, 11, "turn-2 — user: Delete it", "4 records", [
            record(8, "user: Delete it"),
            record(9, "tool_started bash #call-2"),
            record(10, "tool_finished Failed #call-2"),
            record(11, "assistant: Could not delete it."),
        ]),
    ]


def huge_elyra(entries: int) -> str:
    header, first, *_ = [json.loads(line) for line in fixture_lines(ELYRA)]
    lines = [json.dumps(header)]
    parent = None
    for number in range(entries):
        entry = dict(first, id=f"{number:08x}", parentId=parent)
        lines.append(json.dumps(entry, separators=(",", ":")))
        parent = entry["id"]
    return "\n".join(lines) + "\n"


def huge_thndrs(turns: int) -> str:
    meta, user, *_ = [json.loads(line) for line in fixture_lines(THNDRS)]
    lines = [json.dumps(meta)]
    for number in range(turns):
        turn = f"turn-{number + 1}"
        lines.append(json.dumps(dict(user, seq=2 * number + 1, turn_id=turn)))
        lines.append(json.dumps({"type": "assistant_finished", "schema_version": 1, "seq": 2 * number + 2,
                                 "time": user["time"], "turn_id": turn, "text": "ok"}))
    return "\n".join(lines) + "\n"


def flatten(symbols: list[Symbol]) -> list[Symbol]:
    out = []
    for symbol in symbols:
        out.append(symbol)
        out.extend(flatten(symbol[5]))
    return out


@pytest.mark.parametrize(("make", "size", "lines", "noun", "stem"), [
    (huge_elyra, 5_100, 5_100, "entries", "session"),
    (huge_thndrs, 2_600, 5_201, "records", SESSION_ID),  # session_meta and two records a turn
])
async def test_outline_of_a_huge_file_stops_at_the_cap_and_says_so(shared_editor: Editor, make: Any, size: int,
                                                                   lines: int, noun: str, stem: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, make(size), stem)
    symbols = await symbols_of(editor, uri)
    every = flatten(symbols)
    assert len(every) == 5_000 + 1  # the cap, and the symbol announcing it
    name, detail, kind, where, _, children = symbols[-1]
    match = re.fullmatch(rf"… ([\d,]+) more {noun} not shown", name)
    assert match is not None, name
    assert detail == "the outline stops at 5,000 symbols" and kind == types.SymbolKind.Null and children == []
    last = len(editor.texts[uri]) - 1
    assert where == range_tuple(whole_line(editor, uri, last))
    shown = [symbol for symbol in every if symbol[2] == types.SymbolKind.Event]
    assert len(shown) + int(match.group(1).replace(",", "")) == lines  # what is not shown is counted, not lost


@pytest.mark.parametrize(("name", "expected"), [
    (ELYRA, [(1, 4), (5, 6), (7, 11)]),  # the trunk, the abandoned branch, the active branch
    (THNDRS, [(1, 7), (8, 11)]),  # each turn, the usage record inside turn-1 included
])
async def test_folding_ranges(shared_editor: Editor, name: str, expected: list[tuple[int, int]]) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(name), SESSION_ID)
    found = await editor.client.text_document_folding_range_async(types.FoldingRangeParams(doc(uri)))
    assert [(r.start_line, r.end_line, r.kind) for r in found or []] == [
        (start, end, types.FoldingRangeKind.Region) for start, end in expected]


def chain(selection: types.SelectionRange | None) -> list[tuple[int, int, int, int]]:
    out = []
    while selection is not None:
        out.append(range_tuple(selection.range))
        selection = selection.parent
    return out


async def test_selection_ranges_grow_from_value_to_member_to_object_to_line(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    one, two = editor.texts[uri][1], editor.texts[uri][2]

    def at(line: int, start: int, end: int) -> tuple[int, int, int, int]:
        return range_tuple(span(editor, uri, line, start, end))

    role = find(editor, uri, 1, '"role":"user"')
    message = find(editor, uri, 1, '"message":{')
    arguments = find(editor, uri, 2, '"arguments":{"path":"a.py"}')
    block = find(editor, uri, 2, '{"type":"toolCall"')
    content = find(editor, uri, 2, '"content":[')
    message_2 = find(editor, uri, 2, '"message":{')
    parent = find(editor, uri, 1, '"parentId":null')
    found = await editor.client.text_document_selection_range_async(types.SelectionRangeParams(
        text_document=doc(uri), positions=[inside(editor, uri, 1, '"user"', offset=2),
                                           inside(editor, uri, 2, '"a.py"', offset=2),
                                           inside(editor, uri, 1, '"parentId"', offset=2)]))
    assert found is not None and len(found) == 3
    assert chain(found[0]) == [
        at(1, role + 7, role + 13),  # "user"
        at(1, role, role + 13),  # "role":"user"
        at(1, message + 10, len(one) - 1),  # the message object
        at(1, message, len(one) - 1),  # "message":{...}
        at(1, 0, len(one)),  # the entry, which is the whole line
    ]
    assert chain(found[1]) == [
        at(2, arguments + 20, arguments + 26),  # "a.py"
        at(2, arguments + 13, arguments + 26),  # "path":"a.py"
        at(2, arguments + 12, arguments + 27),  # {"path":"a.py"}
        at(2, arguments, arguments + 27),  # "arguments":{...}
        at(2, block, arguments + 28),  # the toolCall block
        at(2, content + 10, two.index("]", arguments) + 1),  # the content array
        at(2, content, two.index("]", arguments) + 1),  # "content":[...]
        at(2, message_2 + 10, len(two) - 1),
        at(2, message_2, len(two) - 1),
        at(2, 0, len(two)),
    ]
    assert chain(found[2]) == [at(1, parent, parent + 10), at(1, parent, parent + 15), at(1, 0, len(one))]


def lens_tuple(lens: types.CodeLens) -> tuple[Any, ...]:
    assert lens.command is not None  # every lens comes with its title (none is left to resolve)
    arguments = list(lens.command.arguments) if lens.command.arguments is not None else None
    return range_tuple(lens.range), lens.command.title, lens.command.command, arguments


async def test_elyra_code_lenses_mark_the_branch_point_and_the_leaf(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    found = await editor.client.text_document_code_lens_async(types.CodeLensParams(doc(uri)))
    assert [lens_tuple(lens) for lens in found or []] == [
        (range_tuple(whole_line(editor, uri, 4)), BRANCHES, "sessionLsp.revealLine", [uri, 7]),
        (range_tuple(whole_line(editor, uri, 11)), LEAF_TEXT, "", None),  # the last line: display only
    ]
    # The branch lens's command moves the editor to the first entry of the active branch.
    shown = len(editor.client.shown_documents)
    lens = found[0]  # type: ignore[index]
    assert lens.command is not None
    result = await editor.client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=lens.command.command, arguments=lens.command.arguments))
    assert result is True
    assert editor.client.shown_documents[shown:] == [types.ShowDocumentParams(
        uri=uri, take_focus=True, selection=types.Range(types.Position(7, 0), types.Position(7, 0)))]


async def test_thndrs_code_lenses_summarise_each_turn(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(THNDRS), SESSION_ID)
    found = await editor.client.text_document_code_lens_async(types.CodeLensParams(doc(uri)))
    assert [lens_tuple(lens) for lens in found or []] == [
        (range_tuple(whole_line(editor, uri, 1)), "turn-1: 6 records, settled", "sessionLsp.revealLine", [uri, 7]),
        (range_tuple(whole_line(editor, uri, 8)), "turn-2: 4 records, settled", "sessionLsp.revealLine", [uri, 11]),
    ]


@pytest.mark.parametrize(("first", "last", "expected"), [
    (0, 11, ["branches", "leaf"]),
    (0, 3, []),
    (5, 11, ["leaf"]),
    (4, 4, ["branches"]),
])
async def test_inlay_hints_at_the_end_of_the_branch_point_and_the_leaf(shared_editor: Editor, first: int, last: int,
                                                                       expected: list[str]) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    found = await editor.client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc(uri), range=span(editor, uri, first, 0, len(editor.texts[uri][last]), end_line=last)))
    hints = {
        "branches": (4, BRANCHES, None),
        "leaf": (11, "● leaf", LEAF_TEXT),
    }
    want = []
    for key in expected:
        line, label, tooltip = hints[key]
        end = span(editor, uri, line, len(editor.texts[uri][line]), len(editor.texts[uri][line])).start
        want.append((end, label, True, tooltip))
    assert [(hint.position, hint.label, hint.padding_left, hint.tooltip) for hint in found or []] == want


async def test_thndrs_files_have_no_inlay_hints(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(THNDRS), SESSION_ID)
    found = await editor.client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc(uri), range=span(editor, uri, 0, 0, 0, end_line=len(editor.texts[uri]) - 1)))
    assert not found
