"""The model context per target release: pi 1.6's context_edit, system checkpoint and pi's synthetic results
(what session-manager.js buildSessionProjection and pi-ai transformMessages do; the conformance suite checks the
same against the real releases on pi-written files)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from session_lsp.analysis import Options, analyze
from session_lsp.analysis.features import context

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-12-01T10:00:00.000Z", "cwd": "/p"}


def _file(*entries: dict) -> str:
    lines, parent = [json.dumps(HEADER)], None
    for number, entry in enumerate(entries, 1):
        entry = {"id": f"e{number}", "parentId": parent, "timestamp": "2026-12-01T10:00:00.000Z", **entry}
        parent = entry["id"]
        lines.append(json.dumps(entry))
    return "\n".join(lines) + "\n"


def user(text: str) -> dict:
    return {"type": "message", "message": {"role": "user", "content": text, "timestamp": 1}}


def assistant(text: str, *calls: str) -> dict:
    blocks = [{"type": "text", "text": text}] + [{"type": "toolCall", "id": c, "name": "bash", "arguments": {}}
                                                 for c in calls]
    return {"type": "message", "message": {"role": "assistant", "content": blocks, "stopReason": "stop",
                                           "timestamp": 1}}


def sent(text: str, pi_version: str) -> list[tuple[str, str]]:
    doc = analyze(text, Options(pi_version=pi_version))
    return [(m["role"], m["text"]) for m in context(doc, -1)["messages"]]


@pytest.mark.parametrize("pi_version", ["0.73", "1.6"])
def test_a_path_ending_in_an_unanswered_call_gets_the_synthetic_result(pi_version: str) -> None:
    text = _file(user("go"), assistant("running", "call-1"))
    assert sent(text, pi_version)[-1] == ("toolResult", "[bash result, error, for call-1] No result provided")


def test_context_edits_apply_in_1_6_only() -> None:
    text = _file(user("first"), assistant("answer"), user("second"),
                 {"type": "context_edit", "targetId": "e1", "replacement": None},
                 {"type": "context_edit", "targetId": "e2", "replacement": {"content": "old"}},
                 {"type": "context_edit", "targetId": "e2", "replacement": {"content": "shorter"}})
    assert sent(text, "1.6") == [("assistant", "shorter"), ("user", "second")]
    assert sent(text, "0.73") == [("user", "first"), ("assistant", "answer"), ("user", "second")]


def test_a_replacement_without_content_leaves_the_content_undefined() -> None:
    text = _file(user("first"), {"type": "context_edit", "targetId": "e1", "replacement": "text"})
    doc = analyze(text, Options(pi_version="1.6"))
    [message] = context(doc, -1)["messages"]
    assert message["text"] == "" and "content undefined" in message["note"]


def test_the_compaction_checkpoint_replaces_earlier_system_messages_in_1_6() -> None:
    system: dict[str, Any] = {"type": "message",
                              "message": {"role": "system", "content": "prompt one", "timestamp": 1}}
    checkpoint = {"role": "system", "content": "prompt two", "timestamp": 2}
    text = _file(system, user("kept"), {"type": "message", "message": {**system["message"], "content": "patch"}},
                 {"type": "compaction", "summary": "S", "firstKeptEntryId": "e2", "tokensBefore": 10,
                  "systemMessage": checkpoint}, user("after"))
    roles = sent(text, "1.6")
    assert [role for role, _ in roles] == ["system", "user", "user", "user"]
    assert roles[0][1] == "prompt two" and roles[2] == ("user", "kept")
    assert [role for role, _ in sent(text, "0.73")] == ["user", "user", "user"]


def _versioned(version: str) -> str:
    """A branched tree (e3 re-asks e1) with a hookMessage, under a header whose `version` is written as given."""
    hook = {"type": "message", "message": {"role": "hookMessage", "customType": "hook", "content": "hooked",
                                           "display": True, "timestamp": 1}}
    lines = [json.dumps({**HEADER, "version": 0}).replace('"version": 0', f'"version": {version}')]
    for number, (parent, entry) in enumerate([(None, user("first")), ("e1", assistant("abandoned")),
                                              ("e1", user("again")), ("e3", hook)], 1):
        lines.append(json.dumps({"id": f"e{number}", "parentId": parent, "timestamp": HEADER["timestamp"], **entry}))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("pi_version", ["0.73", "1.6"])
@pytest.mark.parametrize(("version", "expected"), [
    ("3.0", ["first", "again"]),  # read as 3: the tree, and the v3-unknown hookMessage dropped
    ("2.5", ["first", "again", "hooked"]),  # a v2 file: the tree, hookMessage renamed custom
    ("null", ["first", "abandoned", "again", "hooked"]),  # `?? 1`: the v1 migration chains every entry in file order
    ("true", ["first", "abandoned", "again", "hooked"]),
])
def test_the_header_version_is_read_as_pi_compares_it(version: str, expected: list[str], pi_version: str) -> None:
    """Checked against pi 0.73.1 and 1.6.0 (their migrateToCurrentVersion): the same in both."""
    assert [text for _, text in sent(_versioned(version), pi_version)] == expected
