"""What pi sends to the model from a leaf: `buildSessionContext`, `convertToLlm` and the tool-result repair of
`transformMessages`, replayed over the lines of one path for one pi release (spec §1.9, §1.7.8, §7.1).

1. The path from the leaf up to its root (cycle-safe; pi itself would hang on a loop).
2. The last compaction on the path: its summary first, then the entries before it starting at the first one whose
   id is its firstKeptEntryId (v1: the entry its firstKeptEntryIndex names), then everything after it. Without
   one, every entry. `message` entries give their message, `custom_message` entries a `custom` message,
   `branch_summary` entries with a non-empty summary a `branchSummary`.
   pi 1.x (`buildSessionProjection`) also: puts the compaction's `systemMessage` checkpoint before its summary and
   drops the system messages among the kept entries; applies the latest `context_edit` of each target among those
   entries (`null` omits the target, `{content}` replaces its content, a string normalised to one text block for
   assistant and toolResult messages; anything else leaves the content undefined); fills a missing content with
   `[]` (a system message's with ""). pi 0.73 ignores `context_edit` entries.
3. `convertToLlm`: bashExecution (unless excludeFromContext), custom, branchSummary and compactionSummary become
   user messages; user, assistant and toolResult pass, and in pi 1.x system messages too; any other role is
   dropped.
4. `transformMessages`: assistant messages with stopReason error/aborted are dropped, and before the next
   assistant or user message, and at the end, every call of the previous assistant message that got no result is
   answered by a synthetic error result "No result provided". pi 1.x holds a system message that comes between a
   call and its results back until after them.

The lines on the path are decoded again here (generic msgspec decode: the line pass keeps no text). No I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..lines import decode, too_deep
from .facts import EDITABLE_ROLES, FAILED_STOPS
from .model import ElyraModel
from .releases import release

COMPACTION_SUMMARY_PREFIX = ("The conversation history before this point was compacted into the following "
                             "summary:\n\n<summary>\n")
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
BRANCH_SUMMARY_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
BRANCH_SUMMARY_SUFFIX = "</summary>"
NO_RESULT = "No result provided"
_BLOCK_ROLES = frozenset({"user", "assistant", "toolResult"})
_MESSAGE_ENTRIES = frozenset({"message", "custom_message", "branch_summary"})
_UNDEFINED: Any = msgspec.UNSET
"""JavaScript's `undefined` where pi's content can be it (a replacement without `content`)."""

_DECODER = msgspec.json.Decoder()


class ContextMessage(msgspec.Struct, frozen=True):
    role: str
    """The role the provider receives: system (pi 1.x), user, assistant or toolResult."""
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


def build_context(lines: Sequence[str], model: ElyraModel, leaf_line: int | None = None,
                  pi_version: str | None = None) -> list[ContextMessage]:
    """The messages the pi release `pi_version` (default: the newest) sends to the model when `leaf_line`
    (default: the leaf pi resumes from) is the leaf."""
    leaf = model.leaf if leaf_line is None else leaf_line
    if leaf is None or not model.is_entry(leaf) or leaf >= len(lines):
        return []
    path = model.path_to_root(leaf)
    path.reverse()
    projection = release(pi_version).projection
    return _transform(_convert(_session_context(lines, model, path, projection), projection), projection)


def _decode(text: str) -> dict[str, Any]:
    if too_deep(text):  # what is nested that deep is null here: in a part of the entry pi does not send
        value = decode(text).value
        return value if isinstance(value, dict) else {}
    try:
        value = _DECODER.decode(text)
    except msgspec.DecodeError:  # what JSON.parse still reads (lone surrogate escapes, numbers past a double)
        value = decode(text).value
    return value if isinstance(value, dict) else {}


def _context_entries(model: ElyraModel, path: list[int], projection: bool) -> tuple[list[int], set[int]]:
    """pi's `buildContextEntries`: the lines whose entries make the context, the last compaction first; and the
    lines of those a compaction keeps from before it."""
    facts = model.line_facts
    compaction = next((index for index in range(len(path) - 1, -1, -1) if facts[path[index]].type == "compaction"),
                      None)
    if compaction is None:
        return list(path), set()
    compaction_line = path[compaction]
    before = path[:compaction]
    if model.version is not None and model.version >= 2:
        wanted = facts[compaction_line].first_kept_id
        start = next((index for index, line in enumerate(before) if wanted is not None and facts[line].id == wanted),
                     len(before))
    else:  # v1: the migration gave every entry a new id, the index names the one it keeps
        kept = model.first_kept(compaction_line)
        start = before.index(kept) if kept is not None and kept in before else len(before)
    kept_lines = [line for line in before[start:] if not (projection and facts[line].role == "system"
                                                           and facts[line].type == "message")]
    return [compaction_line, *kept_lines, *path[compaction + 1:]], set(kept_lines)


def _session_context(lines: Sequence[str], model: ElyraModel, path: list[int], projection: bool) -> list[_Agent]:
    facts = model.line_facts
    entries, kept = _context_entries(model, path, projection)
    renamed = model.version is not None and model.version < 3
    edits: dict[str, int] = {}
    if projection and model.tree:  # pi's v1 migration gives every entry a new id: no targetId names one after it
        for line in entries:
            if facts[line].type == "context_edit":
                target = _decode(lines[line]).get("targetId")
                if isinstance(target, str):
                    edits[target] = line
    out: list[_Agent] = []
    for index, line in enumerate(entries):
        kind = facts[line].type
        if kind == "compaction":
            if index == 0:
                out.extend(_compaction(_decode(lines[line]), line, projection))
            continue
        if kind not in _MESSAGE_ENTRIES:
            continue
        found = _agent_message(_decode(lines[line]), line, renamed, projection,
                               "kept by the compaction" if line in kept else "")
        if found is None:
            continue
        entry_id = facts[line].id
        edit = edits.get(entry_id) if entry_id is not None else None
        if edit is None:
            out.append(found)
            continue
        replacement = _decode(lines[edit]).get("replacement", _UNDEFINED)
        if replacement is None:
            continue
        out.append(_edited(found, replacement, edit))
    return out


def _compaction(entry: dict[str, Any], line: int, projection: bool) -> list[_Agent]:
    summary = entry.get("summary")
    out = []
    system = entry.get("systemMessage")
    if projection and system:
        message = system if isinstance(system, dict) else {"role": None}
        out.append(_Agent(message, line, "compaction checkpoint: the system prompt and tools at the compaction"))
    out.append(_Agent({"role": "compactionSummary", "summary": summary if isinstance(summary, str) else ""}, line,
                      f"compaction summary (replaces {_tokens(entry.get('tokensBefore'))} of earlier history)"))
    return out


def _edited(found: _Agent, replacement: Any, edit_line: int) -> _Agent:
    """pi 1.x's `projectContextEntry` with a non-null replacement."""
    message = found.message
    role = _string(message, "role")
    if role not in EDITABLE_ROLES:
        return found
    content = replacement.get("content", _UNDEFINED) if isinstance(replacement, dict) else _UNDEFINED
    if role in ("assistant", "toolResult") and isinstance(content, str):
        content = [{"type": "text", "text": content}]
    note = f"content replaced by the context_edit on line {edit_line + 1}"
    if content is _UNDEFINED:
        note = (f"the context_edit on line {edit_line + 1} has no replacement content: pi sends this message with "
                "its content undefined")
    return _Agent({**message, "content": content}, found.line, _join(found.note, note))


def _string(message: dict[str, Any], key: str) -> str | None:
    """A field pi compares with string constants (`role`, `stopReason`): any other JSON value equals none of them
    (and may not be hashable, so it is never looked up in a set)."""
    value = message.get(key)
    return value if isinstance(value, str) else None


def _agent_message(entry: dict[str, Any], line: int, renamed: bool, projection: bool, note: str) -> _Agent | None:
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if not isinstance(message, dict):
            return None
        role = _string(message, "role")
        if renamed and role == "hookMessage":
            message = {**message, "role": "custom"}
            note = _join(note, "hookMessage, renamed custom by pi's migration")
        elif projection and message.get("content") is None and (role == "system" or role in _BLOCK_ROLES):
            message = {**message, "content": "" if role == "system" else []}
        return _Agent(message, line, note)
    if kind == "custom_message":
        content = entry.get("content")
        return _Agent({"role": "custom", "content": [] if projection and content is None else content,
                       "customType": entry.get("customType")}, line, note)
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
    stop_reason: str | None = None
    calls: tuple[tuple[str, str], ...] = ()
    """(id, name) of each toolCall block of an assistant message."""
    answers: str | None = None
    """The toolCallId of a toolResult."""


def _convert(messages: list[_Agent], projection: bool) -> list[_Llm]:
    """`convertToLlm`: the dropped roles simply do not appear."""
    out: list[_Llm] = []
    for agent in messages:
        message, line, note = agent.message, agent.line, agent.note
        role = _string(message, "role")
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
        elif role == "system" and projection:
            out.append(_Llm(ContextMessage("system", _system_text(message), line, note)))
        elif role == "user":
            out.append(_Llm(ContextMessage("user", _content_text(message.get("content")), line, note)))
        elif role == "assistant":
            out.append(_Llm(ContextMessage("assistant", _content_text(message.get("content")), line, note),
                            stop_reason=_string(message, "stopReason"), calls=_calls(message)))
        elif role == "toolResult":
            call_id = message.get("toolCallId")
            out.append(_Llm(ContextMessage("toolResult", _result_text(message), line, note),
                            answers=call_id if isinstance(call_id, str) else None))
    return out


def _transform(messages: list[_Llm], projection: bool) -> list[ContextMessage]:
    """`transformMessages`' second pass: drop failed assistant turns, answer the calls nobody answered (before the
    next assistant or user message, and at the end); pi 1.x holds system messages back while calls are open."""
    out: list[ContextMessage] = []
    pending: tuple[tuple[str, str], ...] = ()
    pending_line: int | None = None
    answered: set[str] = set()
    held: list[ContextMessage] = []

    def close() -> None:
        nonlocal pending
        for call_id, name in pending:
            if call_id not in answered:
                out.append(ContextMessage("toolResult", f"[{name or '?'} result, error, for {call_id}] {NO_RESULT}",
                                          pending_line, f"synthetic result: pi answers the unanswered call "
                                          f"{call_id!r} with \"{NO_RESULT}\""))
        pending = ()
        answered.clear()
        out.extend(held)
        held.clear()

    for item in messages:
        role = item.sent.role
        if role == "assistant":
            close()
            if item.stop_reason in FAILED_STOPS:
                continue
            if item.calls:
                pending, pending_line = item.calls, item.sent.line
                answered.clear()
        elif role == "toolResult":
            if item.answers is not None:
                answered.add(item.answers)
        elif role == "system" and projection and pending:
            held.append(item.sent)
            continue
        elif role == "user":
            close()
        out.append(item.sent)
    close()
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
    calls: list[tuple[str, str]] = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "toolCall":
            call_id, name = block.get("id"), block.get("name")
            if isinstance(call_id, str):
                calls.append((call_id, name if isinstance(name, str) else ""))
    return tuple(calls)


def _system_text(message: dict[str, Any]) -> str:
    """A system message: its prompt text, then the sections it sets or removes and the tools it adds or
    removes."""
    parts = [_content_text(message.get("content"))]
    sections = message.get("sections")
    if isinstance(sections, dict) and sections:
        parts.append("[sections: " + ", ".join(name if value is not None else f"-{name}"
                                               for name, value in sections.items()) + "]")
    for key, sign in (("toolsAdded", "+"), ("toolsRemoved", "-")):
        tools = message.get(key)
        if isinstance(tools, list) and tools:
            names = (tool.get("name") if isinstance(tool, dict) else None for tool in tools)
            parts.append("[tools: " + ", ".join(f"{sign}{name if isinstance(name, str) else '?'}"
                                                for name in names) + "]")
    return "\n".join(part for part in parts if part)


def _result_text(message: dict[str, Any]) -> str:
    name = message.get("toolName")
    error = ", error" if message.get("isError") else ""
    head = f"[{name if isinstance(name, str) else '?'} result{error}"
    call_id = message.get("toolCallId")
    head += f" for {call_id}]" if isinstance(call_id, str) else "]"
    body = _content_text(message.get("content"))
    return f"{head} {body}" if body else head
