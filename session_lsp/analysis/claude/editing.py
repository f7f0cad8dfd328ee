"""What an editor writing a Claude Code file by hand is offered: the values Claude Code writes in plain string
fields, the uuids a link may name, and whole new records linked to the record above."""

from __future__ import annotations

import uuid as uuids
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..editing import HORIZON, STOP, FreshId, LineTemplate, ObjectTemplate
from ..results import LineResult
from .facts import Facts, records_of
from .sample import timestamp

KNOWN: dict[str, tuple[tuple[str, ...], str]] = {
    "userType": (("external",), "who wrote the record"),
    "entrypoint": (("cli", "sdk-cli", "sdk-ts", "sdk-py"), "how Claude Code was started"),
    "renderedRole": (("system", "user"), "the role an attachment is sent with"),
    "operation": (("enqueue", "dequeue", "remove", "popAll"), "queue operation"),
    "mode": (("normal", "plan"), "session mode"),
    "permissionMode": (("default", "acceptEdits", "plan", "bypassPermissions", "auto"), "permission mode"),
    "level": (("info", "warning", "error", "suggestion"), "system record level"),
}
"""String fields the schema types as plain `str` although Claude Code writes only these values."""

_LINKS = ("parentUuid", "logicalParentUuid", "leafUuid", "sourceToolAssistantUUID", "messageId")


def known_values(key: str) -> list[tuple[str, str]]:
    values, detail = KNOWN.get(key, ((), ""))
    return [(value, detail) for value in values]


def _above(results: Sequence[LineResult], line: int) -> list[Facts]:
    found: list[Facts] = []
    for number in range(min(line, len(results)) - 1, max(-1, line - 1 - HORIZON), -1):
        found.extend(reversed(records_of(results[number].facts)))
    return found


def reference_values(results: Sequence[LineResult], line: int, key: str) -> list[tuple[Any, str]]:
    """Uuids above the cursor, nearest first, for a link field; tool_use ids for `tool_use_id`."""
    out: list[tuple[Any, str]] = []
    for facts in _above(results, line):
        if key in _LINKS and facts.uuid is not None:
            out.append((facts.uuid, f"{facts.tag} record"))
        elif key == "tool_use_id":
            out.extend((call, f"{name} call") for call, name in zip(facts.uses, facts.tool_names, strict=False))
        if len(out) >= 50:
            break
    return out


def _session(results: Sequence[LineResult], line: int) -> str | None:
    return next((f.session for f in _above(results, line) if f.session is not None), None)


def first_line(now: datetime, session_id: str | None) -> LineTemplate:
    """The user prompt that starts a session (the file name gives its sessionId)."""
    fixed: dict[str, Any] = {"parentUuid": None, "isSidechain": False, "uuid": FreshId(str(uuids.uuid4())),
                             "timestamp": timestamp(now), "sessionId": session_id or str(uuids.uuid4()),
                             "message": ObjectTemplate({}, {"role": "user", "content": STOP})}
    record = ObjectTemplate({"type": "user"}, fixed, ("type", "parentUuid", "isSidechain", "message", "uuid",
                                                      "timestamp", "sessionId"))
    return LineTemplate("Claude Code user prompt", "first record of a Claude Code session", record)


def new_lines(results: Sequence[LineResult], line: int, now: datetime, named: str | None = None) -> list[LineTemplate]:
    """The records of the chain, linked to the last chain record above `line` (a tool result answers the last call
    above), then the metadata records that name the leaf."""
    above = _above(results, line)
    parent = next((f.uuid for f in above if f.uuid is not None and f.has_parent and not f.sidechain), None)
    session = next((f.session for f in above if f.session is not None), named)
    call = next((f.uses[-1] for f in above if f.uses), None)
    text = [{"type": "text", "text": STOP}]
    chain: list[tuple[str, str, dict[str, Any]]] = [
        ("user", "user prompt", {"message": ObjectTemplate({}, {"role": "user", "content": STOP})}),
        ("user", "tool result", {"message": ObjectTemplate({}, {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call or STOP, "content": STOP}]})}),
        ("assistant", "assistant text", {"message": ObjectTemplate({}, {"role": "assistant", "content": text})}),
        ("assistant", "assistant tool call", {"message": ObjectTemplate({}, {"role": "assistant", "content": [
            {"type": "tool_use", "id": FreshId("toolu_01"), "name": STOP, "input": {}}]})}),
        ("attachment", "attachment", {"attachment": {"type": STOP}}),
        ("system", "system note", {"subtype": "informational", "content": STOP, "level": "info"}),
    ]
    out: list[LineTemplate] = []
    for tag, label, members in chain:
        fixed: dict[str, Any] = {"parentUuid": parent, "isSidechain": False, "uuid": FreshId(str(uuids.uuid4())),
                                 "timestamp": timestamp(now), **members}
        if session is not None:
            fixed["sessionId"] = session
        record = ObjectTemplate({"type": tag}, fixed, ("type", "parentUuid", "isSidechain", *members, "uuid",
                                                       "timestamp", "sessionId"))
        out.append(LineTemplate(f"Claude Code {label}", f"{tag} record after {parent or 'nothing'}", record))
    for tag, members in (("last-prompt", {"lastPrompt": STOP, "leafUuid": parent}),
                         ("custom-title", {"customTitle": STOP}), ("summary", {"summary": STOP, "leafUuid": parent})):
        fixed = {**members, **({"sessionId": session} if session is not None and tag != "summary" else {})}
        out.append(LineTemplate(f"Claude Code {tag}", f"{tag} record", ObjectTemplate({"type": tag}, fixed,
                                                                                        ("type", *members))))
    return out
