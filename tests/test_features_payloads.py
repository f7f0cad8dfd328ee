"""Payloads of sessionLsp/tree and sessionLsp/context: JSON-able, exact."""

from __future__ import annotations

import json
from pathlib import Path

from session_lsp.analysis import Document, analyze
from session_lsp.analysis.features import context, tree

FIXTURES = Path(__file__).parent / "fixtures" / "features"


def load(name: str) -> Document:
    return analyze((FIXTURES / name).read_text(encoding="utf-8"))


def test_elyra_tree() -> None:
    doc = load("elyra-branched.jsonl")
    payload = tree(doc)
    assert json.loads(json.dumps(payload)) == payload
    assert {key: payload[key] for key in ("format", "version", "label", "entry_count", "header_line", "leaf",
                                          "active_path", "roots", "session_name")} == {
        "format": "elyra", "version": 3, "label": "Elyra v3", "entry_count": 9, "header_line": 0, "leaf": 9,
        "active_path": [1, 2, 3, 4, 7, 8, 9], "roots": [1], "session_name": None,
    }
    nodes = {node["line"]: node for node in payload["nodes"]}
    assert sorted(nodes) == list(range(1, 10))
    assert nodes[4] == {"id": "aaaa0004", "line": 4, "type": "message", "role": "assistant",
                        "title": "assistant: There is a.txt.", "label": "checkpoint", "parent": 3,
                        "children": [7, 5], "on_active_path": True, "is_leaf": False}
    assert nodes[9]["is_leaf"] and nodes[9]["children"] == []
    assert not nodes[6]["on_active_path"]
    assert nodes[8]["type"] == "label" and nodes[8]["role"] is None


def test_thndrs_tree() -> None:
    payload = tree(load("thndrs-session.jsonl"))
    assert json.loads(json.dumps(payload)) == payload
    assert payload["format"] == "thndrs" and payload["entry_count"] == 9
    assert payload["session_id"] == "session-20260101-100000" and payload["title"] == "demo"
    kinds = [(node["kind"], node.get("id"), node["line"]) for node in payload["nodes"]]
    assert kinds == [("record", None, 0), ("turn", "turn-1", 1), ("turn", "turn-2", 6)]
    turn = payload["nodes"][1]
    assert turn["settled"] is True
    assert [record["line"] for record in turn["records"]] == [1, 2, 3, 4, 5]
    assert turn["records"][2] == {"line": 3, "type": "usage", "title": "usage 10 in / 5 out"}
    assert payload["nodes"][2]["settled"] is False


def test_elyra_context_from_a_line() -> None:
    doc = load("elyra-branched.jsonl")
    payload = context(doc, 6)
    assert payload["leaf"] == 6
    assert [(m["role"], m["line"]) for m in payload["messages"]] == [
        ("user", 1), ("assistant", 2), ("toolResult", 3), ("assistant", 4), ("user", 5), ("assistant", 6)]
    assert payload["messages"][4]["text"] == "Branch one question"
    assert context(doc, 0)["leaf"] == 9  # the header is not an entry: the file's leaf


def test_thndrs_context_is_the_turn() -> None:
    doc = load("thndrs-session.jsonl")
    assert context(doc, 0) == {"format": "thndrs", "version": 1, "label": "thndrs", "turn_id": None, "messages": []}
    assert context(doc, 3) == context(doc, 4)  # a usage record inside the turn
    assert context(doc, 4)["turn_id"] == "turn-1"
    assert context(doc, 4)["messages"] == [
        {"role": "user", "text": "List the files\nplease", "line": 1},
        {"role": "assistant", "text": "There is a.txt", "line": 5},
    ]


def test_other_files() -> None:
    doc = analyze('{"a": 1}\n')
    assert tree(doc) == {"format": "unknown", "version": None, "label": "not a session", "entry_count": 0,
                         "nodes": []}
    assert context(doc, 0) == {"format": "unknown", "version": None, "label": "not a session", "turn_id": None,
                               "messages": []}


_HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2026-12-04T06:47:00.712Z","cwd":"/p"}'


def _entry(entry_id: str, parent: str | None, text: str, role: str = "user") -> str:
    message = {"role": role, "content": text, "timestamp": 1} if role == "user" else {
        "role": "assistant", "content": [{"type": "text", "text": text}], "api": "a", "provider": "p", "model": "m",
        "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                  "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
        "stopReason": "stop", "timestamp": 2}
    return json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                       "timestamp": "2026-12-04T06:47:01.000Z", "message": message}, separators=(",", ":"))


def test_a_context_cut_short_at_a_missing_parent_says_so_and_the_tree_marks_the_orphan() -> None:
    doc = analyze("\n".join([_HEADER, _entry("aaaa0001", None, "first"), _entry("aaaa0002", "gone0000", "later"),
                             _entry("aaaa0003", "aaaa0002", "reply", "assistant")]) + "\n")
    payload = context(doc, 3)
    assert [message["line"] for message in payload["messages"]] == [2, 3]
    assert payload["cut_short"].startswith("pi's walk from the leaf stops at the entry on line 3: its parentId "
                                           "'gone0000' names no entry in this file")
    nodes = {node["line"]: node for node in tree(doc)["nodes"]}
    assert nodes[2]["orphan"] == "its parentId 'gone0000' names no entry in this file"
    assert "orphan" not in nodes[1] and "orphan" not in nodes[3]  # a null root and a child: nothing to say
    whole = context(doc, 1)
    assert "cut_short" not in whole


def test_escaped_lone_surrogates_reach_the_context_as_pi_sends_them() -> None:
    """JSON.parse reads `\\ud800`; pi sends the message (and answers no call that was answered)."""
    call = json.loads(_entry("aaaa0002", "aaaa0001", "x", "assistant"))
    call["message"]["content"] = [{"type": "toolCall", "id": "t1", "name": "bash", "arguments": {}}]
    call["message"]["stopReason"] = "toolUse"
    result = {"type": "message", "id": "aaaa0003", "parentId": "aaaa0002", "timestamp": "2026-12-04T06:47:01.000Z",
              "message": {"role": "toolResult", "toolCallId": "t1", "toolName": "bash",
                          "content": [{"type": "text", "text": "out SURROGATE"}], "isError": False, "timestamp": 3}}
    lines = [_HEADER, _entry("aaaa0001", None, "hi SURROGATE"), json.dumps(call, separators=(",", ":")),
             json.dumps(result, separators=(",", ":"))]
    doc = analyze("\n".join(lines).replace("SURROGATE", "\\ud800") + "\n")
    payload = context(doc, 3)
    assert [(m["role"], m["line"]) for m in payload["messages"]] == [("user", 1), ("assistant", 2), ("toolResult", 3)]
    assert payload["messages"][0]["text"] == "hi \ufffd"
    assert not [d for d in doc.diagnostics() if d.severity <= 2]
