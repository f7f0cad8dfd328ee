"""`sessionLsp/context` for Codex: the input items Codex 0.171.0 sends to the Responses API when it resumes the
rollout (`codex exec resume ID PROMPT`), before the new turn's own items; or the error it stops with. The history is
the model's (`CodexModel.history`: compactions, rollbacks, orphan outputs dropped, calls without output answered
"aborted"); this module only writes each entry as the item Codex sends.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import msgspec

from ..detect import FormatInfo
from ..lines import LineKind, decode
from ..payload_types import CodexContext, CodexItem
from ..text import ellipsized
from . import schema as s
from .model import SUMMARY, CodexModel, Entry

EMPTY = "rollout at {} is empty"
NOT_META = "rollout at {} does not start with session metadata"
INVALID_META = "rollout at {} has invalid session metadata"
NO_ORDINAL = ("failed to resume local thread recorder: final paginated rollout record at {} is missing an ordinal")
INTERNAL = "internal_chat_message_metadata_passthrough"
"""Written on items in the file, never sent."""
ABORTED = "aborted"
SYNTHETIC_NAMESPACE = uuid.UUID(int=0x90D38D3E_6A5B_4D52_BFE2_2F1E634BFAC4)
"""Codex derives a synthetic output's id from its call's id in this UUID v5 namespace (`synthetic_output_id`)."""
_ENCODER = msgspec.json.Encoder()


def refusal(lines: Sequence[str], model: CodexModel | None, path: str | None) -> str | None:
    """The error `codex exec resume` stops with (exit 1, no request), or None when it reads the first line as the
    session metadata it requires."""
    where = path or "<rollout>"
    if model is not None and model.meta is not None:
        return NO_ORDINAL.format(where) if model.unnumbered_end is not None else None
    first = lines[0] if lines else ""
    if not first.strip():
        return EMPTY.format(where) if all(not line.strip() for line in lines) else INVALID_META.format(where)
    decoded = decode(first)
    tag = decoded.value.get("type") if decoded.kind is LineKind.OBJECT else None
    if isinstance(tag, str) and tag in s.PAYLOADS and tag != "session_meta":
        return NOT_META.format(where)
    return INVALID_META.format(where)


def context(info: FormatInfo, lines: Sequence[str], model: CodexModel | None, path: str | None) -> CodexContext:
    refused = refusal(lines, model, path)
    if refused is not None or model is None:
        return CodexContext(info.kind.value, info.version, info.label, None, refused, [])
    payloads: dict[int, dict[str, Any]] = {}
    out = [_item(entry, model, lines, payloads) for entry in model.history]
    leaf = model.records[-1].line if model.records else None
    return CodexContext(info.kind.value, info.version, info.label, leaf, None, out)


def _payload(model: CodexModel, lines: Sequence[str], index: int,
             payloads: dict[int, dict[str, Any]]) -> dict[str, Any]:
    found = payloads.get(index)
    if found is None:
        decoded = decode(lines[model.records[index].line])
        value = decoded.value.get("payload") if decoded.kind is LineKind.OBJECT else None
        found = value if isinstance(value, dict) else {}
        payloads[index] = found
    return found


def _item(entry: Entry, model: CodexModel, lines: Sequence[str], payloads: dict[int, dict[str, Any]]) -> CodexItem:
    record = model.records[entry.record]
    payload = _payload(model, lines, entry.record, payloads)
    note = ""
    if entry.position == SUMMARY:
        item: dict[str, Any] = {"type": "message", "role": "user",
                                "content": [{"type": "input_text", "text": str(payload.get("message", ""))}]}
        note = "the compaction's summary"
    elif entry.position >= 0:
        history = payload.get("replacement_history")
        value = history[entry.position] if isinstance(history, list) and entry.position < len(history) else {}
        item = value if isinstance(value, dict) else {}
        note = "from the compaction's replacement_history"
    else:
        item = payload
    item = _as_sent(item)
    if entry.synthetic:
        item = aborted_output(item)
        note = "synthetic: the call has no output, Codex answers it \"aborted\""
    return CodexItem(_role(item), _text(item), record.line, note, msgspec.Raw(_ENCODER.encode(item)))


def _as_sent(item: dict[str, Any]) -> dict[str, Any]:
    """The item as Codex serialises it into the request: its internal metadata left out, a kind it does not know
    as `Other`, the fields serde writes whether or not the file had them."""
    kind = item.get("type")
    if not isinstance(kind, str) or kind not in s.ITEM_KINDS:
        return {"type": "other"}
    out = {key: value for key, value in item.items() if key != INTERNAL}
    if kind == "reasoning":
        out.setdefault("encrypted_content", None)
    if kind in s.OUTPUTS and out.get("call_id") is None:
        out.pop("call_id", None)
    return out


def aborted_output(call: dict[str, Any]) -> dict[str, Any]:
    """The output Codex's `ensure_call_outputs_present` inserts after a call without one."""
    kind = "custom_tool_call_output" if call.get("type") == "custom_tool_call" else "function_call_output"
    prefix = "ctco" if kind == "custom_tool_call_output" else "fco"
    out: dict[str, Any] = {"type": kind}
    source = call.get("id")
    if isinstance(source, str) and source:
        out["id"] = f"{prefix}_{uuid.uuid5(SYNTHETIC_NAMESPACE, f'{prefix}:{source}')}"
    out["call_id"] = call.get("call_id")
    out["output"] = ABORTED
    return out


def _role(item: dict[str, Any]) -> str:
    role = item.get("role")
    if item.get("type") == "message" and isinstance(role, str):
        return role
    kind = item.get("type")
    return kind if isinstance(kind, str) else "item"


def _text(item: dict[str, Any]) -> str:
    kind = item.get("type")
    if kind == "message":
        content = item.get("content")
        texts = [str(c["text"]) for c in content if isinstance(c, dict) and isinstance(c.get("text"), str)] \
            if isinstance(content, list) else []
        return "\n".join(texts)
    if kind in ("function_call", "custom_tool_call"):
        body = item.get("arguments") if kind == "function_call" else item.get("input")
        return f"{item.get('name')} call {item.get('call_id')}: {ellipsized(str(body), 200)}"
    if kind in ("function_call_output", "custom_tool_call_output"):
        output = item.get("output")
        return f"output of {item.get('call_id')}: {ellipsized(output if isinstance(output, str) else str(output), 200)}"
    if kind == "reasoning":
        summary = item.get("summary")
        texts = [str(c["text"]) for c in summary if isinstance(c, dict) and isinstance(c.get("text"), str)] \
            if isinstance(summary, list) else []
        return "reasoning: " + " ".join(texts)
    return str(kind)
