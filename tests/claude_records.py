"""Claude Code records as 2.1.332 writes them, for tests that build a session: one record a content block, a
response's records sharing `message.id`, each tool_result under the record of its own call."""

from __future__ import annotations

import json
from typing import Any

SESSION = "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f"
STAMP = "2026-12-05T08:00:00.000Z"


def _record(kind: str, uuid: str, parent: str | None, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"parentUuid": parent, "isSidechain": False, "type": kind, "message": message, "uuid": uuid,
            "timestamp": STAMP, "sessionId": SESSION, "version": "2.1.332", **extra}


def prompt(uuid: str, parent: str | None, text: str = "go") -> dict[str, Any]:
    return _record("user", uuid, parent, {"role": "user", "content": text})


def assistant(uuid: str, parent: str | None, message_id: str, block: dict[str, Any]) -> dict[str, Any]:
    return _record("assistant", uuid, parent, {
        "id": message_id, "type": "message", "role": "assistant", "model": "claude-opus-5-5", "content": [block],
        "stop_reason": "tool_use" if block["type"] == "tool_use" else "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5}}, requestId=f"req_{message_id}")


def text(value: str = "done") -> dict[str, Any]:
    return {"type": "text", "text": value}


def call(call_id: str, name: str = "Bash") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {"command": "ls"}}


def result(uuid: str, parent: str | None, call_id: str, source: str | None = None) -> dict[str, Any]:
    extra = {"sourceToolAssistantUUID": source or parent} if parent is not None else {}
    return _record("user", uuid, parent, {"role": "user", "content": [
        {"tool_use_id": call_id, "type": "tool_result", "content": "ok", "is_error": False}]},
        toolUseResult={"stdout": "ok", "stderr": "", "interrupted": False}, **extra)


def bookkeeping(prompt_text: str = "go") -> dict[str, Any]:
    """A line outside the conversation (no uuid): the CLI's queue bookkeeping."""
    return {"type": "queue-operation", "operation": "enqueue", "timestamp": STAMP, "sessionId": SESSION,
            "content": prompt_text}


def text_of(values: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(value, separators=(",", ":")) for value in values) + "\n"
