"""Which Elyra rule a schema problem belongs to, and what pi does about it.

`validate.check` reports kinds (missing, wrong type, unknown field, unknown tag) with paths; the rule table
(spec §5.1) splits them further by where they are: the header's own rules, timestamps, content blocks, the v1
compaction index, the bash exit code.
"""

from __future__ import annotations

import itertools
from typing import Any, TypeGuard

import msgspec

from .. import validate
from ..detect import js_number, pi_version
from ..diagnostics import Severity
from ..jsonscan import Path, dotted
from ..results import Finding, Mark

_Kind = validate.IssueKind

_COSMETIC: dict[Path, str] = {
    ("message", "timestamp"): "only the message's time in pi's display is lost",
    ("display",): "pi reads a missing `display` as false and does not render the message in the chat",
    ("timestamp",): "pi's /tree orders siblings by it and its session list dates the entry: both read NaN",
    ("customType",): "the extension that wrote it no longer recognises it; the model gets the same content",
    ("message", "customType"): "the extension that wrote it no longer recognises it; the model gets the same content",
    ("message", "display"): "pi reads a missing `display` as false and does not render the message in the chat",
}
"""Required fields whose absence pi's context building never notices: what goes wrong is display only."""

_READS: dict[str, str] = {
    "content": "pi sends it to the model and shows it",
    "role": "pi tells the model's messages apart by it",
    "usage": "pi adds it to the session's token and cost totals",
    "cost": "pi adds it to the session's cost total",
    "stopReason": "pi shows why the answer ended and decides from it whether the turn is over",
    "api": "pi picks the provider's API by it when the session resumes",
    "provider": "pi picks the model by it when the session resumes",
    "model": "pi picks the model by it when the session resumes",
    "toolCallId": "pi pairs the result with its call by it",
    "toolName": "pi shows the tool by it",
    "isError": "pi tells the model whether the tool failed by it",
    "summary": "pi sends it to the model in place of what it summarises",
    "command": "pi shows the command and sends it to the model",
    "output": "pi shows the output and sends it to the model",
}
"""What pi does with a required field, by its name, for ELY032's message; a field not named here is read by pi's
code in ways the message does not detail."""


def _in_block(path: Path) -> bool:
    return any(item == "content" and isinstance(nxt, int) for item, nxt in itertools.pairwise(path))


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_V1_MIGRATION = ("runs the full v1 migration when it opens the file: every id and parentId regenerated as one chain in "
                 "file order (branches flattened, firstKeptEntryId/targetId/fromId left dangling) and the file "
                 "rewritten")
_V2_MIGRATION = ("migrates the file as a v2 one when it opens it (hookMessage roles renamed custom, ids kept) and "
                 "rewrites it with version 3")


def _version_finding(raw: dict[str, Any]) -> Finding:
    """A `version` that is not an integer: what pi's `(header.version ?? 1) >= 3`, `< 2`, `< 3` make of it (the
    same in pi 0.73 and 1.6)."""
    value = raw.get("version")
    shown = msgspec.json.encode(value).decode() if not isinstance(value, float) else repr(value)
    level = pi_version(raw)
    number = js_number(value)
    if _is_number(value):
        if float(value).is_integer() and level != 1:
            then = (f"so pi {_V2_MIGRATION}" if level == 2
                    else f"so pi loads the file exactly as with `version: {level}`")
            return Finding("ELY014", ("version",), Mark.VALUE,
                           f"header `version` {shown} is written as a decimal: JavaScript reads it as {int(value)}, "
                           f"{then}", Severity.INFORMATION)
        if level is not None and level >= 3:
            return Finding("ELY016", ("version",), Mark.VALUE,
                           f"header `version` {shown} is not an integer: pi compares it as a number, and it is at "
                           "least 3, so pi loads the file as v3 (no migration)", Severity.INFORMATION)
        if level == 2:
            return Finding("ELY016", ("version",), Mark.VALUE,
                           f"header `version` {shown} is not an integer: pi compares it with 2 and 3, so it "
                           f"{_V2_MIGRATION}", Severity.WARNING)
        return Finding("ELY016", ("version",), Mark.VALUE,
                       f"header `version` {shown} is below 2: pi {_V1_MIGRATION}; set it to the version the "
                       "entries were written in (quick fix, or `session-lsp fix --unsafe-fixes`)")
    read = "reads `version ?? 1` as 1" if value is None else f"converts {shown} to the number {number:g}"
    if level is None:
        return Finding("ELY014", ("version",), Mark.VALUE,
                       f"header `version` {shown} is not a number: pi's version checks all fail, so no migration "
                       "step runs and the file is read as v3 (pi rewrites it unchanged)", Severity.WARNING)
    if level >= 3:
        return Finding("ELY014", ("version",), Mark.VALUE,
                       f"header `version` {shown} is not a number, but pi {read}, so it loads the file exactly as "
                       f"with `version: {level}` (no migration, no rewrite)", Severity.INFORMATION)
    if level == 2:
        return Finding("ELY014", ("version",), Mark.VALUE,
                       f"header `version` {shown} is not a number: pi {read}, so it {_V2_MIGRATION}",
                       Severity.WARNING)
    return Finding("ELY014", ("version",), Mark.VALUE, f"header `version` {shown} is not a number: pi {read}, so it "
                   f"{_V1_MIGRATION}; set it to the version the entries were written in (3 for entries with "
                   "id/parentId)")


def finding_for(issue: validate.SchemaIssue, raw: dict[str, Any], tree: bool) -> Finding | None:
    """The finding for one schema problem of the line `raw`; None when another rule already covers it.
    `tree` says whether the file's version has ids (v2+)."""
    kind, path, detail, _ = issue
    name = dotted(path)
    last = path[-1] if path else None
    if path == ("type",):
        tag = raw.get("type")
        if kind is _Kind.UNKNOWN_TAG and isinstance(tag, str):
            return Finding("ELY030", path, Mark.VALUE,
                           f"unknown entry type {tag!r}: pi keeps it as a tree node but ignores it when building "
                           "the context (usually written by a newer pi or a fork)")
        return Finding("ELY031", path, Mark.MISSING if kind is _Kind.MISSING else Mark.VALUE,
                       "the entry has no string `type`: pi cannot classify it and treats it as an unknown entry")
    if path[:1] == ("replacement",) and raw.get("type") == "context_edit" and kind is not _Kind.UNKNOWN_FIELD:
        return _bad_replacement(path == ("replacement",) and kind is _Kind.MISSING)
    if kind is _Kind.UNKNOWN_FIELD:
        return Finding("ELY034", path, Mark.KEY,
                       f"`{name}` is not a field pi knows: pi keeps it in the file but does not read it "
                       "(newer pi versions add optional fields)")
    if _in_block(path):
        return Finding("ELY066", path, Mark.MISSING if kind is _Kind.MISSING else Mark.VALUE,
                       f"bad content block: {detail} at `{name}`; pi's provider serializers assume the documented "
                       "block shape, so the request fails or the block is garbled; write the block as pi does "
                       "(completion offers its fields)")
    if path == ("message", "role") and kind is _Kind.UNKNOWN_TAG and isinstance(raw["message"].get("role"), str):
        return Finding("ELY060", path, Mark.VALUE,
                       f"unknown message role {raw['message']['role']!r}: pi keeps the entry but drops the message "
                       "before sending the context to the model")
    if raw.get("type") == "session" and len(path) == 1 and kind is not _Kind.MISSING:
        if last == "version":
            return _version_finding(raw)
        if last == "timestamp":
            return Finding("ELY014", path, Mark.VALUE,
                           f"header `timestamp`: {detail}; pi opens and resumes the session as usual; only its "
                           "session list, which sorts by this time, places it out of order", Severity.INFORMATION)
        consequence = ("pi's loader rejects the file and starts a fresh session over it; write the id as a string"
                       if last == "id" else "wrong types break pi's session listing and sorting; correct the value")
        return Finding("ELY014", path, Mark.VALUE, f"header `{name}`: {detail}; {consequence}")
    if last == "timestamp" and kind is not _Kind.MISSING:
        unit = "a number of milliseconds" if len(path) > 1 else "an ISO-8601 string"
        return Finding("ELY035", path, Mark.VALUE,
                       f"`{name}` is not {unit} ({detail}): pi's tree ordering and \"modified\" dates become NaN")
    if path == ("firstKeptEntryIndex",):
        if tree:
            return None  # ELY023 reports the key, which pi ignores in tree versions whatever its value
        return Finding("ELY022", path, Mark.VALUE,
                       f"`firstKeptEntryIndex` is not an integer ({detail}): after pi's v1 migration this compaction "
                       "has no `firstKeptEntryId`, so no recent messages are kept in context")
    if path == ("message", "exitCode"):
        return Finding("ELY080", path, Mark.VALUE,
                       f"`message.exitCode` is not a number ({detail}): pi's renderer expects an integer or no "
                       "exitCode")
    if kind is _Kind.MISSING and path in _COSMETIC:
        return Finding("ELY032", path, Mark.MISSING,
                       f"required field `{name}` is missing: pi builds and sends the same context without it "
                       f"({_COSMETIC[path]})", Severity.INFORMATION)
    if kind is _Kind.MISSING and raw.get("type") == "model_change" and path in (("provider",), ("modelId",)):
        return Finding("ELY032", path, Mark.MISSING,
                       f"required field `{name}` is missing: pi sends the same context, but it takes the session's "
                       "model from the last model_change or assistant message on the path, so when this entry is "
                       f"the last of them a resumed session asks for a model whose `{name}` is undefined",
                       Severity.WARNING)
    if kind is _Kind.MISSING:
        reads = _READS.get(str(last), "pi reads it")
        return Finding("ELY032", path, Mark.MISSING,
                       f"required field `{name}` is missing: {reads}, and misbehaves or throws without it; add it "
                       "(for some fields the quick fix, or `session-lsp fix --unsafe-fixes`, writes a neutral value)")
    if path == ("message", "sections") and _system_field(raw, path) \
            and isinstance(raw["message"]["sections"], int | float | bool):
        # pi 1.x reads `Object.entries(sections ?? {})`: a number or boolean has no entries
        return Finding("ELY033", path, Mark.VALUE,
                       f"`{name}`: {detail}; pi reads it as no section changes, as if it were absent{_SYSTEM_FIX}",
                       Severity.WARNING)
    fix = ("; the quick fix (or `session-lsp fix --unsafe-fixes`) gives the entry a fresh string id" if path == ("id",)
           else _SYSTEM_FIX if _system_field(raw, path) else "; correct the value")
    return Finding("ELY033", path, Mark.VALUE,
                   f"`{name}`: {detail}; pi's code assumes the documented type and misbehaves or throws{fix}")


_SYSTEM_FIX = ("; correct the value, or let the quick fix (or `session-lsp fix --unsafe-fixes`) write what pi reads "
               "in its place")
_SYSTEM_FIELDS = frozenset({"content", "sections", "toolsAdded", "toolsRemoved"})


def _system_field(raw: dict[str, Any], path: Path) -> bool:
    """A pi 1.x system message's field whose wrong value the fix replaces by what pi reads in its place."""
    message = raw.get("message")
    return (len(path) >= 2 and path[0] == "message" and path[1] in _SYSTEM_FIELDS and isinstance(message, dict)
            and message.get("role") == "system")


def _bad_replacement(absent: bool) -> Finding:
    if absent:
        return Finding("ELY059", ("type",), Mark.VALUE,
                       "context_edit without `replacement`: pi 1.6 reads `replacement.content` of undefined and "
                       "throws when it builds the context from this path; add `\"replacement\": null` (leave the "
                       "target out) or `{\"content\": ...}`, or delete the edit (quick fix, or `session-lsp fix "
                       "--unsafe-fixes`)")
    return Finding("ELY059", ("replacement",), Mark.VALUE,
                   "`replacement` must be null (leave the target out) or {\"content\": string or blocks}: pi 1.6 "
                   "sends the target with its content undefined, which providers reject; write one of the two (the "
                   "quick fix, or `session-lsp fix --unsafe-fixes`, wraps a string as its content and deletes an edit "
                   "with nothing readable)")
