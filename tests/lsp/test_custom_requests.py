"""The server's own requests `sessionLsp/tree` (the structure a tree view draws) and `sessionLsp/context` (what
the agent sends from a leaf: for Elyra, pi's buildSessionContext with the compaction and the branch summary
applied as spec §1.9 says; for thndrs, the texts of a turn).

`elyra-compacted.jsonl` (0-based): 1-4 trunk (2 calls `read`, 3 answers it), 4 branch point; 5-6 abandoned;
7 branch_summary (fromId 6), 8 user, 9 label on 4, 10 compaction keeping from 7, 11 the leaf.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from lsp_features import ELYRA, THNDRS, fixture_lines, fixture_text, open_session, plain
from lsp_harness import Editor
from pygls.exceptions import JsonRpcException

pytestmark = pytest.mark.asyncio(loop_scope="module")

SESSION_ID = "session-20260201-110000"
TREE = "sessionLsp/tree"
CONTEXT = "sessionLsp/context"

COMPACTED = ("The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
             "Planned the refactor; A failed.\n</summary>")
BRANCH_SUMMARY = ("The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
                  "Approach A failed on imports.</summary>")
TRUNK = [
    {"role": "user", "text": "Plan the refactor\nin two steps", "line": 1, "note": ""},
    {"role": "assistant", "text": 'Reading first.\n[tool call read toolu_01] {"path":"a.py"}', "line": 2, "note": ""},
    {"role": "toolResult", "text": "[read result for toolu_01] def a(): pass", "line": 3, "note": ""},
    {"role": "assistant", "text": "Step one is done.", "line": 4, "note": ""},
]
AFTER_COMPACTION = [
    {"role": "user", "text": COMPACTED, "line": 10,
     "note": "compaction summary (replaces 12,345 tokens of earlier history)"},
    {"role": "user", "text": BRANCH_SUMMARY, "line": 7, "note": "kept by the compaction; branch summary"},
    {"role": "user", "text": "Try approach B", "line": 8, "note": "kept by the compaction"},
]
ANSWER = {"role": "assistant", "text": "Approach B works.", "line": 11, "note": ""}


async def request(editor: Editor, method: str, params: dict[str, Any]) -> Any:
    return plain(await editor.client.protocol.send_request_async(method, params))


def node(line: int, kind: str, role: str | None, title: str, parent: int | None, children: list[int],
         active: bool, label: str | None = None) -> dict[str, Any]:
    return {"id": f"e{line:07x}", "line": line, "type": kind, "role": role, "title": title, "label": label,
            "parent": parent, "children": children, "on_active_path": active, "is_leaf": line == 11}


async def test_elyra_tree(shared_editor: Editor) -> None:
    uri, _ = await open_session(shared_editor, fixture_text(ELYRA))
    assert await request(shared_editor, TREE, {"textDocument": {"uri": uri}}) == {
        "format": "elyra", "version": 3, "label": "Elyra v3", "entry_count": 11, "header_line": 0, "leaf": 11,
        "active_path": [1, 2, 3, 4, 7, 8, 9, 10, 11], "roots": [1], "session_name": None,
        "nodes": [
            node(1, "message", "user", "user: Plan the refactor in two steps", None, [2], True),
            node(2, "message", "assistant", "assistant → read", 1, [3], True),
            node(3, "message", "toolResult", "toolResult read", 2, [4], True),
            node(4, "message", "assistant", "assistant: Step one is done.", 3, [7, 5], True, label="step-one"),
            node(5, "message", "user", "user: Try approach A", 4, [6], False),
            node(6, "message", "assistant", "assistant: Approach A fails.", 5, [], False),
            node(7, "branch_summary", None, "branch_summary: Approach A failed on imports.", 4, [8], True),
            node(8, "message", "user", "user: Try approach B", 7, [9], True),
            node(9, "label", None, 'label "step-one"', 8, [10], True),
            node(10, "compaction", None, "compaction (12,345 tokens)", 9, [11], True),
            node(11, "message", "assistant", "assistant: Approach B works.", 10, [], True),
        ],
    }


async def test_thndrs_tree(shared_editor: Editor) -> None:
    uri, _ = await open_session(shared_editor, fixture_text(THNDRS), SESSION_ID)

    def record(line: int, kind: str, title: str) -> dict[str, Any]:
        return {"line": line, "type": kind, "title": title}

    assert await request(shared_editor, TREE, {"textDocument": {"uri": uri}}) == {
        "format": "thndrs", "version": 1, "label": "thndrs", "entry_count": 12, "session_id": SESSION_ID,
        "title": "perms",
        "nodes": [
            {"kind": "record", **record(0, "session_meta", "session_meta: perms")},
            {"kind": "turn", "id": "turn-1", "line": 1, "title": "user: List the files please", "settled": True,
             "records": [record(1, "user", "user: List the files please"),
                         record(2, "tool_started", "tool_started bash #call-1"),
                         record(3, "acp_permission_request", "acp_permission_request: Run ls?"),
                         record(4, "acp_permission_outcome", "acp_permission_outcome allow once"),
                         record(5, "tool_finished", "tool_finished Ok #call-1"),
                         record(6, "usage", "usage 10 in / 5 out"),
                         record(7, "assistant_finished", "assistant: There is a.txt")]},
            {"kind": "turn", "id": "turn-2", "line": 8, "title": "user: Delete it", "settled": True,
             "records": [record(8, "user", "user: Delete it"),
                         record(9, "tool_started", "tool_started bash #call-2"),
                         record(10, "tool_finished", "tool_finished Failed #call-2"),
                         record(11, "assistant_finished", "assistant: Could not delete it.")]},
        ],
    }


CONTEXTS = [
    # (the line asked for (or a position), the leaf used, the messages pi sends from there)
    ({"line": 11}, 11, [*AFTER_COMPACTION, ANSWER]),  # the compaction's summary first, then what it keeps
    ({"position": {"line": 11, "character": 3}}, 11, [*AFTER_COMPACTION, ANSWER]),
    ({"line": 0}, 11, [*AFTER_COMPACTION, ANSWER]),  # the header is no entry: the file's leaf
    ({"line": 10}, 10, AFTER_COMPACTION),  # the compaction itself as the leaf: nothing after it
    ({"line": 8}, 8, [*TRUNK, {"role": "user", "text": BRANCH_SUMMARY, "line": 7, "note": "branch summary"},
                      {"role": "user", "text": "Try approach B", "line": 8, "note": ""}]),  # no compaction yet
    ({"line": 6}, 6, [*TRUNK, {"role": "user", "text": "Try approach A", "line": 5, "note": ""},
                      {"role": "assistant", "text": "Approach A fails.", "line": 6, "note": ""}]),  # abandoned
    ({"line": 9}, 9, [*TRUNK, {"role": "user", "text": BRANCH_SUMMARY, "line": 7, "note": "branch summary"},
                      {"role": "user", "text": "Try approach B", "line": 8, "note": ""}]),  # a label sends nothing
]


@pytest.mark.parametrize(("where", "leaf", "messages"), CONTEXTS, ids=[json.dumps(c[0]) for c in CONTEXTS])
async def test_elyra_context_from_a_leaf(shared_editor: Editor, where: dict[str, Any], leaf: int,
                                         messages: list[dict[str, Any]]) -> None:
    uri, _ = await open_session(shared_editor, fixture_text(ELYRA))
    found = await request(shared_editor, CONTEXT, {"textDocument": {"uri": uri}, **where})
    assert found == {"format": "elyra", "version": 3, "label": "Elyra v3", "leaf": leaf, "messages": messages}


def variant(line: int | None = None, old: str = "", new: str = "", extra: list[str] | None = None) -> str:
    """The Elyra fixture with `old` replaced by `new` on `line`, and `extra` lines appended."""
    lines = fixture_lines(ELYRA)
    if line is not None:
        assert old in lines[line]
        lines[line] = lines[line].replace(old, new)
    return "\n".join(lines + (extra or [])) + "\n"


SECOND_COMPACTION = [
    '{"type":"compaction","id":"e000000c","parentId":"e000000b","timestamp":"2026-02-01T10:00:12.000Z",'
    '"summary":"All of it.","firstKeptEntryId":"e000000b","tokensBefore":99}',
    '{"type":"message","id":"e000000d","parentId":"e000000c","timestamp":"2026-02-01T10:00:13.000Z",'
    '"message":{"role":"user","content":"Next","timestamp":1769940013000}}',
]

VARIANTS = [
    # (the text, the messages from its leaf)
    # firstKeptEntryId names an entry that is not on the compaction's path: nothing before it is kept.
    (variant(10, '"firstKeptEntryId":"e0000007"', '"firstKeptEntryId":"e0000006"'),
     [AFTER_COMPACTION[0], ANSWER]),
    # It names the user entry after the branch summary: the summary is no longer kept.
    (variant(10, '"firstKeptEntryId":"e0000007"', '"firstKeptEntryId":"e0000008"'),
     [AFTER_COMPACTION[0], AFTER_COMPACTION[2], ANSWER]),
    # A later compaction on the path supersedes the first, which contributes nothing.
    (variant(extra=SECOND_COMPACTION),
     [{"role": "user", "text": COMPACTED.replace("Planned the refactor; A failed.", "All of it."), "line": 12,
       "note": "compaction summary (replaces 99 tokens of earlier history)"},
      {**ANSWER, "note": "kept by the compaction"},
      {"role": "user", "text": "Next", "line": 13, "note": ""}]),
]


@pytest.mark.parametrize(("text", "messages"), VARIANTS, ids=["kept-not-on-path", "kept-after-summary",
                                                               "superseded"])
async def test_elyra_context_follows_the_last_compaction(shared_editor: Editor, text: str,
                                                         messages: list[dict[str, Any]]) -> None:
    uri, _ = await open_session(shared_editor, text)
    found = await request(shared_editor, CONTEXT, {"textDocument": {"uri": uri}, "line": 0})
    assert found["messages"] == messages


async def test_empty_branch_summary_is_skipped(shared_editor: Editor) -> None:
    uri, _ = await open_session(shared_editor, variant(7, '"summary":"Approach A failed on imports."',
                                                       '"summary":""'))
    found = await request(shared_editor, CONTEXT, {"textDocument": {"uri": uri}, "line": 8})
    assert found["messages"] == [*TRUNK, {"role": "user", "text": "Try approach B", "line": 8, "note": ""}]


@pytest.mark.parametrize(("line", "turn", "messages"), [
    (5, "turn-1", [{"role": "user", "text": "List the files\nplease", "line": 1},
                   {"role": "assistant", "text": "There is a.txt", "line": 7}]),
    (6, "turn-1", [{"role": "user", "text": "List the files\nplease", "line": 1},
                   {"role": "assistant", "text": "There is a.txt", "line": 7}]),  # usage: inside turn-1's lines
    (9, "turn-2", [{"role": "user", "text": "Delete it", "line": 8},
                   {"role": "assistant", "text": "Could not delete it.", "line": 11}]),
    (0, None, []),  # session_meta belongs to no turn
])
async def test_thndrs_context_is_the_turn(shared_editor: Editor, line: int, turn: str | None,
                                          messages: list[dict[str, Any]]) -> None:
    uri, _ = await open_session(shared_editor, fixture_text(THNDRS), SESSION_ID)
    found = await request(shared_editor, CONTEXT, {"textDocument": {"uri": uri}, "line": line})
    assert found == {"format": "thndrs", "version": 1, "label": "thndrs", "turn_id": turn, "messages": messages}


@pytest.mark.parametrize(("method", "params"), [
    (CONTEXT, {"textDocument": {"uri": "file:///x.jsonl"}}),  # no line
    (CONTEXT, {"textDocument": {"uri": "file:///x.jsonl"}, "line": "3"}),
    (TREE, {"uri": "file:///x.jsonl"}),
])
async def test_bad_params_are_invalid_params(shared_editor: Editor, method: str, params: dict[str, Any]) -> None:
    with pytest.raises(JsonRpcException) as raised:
        await request(shared_editor, method, params)
    assert raised.value.code == -32602


async def test_a_document_that_is_not_open_has_no_tree(shared_editor: Editor) -> None:
    assert await request(shared_editor, TREE, {"textDocument": {"uri": "file:///work/sessions/closed.jsonl"}}) is None
    assert await request(shared_editor, CONTEXT, {"textDocument": {"uri": "file:///work/sessions/closed.jsonl"},
                                                  "line": 1}) is None


async def test_claude_context_is_for_a_resume_at_the_time_of_the_request(shared_editor: Editor) -> None:
    """The server analysed the file once, at its open; what Claude Code does with a turn an API error ended
    depends on the error's age when it resumes, so each request predicts a resume at the time it is asked, as
    `session-lsp context` does: the error a minute old gets the interrupted-call result, the case's (written long
    ago) has its response left out."""
    case = Path(__file__).resolve().parent.parent / "cases" / "claude" / "CCD031-api-error-after-open-call.jsonl"
    old = case.read_text(encoding="utf-8")
    recent = (datetime.now(UTC) - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:0")
    for text, interrupted in ((old, False), (old.replace("2026-12-05T08:00:0", recent), True)):
        uri, _ = await open_session(shared_editor, text, "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f")
        found = await request(shared_editor, CONTEXT, {"textDocument": {"uri": uri}, "line": len(text.splitlines())})
        assert found["format"] == "claude"
        assert ("[Tool call interrupted" in json.dumps(found["messages"])) is interrupted
        assert len(found["messages"]) == (7 if interrupted else 4)
