"""What an editor writing an Elyra file by hand is offered: the ids a reference can name (from the line facts above
the cursor and the link model), the values pi writes in plain string fields, and whole new entries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, get_args

from ..editing import HORIZON, STOP, FreshId, LineTemplate, ObjectTemplate
from ..jsonscan import Path
from ..results import LineResult, Options
from .facts import EntryFacts
from .model import ElyraModel
from .releases import release
from .sample import millis, timestamp, uuid7
from .schema import RENAMED_WITH_ID, SUMMARY_ROLES, Line

RECENT = 40
"""How many entries above the cursor reference completion offers."""

KNOWN: dict[str, tuple[tuple[str, ...], str]] = {
    "mimeType": (("image/png", "image/jpeg", "image/gif", "image/webp"), "image type"),
    "api": (("anthropic-messages", "openai-completions", "openai-responses", "azure-openai-responses",
             "openai-codex-responses", "mistral-conversations", "bedrock-converse-stream", "google-generative-ai",
             "google-gemini-cli", "google-vertex"), "provider API"),
}
"""String fields the schema types as plain `str` although pi writes only these values (spec §1.7)."""

MESSAGE_ROLES = ("user", "assistant", "toolResult", "bashExecution", "custom", "system")
"""The roles a new message entry is offered with, in this order (the summary roles are pi's in-memory ones)."""
_ORDER = ("id", "parentId", "timestamp")


def _entry_facts(results: Sequence[LineResult], line: int) -> EntryFacts | None:
    facts = results[line].facts
    return facts if isinstance(facts, EntryFacts) else None


def parent_above(results: Sequence[LineResult], line: int) -> str | None:
    """The id of the nearest entry above `line`: what pi would make the parent of a line appended there."""
    for number in range(line - 1, max(-1, line - 1 - HORIZON), -1):
        facts = _entry_facts(results, number)
        if facts is not None and facts.id is not None:
            return facts.id
    return None


def recent_ids(results: Sequence[LineResult], line: int) -> list[tuple[str, str]]:
    """(id, where) of the nearest entries above `line`, nearest first, each id once."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for number in range(line - 1, max(-1, line - 1 - HORIZON), -1):
        facts = _entry_facts(results, number)
        if facts is None or facts.id is None or facts.id in seen:
            continue
        seen.add(facts.id)
        out.append((facts.id, f"line {number + 1}: {results[number].title}"))
        if len(out) >= RECENT:
            break
    return out


def open_calls(results: Sequence[LineResult], model: ElyraModel,
               parent_id: str | None) -> list[tuple[str, str, int]]:
    """(call id, tool name, line) of the tool calls on the path from the entry `parent_id` up that no result
    answers yet, nearest first; the walk stops at a user message (pi answers calls left open before one itself)."""
    current = model.by_id.get(parent_id) if parent_id is not None else None
    answered: set[str] = set()
    out: list[tuple[str, str, int]] = []
    steps = 0
    while current is not None and steps < HORIZON:
        facts = _entry_facts(results, current)
        if facts is None:
            break
        if facts.role == "toolResult" and facts.tool_call_id is not None:
            answered.add(facts.tool_call_id)
        for call in facts.tool_calls:
            if call.id not in answered:
                out.append((call.id, call.name or "", current))
        if facts.role == "user":
            break
        current = model.parent(current)
        steps += 1
    return out


def reference_values(results: Sequence[LineResult], model: ElyraModel, line: int, key: str,
                     levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
    if key in RENAMED_WITH_ID:
        extra = [("root", "the branch started before the first entry")] if key == "fromId" else []
        return [*recent_ids(results, line), *extra]
    if key == "toolCallId":
        root = levels[0] if levels else {}
        written = root.get("parentId")
        parent = written if isinstance(written, str) else parent_above(results, line)
        return [(call_id, f"open {name or 'tool'} call on line {where + 1}")
                for call_id, name, where in open_calls(results, model, parent)]
    return []


def known_values(key: str, options: Options) -> list[tuple[str, str]]:
    """Stop reasons and thinking levels are the targeted pi release's (1.6 added `max` and `deferred`)."""
    target = release(options.pi_version)
    if key == "thinkingLevel":
        return [(level, f"{target.name} thinking level") for level in target.thinking_levels]
    if key == "stopReason":
        return [(stop, f"{target.name} stop reason") for stop in target.stop_reasons
                if stop not in target.unwritten_stop_reasons]
    values, detail = KNOWN.get(key, ((), ""))
    return [(value, detail) for value in values]


def flagged(model: ElyraModel, line: int, version: int | None, container: Path, key: str | None, value: Any) -> bool:
    """A second `session` header (ELY013), the in-memory summary roles inside a message (ELY061), `hookMessage`
    outside v2 files (ELY024: v3 renamed it `custom`)."""
    if container == () and key == "type" and value == "session":
        return any(header != line for header in model.headers)
    if container == ("message",) and key == "role":
        return value in SUMMARY_ROLES or (value == "hookMessage" and version != 2)
    return False


def unknown_to_target(container: Path, key: str | int | None, value: object, options: Options) -> str:
    """A note for an entry type or message role the targeted pi does not know (pi 0.73 and `usage`): offered,
    since the file may be for a newer pi, but marked."""
    target = release(options.pi_version)
    if container == () and key == "type" and value in target.unknown_entry_types:
        return f" ({target.name} ignores it: pi 1.x's)"
    if container == ("message",) and key == "role" and value in target.unknown_roles:
        return f" ({target.name} ignores it: pi 1.x's)"
    return ""


def first_line(now: datetime, session_id: str | None) -> LineTemplate:
    """A v3 header, with the session id the file's name gives (else a fresh UUIDv7, as pi draws one)."""
    fixed = {"version": 3, "id": session_id or uuid7(now), "timestamp": timestamp(now)}
    header = ObjectTemplate({"type": "session"}, fixed, ("version", "id", "timestamp"))
    return LineTemplate("Elyra v3 session header", "first line of an Elyra (pi) session", header)


_ENTRY_TAGS = tuple(tag for tag in (str(cls.__struct_config__.tag) for cls in get_args(Line)) if tag != "session")
"""The entry types, in the schema's order."""


def new_lines(results: Sequence[LineResult], model: ElyraModel, line: int, now: datetime,
              options: Options) -> list[LineTemplate]:
    """Every entry type (a message entry once per role) as pi would append it at `line`: a fresh id, the entry
    above as parent, and for a tool result the nearest open call."""
    parent = parent_above(results, line)
    base: dict[str, Any] = {"id": FreshId(f"{timestamp(now)}/{line}"), "parentId": parent,
                            "timestamp": timestamp(now)}
    calls = open_calls(results, model, parent)
    out: list[LineTemplate] = []
    for tag in _ENTRY_TAGS:
        if tag != "message":
            detail = f"{tag} entry" + unknown_to_target((), "type", tag, options)
            out.append(LineTemplate(f"{tag} entry", detail, ObjectTemplate({"type": tag}, base, _ORDER)))
            continue
        for role in MESSAGE_ROLES:
            fixed: dict[str, Any] = {"timestamp": millis(now)}
            if role == "toolResult" and calls:
                fixed.update(toolCallId=calls[0][0], toolName=calls[0][1])
            if role == "assistant":
                fixed["content"] = [{"type": "text", "text": STOP}]
            message = ObjectTemplate({"role": role}, fixed)
            detail = f"message entry, role {role}" + unknown_to_target(("message",), "role", role, options)
            entry = ObjectTemplate({"type": "message"}, {**base, "message": message}, _ORDER)
            out.append(LineTemplate(f"{role} message entry", detail, entry))
    return out


def id_in_use(model: ElyraModel, candidate: str) -> bool:
    return candidate in model.by_id
