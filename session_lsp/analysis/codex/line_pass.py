"""The line pass for Codex rollouts: one line alone -> its kind, line-local issues, facts and outline title.

Fast path: the envelope decoded typed (`schema.Envelope`), then its payload with the decoder of its `type`. Slow path,
on failure: the generic decode classifies the line, `validate.check` lists what does not fit.

What Codex 0.171.0 does with a damaged line was seen with the real CLI resuming damaged copies: it reads the file line
by line with serde and skips a line that is not JSON or does not fit its `RolloutLine` type (a warning in its log),
so the record on it is lost; a glued line is not JSON, so both records on it are lost; a response item of a kind it
does not know is read as `Other` and never sent; a line of a type it does not know is skipped.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from .. import jsonscan, validate
from ..detect import FormatInfo
from ..diagnostics import LineIssue, Severity
from ..jsonscan import Path, dotted
from ..lines import LineKind, decode, split_glued
from ..results import LineResult, line_result
from ..text import content_span, ellipsized
from ..validate import IssueKind
from . import schema as s
from .facts import Facts, LineState, is_prompt, is_sent, kept_of

_ENVELOPE = msgspec.json.Decoder(s.Envelope)
_PAYLOADS: dict[str, msgspec.json.Decoder[Any]] = {tag: msgspec.json.Decoder(tp) for tag, tp in s.PAYLOADS.items()}
_TYPE = re.compile(r'"type"\s*:\s*"([^"]*)"')
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})\Z")
_SENT = frozenset({"response_item", "compacted", "session_meta"})
LOST = "Codex cannot read the line when it resumes and skips it"


def analyze_line(text: str, info: FormatInfo, state: LineState | None = None) -> LineResult:
    """`state` is the document's (a line read alone gets a fresh one)."""
    if state is None:
        state = LineState()
    try:
        envelope = _ENVELOPE.decode(text)
        decoder = _PAYLOADS[envelope.type]
        payload = decoder.decode(envelope.payload)
    except (msgspec.DecodeError, KeyError):
        return _slow(text, state)
    issues = _envelope_issues(text, envelope.timestamp, envelope.ordinal, "ordinal" in text, envelope.type)
    if any(issue.code == "CDX030" or (issue.code == "CDX008" and "is lost" in issue.message) for issue in issues):
        facts = Facts(state.shared(envelope.type), readable=False, ordinal=_ordinal(envelope.ordinal),
                      has_ordinal=envelope.ordinal is not None)
        return line_result(LineKind.OBJECT, facts, issues, f"{envelope.type} (not read)" if state.titles else "")
    broken, others = _replacement_issues(text, payload) if isinstance(payload, s.Compacted) else ((), ())
    issues += others
    if broken:
        facts = Facts(state.shared(envelope.type), readable=False, ordinal=_ordinal(envelope.ordinal),
                      has_ordinal=envelope.ordinal is not None)
        return line_result(LineKind.OBJECT, facts, issues + broken,
                           "compacted (not read)" if state.titles else "")
    facts = _facts(envelope, payload, text, state)
    issues += _payload_issues(text, envelope.type, payload)
    return line_result(LineKind.OBJECT, facts, issues, title(envelope.type, payload) if state.titles else "")


def _ordinal(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _facts(envelope: s.Envelope, payload: Any, text: str, state: LineState) -> Facts:
    shared = state.shared
    tag = shared(envelope.type)
    ordinal = _ordinal(envelope.ordinal)
    has = envelope.ordinal is not None
    digest = hash(bytes(envelope.payload))
    if isinstance(payload, s.Item):
        kind = shared(payload.__struct_config__.tag)  # type: ignore[arg-type]  # every ResponseItem is tagged
        meta = payload.internal_chat_message_metadata_passthrough
        turn = meta.get("turn_id") if isinstance(meta, dict) else None
        role = shared(payload.role) if isinstance(payload, s.Message) else None
        first = _first_text(payload) if isinstance(payload, s.Message) else None
        return Facts(tag, kind, True, role, getattr(payload, "call_id", None),
                     shared(getattr(payload, "name", None) or "") or None, payload.id,
                     state.last_turn.again(turn) if isinstance(turn, str) else None, ordinal, has,
                     digest=digest, prompt=is_prompt(role, first), sent=is_sent(kind, role, True))
    if isinstance(payload, s.Event):
        turn = payload.turn_id if isinstance(payload.turn_id, str) else None
        rollback = payload.num_turns if payload.type == "thread_rolled_back" else None
        return Facts(tag, shared(payload.type), True, turn_id=state.last_turn.again(turn) if turn else None,
                     ordinal=ordinal, has_ordinal=has,
                     num_turns=rollback if isinstance(rollback, int) and not isinstance(rollback, bool) else None,
                     digest=digest)
    if isinstance(payload, s.TurnContext):
        turn = payload.turn_id
        return Facts(tag, turn_id=state.last_turn.again(turn) if turn else None, ordinal=ordinal, has_ordinal=has)
    if isinstance(payload, s.Compacted):
        return Facts(tag, ordinal=ordinal, has_ordinal=has,
                     replaced=None if payload.replacement_history is None else len(payload.replacement_history),
                     replaced_meta=None if payload.replacement_history_metadata is None
                     else len(payload.replacement_history_metadata), digest=digest,
                     kept=tuple(kept_of(item, _KNOWN) for item in payload.replacement_history or ()))
    if isinstance(payload, s.SessionMeta):
        return Facts(tag, ordinal=ordinal, has_ordinal=has, session=payload.id, forked_from=payload.forked_from_id)
    if isinstance(payload, s.TokenUsageRecord):
        turn = payload.turn_id
        return Facts(tag, turn_id=state.last_turn.again(turn) if turn else None, ordinal=ordinal, has_ordinal=has)
    return Facts(tag, ordinal=ordinal, has_ordinal=has)


_KNOWN = frozenset(s.ITEM_KINDS)


def _first_text(message: s.Message) -> str | None:
    return next((c.text for c in message.content if isinstance(c, s.InputText | s.OutputText)), None)


def _span(text: str, path: Path, key: bool = False) -> tuple[int, int]:
    found = jsonscan.path_span(text, path, key)
    return found if found is not None else content_span(text)


def _envelope_issues(text: str, timestamp: Any, ordinal: Any, written: bool, tag: Any) -> tuple[LineIssue, ...]:
    """The timestamp and ordinal serde requires; a line that loses nothing sent when it is skipped (an event, a
    token record) gets warnings."""
    issues: list[LineIssue] = []
    lost = None if tag in _SENT else Severity.WARNING
    if not isinstance(timestamp, str):
        what = "missing" if timestamp is None and '"timestamp"' not in text else (
            f"{validate.json_type(timestamp)}, not a string")
        start, end = _span(text, ("timestamp",)) if what != "missing" else content_span(text)
        issues.append(LineIssue("CDX008", start, end, f"`timestamp` is {what}: {LOST} (Codex requires the RFC 3339 "
                                "string Codex writes), so the record on it is lost; write the time as "
                                "\"2026-01-31T12:00:00.000Z\"", lost))
    elif RFC3339.match(timestamp) is None:
        start, end = _span(text, ("timestamp",))
        issues.append(LineIssue("CDX008", start, end, f"`timestamp` {ellipsized(timestamp, 40)!r} is not an RFC 3339 "
                                "time: Codex reads the record (it keeps the text as written) but what orders "
                                "threads by time (the resume picker, the thread list) cannot place it; write it "
                                "as \"2026-01-31T12:00:00.000Z\"", Severity.WARNING))
    if written and ordinal is not None and _ordinal(ordinal) is None:
        start, end = _span(text, ("ordinal",))
        issues.append(LineIssue("CDX030", start, end, f"`ordinal` is {validate.json_type(ordinal)} "
                                f"{msgspec.json.encode(ordinal).decode()[:20]}, not a non-negative integer: {LOST} "
                                "(Codex reads it as a whole number of at least 0), so the record on it is lost; "
                                "correct it to the line's number in the rollout (the next after the line above)", lost))
    return tuple(issues)


_ITEM = msgspec.json.Decoder(s.ResponseItem)


def _replacement_issues(text: str, payload: s.Compacted) -> tuple[tuple[LineIssue, ...], tuple[LineIssue, ...]]:
    """A replacement_history item that is not a response item Codex can read (not an object, no string `type`, a
    known kind whose fields do not fit) makes the whole compacted line unreadable: Codex ignores the compaction.
    An item of a kind it does not know is read as `Other` and sent as `{"type":"other"}`. (The first, the others.)"""
    others: list[LineIssue] = []
    for number, item in enumerate(payload.replacement_history or ()):
        path: Path = ("payload", "replacement_history", number)
        kind = item.get("type") if isinstance(item, dict) else None
        if isinstance(kind, str) and kind not in s.ITEM_KINDS:
            start, end = _span(text, (*path, "type"))
            others.append(LineIssue("CDX007", start, end, f"`{kind}` is not a response item Codex 0.171 knows: in a "
                                    "replacement history it is sent as {\"type\":\"other\"}, so its content is "
                                    "lost on resume", Severity.ERROR))
            continue
        problems = [] if isinstance(kind, str) else [f"{validate.json_type(item)} is not a response item"
                                                     if not isinstance(item, dict) else "no string `type`"]
        if not problems and isinstance(kind, str):
            problems = [f"`{dotted(i.path)}`: {i.message}" for i in validate.check(item, s.ITEM_KINDS[kind])
                        if i.kind is not IssueKind.UNKNOWN_FIELD]
        if problems:
            start, end = _span(text, path)
            return (LineIssue("CDX005", start, end, f"replacement_history item {number}: {problems[0]}: {LOST}, so "
                              "the compaction is ignored on resume (the history is rebuilt from the compaction "
                              "before it, or the start, and every item after it); correct the item as Codex "
                              "writes it"),), ()
    return (), tuple(others)


def _payload_issues(text: str, tag: str, payload: Any) -> tuple[LineIssue, ...]:
    if isinstance(payload, s.Event) and payload.type not in s.EVENT_KINDS:
        start, end = _span(text, ("payload", "type"))
        return (LineIssue("CDX007", start, end, f"`{payload.type}` is not an event Codex 0.171 knows: it skips the "
                          "line when it resumes (events are not sent to the model, so nothing is lost; a newer "
                          "release's event, or a typo)"),)
    if isinstance(payload, s.Event) and payload.type == "thread_rolled_back" and not (
            isinstance(payload.num_turns, int) and not isinstance(payload.num_turns, bool)
            and payload.num_turns >= 0):
        start, end = _span(text, ("payload", "num_turns"))
        return (LineIssue("CDX005", start, end, "`payload.num_turns` of a thread_rolled_back is not a non-negative "
                          f"integer: {LOST}, so the rollback is not applied and the turns it dropped are sent again",
                          Severity.WARNING),)
    return ()


def _slow(text: str, state: LineState) -> LineResult:
    decoded = decode(text)
    kind = decoded.kind
    titled = state.titles
    if kind is LineKind.BLANK:
        return LineResult(LineKind.BLANK)
    if kind is LineKind.INVALID:
        return _invalid(text, decoded.error, decoded.error_col, titled)
    if kind is LineKind.GLUED:
        return _glued(text, decoded.parts, titled)
    if kind is LineKind.NON_OBJECT:
        start, end = content_span(text)
        got = validate.json_type(decoded.value)
        return line_result(kind, None, (LineIssue("CDX003", start, end, f"JSON {got}, not a rollout record: {LOST}",
                                                  Severity.WARNING),), f"JSON {got}" if titled else "")
    return _object(text, decoded.value, state)


def _sent(text: str) -> bool:
    """Whether a damaged line seems to have held something Codex sends (a response item, a compaction)."""
    seen = _TYPE.findall(text)
    return not seen or any(tag in _SENT for tag in seen)


def _invalid(text: str, error: str, error_col: int, titled: bool) -> LineResult:
    end = len(text.rstrip())
    start = min(error_col, max(end - 1, 0))
    if _sent(text):
        message = (f"not JSON ({error}): {LOST}, so the record on it is lost (a torn write: the rest was never "
                   "written; a response item's call or output loses its partner); complete it by hand or delete it")
        severity = None
    else:
        message = (f"not JSON ({error}): {LOST}; it held an event or bookkeeping record the model is not sent, so "
                   "the resumed conversation is whole; delete it")
        severity = Severity.WARNING
    return line_result(LineKind.INVALID, None, (LineIssue("CDX001", start, max(end, start + 1), message, severity),),
                       "not JSON" if titled else "")


def _glued(text: str, parts: tuple[int, ...], titled: bool) -> LineResult:
    sent = any(_sent(piece) for piece in split_glued(text, parts))
    does = "" if sent else " (events or bookkeeping the model is not sent, so the resumed conversation is whole)"
    message = (f"{len(parts)} JSON records on one line (a newline is missing before column {parts[1] + 1}): the line "
               f"is not JSON to Codex, so it skips it and every record on it is lost on resume{does}; split the line")
    issue = LineIssue("CDX002", parts[0], len(text.rstrip()), message, None if sent else Severity.WARNING)
    return line_result(LineKind.GLUED, None, (issue,), f"{len(parts)} glued records" if titled else "", parts)


def _object(text: str, obj: dict[str, Any], state: LineState) -> LineResult:
    titled = state.titles
    tag = obj.get("type")
    if not isinstance(tag, str):
        if "type" in obj:
            start, end = _span(text, ("type",))
            message = f"`type` is {validate.json_type(tag)}, not a string: {LOST}"
        else:
            start, end = content_span(text)
            message = f"no `type`: {LOST} (every rollout line is `{{timestamp, type, payload}}`)"
        return line_result(LineKind.OBJECT, Facts("", readable=False, has_ordinal="ordinal" in obj),
                           (LineIssue("CDX005", start, end, message, Severity.WARNING),),
                           "record without type" if titled else "")
    shared = state.shared(tag)
    if tag not in s.PAYLOADS:
        start, end = _span(text, ("type",))
        message = (f"`{tag}` is not a line type Codex 0.171 knows: it skips the line when it resumes (a newer "
                   "release's record, or a typo)")
        return line_result(LineKind.OBJECT, Facts(shared, readable=False, has_ordinal="ordinal" in obj),
                           (LineIssue("CDX006", start, end, message),), tag if titled else "")
    issues = list(_envelope_issues(text, obj.get("timestamp"), obj.get("ordinal"), "ordinal" in obj, tag))
    payload = obj.get("payload")
    if tag == "response_item" and isinstance(payload, dict) and isinstance(payload.get("type"), str) and \
            payload["type"] not in s.ITEM_KINDS:
        kind = payload["type"]
        start, end = _span(text, ("payload", "type"))
        issues.append(LineIssue("CDX007", start, end, f"`{kind}` is not a response item Codex 0.171 knows: it skips "
                                "the line when it resumes, so the item is lost (a call lost so leaves its output "
                                "orphaned; a newer release's item, or a typo); correct the `type`, or target the "
                                "release that writes it", Severity.ERROR))
        facts = Facts(shared, kind, readable=False, ordinal=_ordinal(obj.get("ordinal")),
                      has_ordinal="ordinal" in obj)
        return line_result(LineKind.OBJECT, facts, tuple(issues), f"{tag} {kind}" if titled else "")
    if tag == "event_msg" and isinstance(payload, dict) and isinstance(payload.get("type"), str) and \
            payload["type"] not in s.EVENT_KINDS:
        kind = payload["type"]
        issues += _payload_issues(text, tag, s.Event(kind))
        return line_result(LineKind.OBJECT, Facts(shared, kind, readable=False, ordinal=_ordinal(obj.get("ordinal")),
                                                  has_ordinal="ordinal" in obj), tuple(issues),
                           f"event {kind}" if titled else "")
    problems = [] if "payload" in obj else [validate.SchemaIssue(IssueKind.MISSING, ("payload",), "missing", None)]
    if "payload" in obj:
        problems = [validate.SchemaIssue(i.kind, ("payload", *i.path), i.message, i.owner)
                    for i in validate.check(payload, s.PAYLOADS[tag]) if i.kind is not IssueKind.UNKNOWN_FIELD]
    for problem in problems:
        issues.append(_schema_issue(text, tag, problem))
    readable = not problems and not any(i.code == "CDX030" or (i.code == "CDX008" and "is lost" in i.message)
                                        for i in issues)
    facts = _loose_facts(shared, obj, readable)
    return line_result(LineKind.OBJECT, facts, tuple(issues), f"{tag} (does not fit)" if titled else "")


def _loose_facts(tag: str, obj: dict[str, Any], readable: bool) -> Facts:
    """The facts of a line Codex cannot read (or reads in spite of a damaged envelope), as far as its values allow:
    they still name calls and turns for navigation."""
    payload = obj.get("payload")
    payload = payload if isinstance(payload, dict) else {}

    def string(value: Any) -> str | None:
        return value if isinstance(value, str) else None

    kind = string(payload.get("type"))
    return Facts(tag, kind, readable, string(payload.get("role")), string(payload.get("call_id")),
                 string(payload.get("name")), string(payload.get("id")) if tag == "response_item" else None,
                 string(payload.get("turn_id")), _ordinal(obj.get("ordinal")), "ordinal" in obj,
                 session=string(payload.get("id")) if tag == "session_meta" else None,
                 forked_from=string(payload.get("forked_from_id")) if tag == "session_meta" else None)


def _schema_issue(text: str, tag: str, issue: validate.SchemaIssue) -> LineIssue:
    where = dotted(issue.path)
    if issue.kind is IssueKind.MISSING:
        start, end = _span(text, issue.path[:-1]) if len(issue.path) > 1 else content_span(text)
        what = f"`{where}` is missing"
    else:
        start, end = _span(text, issue.path)
        what = f"`{where}`: {issue.message}"
    if tag == "session_meta":
        does = ("Codex cannot read the session metadata and refuses to resume the file; correct the value (the quick "
                "fix takes it from the file name and the rest of the rollout)")
        severity = None
    elif tag in ("response_item", "compacted"):
        does = (f"{LOST}, so the {'item' if tag == 'response_item' else 'compaction'} is not sent; correct the "
                "value to what Codex writes there")
        severity = None
    else:
        does = f"{LOST} (a {tag} record the model is not sent)"
        severity = Severity.WARNING
    return LineIssue("CDX005", start, end, f"{what} in a `{tag}` line: {does}", severity)


def title(tag: str, payload: Any) -> str:
    """How outlines and trees name a line: its type, and the first words of what it says."""
    if isinstance(payload, s.Message):
        text = next((c.text for c in payload.content if isinstance(c, s.InputText | s.OutputText)), "")
        return f"{payload.role}: {ellipsized(' '.join(text.split()), 60)}"
    if isinstance(payload, s.FunctionCall | s.CustomToolCall):
        return f"{payload.name} call"
    if isinstance(payload, s.FunctionCallOutput | s.CustomToolCallOutput):
        return "tool output"
    if isinstance(payload, s.Item):
        return str(payload.__struct_config__.tag)
    if isinstance(payload, s.Event):
        return f"event {payload.type}"
    if isinstance(payload, s.Compacted):
        return f"compacted: {ellipsized(' '.join(payload.message.split()), 60)}"
    return tag
