"""Small session texts for the server tests, written from the spec (sections 1 and 2)."""

from __future__ import annotations

import json
from typing import Any


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def elyra_entries(user_text: str = "Where is the parser?") -> list[dict[str, Any]]:
    """A clean v3 session: header, a user question, a tool call and its result, an answer."""
    usage = {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15,
             "cost": {"input": 0.1, "output": 0.1, "cacheRead": 0, "cacheWrite": 0, "total": 0.2}}
    return [
        {"type": "session", "version": 3, "id": "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
         "timestamp": "2026-03-01T09:00:00.000Z", "cwd": "/home/dev/project"},
        {"type": "message", "id": "a1b2c3d4", "parentId": None, "timestamp": "2026-03-01T09:00:01.000Z",
         "message": {"role": "user", "content": user_text, "timestamp": 1772355601000}},
        {"type": "message", "id": "b2c3d4e5", "parentId": "a1b2c3d4", "timestamp": "2026-03-01T09:00:02.000Z",
         "message": {"role": "assistant", "content": [
             {"type": "text", "text": "Let me look."},
             {"type": "toolCall", "id": "toolu_01", "name": "bash", "arguments": {"command": "ls src"}}],
             "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage,
             "stopReason": "toolUse", "timestamp": 1772355602000}},
        {"type": "message", "id": "c3d4e5f6", "parentId": "b2c3d4e5", "timestamp": "2026-03-01T09:00:03.000Z",
         "message": {"role": "toolResult", "toolCallId": "toolu_01", "toolName": "bash",
                     "content": [{"type": "text", "text": "parse.ts\n"}], "isError": False,
                     "timestamp": 1772355603000}},
        {"type": "message", "id": "d4e5f6a7", "parentId": "c3d4e5f6", "timestamp": "2026-03-01T09:00:04.000Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "It is in src/parse.ts."}],
                     "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5",
                     "usage": usage, "stopReason": "stop", "timestamp": 1772355604000}},
    ]


def elyra(user_text: str = "Where is the parser?") -> str:
    return "".join(_line(entry) + "\n" for entry in elyra_entries(user_text))


def elyra_lines(user_text: str = "Where is the parser?") -> list[str]:
    return [_line(entry) for entry in elyra_entries(user_text)]


def elyra_broken() -> str:
    """Line 2 (0-based) is cut off mid-value (ELY001), so line 3 loses its parent; line 4's parent names no
    entry (ELY042 on both)."""
    lines = elyra_lines()
    lines[2] = lines[2][:60]
    entries = elyra_entries()
    entries[4]["parentId"] = "ffffffff"
    lines[4] = _line(entries[4])
    return "\n".join(lines) + "\n"


def thndrs_records() -> list[dict[str, Any]]:
    """A clean thndrs 0.1.0 session: meta, one turn with a tool call, the closing answer."""
    envelope = lambda seq, kind: {"type": kind, "schema_version": 1, "seq": seq,  # noqa: E731
                                  "time": f"2026-03-01T09:15:{seq:02d}Z"}
    return [
        {**envelope(0, "session_meta"), "session_id": "session-20260301-091500", "cwd": "/home/dev/project",
         "title": "Fix the parser", "provider": "anthropic", "model": "claude-sonnet-4-5", "websearch": "off",
         "app_version": "0.1.0"},
        {**envelope(1, "user"), "turn_id": "turn_1", "text": "Fix the parser."},
        {**envelope(2, "tool_started"), "turn_id": "turn_1", "call_id": "call_1", "name": "read",
         "arguments": "{\"path\":\"src/parse.rs\"}"},
        {**envelope(3, "tool_finished"), "turn_id": "turn_1", "call_id": "call_1", "status": "Ok",
         "output": ["fn parse() {}"]},
        {**envelope(4, "assistant_finished"), "turn_id": "turn_1", "text": "Done."},
    ]


def thndrs() -> str:
    return "".join(_line(record) + "\n" for record in thndrs_records())


def thndrs_lines() -> list[str]:
    return [_line(record) for record in thndrs_records()]


def thndrs_broken() -> str:
    """Line 2 (0-based) is not JSON (THN001)."""
    lines = thndrs_lines()
    lines[2] = lines[2][:40]
    return "\n".join(lines) + "\n"


SESSIONS = {"elyra": elyra, "thndrs": thndrs}
BROKEN = {"elyra": (elyra_broken, "ELY001"), "thndrs": (thndrs_broken, "THN001")}
