"""What pi sends to the model from a leaf: `buildSessionContext`, `convertToLlm` and the tool-result repair of
`transformMessages`, replayed over the lines of one path (spec §1.9, §1.7.8).

1. The path from the leaf up to its root (cycle-safe; pi itself would hang on a loop).
2. The last compaction on the path: its summary first, then the entries before it starting at the one its
   firstKeptEntryId names (nothing if that is not on the path), then everything after it. Without one, every
   entry. `message` entries give their message, `custom_message` entries a `custom` message, `branch_summary`
   entries with a non-empty summary a `branchSummary`.
3. `convertToLlm`: bashExecution (unless excludeFromContext), custom, branchSummary and compactionSummary become
   user messages; user, assistant and toolResult pass; any other role is dropped.
4. `transformMessages`: assistant messages with stopReason error/aborted are dropped, and before the next
   assistant or user message every call of the previous assistant message that got no result is answered by a
   synthetic error result "No result provided".

The lines on the path are decoded again here (generic msgspec decode: the line pass keeps no text). No I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..lines import too_deep
from .model import ElyraModel

COMPACTION_SUMMARY_PREFIX = ("The conversation history before this point was compacted into the following "
                             "summary:\n\n<summary>\n")
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
BRANCH_SUMMARY_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
BRANCH_SUMMARY_SUFFIX = "</summary>"
NO_RESULT = "No result provided"
FAILED_STOPS = frozenset({"error", "aborted"})
_MESSAGE_ENTRIES = frozenset({"message", "custom_message", "branch_summary"})

_DECODER = msgspec.json.Decoder()


class ContextMessage(msgspec.Struct, frozen=True):
    role: str
    """The role the provider receives: user, assistant or toolResult."""
    text: str
    """A readable rendering; for messages pi converts (bash, custom, summaries) the exact text pi sends."""
    line: int | None
    """The entry it comes from; for a synthetic result, the assistant entry holding the call."""
    note: str = ""
    """Where it comes from when that is not a plain message ("compaction summary", "synthetic result", ...)."""


class _Agent(msgspec.Struct):
    """One message of pi's in-memory context before `convertToLlm`."""

    message: dict[str, Any]
    line: int
    note: str = ""


def build_context(lines: Sequence[str], model: ElyraModel, leaf_line: int | None = None) -> list[ContextMessage]:
    """The messages pi sends to the model when `leaf_line` (default: the leaf pi resumes from) is the leaf."""
    leaf = model.leaf if leaf_line is None else leaf_line
    if leaf is None or not model.is_entry(leaf) or leaf >= len(lines):
        return []
    path = model.path_to_root(leaf)
    path.reverse()
    return _transform(_convert(_session_context(lines, model, path)))


def _decode(text: str) -> dict[str, Any]:
    if too_deep(text):
        return {}
    try:
        value = _DECODER.decode(text)
    except msgspec.DecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _session_context(lines: Sequence[str], model: ElyraModel, path: list[int]) -> list[_Agent]:
    facts = model.line_facts
    compaction = next((index for index in range(len(path) - 1, -1, -1) if facts[path[index]].type == "compaction"),
                      None)
    renamed = model.version is not None and model.version < 3
    out: list[_Agent] = []

    def append(line: int, note: str = "") -> None:
        if facts[line].type not in _MESSAGE_ENTRIES:
            return
        found = _agent_message(_decode(lines[line]), line, renamed, note)
        if found is not None:
            out.append(found)

    if compaction is None:
        for line in path:
            append(line)
        return out
    compaction_line = path[compaction]
    entry = _decode(lines[compaction_line])
    summary = entry.get("summary")
    tokens = entry.get("tokensBefore")
    out.append(_Agent({"role": "compactionSummary", "summary": summary if isinstance(summary, str) else ""},
                      compaction_line, f"compaction summary (replaces {_tokens(tokens)} of earlier history)"))
    kept = model.first_kept(compaction_line)
    if kept is not None and kept in path[:compaction]:
        for line in path[path.index(kept) : compaction]:
            append(line, "kept by the compaction")
    for line in path[compaction + 1 :]:
        append(line)
    return out


def _agent_message(entry: dict[str, Any], line: int, renamed: bool, note: str) -> _Agent | None:
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if not isinstance(message, dict):
            return None
        if renamed and message.get("role") == "hookMessage":
            message = {**message, "role": "custom"}
            note = _join(note, "hookMessage, renamed custom by pi's migration")
        return _Agent(message, line, note)
    if kind == "custom_message":
        return _Agent({"role": "custom", "content": entry.get("content"), "customType": entry.get("customType")},
                      line, note)
    if kind == "branch_summary":
        summary = entry.get("summary")
        if not summary:
            return None
        return _Agent({"role": "branchSummary", "summary": summary if isinstance(summary, str) else str(summary)},
                      line, _join(note, "branch summary"))
    return None


class _Llm(msgspec.Struct):
    """One message after `convertToLlm`, with what `transformMessages` reads from it."""

    sent: ContextMessage
    stop_reason: Any = None
    calls: tuple[tuple[str, str], ...] = ()
    """(id, name) of each toolCall block of an assistant message."""
    answers: str | None = None
    """The toolCallId of a toolResult."""


def _convert(messages: list[_Agent]) -> list[_Llm]:
    """`convertToLlm`: the dropped roles simply do not appear."""
    out: list[_Llm] = []
    for agent in messages:
        message, line, note = agent.message, agent.line, agent.note
        role = message.get("role")
        if role == "bashExecution":
            if not message.get("excludeFromContext"):
                out.append(_Llm(ContextMessage("user", _bash_text(message), line, _join(note, "bash execution"))))
        elif role == "custom":
            custom = message.get("customType")
            label = f"custom message ({custom})" if isinstance(custom, str) else "custom message"
            out.append(_Llm(ContextMessage("user", _content_text(message.get("content")), line, _join(note, label))))
        elif role == "branchSummary":
            text = BRANCH_SUMMARY_PREFIX + str(message.get("summary", "")) + BRANCH_SUMMARY_SUFFIX
            out.append(_Llm(ContextMessage("user", text, line, note or "branch summary")))
        elif role == "compactionSummary":
            text = COMPACTION_SUMMARY_PREFIX + str(message.get("summary", "")) + COMPACTION_SUMMARY_SUFFIX
            out.append(_Llm(ContextMessage("user", text, line, note or "compaction summary")))
        elif role == "user":
            out.append(_Llm(ContextMessage("user", _content_text(message.get("content")), line, note)))
        elif role == "assistant":
            out.append(_Llm(ContextMessage("assistant", _content_text(message.get("content")), line, note),
                            stop_reason=message.get("stopReason"), calls=_calls(message)))
        elif role == "toolResult":
            call_id = message.get("toolCallId")
            out.append(_Llm(ContextMessage("toolResult", _result_text(message), line, note),
                            answers=call_id if isinstance(call_id, str) else None))
    return out


def _transform(messages: list[_Llm]) -> list[ContextMessage]:
    """`transformMessages`' second pass: drop failed assistant turns, answer the calls nobody answered."""
    out: list[ContextMessage] = []
    pending: tuple[tuple[str, str], ...] = ()
    pending_line: int | None = None
    answered: set[str] = set()

    def flush() -> None:
        nonlocal pending
        for call_id, name in pending:
            if call_id not in answered:
                out.append(ContextMessage("toolResult", f"[{name or '?'} result, error, for {call_id}] {NO_RESULT}",
                                          pending_line, f"synthetic result: pi answers the unanswered call "
                                          f"{call_id!r} with \"{NO_RESULT}\""))
        pending = ()
        answered.clear()

    for item in messages:
        role = item.sent.role
        if role == "assistant":
            if pending:
                flush()
            if item.stop_reason in FAILED_STOPS:
                continue
            if item.calls:
                pending, pending_line = item.calls, item.sent.line
                answered.clear()
        elif role == "toolResult":
            if item.answers is not None:
                answered.add(item.answers)
        elif pending:
            flush()
        out.append(item.sent)
    return out


# -- rendering ----------------------------------------------------------------------------------------------------

def _join(first: str, second: str) -> str:
    return f"{first}; {second}" if first and second else first or second


def _tokens(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{int(value):,} tokens"
    return "an unknown number of tokens"


def _bash_text(message: dict[str, Any]) -> str:
    """pi's `bashExecutionToText`."""
    text = f"Ran `{message.get('command')}`\n"
    output = message.get("output")
    text += f"```\n{output}\n```" if output else "(no output)"
    exit_code = message.get("exitCode")
    if message.get("cancelled"):
        text += "\n\n(command cancelled)"
    elif exit_code is not None and exit_code != 0:
        text += f"\n\nCommand exited with code {exit_code}"
    if message.get("truncated") and message.get("fullOutputPath"):
        text += f"\n\n[Output truncated. Full output: {message.get('fullOutputPath')}]"
    return text


def _block_text(block: Any) -> str:
    if not isinstance(block, dict):
        return ""
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "image":
        return f"[image {block.get('mimeType', '?')}]"
    if kind == "thinking":
        return "[redacted thinking]" if block.get("redacted") else f"[thinking] {block.get('thinking', '')}"
    if kind == "toolCall":
        arguments = msgspec.json.encode(block.get("arguments")).decode()
        return f"[tool call {block.get('name', '?')} {block.get('id', '?')}] {arguments}"
    return f"[{kind} block]"


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(text for text in map(_block_text, content) if text)
    return ""


def _calls(message: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    content = message.get("content")
    if not isinstance(content, list):
        return ()
    return tuple((block["id"], block.get("name") if isinstance(block.get("name"), str) else "")
                 for block in content
                 if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str))


def _result_text(message: dict[str, Any]) -> str:
    name = message.get("toolName")
    error = ", error" if message.get("isError") else ""
    head = f"[{name if isinstance(name, str) else '?'} result{error}"
    call_id = message.get("toolCallId")
    head += f" for {call_id}]" if isinstance(call_id, str) else "]"
    body = _content_text(message.get("content"))
    return f"{head} {body}" if body else head
