"""Quick fixes through the server: each returned WorkspaceEdit is applied to the text here, the result is sent back
as the editor would, and the server's new diagnostics must lack the fixed one, agree with a fresh analysis, and
every line's content must still be there.

`elyra-broken.jsonl` (0-based): line 3 is two entries glued together (ELY002), line 4's parentId names nothing
(ELY042), line 5 repeats line 2's id (ELY040) and line 6 was written under it, line 7 has the v2 role
`hookMessage` in a v3 file (ELY024). `thndrs-seq.jsonl` numbers its records 2, 1, 1, 5, 3 (THN030-THN033).
"""

from __future__ import annotations

import re

import pytest
from lsp_features import (
    ELYRA,
    THNDRS,
    apply_workspace_edit,
    doc,
    fixture_lines,
    fixture_text,
    open_session,
    span,
    whole_line,
)
from lsp_harness import Editor, codes, shape
from lsprotocol import types

from session_lsp.analysis.rule_filter import RuleFilter
from session_lsp.fixer import repair

REPARENT_TITLE = ("Set parentId to 'dddd0001' (the entry on line 2; passing over line 3, whose id 'dddd0002' pi "
                  "resolves to line 6, which hangs below this entry and would close a loop)")
"""The title of elyra-broken.jsonl's ELY042 fix: the entry right above is passed over, and the title says why."""

pytestmark = pytest.mark.asyncio(loop_scope="module")

BROKEN = "elyra-broken.jsonl"
SEQ = "thndrs-seq.jsonl"
SEQ_STEM = "session-20260101-100000"
SEQ_CODES = {"THN030", "THN031", "THN032", "THN033"}


async def fix(editor: Editor, uri: str, diagnostics: list[types.Diagnostic], code: str, line: int
              ) -> tuple[types.CodeAction, types.Diagnostic]:
    """Ask for the fixes of the `code` diagnostic on `line`, as an editor does with the cursor on it."""
    found = [d for d in diagnostics if str(d.code) == code and d.range.start.line == line]
    assert len(found) == 1, [(d.code, d.range.start.line) for d in diagnostics]
    (diagnostic,) = found
    actions = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc(uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix])))
    assert actions is not None
    mine = [a for a in actions if isinstance(a, types.CodeAction)
            and code in {str(d.code) for d in a.diagnostics or []}]
    assert len(mine) == 1, actions
    action = mine[0]
    assert action.kind == types.CodeActionKind.QuickFix
    return action, diagnostic


async def apply_and_recheck(editor: Editor, uri: str, action: types.CodeAction) -> tuple[list[str], list[str],
                                                                                      list[types.Diagnostic]]:
    """(lines before, lines after, the server's diagnostics after the editor applied the fix)."""
    before = list(editor.texts[uri])
    fixed = apply_workspace_edit(editor, uri, action.edit)
    after = await editor.replace_all(uri, fixed)
    assert shape(after) == editor.expected(uri)  # the server re-analysed the fixed text like a fresh analysis
    return before, fixed.split("\n"), after


def problems(diagnostics: list[types.Diagnostic]) -> set[tuple[str, int]]:
    return {(str(d.code), d.range.start.line) for d in diagnostics
            if d.severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)}


async def test_split_glued_records_into_lines(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, diagnostics = await open_session(editor, fixture_text(BROKEN))
    action, _diagnostic = await fix(editor, uri, diagnostics, "ELY002", 3)
    assert action.title == "Split into 2 lines" and action.is_preferred
    before, after, found = await apply_and_recheck(editor, uri, action)
    glued = before[3]
    cut = glued.index('}{"type"') + 1
    assert after == [*before[:3], glued[:cut], glued[cut:], *before[4:]]  # nothing lost, one line more
    assert "ELY002" not in codes(found)


@pytest.mark.parametrize(("name", "first", "code", "stem"), [
    (ELYRA, 5, "ELY002", "session"),
    (THNDRS, 9, "THN001", "session-20260201-110000"),
])
async def test_split_restores_two_records_glued_by_a_crash(shared_editor: Editor, name: str, first: int, code: str,
                                                           stem: str) -> None:
    editor = shared_editor
    lines = fixture_lines(name)
    clean = fixture_text(name)
    glued = [*lines[:first], lines[first] + lines[first + 1], *lines[first + 2:]]
    uri, diagnostics = await open_session(editor, "\n".join(glued) + "\n", stem)
    action, _ = await fix(editor, uri, diagnostics, code, first)
    assert action.title == "Split into 2 lines"
    assert action.edit is not None
    _, after, found = await apply_and_recheck(editor, uri, action)
    assert "\n".join(after) == clean  # exactly the file before the lines were glued
    assert problems(found) == set()


async def test_dangling_parent_is_pointed_at_the_entry_above(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, diagnostics = await open_session(editor, fixture_text(BROKEN))
    action, _ = await fix(editor, uri, diagnostics, "ELY042", 4)
    # The entry right above the glued line 3 is line 2 ("dddd0002"), but line 5 repeats that id and pi's index
    # keeps the later one, whose parent is this entry: naming it would close a loop. So the fix takes line 1.
    assert action.title == REPARENT_TITLE + " (unsafe fix)" and not action.is_preferred
    before, after, found = await apply_and_recheck(editor, uri, action)
    assert after == [*before[:4], before[4].replace('"parentId":"ffff9999"', '"parentId":"dddd0001"'), *before[5:]]
    assert "ELY042" not in codes(found)
    assert problems(found) <= problems(diagnostics)  # and no new problem (no ELY045 loop)


async def test_duplicate_id_gets_a_fresh_one(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, diagnostics = await open_session(editor, fixture_text(BROKEN))
    action, _ = await fix(editor, uri, diagnostics, "ELY040", 5)
    match = re.fullmatch(r"Give this entry the fresh id '([0-9a-f]{8})' and update the 1 line written after it "
                         r"\(unsafe fix\)", action.title)
    assert match is not None, action.title
    new = match.group(1)
    before, after, found = await apply_and_recheck(editor, uri, action)
    assert f'"{new}"' not in "\n".join(before)  # fresh
    assert after == [*before[:5], before[5].replace('"id":"dddd0002"', f'"id":"{new}"'),
                     before[6].replace('"parentId":"dddd0002"', f'"parentId":"{new}"'), *before[7:]]
    assert '"parentId":"dddd0002"' in after[3]  # written before the duplicate: it still names the first
    assert "ELY040" not in codes(found)
    assert problems(found) <= problems(diagnostics)


async def test_hook_message_role_becomes_custom(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, diagnostics = await open_session(editor, fixture_text(BROKEN))
    action, _ = await fix(editor, uri, diagnostics, "ELY024", 7)
    assert action.title == 'Rename role "hookMessage" to "custom"'
    before, after, found = await apply_and_recheck(editor, uri, action)
    assert after == [*before[:7], before[7].replace('"role":"hookMessage"', '"role":"custom"'), *before[8:]]
    assert "ELY024" not in codes(found)
    assert problems(found) <= problems(diagnostics)


@pytest.mark.parametrize("line", range(5))
async def test_thndrs_seq_is_renumbered_in_line_order(shared_editor: Editor, line: int) -> None:
    editor = shared_editor
    uri, diagnostics = await open_session(editor, fixture_text(SEQ), SEQ_STEM)
    assert {str(d.code) for d in diagnostics} == SEQ_CODES
    code = next(str(d.code) for d in diagnostics if d.range.start.line == line)
    action, _ = await fix(editor, uri, diagnostics, code, line)
    assert action.title == "Renumber seq 0..4 in line order (4 records change)"
    before, after, found = await apply_and_recheck(editor, uri, action)
    assert len(after) == len(before)
    for number, (old, new) in enumerate(zip(before[:5], after[:5], strict=True)):
        assert new == re.sub(r'"seq":\d+', f'"seq":{number}', old, count=1)
    assert after[5:] == before[5:]
    assert not SEQ_CODES & codes(found)
    assert problems(found) == set()


async def test_no_quick_fix_where_nothing_is_wrong(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, diagnostics = await open_session(editor, fixture_text(BROKEN))
    for line in (0, 1, 2):
        actions = await editor.client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc(uri), range=whole_line(editor, uri, line),
            context=types.CodeActionContext(diagnostics=[])))
        assert not actions
    # A selection over lines 4-7 gets the fixes of every diagnostic it touches.
    actions = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc(uri), range=span(editor, uri, 4, 0, 0, end_line=7),
        context=types.CodeActionContext(diagnostics=diagnostics)))
    assert [a.title for a in actions or [] if isinstance(a, types.CodeAction)][::2] == [
        REPARENT_TITLE + " (unsafe fix)", 'Rename role "hookMessage" to "custom"']


async def test_fix_all_applies_the_safe_fixes_of_session_lsp_fix(shared_editor: Editor) -> None:
    """`source.fixAll.session-lsp` (what an editor runs on save) is `session-lsp fix`: the same text, as one edit,
    with only the safe fixes; the unsafe ones (ELY042, ELY040) are left for a person."""
    editor = shared_editor
    text = fixture_text(BROKEN)
    uri, _ = await open_session(editor, text)
    actions = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc(uri), range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    assert actions is not None
    (action,) = [a for a in actions if isinstance(a, types.CodeAction)]
    assert action.kind == "source.fixAll.session-lsp"
    assert action.title == "Fix all safe problems (2 fixes, session-lsp)"
    fixed = apply_workspace_edit(editor, uri, action.edit)
    cli_run = repair("elyra-broken.jsonl", text.encode(), RuleFilter([], []), "1.6", unsafe=False)
    assert cli_run.new is not None and fixed == cli_run.new.decode()
    after = await editor.replace_all(uri, fixed)
    assert {"ELY002", "ELY024"} & codes(after) == set()
    assert {"ELY042", "ELY040"} <= codes(after)


async def test_fix_all_is_not_offered_where_nothing_is_safely_fixable(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    actions = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc(uri), range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    assert not actions
