"""The line pass for Claude Code: one line alone -> its kind, line-local issues, facts and outline title.

Fast path: one typed decode into `schema.Record`. Claude Code keeps adding fields and ignores those it does not know,
so unknown fields are not problems and a decoded line is done. Slow path, on failure: the generic decode of
`lines.decode` classifies the line (blank, torn, glued, not an object), `validate.check` lists what does not fit the
schema, and facts are read from the object as far as its values allow.

What Claude Code 2.1.332 does with a damaged line was seen with the real CLI resuming damaged copies: it skips what
is not JSON (blank lines, torn halves, NUL padding), reads both records of a glued line, ignores a trailing `\\r`.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from .. import jsonscan, validate
from ..detect import FormatInfo, Kind
from ..diagnostics import LineIssue, Severity
from ..jsonscan import Path, dotted
from ..lines import LineKind, decode, split_glued
from ..results import LineResult, line_result
from ..text import content_span, ellipsized
from ..validate import IssueKind
from . import schema as s
from .facts import Facts, GluedFacts, LineState, of_object, of_record, records_of

_DECODER = msgspec.json.Decoder(s.Record)

_TYPE = re.compile(r'"type"\s*:\s*"([^"]*)"')
_CUT_TYPE = re.compile(r'"type"\s*:\s*"([^"]*)$')
_CONVERSATION = frozenset({"user", "assistant", "attachment", "system"})
LOST = "Claude Code skips the line when it loads the session, so the record on it is lost"


def analyze_line(text: str, info: FormatInfo, state: LineState | None = None) -> LineResult:
    """`state` is the document's (a line read alone gets a fresh one)."""
    if state is None:
        state = LineState()
    try:
        record = _DECODER.decode(text)
    except msgspec.DecodeError:
        return _slow(text, state)
    issues = _record_issues(text, record)
    if text.endswith("\r"):
        issues = (*issues, _crlf(text))
    return line_result(LineKind.OBJECT, of_record(record, text, state), issues,
                       title(record) if state.titles else "")


def _record_issues(text: str, record: Any) -> tuple[LineIssue, ...]:
    subtype = None
    path: Path = ()
    kind = ""
    if isinstance(record, s.System) and record.subtype is not None and record.subtype not in s.SYSTEM_SUBTYPES:
        subtype, path, kind = record.subtype, ("subtype",), "`system` subtype"
    elif isinstance(record, s.Attachment):
        value = record.attachment.get("type")
        if isinstance(value, str) and value not in s.ATTACHMENT_TYPES:
            subtype, path, kind = value, ("attachment", "type"), "attachment type"
    if subtype is None:
        return ()
    start, end = _span(text, path)
    message = (f"`{subtype}` is not a {kind} Claude Code 2.1.332 writes: it keeps the record in the chain but "
               "renders nothing for it on resume (a newer release's record, or a typo)")
    return (LineIssue("CCD012", start, end, message),)


def _crlf(text: str) -> LineIssue:
    end = len(text)
    return LineIssue("CCD005", end - 1, end, "the line ends with `\\r\\n`: Claude Code reads the `\\r` as JSON "
                     "whitespace and the record as written (it writes `\\n` alone); the quick fix (or `session-lsp "
                     "fix`) writes `\\n`")


def _span(text: str, path: Path, key: bool = False) -> tuple[int, int]:
    found = jsonscan.path_span(text, path, key)
    return found if found is not None else content_span(text)


def _slow(text: str, state: LineState) -> LineResult:
    if text.startswith("\x00") and text.lstrip("\x00").strip():
        return _after_nul(text, state)
    decoded = decode(text)
    kind = decoded.kind
    titled = state.titles
    if kind is LineKind.BLANK:
        return LineResult(LineKind.BLANK)
    if kind is LineKind.INVALID:
        return _invalid(text, decoded.error, decoded.error_col, titled)
    if kind is LineKind.GLUED:
        return _glued(text, decoded.parts, state)
    if kind is LineKind.NON_OBJECT:
        start, end = content_span(text)
        got = validate.json_type(decoded.value)
        return line_result(kind, None, (LineIssue("CCD003", start, end, f"JSON {got}, not a record object: {LOST}"),),
                           f"JSON {got}" if titled else "")
    return _object(text, decoded.value, state)


def _after_nul(text: str, state: LineState) -> LineResult:
    """NUL bytes before a record: JSON cannot start with them, so Claude Code does not read the line, and the record
    after them is lost (seen with the real CLI: a response's thinking or text record so padded is not sent)."""
    padding = len(text) - len(text.lstrip("\x00"))
    record = text[padding:]
    inner = analyze_line(record, FormatInfo(Kind.CLAUDE), LineState(titles=state.titles))
    tag = next((f.tag for f in records_of(inner.facts)), None)
    if tag == "attachment" and '"rendered"' not in record:
        does, severity = ("so the attachment after them is lost, one Claude Code renders nothing for (the chain is "
                          "linked over it)"), Severity.WARNING
    elif tag in _CONVERSATION or record.startswith('{"parentUuid"'):
        does, severity = "so the record after them is lost from the conversation", Severity.ERROR
    else:
        does, severity = (f"so the {f'`{tag}` ' if tag else ''}record after them is lost, which the conversation "
                          "does not need"), Severity.WARNING
    message = (f"{padding} NUL bytes before the record (a crash left them): Claude Code does not read the line, "
               f"{does}; delete the NUL bytes (the record after them is whole)")
    return line_result(LineKind.INVALID, None, (LineIssue("CCD006", 0, padding, message, severity),), inner.title)


def _invalid(text: str, error: str, error_col: int, titled: bool) -> LineResult:
    stripped = text.rstrip()
    end = len(stripped)
    if text.strip("\x00 \r\t") == "":
        message = ("NUL bytes, no record (a crash left the file's preallocated end unwritten): Claude Code skips the "
                   "line; delete it")
        return line_result(LineKind.INVALID, None, (LineIssue("CCD006", 0, max(len(text), 1), message),),
                           "NUL padding" if titled else "")
    start = min(error_col, max(end - 1, 0))
    kind = _torn_kind(text)
    if kind is not None:
        held = (f"it held a `{kind}` record, which the conversation does not need" if kind else
                "nothing on it reads as a conversation record (Claude Code writes those starting with "
                "`{\"parentUuid\":`)")
        message = (f"not JSON ({error}): Claude Code skips the line; {held}, so the resumed conversation is whole; "
                   "delete the line")
        return line_result(LineKind.INVALID, None, (LineIssue("CCD001", start, max(end, start + 1), message,
                                                              Severity.WARNING),), "not JSON" if titled else "")
    message = (f"not JSON ({error}): {LOST} (a torn write: the rest of the record was never written); the chain is "
               "bridged over it, a call or result it held loses its partner, and a torn last response is replaced "
               "by 'No response requested.'; complete the record by hand or delete the line")
    return line_result(LineKind.INVALID, None, (LineIssue("CCD001", start, max(end, start + 1), message),),
                       "not JSON" if titled else "")


def _torn_kind(text: str) -> str | None:
    """What a line that is not JSON held when it cannot have been a conversation record: its `type` (a cut one
    included), or "" when nothing on it reads as a record; None when it may have been one. Claude Code writes every
    conversation record starting with `{"parentUuid":` and every other record starting with `{"type":`."""
    if '"parentUuid"' in text:
        return None
    seen = _TYPE.search(text)
    if seen is not None:
        return None if seen.group(1) in _CONVERSATION else seen.group(1)
    cut = _CUT_TYPE.search(text)
    if cut is not None:
        value = cut.group(1)
        return None if any(tag.startswith(value) for tag in _CONVERSATION) else value + "…"
    return ""


def _glued(text: str, parts: tuple[int, ...], state: LineState) -> LineResult:
    pieces = split_glued(text, parts)
    facts: list[Facts] = []
    for piece in pieces:
        value = decode(piece)
        if value.kind is LineKind.OBJECT:
            facts.append(_piece_facts(piece, value.value, state))
    lost = [f.tag for f in facts[1:]]
    conversation = [tag for tag in lost if tag in _CONVERSATION]
    does = (f"the {', '.join(conversation)} record{'s' if len(conversation) > 1 else ''} after the first "
            "{are} lost from the conversation".format(are="are" if len(conversation) > 1 else "is") if conversation
            else "the bookkeeping after it is lost, which the conversation does not need")
    message = (f"{len(parts)} JSON records on one line (a newline is missing before column {parts[1] + 1}): Claude "
               f"Code 2.1.332 reads the first record only: {does}; split the line")
    issue = LineIssue("CCD002", parts[0], len(text.rstrip()), message, None if conversation else Severity.WARNING)
    return line_result(LineKind.GLUED, GluedFacts(tuple(facts[:1])), (issue,),
                       f"{len(parts)} glued records" if state.titles else "", parts)


def _piece_facts(piece: str, obj: dict[str, Any], state: LineState) -> Facts:
    try:
        return of_record(msgspec.convert(obj, s.Record), piece, state)
    except msgspec.ValidationError:
        return of_object(obj, piece)


def _object(text: str, obj: dict[str, Any], state: LineState) -> LineResult:
    titled = state.titles
    tag = obj.get("type")
    issues: list[LineIssue] = []
    if not isinstance(tag, str):
        if "type" in obj:
            start, end = _span(text, ("type",))
            message = (f"`type` is {validate.json_type(tag)}, not a string: Claude Code cannot tell what the record "
                       "is and leaves it out of the session")
        else:
            start, end = content_span(text)
            message = "no `type`: Claude Code cannot tell what the record is and leaves it out of the session"
        issues.append(LineIssue("CCD007", start, end, message))
        return line_result(LineKind.OBJECT, of_object(obj, text), tuple(issues),
                           "record without type" if titled else "")
    cls = s.RECORD_TYPES.get(tag)
    if cls is None:
        start, end = _span(text, ("type",))
        chained = "uuid" in obj and "parentUuid" in obj
        does = ("it still links the record into the chain by its uuid but sends nothing for it" if chained else
                "it ignores the line")
        message = f"`{tag}` is not a record type Claude Code 2.1.332 writes: {does} (a newer release's record?)"
        issues.append(LineIssue("CCD011", start, end, message))
        return line_result(LineKind.OBJECT, of_object(obj, text), tuple(issues), tag if titled else "")
    for issue in validate.check(obj, cls):
        if issue.kind is IssueKind.UNKNOWN_FIELD:
            continue
        issues.append(_schema_issue(text, tag, issue))
    if text.endswith("\r"):
        issues.append(_crlf(text))
    return line_result(LineKind.OBJECT, of_object(obj, text), tuple(issues),
                       f"{tag} (does not fit)" if titled else "")


def _schema_issue(text: str, tag: str, issue: validate.SchemaIssue) -> LineIssue:
    where = dotted(issue.path)
    if issue.kind is IssueKind.UNKNOWN_TAG and "content" in issue.path:
        start, end = _span(text, issue.path)
        return LineIssue("CCD013", start, end, f"`{where}`: {issue.message}: not a content block Claude Code "
                         "2.1.332 knows; it sends the block as written and the API rejects the request (400)")
    if issue.kind is IssueKind.MISSING:
        start, end = _span(text, issue.path[:-1])
        what = f"`{where}` is missing"
    else:
        start, end = _span(text, issue.path)
        what = f"`{where}`: {issue.message}"
    if issue.path and issue.path[0] == "uuid":
        does = "Claude Code cannot link the record into the chain, so it is left out of the resumed conversation"
    elif issue.path and issue.path[0] == "message":
        does = "Claude Code sends the message as written and the API rejects the request (400)"
    else:
        does = "Claude Code reads the record with this value as written, which it never writes"
    return LineIssue("CCD010", start, end, f"{what} in a `{tag}` record: {does}")


def title(record: Any) -> str:
    """How outlines and trees name a record: its type, and the first words of what it says."""
    tag = record.__struct_config__.tag
    if isinstance(record, s.User | s.Assistant):
        return f"{tag}: {ellipsized(_first_text(record.message.content), 60)}"
    if isinstance(record, s.System):
        return f"system {record.subtype or ''}".rstrip()
    if isinstance(record, s.Attachment):
        kind = record.attachment.get("type")
        return f"attachment {kind}" if isinstance(kind, str) else "attachment"
    if isinstance(record, s.Summary):
        return f"summary: {ellipsized(record.summary, 60)}"
    return str(tag)


def _first_text(content: str | list[Any]) -> str:
    if isinstance(content, str):
        return " ".join(content.split())
    for block in content:
        if isinstance(block, s.Text):
            return " ".join(block.text.split())
        if isinstance(block, s.ToolUse | s.ServerToolUse):
            return f"{block.name} call"
        if isinstance(block, s.ToolResult):
            return "tool result (error)" if block.is_error else "tool result"
        if isinstance(block, s.Thinking | s.RedactedThinking):
            return "thinking"
    return ""
