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
