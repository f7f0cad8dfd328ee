"""A minimal Claude Code session (`session-lsp new`) and the time Claude Code writes: apart from `editing.py`, which
imports the line facts, so that `session-lsp new` loads no more than the session it prints."""

from __future__ import annotations

import uuid as uuids
from datetime import datetime
from typing import Any

import msgspec


def timestamp(now: datetime) -> str:
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def sample(now: datetime) -> list[str]:
    """A minimal session, as Claude Code writes one: a prompt and its answer (for `session-lsp new`); the file's
    name should be `<sessionId>.jsonl`."""
    session, prompt, answer = (str(uuids.uuid4()) for _ in range(3))
    common: dict[str, Any] = {"isSidechain": False, "userType": "external", "cwd": "/home/user/project",
                              "sessionId": session, "version": "2.1.332", "timestamp": timestamp(now)}
    records: list[dict[str, Any]] = [
        {"parentUuid": None, **common, "type": "user", "message": {"role": "user", "content": "Say hello."},
         "uuid": prompt},
        {"parentUuid": prompt, **common, "type": "assistant",
         "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                     "content": [{"type": "text", "text": "Hello."}], "stop_reason": "end_turn",
                     "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 2}},
         "requestId": "req_1", "uuid": answer},
    ]
    return [msgspec.json.encode(record).decode() for record in records]
