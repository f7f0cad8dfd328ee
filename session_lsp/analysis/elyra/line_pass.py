"""The Elyra line pass: what one line is, what is wrong with it on its own, and the facts the link pass needs.

Fast path: one typed decode into `schema.Line`. Success means the line is schema-valid, so only the semantic
checks below run, on the Structs, and nothing is scanned for positions unless one of them fires.
Slow path (the decode failed): the generic decoder says whether the line is blank, broken, glued or not an
object; for an object `validate.check` lists every schema problem with its path, and the same semantic checks
run on a `Loose` view of the dict, which reads like the Structs (a value is UNSET or of its declared type).
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from .. import validate
from ..detect import FormatInfo
from ..diagnostics import LineIssue, Severity
from ..jsonscan import Path
from ..lines import MAX_DEPTH, Decoded, LineKind, decode, glue_point, may_decode_too_deep, overflowing_numbers, too_deep
from ..result_store import IN_STORE
from ..results import Finding, LineResult, Mark, line_result
from ..text import LastSeen, Vocabulary
from . import schema
from .fact_columns import (
    ASSISTANT,
    COUNT_SHIFT,
    END,
    MAX_CALLS,
    MAX_INDEX,
    NULL_PARENT,
    STOP_CODES,
    TOOL_RESULT,
    USER,
    FactColumns,
    Writer,
    hex_key,
    stamp_key,
)
from .facts import FAILED_STOPS, EntryFacts, HeaderFacts, NullFacts, SpecialFacts, ToolCallFact
from .findings import to_issues
from .loose import has, line_view
from .releases import DEFAULT_RELEASE, RELEASES, PiRelease
from .schema_issues import finding_for
from .titles import entry_title, header_title

UNSET = msgspec.UNSET
_DECODER = msgspec.json.Decoder(schema.Line)
_OBJECT = LineKind.OBJECT

CURRENT_VERSION = 3
_PLAIN_STOPS = frozenset({"stop", "length", "toolUse"})

_PI_TIME = re.compile(r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z\Z")
"""`Date.prototype.toISOString()`, the only form pi writes."""
_ISO_TIME = re.compile(
    r"[+-]?\d{4,6}-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?"
    r"(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?\Z"
)
"""Any ISO-8601 form JavaScript's `Date` parses."""
_is_pi_time = _PI_TIME.match
_is_iso_time = _ISO_TIME.match
_HEX = "0123456789abcdef"
_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\Z")

UNSAFE_FIX = "(quick fix, or `session-lsp fix --unsafe-fixes`)"
"""How a message names the repair of a rule whose fix is unsafe."""



class LineState:
    """What the line pass carries from one line to the next of one document: the id of the entry read last (pi
    writes each entry below the one before, so the next parentId equals it), the tool call ids of the last
    assistant message (its results follow it, and name the call with an equal string, read as that object) and the
    document's `Vocabulary`; and whether lines get titles (`check` shows none, so it computes none). A document's
    analyzer owns one, so no two documents or threads share it."""

    __slots__ = ("calls", "id_key", "keyed_id", "keyed_time", "last_id", "last_time", "shared", "time_key",
                 "titles", "writer")

    def __init__(self, titles: bool = True) -> None:
        self.last_id = LastSeen()
        self.last_time: str | None = None
        """The last timestamp the fast path found in pi's form: pi writes a burst of entries in one millisecond, so
        an equal one is known good (and kept as that object) without matching it again."""
        self.calls: dict[str, str] = {}
        self.shared = Vocabulary().shared
        self.titles = titles
        self.writer: Writer | None = None
        """What the file pass writes the facts of plain messages with (`FactColumns.writer` of a read-only
        document's store, see `face.fact_store`); None: it makes an `EntryFacts` for each."""
        self.keyed_id: str | None = None
        self.id_key = 0
        """The id of the plain message written last into the columns, and its integer: the next line's parent."""
        self.keyed_time: str | None = None
        self.time_key = 0
        """The timestamp written last into the columns, and its integer (`stamp_key`)."""

JUNK_FACTS = EntryFacts(type=None, id=None, has_id=False, parent_id=None, has_parent=False, timestamp=None)
"""pi keeps a non-object line as an id-less junk entry."""
NULL_FACTS = NullFacts(type=None, id=None, has_id=False, parent_id=None, has_parent=False, timestamp=None)
"""A `null` line pi 0.73 keeps (and throws on); a type of its own, so it never equals JUNK_FACTS."""

Base = tuple[str | None, str | None, bool, str | None, bool, str | None]
"""The entry base facts in `EntryFacts` order: type, id, has_id, parent_id, has_parent, timestamp."""


def analyze_line(text: str, info: FormatInfo, state: LineState | None = None,
                 release: PiRelease = RELEASES[DEFAULT_RELEASE], line_end: bool = False) -> LineResult:
    """`state` is the document's (a line read alone gets a fresh one); `release` is the pi whose behaviour the
    messages state (what it knows, its header scan limit). `line_end`: also ELY026 on an entry line that ends with
    `\r` (a line pi cannot read has its own error already), as a document's line pass asks; a line read alone is
    read as JSON only."""
    if state is None:
        state = LineState()
    if may_decode_too_deep(text):
        return _ended(text, _slow(text, info, release, state), line_end)
    try:
        line = _DECODER.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return _ended(text, _slow(text, info, release, state), line_end)
    except UnicodeEncodeError:
        # lone surrogates (an editor can send them) are not UTF-8; read each as "?", which keeps every column
        return analyze_line(text.encode("utf-8", "replace").decode("utf-8"), info, state, release, line_end)
    return _typed(text, line, info, release, state, line_end)


def analyze_lines(texts: Iterable[str], info: FormatInfo, state: LineState,
                  release: PiRelease = RELEASES[DEFAULT_RELEASE]) -> Iterator[LineResult]:
    """`analyze_line` of each of a file's lines (`line_end` set), in one loop: most lines of a file pi wrote are
    plain messages, read here without a call a line to get to `_plain_message`; every line is decoded once (one the
    decoder refuses takes `analyze_line`'s way, which reads it again on the slow path)."""
    decode, limit, plain_message = _DECODER.decode, 2 * MAX_DEPTH + 1, _plain_message
    entry_class, plain_result, kind = _MESSAGE_ENTRY, _LineResult, _OBJECT
    in_store = IN_STORE
    for text in texts:
        if len(text) > limit and too_deep(text):  # may_decode_too_deep, without a call for the many shorter lines
            yield analyze_line(text, info, state, release, True)
            continue
        try:
            line = decode(text)
        except (msgspec.DecodeError, UnicodeEncodeError, RecursionError):
            yield analyze_line(text, info, state, release, True)
            continue
        if line.__class__ is entry_class and not state.titles:
            if text[-1:] != "\r":
                plain = plain_message(line, info, release, state, state.writer)
                if plain is in_store:
                    yield in_store
                elif plain is not None:
                    yield plain_result(kind, plain)
                else:
                    yield _ended(text, _full(text, line, info, release, state), True)
                continue
            plain = plain_message(line, info, release, state)
            yield _ended(text, plain_result(kind, plain) if plain is not None else
                         _full(text, line, info, release, state), True)
            continue
        yield _typed(text, line, info, release, state, True)


def _typed(text: str, line: Any, info: FormatInfo, release: PiRelease, state: LineState,
           line_end: bool) -> LineResult:
    """A line the typed decode read: a plain message's facts straight from the Structs, any other line through every
    rule of its type."""
    if line.__class__ is _MESSAGE_ENTRY:
        plain = _plain_message(line, info, release, state)
        if isinstance(plain, EntryFacts):  # without columns, the facts or None
            return _ended(text, _LineResult(_OBJECT, plain) if not state.titles else
                          line_result(_OBJECT, plain, (), entry_title(line, plain, state.shared)), line_end)
    return _ended(text, _full(text, line, info, release, state), line_end)


def _full(text: str, line: Any, info: FormatInfo, release: PiRelease, state: LineState) -> LineResult:
    """A decoded line through every rule of its type."""
    findings: list[Finding] = []
    if line.type == "message":
        facts = _entry(line, info, findings, release, state)
        return line_result(_OBJECT, facts, to_issues(text, findings) if findings else (),
                           entry_title(line, facts, state.shared) if state.titles else "")
    return _object(text, line, info, findings, release, state)


def _ended(text: str, result: LineResult, line_end: bool) -> LineResult:
    """`result`, with ELY026 when `line_end` asks for it and the line is an entry ending with `\r`."""
    if line_end and text[-1:] == "\r" and result.kind is _OBJECT:
        end = len(text)
        return msgspec.structs.replace(result, issues=(*result.issues, LineIssue("ELY026", end - 1, end, _CRLF)))
    return result


_CRLF = ("the line ends with `\\r\\n`: pi splits the file on `\\n` and reads the `\\r` as JSON whitespace, so the "
         "entry is read as written; pi writes `\\n` alone (a rewrite drops every `\\r`), so the file was edited "
         "elsewhere; the quick fix (or `session-lsp fix`) writes `\\n`")


def _plain_message(entry: Any, info: FormatInfo, release: PiRelease, state: LineState,
                   writer: Writer | None = None) -> EntryFacts | LineResult | None:
    """The facts of a `message` entry that no rule has anything to say about, in the form pi writes most lines (a
    v2+ tree entry with an 8-hex id, pi's timestamp, a user, assistant or tool result message a release knows, no
    image, a plain stop reason); None for any other line, which the full pass (`_entry`) then reads. A guard, not a
    second set of rules: each test only says that no rule of `_entry` can fire, and the facts are the ones `_entry`
    makes (tests/test_elyra_line.py compares both on every line of the corpus). Given a `writer`, the facts are
    written into its columns when they fit, and the answer is `IN_STORE`."""
    version = info.version
    entry_id, parent, timestamp = entry.id, entry.parent_id, entry.timestamp
    if (version is not None and version < 2) or entry_id is UNSET or parent is UNSET or parent == "" \
            or len(entry_id) != 8 or entry_id.strip(_HEX):
        return None
    if timestamp == state.last_time:
        timestamp = state.last_time
    elif _is_pi_time(timestamp):
        state.last_time = timestamp
    else:
        return None
    message = entry.message
    cls = message.__class__
    shared = state.shared
    call_id = name = stop = None
    if cls is _ASSISTANT:
        stop = message.stop_reason
        usage = message.usage
        level = message.thinking_level
        if stop not in _PLAIN_STOPS or message.error_message is not UNSET or release.unknown_fields \
                or (level is not UNSET and level not in release.thinking_levels) \
                or usage.total_tokens is UNSET or usage.cost is UNSET or "assistant" in release.unknown_roles:
            return None
        role, code, stop = "assistant", _ASSISTANT_CODES[stop], shared(stop)
    elif cls is _TOOL_RESULT:
        if "toolResult" in release.unknown_roles:
            return None
        for block in message.content:
            if block.__class__ is _IMAGE:
                return None
        call_id, name = message.tool_call_id, message.tool_name
        role, code = "toolResult", TOOL_RESULT
    elif cls is _USER:
        content = message.content
        if "user" in release.unknown_roles:
            return None
        if content.__class__ is list:
            for block in content:
                if block.__class__ is _IMAGE:
                    return None
        role, code = "user", USER
    else:
        return None
    last_id = state.last_id
    if parent == last_id.value:
        parent = last_id.value
    last_id.value = entry_id
    if writer is not None:
        # the columns hold a parent that is null or 8 lowercase hex characters (pi writes no other)
        parent_key: int | None
        if parent is None:
            parent_key = 0
            code |= NULL_PARENT
        elif parent is state.keyed_id:
            parent_key = state.id_key
        else:
            parent_key = hex_key(parent)
        if timestamp is not state.keyed_time:
            if timestamp.isascii():  # `\d` matches any digit, and the columns give back ASCII ones
                state.keyed_time, state.time_key = timestamp, stamp_key(timestamp)
            else:
                parent_key = None
        if parent_key is not None:
            add_code, add_id, add_parent, add_stamp, add_tool_at, store = writer
            record = 0
            if cls is _ASSISTANT:
                record = _call_records(message.content, store)
                if record > 0:
                    code |= (record & MAX_CALLS) << COUNT_SHIFT
                    record >>= CALLS_BITS
            elif call_id is not None:  # a result's record: its tool name's number, its call id
                number = store.name_numbers.get(name)  # type: ignore[arg-type]  # a result's name is a str
                if number is None and (number := store.number(name)) is None:  # type: ignore[arg-type]
                    record = -1
                else:
                    marks, ids = store.call_marks, store.call_ids
                    marks.append(number)
                    ids += call_id.encode()
                    ids.append(END)
                    record = len(marks) - 1
            if record >= 0:  # else calls the records cannot hold
                key = int(entry_id, 16)
                state.keyed_id, state.id_key = entry_id, key
                add_code(code)
                add_id(key)
                add_parent(parent_key)
                add_stamp(state.time_key)
                add_tool_at(record)
                return IN_STORE
    calls: tuple[ToolCallFact, ...] = ()
    if cls is _ASSISTANT:
        found = [_ToolCallFact(block.id, shared(block.name), index)
                 for index, block in enumerate(message.content) if block.__class__ is _TOOL_CALL]
        if found:
            calls = tuple(found)
            state.calls = {call.id: call.id for call in found}
    elif call_id is not None:
        call_id, name = state.calls.get(call_id, call_id), shared(name)  # type: ignore[arg-type]
    return EntryFacts("message", entry_id, True, parent, True, timestamp, role, stop, calls, call_id, name)


CALLS_BITS = 3
"""`_call_records` answers its first record << CALLS_BITS | the number of calls (at most `MAX_CALLS`)."""


def _call_records(content: list[Any], store: FactColumns) -> int:
    """The records of an assistant message's tool calls, written into `store` (see `FactColumns.call_marks`): the
    first one << CALLS_BITS | their number; 0 for a message without calls; -1, no record written, for calls the
    records cannot hold (more than `MAX_CALLS`, a block past the 256th, a 257th tool name), and the line keeps its
    facts object. Here, not in `FactColumns`, and as little as can be for a message without calls: this runs on a
    third of the lines."""
    first = 0
    for index, block in enumerate(content):
        if block.__class__ is not _TOOL_CALL:
            continue
        if not first:
            marks, numbers, ids = store.call_marks, store.name_numbers, store.call_ids
            first, size = len(marks), len(ids)  # records start at 1
        number = numbers.get(name := block.name)
        if (number is None and (number := store.number(name)) is None) or index >= MAX_INDEX \
                or len(marks) - first == MAX_CALLS:
            del marks[first:], ids[size:]
            return -1
        marks.append(number | index << 8)
        ids += block.id.encode()  # msgspec decodes no lone surrogate
        ids.append(END)
    return first << CALLS_BITS | len(marks) - first if first else 0


_ASSISTANT_CODES = {stop: ASSISTANT | code for stop, code in STOP_CODES.items()}


_MESSAGE_ENTRY = schema.MessageEntry
_ASSISTANT = schema.AssistantMessage
_TOOL_RESULT = schema.ToolResultMessage
_USER = schema.UserMessage
_TOOL_CALL = schema.ToolCall
_IMAGE = schema.ImageContent
_ToolCallFact = ToolCallFact
_LineResult = LineResult


def line_title(text: str, result: LineResult, state: LineState) -> str | None:
    """The title `analyze_line` gives a line it reads on its fast path, made from the facts it made then (`result`):
    a document names a line only when a feature reads its title. None for any other line: the caller runs the
    whole line pass."""
    if result.kind is not _OBJECT or may_decode_too_deep(text):
        return None
    try:
        line = _DECODER.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError, RecursionError):
        return None
    if line.type == "session":
        return header_title(line)
    return entry_title(line, result.facts, state.shared)


def _object(text: str, line: Any, info: FormatInfo, findings: list[Finding], release: PiRelease,
            state: LineState) -> LineResult:
    facts: EntryFacts | HeaderFacts
    title = ""
    if line.type == "session":
        facts = _header(text, line, findings, release)
        if state.titles:
            title = header_title(line)
    else:
        facts = _entry(line, info, findings, release, state)
        if state.titles:
            title = entry_title(line, facts, state.shared)
    return line_result(_OBJECT, facts, to_issues(text, findings) if findings else (), title)


def _tree(info: FormatInfo) -> bool:
    """Whether entries must carry id/parentId (v2+). An unknown version is taken as the current one."""
    return info.version is None or info.version >= 2


def _version(info: FormatInfo) -> int:
    return CURRENT_VERSION if info.version is None else info.version


# -- the slow path --------------------------------------------------------------------------------------------------

def _slow(text: str, info: FormatInfo, release: PiRelease, state: LineState) -> LineResult:
    decoded = decode(text)
    kind = decoded.kind
    if kind is LineKind.BLANK:
        issue = LineIssue("ELY004", 0, len(text), "blank line: pi skips it when loading (pi never writes one)")
        return line_result(kind, None, (issue,))
    result = _decoded(text, decoded, info, release, state)
    extra: tuple[LineIssue, ...] = ()
    if decoded.too_deep:
        start, end = decoded.deep
        extra = (LineIssue("ELY007", start, end, f"a value nested deeper than {MAX_DEPTH} levels: pi's JSON.parse "
                           "reads it like any other, but this checker reads the line without it, so nothing inside "
                           "it is checked"),)
    if decoded.overflow:
        extra += tuple(LineIssue("ELY009", start, end, f"the number {text[start:end]} is beyond what a JavaScript "
                                 "number holds: pi's JSON.parse reads it as " + ("-" if text[start] == "-" else "")
                                 + "Infinity and keeps the entry; whatever pi writes or sends of it becomes null")
                       for start, end in overflowing_numbers(text))
    if not extra:
        return result
    return msgspec.structs.replace(result, issues=(*result.issues, *extra))


def _decoded(text: str, decoded: Decoded, info: FormatInfo, release: PiRelease, state: LineState) -> LineResult:
    """What a line the generic decoder has classified (not blank) is."""
    kind = decoded.kind
    if kind is LineKind.INVALID:
        col = decoded.error_col
        end = col + 1 if col < len(text.rstrip()) else col
        message = (f"invalid JSON ({decoded.error}): pi skips this line silently, so the entry is lost "
                   "(for good after pi's next rewrite of the file); repair the JSON by hand, or, when it is the torn "
                   "last line of the file, cut it (quick fix, or `session-lsp fix --unsafe-fixes`)")
        return line_result(kind, None, (LineIssue("ELY001", col, end, message),),
                           "invalid JSON" if state.titles else "")
    if kind is LineKind.GLUED:
        count = len(decoded.parts)
        message = (f"{count} JSON records glued on one line (a newline is missing): pi cannot parse the line and "
                   f"drops it, losing all {count} records; the quick fix (or `session-lsp fix`) splits it")
        start, end = glue_point(text, decoded.parts)
        issue = LineIssue("ELY002", start, end, message, data={"parts": list(decoded.parts)})
        return line_result(kind, None, (issue,), f"{count} glued records" if state.titles else "", decoded.parts)
    if kind is LineKind.NON_OBJECT:
        value = decoded.value
        what = validate.json_type(value)
        start = len(text) - len(text.lstrip())
        falsy = value is None or value is False or value == "" or (type(value) in (int, float) and value == 0)
        title = f"not an object ({what})" if state.titles else ""
        if falsy and release.falsy_line is not None:
            return line_result(kind, None, (LineIssue("ELY003", start, len(text.rstrip()),
                                                      f"a JSON {what}, not an object: {release.falsy_line}; "
                                                      f"delete the line {UNSAFE_FIX}"),), title)
        if value is None:
            return line_result(kind, NULL_FACTS, (LineIssue("ELY003", start, len(text.rstrip()),
                                                            f"a JSON null, not an object: {release.null_line}; delete "
                                                            f"the line {UNSAFE_FIX}"),),
                               title)
        issue = LineIssue("ELY003", start, len(text.rstrip()),
                          f"a JSON {what}, not an object: {release.name} keeps it as an entry without an id; as the "
                          "last line it becomes the leaf and pi resumes with an empty context; delete the line "
                          f"{UNSAFE_FIX}")
        return line_result(kind, JUNK_FACTS, (issue,), title)
    raw: dict[str, Any] = decoded.value
    return _object(text, line_view(raw), info, _schema_findings(raw, info, release), release, state)


_BASE_KEYS = frozenset({"type", "id", "parentId", "timestamp"})
"""The entry base: what pi's tree reads of any entry, whatever its type."""
_USAGE_EFFECT = ("pi 1.6 never sends a `usage` entry to the model, but adds it to the session's token and cost "
                 "totals, which then show wrong numbers (or the cost breakdown fails)")


def _schema_findings(raw: dict[str, Any], info: FormatInfo, release: PiRelease) -> list[Finding]:
    tree = _tree(info)
    issues = validate.check(raw, schema.Line)
    tag = raw.get("type")
    if not isinstance(tag, str) or (tag not in schema.ENTRY_TYPES and tag != "session"):
        # validate stopped at the tag; the entry base fields still matter to pi's tree
        issues += [issue for issue in validate.check(raw, schema.EntryBase)
                   if issue.kind is not validate.IssueKind.UNKNOWN_FIELD]
    message = raw.get("message")
    role = message.get("role") if isinstance(message, dict) else None
    if isinstance(tag, str) and tag in release.unknown_entry_types:
        # a release that does not know the type keeps the entry as a tree node and reads nothing else of it
        issues = [issue for issue in issues if issue.path[:1] and issue.path[0] in _BASE_KEYS]
    elif tag == "message" and isinstance(role, str) and role in release.unknown_roles:
        issues = [issue for issue in issues if issue.path[:1] != ("message",) or issue.path == ("message", "role")]
    found = [finding for issue in issues if (finding := finding_for(issue, raw, tree)) is not None]
    if tag == "usage":
        found = [_usage_finding(finding) for finding in found]
    return found


def _usage_finding(finding: Finding) -> Finding:
    """A damaged `usage` entry costs only the totals pi displays, never the context it sends."""
    if finding.code not in ("ELY032", "ELY033") or finding.path[:1] == () or finding.path[0] in _BASE_KEYS:
        return finding
    detail = finding.message.split(": pi ", 1)[0].split("; pi's code", 1)[0]
    return finding._replace(message=f"{detail}: {_USAGE_EFFECT}", severity=Severity.WARNING)


# -- header ---------------------------------------------------------------------------------------------------------

def _header(text: str, header: Any, findings: list[Finding], release: PiRelease) -> HeaderFacts:
    version = header.version
    if version is not UNSET:
        if version <= 0:
            findings.append(Finding("ELY016", ("version",), Mark.VALUE,
                                    f"header `version` {version} is below 1: pi treats it as below 2, runs the full "
                                    "v1 migration (regenerating every id and parentId) and rewrites the file; set it "
                                    "to the version the entries were written in (3 for entries with id/parentId)"))
        elif version > CURRENT_VERSION:
            findings.append(Finding("ELY015", ("version",), Mark.VALUE,
                                    f"header `version` {version} is newer than this checker knows (3): pi loads "
                                    "it as it is, without migration or checks"))
    timestamp = header.timestamp
    if timestamp is not UNSET and not _is_pi_time(timestamp) and not _is_iso_time(timestamp):
        findings.append(Finding("ELY014", ("timestamp",), Mark.VALUE,
                                f"header `timestamp` {timestamp!r} is not an ISO-8601 time: pi opens and resumes "
                                "the session as usual; only its session list, which sorts by this time, places it "
                                "out of order", Severity.INFORMATION))
    for attr, key in (("branched_from", "branchedFrom"), ("provider", "provider"), ("model_id", "modelId"),
                      ("thinking_level", "thinkingLevel")):
        if has(header, attr):
            note = " (renamed `parentSession`; the old key is never migrated)" if key == "branchedFrom" else ""
            findings.append(Finding("ELY017", (key,), Mark.KEY,
                                    f"`{key}` is a legacy v1/v2 header field: current pi ignores it{note}"))
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    limit = release.header_scan_bytes
    if size > limit:
        findings.append(Finding("ELY012", (), Mark.VALUE,
                                f"the header line is {size} bytes: {release.name}'s `--continue` reads only the "
                                f"first {limit} bytes, cannot parse them and ignores this session"))
    parent, parent_key = header.parent_session, "parentSession"
    if parent is UNSET:
        parent, parent_key = header.branched_from, "branchedFrom"
    return HeaderFacts(
        id=None if header.id is UNSET else header.id,
        version=None if version is UNSET else version,
        has_version=has(header, "version"),
        timestamp=None if timestamp is UNSET else timestamp,
        parent_session=None if parent is UNSET else parent,
        parent_session_key=None if parent is UNSET else parent_key,
        header_bytes=size,
    )


# -- entries --------------------------------------------------------------------------------------------------------

def _entry(entry: Any, info: FormatInfo, findings: list[Finding], release: PiRelease,
           state: LineState) -> EntryFacts:
    kind, entry_id, parent, timestamp = entry.type, entry.id, entry.parent_id, entry.timestamp
    version = info.version
    if version is None or version >= 2:
        if entry_id is UNSET or parent is UNSET:
            _missing_ids(entry, info, findings)
        if entry_id is not UNSET and (len(entry_id) != 8 or entry_id.strip(_HEX)) and not _UUID.match(entry_id):
            findings.append(Finding("ELY041", ("id",), Mark.VALUE,
                                    f"id {entry_id!r} is neither 8 lowercase hex characters nor a UUID: pi never "
                                    "checks ids, but only hand edits or other tools write this shape"))
    time_fact = None
    if timestamp is not UNSET:
        if _is_pi_time(timestamp):
            time_fact = timestamp
        elif not _is_iso_time(timestamp):
            findings.append(Finding("ELY035", ("timestamp",), Mark.VALUE,
                                    f"`timestamp` {timestamp!r} is not an ISO-8601 time: pi's tree ordering and "
                                    "\"modified\" dates become NaN"))
    if parent == "" and _tree(info):
        findings.append(Finding("ELY048", ("parentId",), Mark.VALUE,
                                "`parentId` is an empty string: pi builds the context by following parentId up from "
                                "the leaf, reads this one as no parent and stops here as at a root, so every entry "
                                "above this one leaves the model context (pi's tree view still hangs it under an "
                                "entry whose id is \"\", if there is one); set it to the id of the entry above"))
        parent = None
    last_id = state.last_id
    parent = last_id.same(parent)
    if type(entry_id) is str:
        last_id.value = entry_id
    base: Base = (
        None if kind is UNSET else kind,
        None if entry_id is UNSET else entry_id,
        entry_id is not UNSET,
        None if parent is UNSET else parent,
        parent is not UNSET,
        time_fact,
    )
    if kind == "message":
        return _message(entry, info, findings, base, release, state)
    unknown = release.unknown_entry_types.get(kind)
    if unknown is not None:
        findings.append(Finding("ELY030", ("type",), Mark.VALUE, unknown))
    _newer_fields(entry, kind, (), findings, release)
    check = _CHECKS.get(kind)
    if check is None:
        return EntryFacts(*base)
    return check(entry, info, findings, base, release)


_MISSING_ID_EFFECT = {
    "id": "pi indexes this entry under `undefined`, so it is unreachable and breaks the chain of its children",
    "parentId": ("pi builds the context by following parentId up from the leaf and stops at this entry as if it "
                 "were a root: every entry above it leaves the model context"),
}
"""What pi does when each tree key is absent: an absent `parentId` reads as "no parent", not as a broken link."""


def _missing_ids(entry: Any, info: FormatInfo, findings: list[Finding]) -> None:
    for attr, key in (("id", "id"), ("parent_id", "parentId")):
        if not has(entry, attr):
            findings.append(Finding("ELY021", (key,), Mark.MISSING,
                                    f"`{key}` is missing in a v{_version(info)} file: {_MISSING_ID_EFFECT[key]}; "
                                    "the quick fix (or `session-lsp fix --unsafe-fixes`) gives the entry a fresh id "
                                    "and the entry above as its parent"))


def _message(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
             release: PiRelease, state: LineState) -> EntryFacts:
    message = entry.message
    role = UNSET if message is UNSET else message.role
    if role is UNSET:
        return EntryFacts(*base)
    unknown = release.unknown_roles.get(role)
    if unknown is not None:
        findings.append(Finding("ELY060", ("message", "role"), Mark.VALUE, unknown))
    if role == "assistant":
        return _assistant(message, findings, base, release, state)
    if role == "toolResult":
        name, call_id = message.tool_name, message.tool_call_id
        name = None if name is UNSET else state.shared(name)
        _images(message.content, findings)
        call_id = None if call_id is UNSET else state.calls.get(call_id, call_id)
        return EntryFacts(*base, role=role, tool_name=name, tool_call_id=call_id)
    if role == "user":
        _images(message.content, findings)
    elif role == "bashExecution":
        _exit_code(message, findings)
    elif role == "custom" or role == "hookMessage":
        if role == "hookMessage":
            findings.append(_hook_message(info))
        _images(message.content, findings)
    elif role in schema.SUMMARY_ROLES:
        findings.append(Finding("ELY061", ("message", "role"), Mark.VALUE,
                                f"role `{role}` inside a message entry: pi builds these only in memory from "
                                "dedicated entries and never writes one; this would be sent as an extra user "
                                "message"))
    return EntryFacts(*base, role=role)


def _hook_message(info: FormatInfo) -> Finding:
    path = ("message", "role")
    if _version(info) >= 3:
        return Finding("ELY024", path, Mark.VALUE,
                       f"role `hookMessage` in a v{_version(info)} file: pi renames it to `custom` only when "
                       "migrating files below v3, so here the role is unknown and the message is dropped from "
                       "the model context")
    return Finding("ELY024", path, Mark.VALUE,
                   "role `hookMessage` will be renamed to custom on load (pi migrates the file to v3 and rewrites it)",
                   Severity.INFORMATION)


def _assistant(message: Any, findings: list[Finding], base: Base, release: PiRelease,
               state: LineState) -> EntryFacts:
    stop = message.stop_reason
    if stop not in _PLAIN_STOPS or message.error_message is not UNSET:
        _stop_findings(stop, message.error_message is not UNSET, findings, release)
    _newer_fields(message, "assistant", ("message",), findings, release)
    level = message.thinking_level
    if level is not UNSET and level not in release.thinking_levels and \
            "thinkingLevel" not in release.unknown_fields.get("assistant", ()):
        findings.append(_unknown_level(("message", "thinkingLevel"), level, release))
    usage = message.usage
    if usage is not UNSET:
        _newer_fields(usage, "usage", ("message", "usage"), findings, release)
    if usage is not UNSET and (usage.total_tokens is UNSET or usage.cost is UNSET):
        absent = [key for attr, key in (("total_tokens", "totalTokens"), ("cost", "cost"))
                  if getattr(usage, attr) is UNSET]
        older = "older pi (Nov 2025) did not write totalTokens; " if "totalTokens" in absent else ""
        findings.append(Finding("ELY065", ("message", "usage"), Mark.KEY,
                                f"usage lacks {' and '.join(f'`{key}`' for key in absent)}: {older}pi's token and "
                                "cost displays show 0 for what is missing"))
    content = message.content
    calls: list[ToolCallFact] = []
    shared = state.shared
    if content is not UNSET:
        for index, block in enumerate(content):
            if block.type == "toolCall":
                _newer_fields(block, "toolCall", ("message", "content", index), findings, release)
            if block.type == "toolCall" and block.id is not UNSET:
                calls.append(ToolCallFact(block.id, None if block.name is UNSET else shared(block.name), index))
    if calls:
        state.calls = {call.id: call.id for call in calls}
    return EntryFacts(*base, role="assistant", stop_reason=None if stop is UNSET else shared(stop),
                      tool_calls=tuple(calls))


def _stop_findings(stop: Any, has_error: bool, findings: list[Finding], release: PiRelease) -> None:
    if stop is UNSET:
        return
    path = ("message", "stopReason")
    if stop not in release.stop_reasons:
        known = ", ".join(sorted(release.stop_reasons))
        findings.append(Finding("ELY062", path, Mark.VALUE,
                                f"stop reason {stop!r} is not one {release.name} knows ({known}): pi's UI and retry "
                                "logic branch on it"))
    elif stop in release.unwritten_stop_reasons:
        findings.append(Finding("ELY068", path, Mark.VALUE,
                                f"stopReason \"{stop}\" marks a response still streaming: {release.name} never "
                                "persists it, so this message was written mid-stream (a crash or another tool); "
                                "pi sends it to the model as it is"))
    failed = stop in FAILED_STOPS
    if failed:
        findings.append(Finding("ELY063", path, Mark.VALUE,
                                f"stopReason {stop!r}: pi leaves this assistant message out entirely when it "
                                "sends the context to the model"))
    if has_error and not failed:
        findings.append(Finding("ELY064", ("message", "errorMessage"), Mark.KEY,
                                f"`errorMessage` with stopReason {stop!r}: pi sets it only on error/aborted "
                                "(inconsistent producer)"))
    elif failed and not has_error:
        findings.append(Finding("ELY064", path, Mark.VALUE,
                                f"stopReason {stop!r} without `errorMessage`: pi records why a request failed "
                                "(inconsistent producer)"))


def _exit_code(message: Any, findings: list[Finding]) -> None:
    code = message.exit_code
    if code is UNSET or code is None:
        return
    if isinstance(code, float) and not code.is_integer():
        findings.append(Finding("ELY080", ("message", "exitCode"), Mark.VALUE,
                                f"`exitCode` {code} is not an integer: pi's renderer expects an integer or no "
                                "exitCode"))
    elif message.cancelled is True:
        findings.append(Finding("ELY080", ("message", "exitCode"), Mark.VALUE,
                                "`exitCode` on a cancelled command: pi leaves exitCode out when a command is "
                                "killed, and its renderer expects none here"))


def _images(content: Any, findings: list[Finding], prefix: Path = ("message",)) -> None:
    if content.__class__ is not list:
        return
    for index, block in enumerate(content):
        if block.type != "image":
            continue
        mime, data = block.mime_type, block.data
        if mime is not UNSET and not mime.startswith("image/"):
            findings.append(Finding("ELY067", (*prefix, "content", index, "mimeType"), Mark.VALUE,
                                    f"image `mimeType` {mime!r} is not an image type: the provider rejects the "
                                    "request that carries it"))
        if data is not UNSET and not _is_base64(data):
            findings.append(Finding("ELY067", (*prefix, "content", index, "data"), Mark.VALUE,
                                    "image `data` is not base64: the provider rejects the request that carries it"))


def _is_base64(data: str) -> bool:
    try:
        binascii.a2b_base64(data.encode("ascii"), strict_mode=True)
    except (binascii.Error, UnicodeEncodeError):
        return False
    return True


def _compaction(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
                release: PiRelease) -> EntryFacts:
    kept_id, index = entry.first_kept_entry_id, entry.first_kept_entry_index
    has_index = has(entry, "first_kept_entry_index")
    if _tree(info):
        if not has(entry, "first_kept_entry_id"):
            findings.append(Finding("ELY032", ("firstKeptEntryId",), Mark.MISSING,
                                    f"required field `firstKeptEntryId` is missing in a v{_version(info)} "
                                    "compaction: pi keeps no messages from before the compaction in context; add it, "
                                    "naming the first entry to keep (usually the last user message before the "
                                    "compaction)"))
        if has_index:
            findings.append(Finding("ELY023", ("firstKeptEntryIndex",), Mark.KEY,
                                    f"`firstKeptEntryIndex` in a v{_version(info)} file: pi ignores it; only "
                                    "`firstKeptEntryId` decides what is kept"))
    elif not has_index:
        findings.append(Finding("ELY032", ("firstKeptEntryIndex",), Mark.MISSING,
                                "required field `firstKeptEntryIndex` is missing in a v1 compaction: after pi's "
                                "migration it has no `firstKeptEntryId`, so no recent messages are kept in context; "
                                "add it: the index of the first line to keep"))
    elif index is not UNSET and index < 0:
        findings.append(Finding("ELY022", ("firstKeptEntryIndex",), Mark.VALUE,
                                f"`firstKeptEntryIndex` {index} is negative: after pi's v1 migration this compaction "
                                "has no `firstKeptEntryId`, so no recent messages are kept in context"))
    return EntryFacts(*base, special=SpecialFacts(first_kept_id=None if kept_id is UNSET else kept_id,
                                                  first_kept_index=None if index is UNSET else index,
                                                  has_first_kept_index=has_index))


def _branch_summary(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
                    release: PiRelease) -> EntryFacts:
    from_id, summary = entry.from_id, entry.summary
    if summary == "":
        findings.append(Finding("ELY055", ("summary",), Mark.VALUE,
                                "empty branch summary: pi skips it when building the context"))
    return EntryFacts(*base, special=SpecialFacts(from_id=None if from_id is UNSET else from_id))


def _label(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
           release: PiRelease) -> EntryFacts:
    target, label = entry.target_id, entry.label
    target = None if target is UNSET else target
    facts = EntryFacts(*base, special=SpecialFacts(target_id=target, label=None if label is UNSET else label))
    if label == "" or not has(entry, "label"):
        whose = f"the label of {target!r}" if target is not None else "a label"
        findings.append(Finding("ELY054", ("label",) if label == "" else ("type",), Mark.VALUE,
                                f"this label entry clears {whose}: pi removes a label when `label` is absent or "
                                "empty (by design)"))
    return facts


def _session_info(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
                  release: PiRelease) -> EntryFacts:
    name = entry.name
    facts = EntryFacts(*base, special=SpecialFacts(name=None if name is UNSET else name))
    if not has(entry, "name") or (name is not UNSET and not name.strip()):
        findings.append(Finding("ELY057", ("name",) if has(entry, "name") else ("type",), Mark.VALUE,
                                "session_info without a name: pi (main) ignores it, newer pi clears the session "
                                "name"))
    return facts


def _custom_message(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
                    release: PiRelease) -> EntryFacts:
    _images(entry.content, findings, ())
    return EntryFacts(*base)


def _thinking_level(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
                    release: PiRelease) -> EntryFacts:
    level = entry.thinking_level
    if level is not UNSET and level not in release.thinking_levels:
        findings.append(_unknown_level(("thinkingLevel",), level, release))
    return EntryFacts(*base)


def _newer_fields(value: Any, holder: str, path: Path, findings: list[Finding], release: PiRelease) -> None:
    """Fields of a newer pi that the targeted release ignores are named for what they are, not as typos."""
    for key in release.unknown_fields.get(holder, ()):
        if has(value, _snake(key)):
            findings.append(Finding("ELY034", (*path, key), Mark.KEY,
                                    f"`{key}` is a pi 1.x field that {release.name} does not know: it keeps it in "
                                    "the file and ignores it"))


def _snake(key: str) -> str:
    return _CAPITAL.sub(lambda capital: "_" + capital.group().lower(), key)


_CAPITAL = re.compile(r"[A-Z]")


def _unknown_level(path: Path, level: str, release: PiRelease) -> Finding:
    known = ", ".join(sorted(release.thinking_levels))
    return Finding("ELY069", path, Mark.VALUE,
                   f"thinking level {level!r} is not one {release.name} knows ({known}): pi passes it on to the "
                   "provider, which rejects it or falls back to its own default")


def _context_edit(entry: Any, info: FormatInfo, findings: list[Finding], base: Base,
                  release: PiRelease) -> EntryFacts:
    target = entry.target_id
    target = None if target is UNSET else target
    replacement = entry.replacement
    omits = replacement is None
    content = getattr(replacement, "content", None) if replacement is not UNSET and not omits else None
    keeps_calls = isinstance(content, list) and any(getattr(block, "type", None) == "toolCall" for block in content)
    return EntryFacts(*base, special=SpecialFacts(target_id=target, omits=omits, keeps_calls=keeps_calls))


_CHECKS = {
    "compaction": _compaction,
    "branch_summary": _branch_summary,
    "label": _label,
    "session_info": _session_info,
    "custom_message": _custom_message,
    "thinking_level_change": _thinking_level,
    "context_edit": _context_edit,
}
