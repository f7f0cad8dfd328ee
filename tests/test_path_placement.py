"""Path rules say where their line is when pi does not resume through it: on an abandoned branch or compacted away
(the severity stays; only the message tells the user it matters once they navigate there)."""

from __future__ import annotations

import json

from session_lsp.analysis import Options, analyze

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-12-01T10:00:00.000Z", "cwd": "/p"}
STAMP = "2026-12-01T10:00:00.000Z"


def _entry(entry_id: str, parent: str | None, **fields: object) -> str:
    return json.dumps({"id": entry_id, "parentId": parent, "timestamp": STAMP, **fields})


def _orphan(entry_id: str, parent: str) -> str:
    return _entry(entry_id, parent, type="message", message={
        "role": "toolResult", "toolCallId": "nowhere", "toolName": "bash", "content": [], "isError": False,
        "timestamp": 1})


def _user(entry_id: str, parent: str | None) -> str:
    return _entry(entry_id, parent, type="message", message={"role": "user", "content": "hi", "timestamp": 1})


def _orphan_message(*lines: str) -> str:
    doc = analyze("\n".join([json.dumps(HEADER), *lines]) + "\n", Options())
    [found] = [d for d in doc.diagnostics() if d.code == "ELY070"]
    assert found.severity.label == "error"
    return found.message


def test_on_the_active_path_no_clause() -> None:
    assert not _orphan_message(_user("e1", None), _orphan("e2", "e1")).endswith(")")


def test_on_an_abandoned_branch() -> None:
    message = _orphan_message(_user("e1", None), _orphan("e2", "e1"), _user("e3", "e1"))
    assert message.endswith("(on an abandoned branch: this matters only if you navigate there)")


def test_compacted_away() -> None:
    compaction = _entry("e4", "e3", type="compaction", summary="s", firstKeptEntryId="e3", tokensBefore=1)
    message = _orphan_message(_user("e1", None), _orphan("e2", "e1"), _user("e3", "e2"), compaction)
    assert "compacted away on the active path" in message
