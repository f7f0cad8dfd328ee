"""A minimal thndrs session (`session-lsp new`) and the time thndrs writes: apart from `editing.py`, which imports the
model, so that `session-lsp new` loads no more than the session it prints."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec


def timestamp(now: datetime) -> str:
    """The only form thndrs writes: UTC, second precision."""
    return now.strftime("%Y-%m-%dT%H:%M:%SZ")


def sample(now: datetime) -> list[str]:
    """A minimal session, as thndrs writes one: its `session_meta`, a prompt and the answer (for `session-lsp
    new`); the file's name should be `<session_id>.jsonl`."""
    base: dict[str, Any] = {"schema_version": 1, "time": timestamp(now)}
    records: list[dict[str, Any]] = [
        {"type": "session_meta", **base, "seq": 0, "session_id": now.strftime("session-%Y%m%d-%H%M%S"),
         "cwd": "/home/user/project", "title": "Say hello", "provider": "anthropic", "model": "claude-sonnet-4-5",
         "websearch": "off", "app_version": "0.1.0"},
        {"type": "user", **base, "seq": 1, "turn_id": "turn-1", "text": "Say hello."},
        {"type": "assistant_finished", **base, "seq": 2, "turn_id": "turn-1", "text": "Hello."},
    ]
    return [msgspec.json.encode(record).decode() for record in records]
