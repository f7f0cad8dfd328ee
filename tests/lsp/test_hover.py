"""textDocument/hover through the server: a reference shows a card of what it names, a declaration shows its own
card and how many lines refer to it, a `type`/`role` value lists its fields, a dangling reference says that it
resolves to nothing and what the agent does then.

Fixtures: `elyra-compacted.jsonl` (lines 0-based: 0 header; 1-4 the trunk, 4 is a branch point labelled
"step-one"; 5-6 the abandoned branch; 7 branch_summary; 8 user; 9 label; 10 compaction; 11 the leaf) and
`thndrs-permissions.jsonl` (turn-1 on lines 1-7 with a tool call and a permission request, turn-2 on 8-11).
"""

from __future__ import annotations

import pytest
from lsp_features import (
    ELYRA,
    THNDRS,
    doc,
    find,
    fixture_lines,
    fixture_text,
    inside,
    markdown,
    needle_range,
    open_session,
    position,
    span,
)
from lsp_harness import Editor
from lsprotocol import types

from session_lsp.analysis.registry import rule

pytestmark = pytest.mark.asyncio(loop_scope="module")

SESSION_ID = "session-20260201-110000"
"""The thndrs fixture's session id, used as its file name."""

ACTIVE = "on the active path (an ancestor of the leaf)"
ABANDONED = "not on the active path (pi does not send it as context)"
LEAF = "**the leaf**: the last entry, where pi resumes"


def elyra_card(line: int, heading: str, depth: int, children: str, place: str, quote: str,
               label: str | None = None, referenced: str | None = None) -> str:
    """The card of entry `line` of the Elyra fixture (its ids are e0000001.., one second apart)."""
    rows = [f"id `e{line:07x}`", f"time 2026-02-01T10:00:{line:02d}.000Z", f"depth {depth}", children, place]
    if label:
        rows.append(f"label **{label}**")
    if referenced:
        rows.append(referenced)
    body = "\n".join(f"- {row}" for row in rows)
    return f"**{heading}** (line {line + 1})\n\n{body}\n\n> {quote}"


def thndrs_card(line: int, heading: str, rows: list[str], quote: str, referenced: str | None = None) -> str:
    rows = [f"seq `{line}`", f"time `2026-02-01T11:00:{line:02d}Z`", *rows, *([referenced] if referenced else [])]
    body = "\n".join(f"- {row}" for row in rows)
    return f"**{heading}** (line {line + 1})\n\n{body}\n\n> {quote}"


TRUNK_4 = elyra_card(4, "message · assistant", 3, "2 children (a branch point)", ACTIVE, "Step one is done.",
                     label="step-one")
TOOL_CALL = ("**tool call `read`** `toolu_01`\n\n"
             "- in the assistant message on line 3, content block 1\n"
             "- answered by line 4")

ELYRA_REFERENCES = [
    # (line, field, value written there, the line it names, the card shown)
    (2, "parentId", "e0000001", 1, elyra_card(1, "message · user", 0, "1 child", ACTIVE, "Plan the refactor")),
    (5, "parentId", "e0000004", 4, TRUNK_4),
    (11, "parentId", "e000000a", 10,
     elyra_card(10, "compaction", 7, "1 child", ACTIVE, "Planned the refactor; A failed.")),
    (10, "firstKeptEntryId", "e0000007", 7,
     elyra_card(7, "branch_summary", 4, "1 child", ACTIVE, "Approach A failed on imports.")),
    (7, "fromId", "e0000006", 6,
     elyra_card(6, "message · assistant", 5, "0 children", ABANDONED, "Approach A fails.")),
    (9, "targetId", "e0000004", 4, TRUNK_4),
    (3, "toolCallId", "toolu_01", 2, TOOL_CALL),
]


async def hover_reference(editor: Editor, uri: str, line: int, field: str, value: str) -> types.Hover | None:
    """Hover in the middle of the value of the member `"field":"value"` on `line`; checks the hover's range is
    that value (quotes included)."""
    col = find(editor, uri, line, f'"{field}":"{value}"') + len(field) + 3
    found = await editor.client.text_document_hover_async(types.HoverParams(doc(uri), position(
        editor, uri, line, col + len(value) // 2 + 1)))
    assert found is not None and found.range == span(editor, uri, line, col, col + len(value) + 2)
    return found


async def hover_on(editor: Editor, uri: str, line: int, needle: str) -> str:
    """The card shown with the cursor inside `needle` on `line`, after checking it covers exactly `needle`."""
    found = await editor.client.text_document_hover_async(types.HoverParams(doc(uri), inside(editor, uri, line,
                                                                                              needle)))
    assert found is not None and found.range == needle_range(editor, uri, line, needle)
    return markdown(found)


@pytest.mark.parametrize(("line", "field", "value", "target", "card"), ELYRA_REFERENCES,
                         ids=[f"{r[1]}@{r[0]}" for r in ELYRA_REFERENCES])
async def test_elyra_reference_shows_the_card_of_its_target(shared_editor: Editor, line: int, field: str,
                                                            value: str, target: int, card: str) -> None:
    uri, _ = await open_session(shared_editor, fixture_text(ELYRA))
    found = await hover_reference(shared_editor, uri, line, field, value)
    assert markdown(found) == f"`{field}` → line {target + 1}\n\n{card}"


ELYRA_DECLARATIONS = [
    (4, '"e0000004"', elyra_card(4, "message · assistant", 3, "2 children (a branch point)", ACTIVE,
                                 "Step one is done.", label="step-one", referenced="referenced by 3 lines")),
    (5, '"e0000005"', elyra_card(5, "message · user", 4, "1 child", ABANDONED, "Try approach A",
                                 referenced="referenced by 1 line")),
    (11, '"e000000b"', elyra_card(11, "message · assistant", 8, "0 children", LEAF, "Approach B works.",
                                  referenced="referenced by 0 lines")),
    (1, '"e0000001"', elyra_card(1, "message · user", 0, "1 child", ACTIVE, "Plan the refactor",
                                 referenced="referenced by 1 line")),
    (2, '"toolu_01"', TOOL_CALL),
]


@pytest.mark.parametrize(("line", "needle", "card"), ELYRA_DECLARATIONS, ids=[d[1] for d in ELYRA_DECLARATIONS])
async def test_elyra_declaration_shows_its_own_card(shared_editor: Editor, line: int, needle: str, card: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    assert await hover_on(editor, uri, line, needle) == card


TURN_1 = thndrs_card(1, "user", ["turn `turn-1`", "turn has 6 records, settled"], "List the files")
TURN_2 = thndrs_card(8, "user", ["turn `turn-2`", "turn has 4 records, settled"], "Delete it")
CALL_1 = thndrs_card(2, "tool_started", ["turn `turn-1`", "call `call-1`", "tool `bash`",
                                         "turn has 6 records, settled"], '{"cmd":"ls"}')
CALL_2 = thndrs_card(9, "tool_started", ["turn `turn-2`", "call `call-2`", "tool `bash`",
                                         "turn has 4 records, settled"], '{"cmd":"rm a.txt"}')
REQUEST = thndrs_card(3, "acp_permission_request", ["turn `turn-1`", "turn has 6 records, settled"], "Run ls?")

THNDRS_REFERENCES = [
    (5, "call_id", "call-1", 2, CALL_1),
    (10, "call_id", "call-2", 9, CALL_2),
    (4, "tool_call_id", "perm-1", 3, REQUEST),
    (2, "turn_id", "turn-1", 1, TURN_1),
    (7, "turn_id", "turn-1", 1, TURN_1),
    (11, "turn_id", "turn-2", 8, TURN_2),
]


@pytest.mark.parametrize(("line", "field", "value", "target", "card"), THNDRS_REFERENCES,
                         ids=[f"{r[1]}@{r[0]}" for r in THNDRS_REFERENCES])
async def test_thndrs_reference_shows_the_card_of_its_target(shared_editor: Editor, line: int, field: str,
                                                             value: str, target: int, card: str) -> None:
    uri, _ = await open_session(shared_editor, fixture_text(THNDRS), SESSION_ID)
    found = await hover_reference(shared_editor, uri, line, field, value)
    assert markdown(found) == f"`{field}` → line {target + 1}\n\n{card}"


THNDRS_DECLARATIONS = [
    (1, '"turn-1"', thndrs_card(1, "user", ["turn `turn-1`", "turn has 6 records, settled"], "List the files",
                                referenced="referenced by 5 lines")),
    (2, '"call-1"', thndrs_card(2, "tool_started", ["turn `turn-1`", "call `call-1`", "tool `bash`",
                                                    "turn has 6 records, settled"], '{"cmd":"ls"}',
                                referenced="referenced by 1 line")),
    (3, '"perm-1"', thndrs_card(3, "acp_permission_request", ["turn `turn-1`", "turn has 6 records, settled"],
                                "Run ls?", referenced="referenced by 1 line")),
]


@pytest.mark.parametrize(("line", "needle", "card"), THNDRS_DECLARATIONS, ids=[d[1] for d in THNDRS_DECLARATIONS])
async def test_thndrs_declaration_counts_its_referrers(shared_editor: Editor, line: int, needle: str,
                                                       card: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(THNDRS), SESSION_ID)
    assert await hover_on(editor, uri, line, needle) == card


TAG_VALUES = [
    (ELYRA, 1, '"user"', "**role `user`**\n\n"
                         "- `content`: string or array, required\n"
                         "- `timestamp`: number, required"),
    (ELYRA, 9, '"label"', "**type `label`**\n\n"
                          "- `targetId`: string, required\n"
                          "- `timestamp`: string, required\n"
                          "- `id`: string, required\n"
                          "- `parentId`: string or null, required\n"
                          "- `label`: string, optional"),
    (ELYRA, 2, '"toolCall"', "**type `toolCall`**\n\n"
                             "- `id`: string, required\n"
                             "- `name`: string, required\n"
                             "- `arguments`: object, required\n"
                             "- `thoughtSignature`: string, optional\n"
                             "- `namespace`: string, optional\n"
                             "- `argumentsError`: string, optional\n"
                             "- `partialJson`: string, optional"),
    (THNDRS, 2, '"tool_started"', "**type `tool_started`**\n\n"
                                  "- `schema_version`: non-negative integer, required\n"
                                  "- `seq`: non-negative integer, required\n"
                                  "- `time`: string, required\n"
                                  "- `turn_id`: string, required\n"
                                  "- `call_id`: string, required\n"
                                  "- `name`: string, required\n"
                                  "- `arguments`: string, required\n"
                                  "- `mcp`: object or null, optional"),
    (THNDRS, 6, '"usage"', "**type `usage`**\n\n"
                           "- `schema_version`: non-negative integer, required\n"
                           "- `seq`: non-negative integer, required\n"
                           "- `time`: string, required\n"
                           "- `input_tokens`: non-negative integer, required\n"
                           "- `output_tokens`: non-negative integer, required"),
]


@pytest.mark.parametrize(("name", "line", "needle", "expected"), TAG_VALUES, ids=[v[2] for v in TAG_VALUES])
async def test_type_and_role_values_list_their_fields(shared_editor: Editor, name: str, line: int, needle: str,
                                                      expected: str) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(name), SESSION_ID)
    assert await hover_on(editor, uri, line, needle) == expected


async def test_unknown_role_value_lists_the_known_ones(shared_editor: Editor) -> None:
    editor = shared_editor
    lines = fixture_lines(ELYRA)
    lines[1] = lines[1].replace('"role":"user"', '"role":"robot"')
    uri, _ = await open_session(editor, "\n".join(lines) + "\n")
    found = await editor.client.text_document_hover_async(types.HoverParams(doc(uri), inside(editor, uri, 1,
                                                                                              '"robot"')))
    assert markdown(found) == ("`role` **`robot`** is not a known role. Known: `user`, `assistant`, `toolResult`, "
                               "`bashExecution`, `custom`, `hookMessage`, `branchSummary`, `compactionSummary`, "
                               "`system`.")


DANGLING = [
    # (fixture, line, what the line says, what it is changed to, field, what it should name, code, name)
    (ELYRA, 5, '"parentId":"e0000004"', "ffffffff", "parentId", "entry", "ELY042", "dangling-parent"),
    (ELYRA, 10, '"firstKeptEntryId":"e0000007"', "gone0001", "firstKeptEntryId", "entry", "ELY050",
     "dangling-first-kept"),
    (ELYRA, 7, '"fromId":"e0000006"', "gone0002", "fromId", "entry", "ELY052", "dangling-from-id"),
    (ELYRA, 9, '"targetId":"e0000004"', "gone0003", "targetId", "entry", "ELY053", "dangling-target-id"),
    (ELYRA, 3, '"toolCallId":"toolu_01"', "toolu_99", "toolCallId", "tool call on this entry's path", "ELY070",
     "orphan-tool-result"),
    (THNDRS, 5, '"call_id":"call-1"', "call-9", "call_id", "earlier `tool_started` in this turn", "THN040",
     "tool-finished-without-started"),
    (THNDRS, 4, '"tool_call_id":"perm-1"', "perm-9", "tool_call_id", "earlier `acp_permission_request`", "THN046",
     "permission-outcome-without-request"),
    (THNDRS, 7, '"turn_id":"turn-1"', "turn-9", "turn_id", "`user` record starting this turn", "THN048",
     "turn-without-user"),
]


@pytest.mark.parametrize(("name", "line", "written", "value", "field", "what", "code", "rule_name"), DANGLING,
                         ids=[d[4] for d in DANGLING])
async def test_dangling_reference_resolves_to_nothing(shared_editor: Editor, name: str, line: int, written: str,
                                                      value: str, field: str, what: str, code: str,
                                                      rule_name: str) -> None:
    editor = shared_editor
    lines = fixture_lines(name)
    assert written in lines[line]
    lines[line] = lines[line].replace(written, f'"{field}":"{value}"')
    uri, found_diagnostics = await open_session(editor, "\n".join(lines) + "\n", SESSION_ID)
    assert code in {str(d.code) for d in found_diagnostics if d.range.start.line == line}
    found = await editor.client.text_document_hover_async(types.HoverParams(doc(uri), inside(
        editor, uri, line, f'"{value}"')))
    agent = "pi" if name == ELYRA else "thndrs"
    assert markdown(found) == (f"`{field}` **`{value}`** resolves to nothing: there is no {what} with this value."
                               f"\n\nWhat {agent} does then: {rule(code).reason} ({code} {rule_name})")
    assert found is not None and found.range == needle_range(editor, uri, line, f'"{value}"')


async def test_nothing_to_say_between_values(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, fixture_text(ELYRA))
    # On the timestamp value (not a reference, not a tag) and past the end of the line.
    for where in (inside(editor, uri, 5, '"2026-02-01T10:00:05.000Z"'),
                  position(editor, uri, 5, len(editor.texts[uri][5]))):
        assert await editor.client.text_document_hover_async(types.HoverParams(doc(uri), where)) is None
