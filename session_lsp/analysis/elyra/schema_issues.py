"""Which Elyra rule a schema problem belongs to, and what pi does about it.

`validate.check` reports kinds (missing, wrong type, unknown field, unknown tag) with paths; the rule table
(spec §5.1) splits them further by where they are: the header's own rules, timestamps, content blocks, the v1
compaction index, the bash exit code.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from .. import validate
from ..diagnostics import Severity
from ..jsonscan import Path
from .findings import Finding, Mark

_Kind = validate.IssueKind

_COSMETIC: dict[Path, str] = {
    ("message", "timestamp"): "only the message's time in pi's display is lost",
    ("display",): "pi reads a missing `display` as false and does not render the message in the chat",
    ("timestamp",): "pi's /tree orders siblings by it and its session list dates the entry: both read NaN",
    ("customType",): "the extension that wrote it no longer recognises it; the model gets the same content",
}
"""Required fields whose absence pi's context building never notices: what goes wrong is display only."""


def dotted(path: Path) -> str:
    """`message.content[2].text`: how messages name a place in the line."""
    out = ""
    for item in path:
        out += f"[{item}]" if isinstance(item, int) else (f".{item}" if out else item)
    return out


def _in_block(path: Path) -> bool:
    return any(item == "content" and isinstance(nxt, int) for item, nxt in itertools.pairwise(path))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numeric_string_at_least_3(value: Any) -> bool:
    """A string like "3": JavaScript's `version < 2` and `version < 3` convert it to a number, so pi reads it as v3."""
    return isinstance(value, str) and re.fullmatch(r"\s*\d+(\.\d+)?\s*", value) is not None and float(value) >= 3


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
                       "block shape, so the request fails or the block is garbled")
    if path == ("message", "role") and kind is _Kind.UNKNOWN_TAG and isinstance(raw["message"].get("role"), str):
        return Finding("ELY060", path, Mark.VALUE,
                       f"unknown message role {raw['message']['role']!r}: pi keeps the entry but drops the message "
                       "before sending the context to the model")
    if raw.get("type") == "session" and len(path) == 1 and kind is not _Kind.MISSING:
        if last == "version" and _is_number(raw.get("version")):
            return Finding("ELY016", path, Mark.VALUE,
                           f"header `version` {raw['version']!r} is not an integer: pi treats it as below 2, runs "
                           "the full v1 migration (regenerating every id and parentId) and rewrites the file")
        if last == "version" and _numeric_string_at_least_3(raw.get("version")):
            return Finding("ELY014", path, Mark.VALUE,
                           f"header `version` {raw['version']!r} is a string: pi compares it as a number, so it loads "
                           "the file exactly as with `version: 3` (no migration, no rewrite)", Severity.INFORMATION)
        consequence = ("pi's loader rejects the file and starts a fresh session over it" if last == "id"
                       else "wrong types break pi's session listing and sorting")
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
    if kind is _Kind.MISSING:
        return Finding("ELY032", path, Mark.MISSING,
                       f"required field `{name}` is missing: pi reads it (model selection, rendering, cost) and "
                       "misbehaves or throws without it")
    return Finding("ELY033", path, Mark.VALUE,
                   f"`{name}`: {detail}; pi's code assumes the documented type and misbehaves or throws")


def _bad_replacement(absent: bool) -> Finding:
    if absent:
        return Finding("ELY059", ("type",), Mark.VALUE,
                       "context_edit without `replacement`: pi 1.6 reads `replacement.content` of undefined and "
                       "throws when it builds the context from this path")
    return Finding("ELY059", ("replacement",), Mark.VALUE,
                   "`replacement` must be null (leave the target out) or {\"content\": string or blocks}: pi 1.6 "
                   "sends the target with its content undefined, which providers reject")
