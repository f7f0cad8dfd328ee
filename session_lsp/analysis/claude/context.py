"""`sessionLsp/context` for Claude Code: the messages Claude Code 2.1.332 sends to the API when it resumes the file
(`claude -p PROMPT --resume ID`), before the new prompt, rebuilt from the chain `model` walks; or the error it stops
with. The rules are those the real CLI was seen to follow (tests/conformance compares them with its requests):

- records of one API response (one `message.id`) go out as one assistant message, their blocks in file order;
- consecutive user-role records (prompts, tool results, attachments rendered as user text) are one user message;
- a tool_use without its tool_result on the chain, and a tool_result without its tool_use, are dropped; a user
  message left with nothing is sent as "(no content)";
- a chain cut by a null `parentUuid` above a tool result gets "[Orphaned tool result removed due to conversation
  resume]" in its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..detect import FormatInfo
from ..lines import LineKind, decode, split_glued
from ..payload_types import ClaudeContext, ClaudeMessage
from ..text import ellipsized
from .model import ClaudeModel, Record

NO_CONVERSATION = "No conversation found with session ID: {}"
NO_CONTENT = "(no content)"
ORPHANED = "[Orphaned tool result removed due to conversation resume]"
_ENCODER = msgspec.json.Encoder()


class _Message:
    __slots__ = ("content", "line", "message_id", "notes", "role")

    def __init__(self, role: str, line: int | None, message_id: str | None = None) -> None:
        self.role = role
        self.line = line
        self.message_id = message_id
        self.content: list[Any] = []
        self.notes: list[str] = []


def _object(lines: Sequence[str], record: Record) -> dict[str, Any] | None:
    text = lines[record.line]
    decoded = decode(text)
    if decoded.kind is LineKind.GLUED:
        decoded = decode(split_glued(text, decoded.parts)[record.part])
    return decoded.value if decoded.kind is LineKind.OBJECT else None


def _blocks(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content if isinstance(block, dict)] if isinstance(content, list) else []


def context(info: FormatInfo, lines: Sequence[str], model: ClaudeModel | None, line: int,
            session: str | None = None) -> ClaudeContext:
    if model is None or model.leaf is None:
        return ClaudeContext(info.kind.value, info.version, info.label, None,
                             NO_CONVERSATION.format(session or "<id>"), [])
    messages = _messages(lines, model)
    leaf = model.records[model.leaf].line
    out = [ClaudeMessage(m.role, _display(m.content), m.line, "; ".join(m.notes),
                         msgspec.Raw(_ENCODER.encode(m.content))) for m in messages]
    return ClaudeContext(info.kind.value, info.version, info.label, leaf, None, out)


def _messages(lines: Sequence[str], model: ClaudeModel) -> list[_Message]:
    records = [model.records[i] for i in model.chain]
    objects = [_object(lines, r) for r in records]
    calls: set[str] = set()
    answered: set[str] = set()
    for obj in objects:
        for block in _blocks((obj or {}).get("message", {}).get("content") if isinstance(obj, dict) else None):
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                calls.add(block["id"])
            elif block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                answered.add(block["tool_use_id"])
    out: list[_Message] = []
    for record, obj in zip(records, objects, strict=True):
        if obj is None:
            continue
        tag = obj.get("type")
        found = obj.get("message")
        message: dict[str, Any] = found if isinstance(found, dict) else {}
        if tag == "assistant":
            blocks = [b for b in _blocks(message.get("content"))
                      if b.get("type") != "tool_use" or b.get("id") in answered]
            message_id = message.get("id")
            last = out[-1] if out else None
            if last is not None and last.role == "assistant" and message_id is not None \
                    and last.message_id == message_id:
                last.content.extend(blocks)
            else:
                current = _Message("assistant", record.line, message_id)
                current.content.extend(blocks)
                out.append(current)
        elif tag == "user":
            blocks = _blocks(message.get("content"))
            kept = [b for b in blocks if b.get("type") != "tool_result" or b.get("tool_use_id") in calls]
            _user(out, record.line, kept, "tool results dropped" if len(kept) < len(blocks) else "")
        elif tag == "attachment":
            rendered = obj.get("rendered")
            if not isinstance(rendered, list) or not rendered:
                continue
            role = obj.get("renderedRole") if obj.get("renderedRole") in ("user", "system") else "user"
            texts = [{"type": "text", "text": part["content"]} for part in rendered
                     if isinstance(part, dict) and isinstance(part.get("content"), str)]
            if role == "system":
                current = _Message("system", record.line)
                current.content.extend(texts)
                out.append(current)
            else:
                _user(out, record.line, texts, "")
    for m in out:
        if not m.content:
            m.content.append({"type": "text", "text": NO_CONTENT})
            m.notes.append("left empty: sent as '(no content)'")
    return out


def _user(out: list[_Message], line: int, blocks: list[Any], note: str) -> None:
    last = out[-1] if out else None
    if last is None or last.role != "user":
        last = _Message("user", line)
        out.append(last)
    last.content.extend(blocks)
    if note:
        last.notes.append(note)


def _display(content: list[Any]) -> str:
    parts: list[str] = []
    for block in content:
        kind = block.get("type")
        if kind == "text":
            parts.append(str(block.get("text", "")))
        elif kind == "thinking":
            parts.append(f"[thinking] {ellipsized(str(block.get('thinking', '')), 200)}")
        elif kind == "tool_use":
            parts.append(f"[call {block.get('name')} {block.get('id')}]")
        elif kind == "tool_result":
            parts.append(f"[result of {block.get('tool_use_id')}]")
        else:
            parts.append(f"[{kind}]")
    return "\n".join(parts)
