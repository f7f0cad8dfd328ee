"""textDocument/completion through the server, while a line is being written by hand: tag values, field names,
ids for reference fields, open tool calls and permission requests, and on an empty line a snippet for a whole new
entry or record (fresh id, the parent or seq the line above implies, the current time).

A `|` in a line below marks the cursor; the line is put into a copy of the fixture at the given index.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from lsp_features import ELYRA, THNDRS, doc, fixture_lines, open_session, position, range_tuple, span
from lsp_harness import Editor
from lsprotocol import types

pytestmark = pytest.mark.asyncio(loop_scope="module")

SESSION_ID = "session-20260201-110000"
ELYRA_IDS = [f"e{n:07x}" for n in range(1, 12)]
"""The fixture's entry ids, e0000001 (line 1) .. e000000b (line 11)."""

THNDRS_TYPES = [
    "session_meta", "context", "context_ledger", "context_pin", "context_drop", "context_recovery", "compaction",
    "compaction_review", "user", "prompt_metadata", "assistant_finished", "reasoning_finished", "usage",
    "request_accounting", "tool_started", "tool_finished", "cancelled", "failed", "acp_session", "session_renamed",
    "file_write", "mcp_config_changed", "shell_exec", "skill_activated", "queued_input", "acp_permission_request",
    "acp_permission_outcome",
]
"""thndrs 0.1.0's 27 record types (spec §2.4), in the order of the spec's table."""


async def complete_at(editor: Editor, name: str, index: int, typed: str, stem: str = SESSION_ID,
                      lines: list[str] | None = None) -> tuple[str, int, int, list[types.CompletionItem]]:
    """Open the fixture with `typed` (cursor at `|`) inserted as line `index`; complete there."""
    text = list(lines if lines is not None else fixture_lines(name))
    col = typed.index("|")
    text.insert(index, typed.replace("|", ""))
    uri, _ = await open_session(editor, "\n".join(text) + "\n", stem)
    found = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=position(editor, uri, index, col)))
    items = found.items if isinstance(found, types.CompletionList) else found
    assert items is not None
    return uri, index, col, sorted(items, key=lambda item: item.sort_text or item.label)


def labels(items: list[types.CompletionItem]) -> list[str]:
    return [item.label for item in items]


TAG_VALUES = [
    # (fixture, where, what is typed, the values offered, in order)
    (ELYRA, 12, '{"type":"|"}', ["message", "thinking_level_change", "model_change", "compaction", "branch_summary",
                                  "custom", "custom_message", "label", "session_info", "usage",
                                  "context_edit"]),  # no second header
    (ELYRA, 12, '{"type":"message","message":{"role":"|"}}',
     ["user", "assistant", "toolResult", "bashExecution", "custom", "system"]),  # not hookMessage in v3, nor summaries
    (ELYRA, 12, '{"type":"message","message":{"role":"user","content":[{"type":"|"}]}}',
     ["text", "image"]),  # the blocks a user message may hold
    (ELYRA, 12, '{"type":"message","message":{"role":"assistant","content":[{"type":"|"}]}}',
     ["text", "thinking", "toolCall"]),
    (THNDRS, 12, '{"type":"|"}', THNDRS_TYPES[1:]),  # no second session_meta
    (THNDRS, 12, '{"type":"tool_finished","status":"|"}', ["Cancelled", "Failed", "Ok"]),  # never "Running"
    (THNDRS, 12, '{"type":"file_write","status":"|"}', ["Cancelled", "Failed", "Ok", "Running"]),
]


@pytest.mark.parametrize(("name", "index", "typed", "expected"), TAG_VALUES,
                         ids=[f"{t[0].split('-')[0]}:{t[2]}" for t in TAG_VALUES])
async def test_tag_and_enum_values(shared_editor: Editor, name: str, index: int, typed: str,
                                   expected: list[str]) -> None:
    editor = shared_editor
    uri, line, col, items = await complete_at(editor, name, index, typed)
    assert labels(items) == expected
    for item in items:
        assert item.kind == types.CompletionItemKind.EnumMember
        assert isinstance(item.text_edit, types.TextEdit)
        assert item.text_edit.new_text == json.dumps(item.label)  # the value with its quotes ...
        assert item.text_edit.range == span(editor, uri, line, col - 1, col + 1)  # ... over the empty "" typed


async def test_hook_message_role_is_offered_in_a_v2_file(shared_editor: Editor) -> None:
    lines = fixture_lines(ELYRA)
    lines[0] = lines[0].replace('"version":3', '"version":2')
    _, _, _, items = await complete_at(shared_editor, ELYRA, 12, '{"type":"message","message":{"role":"|"}}',
                                       lines=lines)
    assert labels(items) == ["user", "assistant", "toolResult", "bashExecution", "custom", "hookMessage", "system"]


async def test_tag_values_document_their_required_fields(shared_editor: Editor) -> None:
    _, _, _, items = await complete_at(shared_editor, ELYRA, 12, '{"type":"|"}')
    details = {item.label: item.detail for item in items}
    assert details["label"] == "fields: targetId, timestamp"
    assert details["compaction"] == "fields: summary, tokensBefore, timestamp"


FIELD_NAMES = [
    (ELYRA, '{"type":"label",|}', ["targetId", "timestamp", "id", "parentId", "label"]),
    (ELYRA, '{"type":"label","targetId":"e0000004",|}', ["timestamp", "id", "parentId", "label"]),
    (ELYRA, '{"type":"compaction","id":"abcd0123",|}',
     ["summary", "tokensBefore", "timestamp", "firstKeptEntryId", "parentId", "details", "fromHook", "systemMessage",
      "usage"]),
    (THNDRS, '{"type":"usage",|}', ["schema_version", "seq", "time", "input_tokens", "output_tokens"]),
]


@pytest.mark.parametrize(("name", "typed", "expected"), FIELD_NAMES,
                         ids=[f"{f[0].split('-')[0]}:{f[1]}" for f in FIELD_NAMES])
async def test_field_names_required_first(shared_editor: Editor, name: str, typed: str, expected: list[str]) -> None:
    editor = shared_editor
    capabilities = editor.client.capabilities
    assert capabilities and capabilities.text_document and capabilities.text_document.completion
    item_capabilities = capabilities.text_document.completion.completion_item
    assert item_capabilities is not None and item_capabilities.snippet_support  # both clients take snippets
    uri, line, col, items = await complete_at(editor, name, 12, typed)
    assert labels(items) == expected
    for item in items:
        assert item.kind == types.CompletionItemKind.Field
        assert isinstance(item.text_edit, types.TextEdit)
        assert item.text_edit.range == span(editor, uri, line, col, col)
        assert item.text_edit.new_text.startswith(f'"{item.label}": ')
        assert item.insert_text_format == types.InsertTextFormat.Snippet
    required = {item.label for item in items if item.detail and item.detail.endswith("(required)")}
    assert labels(items)[:len(required)] == [label for label in expected if label in required]
    texts = {item.label: item.text_edit.new_text for item in items if isinstance(item.text_edit, types.TextEdit)}
    if name == ELYRA and "id" in texts:
        assert "id" in required and "parentId" in required  # a v3 entry must carry both
        assert texts["parentId"] == '"parentId": "$1"'


REFERENCE_IDS = [
    # (where the line is written, what is typed, the ids offered, nearest first)
    (12, '{"type":"message","id":"abcd0123","parentId":"|"}', [*ELYRA_IDS[::-1], "null"]),
    (7, '{"type":"message","id":"abcd0123","parentId":"|"}', [*ELYRA_IDS[5::-1], "null"]),
    (12, '{"type":"label","targetId":"|"}', ELYRA_IDS[::-1]),
    (12, '{"type":"branch_summary","fromId":"|"}', [*ELYRA_IDS[::-1], "root"]),
    (12, '{"type":"compaction","firstKeptEntryId":"|"}', ELYRA_IDS[::-1]),
]


@pytest.mark.parametrize(("index", "typed", "expected"), REFERENCE_IDS, ids=[f"{r[1]}@{r[0]}" for r in REFERENCE_IDS])
async def test_reference_fields_offer_the_ids_above(shared_editor: Editor, index: int, typed: str,
                                                    expected: list[str]) -> None:
    editor = shared_editor
    _uri, _line, _col, items = await complete_at(editor, ELYRA, index, typed)
    assert labels(items) == expected
    first = items[0]
    assert first.kind == types.CompletionItemKind.Reference
    above = index - 1
    assert first.detail and first.detail.startswith(f"line {above + 1}: ")
    assert isinstance(first.text_edit, types.TextEdit) and first.text_edit.new_text == f'"{expected[0]}"'


OPEN_CALLS = [
    # (the fixture lines kept, the parent the new result names, the calls offered)
    (3, "e0000002", [("toolu_01", "open read call on line 3")]),  # the call is not answered yet
    (4, "e0000003", []),  # line 3 answered it
    (12, "e000000b", []),
]


@pytest.mark.parametrize(("kept", "parent", "expected"), OPEN_CALLS, ids=[o[1] for o in OPEN_CALLS])
async def test_tool_call_id_offers_the_unanswered_calls(shared_editor: Editor, kept: int, parent: str,
                                                        expected: list[tuple[str, str]]) -> None:
    typed = ('{"type":"message","id":"abcd0123","parentId":"' + parent
             + '","timestamp":"2026-02-01T10:00:20.000Z","message":{"role":"toolResult","toolCallId":"|"}}')
    lines = fixture_lines(ELYRA)[:kept]
    _, _, _, items = await complete_at(shared_editor, ELYRA, kept, typed, lines=lines)
    assert [(item.label, item.detail) for item in items] == expected


THNDRS_REFERENCES = [
    # (where the line is written, what is typed, the values offered)
    (3, '{"type":"tool_finished","turn_id":"turn-1","call_id":"|"}', ["call-1"]),  # started on line 2
    (6, '{"type":"tool_finished","turn_id":"turn-1","call_id":"|"}', []),  # finished on line 5
    (4, '{"type":"acp_permission_outcome","turn_id":"turn-1","tool_call_id":"|"}', ["perm-1"]),
    (5, '{"type":"acp_permission_outcome","turn_id":"turn-1","tool_call_id":"|"}', []),  # resolved on line 4
    (10, '{"type":"tool_finished","turn_id":"|"}', ["turn-2"]),
    (12, '{"type":"user","turn_id":"|"}', ["turn-2", "turn-3"]),  # the current turn, or a new one
]


@pytest.mark.parametrize(("index", "typed", "expected"), THNDRS_REFERENCES,
                         ids=[f"{r[1]}@{r[0]}" for r in THNDRS_REFERENCES])
async def test_thndrs_references_offer_what_is_open(shared_editor: Editor, index: int, typed: str,
                                                    expected: list[str]) -> None:
    _, _, _, items = await complete_at(shared_editor, THNDRS, index, typed)
    assert labels(items) == expected
    assert all(item.kind == types.CompletionItemKind.Reference for item in items)


ELYRA_ENTRY = re.compile(r'\{"type":"message","id":"(?P<id>[0-9a-f]{8})","parentId":"(?P<parent>[0-9a-f]{8})",'
                         r'"timestamp":"(?P<time>[^"]+)","message":\{"role":"user","content":"\$1",'
                         r'"timestamp":(?P<millis>\d+)\}\}')


def now_between(before: datetime, stamp: datetime, after: datetime, resolution: timedelta) -> None:
    assert before - resolution <= stamp <= after, (before, stamp, after)


@pytest.mark.parametrize(("index", "parent"), [(12, "e000000b"), (7, "e0000006"), (2, "e0000001")])
async def test_new_entry_snippet_on_an_empty_line(shared_editor: Editor, index: int, parent: str) -> None:
    editor = shared_editor
    before = datetime.now(UTC)
    uri, line, _, items = await complete_at(editor, ELYRA, index, "|", "session")  # an empty line at `index`
    after = datetime.now(UTC)
    assert labels(items) == [
        "user message entry", "assistant message entry", "toolResult message entry", "bashExecution message entry",
        "custom message entry", "system message entry", "thinking_level_change entry", "model_change entry",
        "compaction entry", "branch_summary entry", "custom entry", "custom_message entry", "label entry",
        "session_info entry", "usage entry", "context_edit entry"]
    user = items[0]
    assert user.kind == types.CompletionItemKind.Snippet
    assert user.insert_text_format == types.InsertTextFormat.Snippet
    assert isinstance(user.text_edit, types.TextEdit)
    assert user.text_edit.range == span(editor, uri, line, 0, 0)
    match = ELYRA_ENTRY.fullmatch(user.text_edit.new_text)
    assert match is not None, user.text_edit.new_text
    assert match["id"] not in ELYRA_IDS  # fresh
    assert match["parent"] == parent  # the entry above
    stamp = datetime.strptime(match["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    now_between(before, stamp, after, timedelta(milliseconds=1))
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    assert int(match["millis"]) == (stamp - epoch) // timedelta(milliseconds=1)  # the same millisecond
    # Every kind of entry gets the same envelope.
    for item in items:
        assert isinstance(item.text_edit, types.TextEdit)
        assert item.text_edit.new_text.startswith("{\"type\":\"")
        assert f'"id":"{match["id"]}","parentId":"{parent}","timestamp":"{match["time"]}"' in item.text_edit.new_text


async def test_tool_result_snippet_answers_the_open_call(shared_editor: Editor) -> None:
    _, _, _, items = await complete_at(shared_editor, ELYRA, 3, "|", "session", lines=fixture_lines(ELYRA)[:3])
    result = next(item for item in items if item.label == "toolResult message entry")
    assert isinstance(result.text_edit, types.TextEdit)
    assert '"parentId":"e0000002"' in result.text_edit.new_text
    assert '"message":{"role":"toolResult","toolCallId":"toolu_01","toolName":"read",' in result.text_edit.new_text


async def test_new_record_snippet_continues_seq_and_turn(shared_editor: Editor) -> None:
    editor = shared_editor
    before = datetime.now(UTC)
    _uri, line, _, items = await complete_at(editor, THNDRS, 12, "|")
    after = datetime.now(UTC)
    assert labels(items) == [f"{kind} record" for kind in THNDRS_TYPES[1:]]  # not a second session_meta
    texts = {item.label: item.text_edit.new_text for item in items if isinstance(item.text_edit, types.TextEdit)}
    user = re.fullmatch(r'\{"type":"user","schema_version":1,"seq":12,"time":"(?P<time>[^"]+)",'
                        r'"turn_id":"turn-3","text":"\$1"\}', texts["user record"])
    assert user is not None, texts["user record"]
    stamp = datetime.strptime(user["time"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    now_between(before, stamp, after, timedelta(seconds=1))
    assert texts["assistant_finished record"] == ('{"type":"assistant_finished","schema_version":1,"seq":12,'
                                                  f'"time":"{user["time"]}","turn_id":"turn-2","text":"$1"}}')
    for item in items:
        assert item.kind == types.CompletionItemKind.Snippet
        assert isinstance(item.text_edit, types.TextEdit) and range_tuple(item.text_edit.range) == (line, 0, line, 0)


async def test_session_meta_snippet_only_where_the_file_has_none(shared_editor: Editor) -> None:
    lines = fixture_lines(THNDRS)[1:]  # the session_meta record is missing
    _, _, _, items = await complete_at(shared_editor, THNDRS, 0, "|", lines=lines)
    assert labels(items) == [f"{kind} record" for kind in THNDRS_TYPES]
    meta = items[0].text_edit
    assert isinstance(meta, types.TextEdit)
    assert meta.new_text.startswith('{"type":"session_meta","schema_version":1,"seq":0,"time":"')


PI_STEM = "2026-03-01T09-00-00-000Z_019dcd91-0000-7000-8000-00000000beef"


@pytest.mark.parametrize(("stem", "label", "named"), [
    (PI_STEM, "Elyra v3 session header", '"id":"019dcd91-0000-7000-8000-00000000beef"'),
    (SESSION_ID, "thndrs session_meta record", f'"session_id":"{SESSION_ID}"'),
    ("5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f", "Claude Code user prompt",
     '"sessionId":"5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f"'),
])
async def test_an_empty_file_is_offered_the_first_line_of_every_format(shared_editor: Editor, stem: str,
                                                                         label: str, named: str) -> None:
    editor = shared_editor
    uri, found = await open_session(editor, "", stem)
    # Claude Code refuses a session file with no conversation ("No conversation found"): said until one is written
    assert [str(d.code) for d in found] == (["CCD050"] if label.startswith("Claude") else [])
    answer = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=position(editor, uri, 0, 0)))
    items = answer.items if isinstance(answer, types.CompletionList) else answer
    offered = labels(sorted(items or [], key=lambda item: item.sort_text or ""))
    if label.startswith("Claude"):  # the name makes it a Claude Code file: its records are offered
        assert offered[0] == label
    else:
        assert offered == ["Elyra v3 session header", "thndrs session_meta record", "Claude Code user prompt"]
    item = next(item for item in items or [] if item.label == label)
    assert isinstance(item.text_edit, types.TextEdit) and item.insert_text_format == types.InsertTextFormat.Snippet
    assert named in item.text_edit.new_text  # the id the file's name gives
    line = re.sub(r"\$\d+", "x", item.text_edit.new_text)  # what a user types into the placeholders
    diagnostics = await editor.replace_all(uri, line + "\n")
    assert [(str(d.code), d.severity) for d in diagnostics
            if d.severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)] == []
    assert editor.text(uri) == line + "\n"


async def test_an_ordinary_json_lines_file_is_offered_nothing(shared_editor: Editor) -> None:
    editor = shared_editor
    uri, _ = await open_session(editor, '{"event":"start"}\n\n', "log")
    answer = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=position(editor, uri, 1, 0)))
    items = answer.items if isinstance(answer, types.CompletionList) else answer
    assert not items
