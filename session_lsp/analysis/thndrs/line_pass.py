"""The line pass for thndrs: one line alone -> its kind, line-local issues, facts and outline title.

Fast path: one typed decode into `schema.Record` with a module-level Decoder. Success means the line is a complete,
well-typed 0.1.0 record with no unknown key. The record is then re-encoded and compared with the line (see
`duplicates`): equal means it has no repeated key either, and the line is done without any scan. Line-local value
checks (`checks`) read the Struct; columns are computed only for a finding.

Slow path, on any failure: the generic decode of `lines.decode` classifies the line, `validate.check` lists every
schema problem with its path, and `jsonscan` turns paths into columns. A record whose only problems are unknown keys
is still read by thndrs, so it is converted to its Struct and checked like a fast-path record.

Blank lines are reported by the link pass (THN070): only it knows whether an empty last element is a blank line or
the end of a file that ends with "\\n". The facts of a glued line are the number of records on it (the link pass
counts them as lost when it judges a seq gap); other unreadable lines have none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from .. import jsonscan, validate
from ..detect import FormatInfo
from ..diagnostics import LineIssue
from ..jsonscan import Path, dotted
from ..lines import LineKind, bracket_end, decode, first_past, glue_point, too_deep
from ..results import LineResult, Mark, line_result
from ..text import content_span
from ..validate import IssueKind, SchemaIssue
from . import duplicates, titles
from . import schema as s
from .checks import BY_TYPE, JS_SAFE, TIME, U64_MAX, envelope, has_u64_beyond_seq, large_integers
from .facts import TAG_OF, LineState, of_object, of_record

_DECODER = msgspec.json.Decoder(s.Record)
_ENCODER = msgspec.json.Encoder()

DROPPED = ("thndrs cannot read the record, so the 0.1.0 reader drops this line (the record is lost) and later "
           "builds refuse to resume the session")

_CODES = {
    IssueKind.MISSING: "THN007",
    IssueKind.TYPE: "THN008",
    IssueKind.RANGE: "THN008",
    IssueKind.ENUM: "THN009",
    IssueKind.UNKNOWN_TAG: "THN009",
    IssueKind.UNKNOWN_FIELD: "THN011",
}


class _Locator:
    """Columns for paths on one line, scanning it at most once and only when asked."""

    def __init__(self, text: str, canonical: bool) -> None:
        self.text = text
        self.canonical = canonical
        self._root: jsonscan.Node | None = None
        self._scanned = False
        self._cursor = 0

    @property
    def root(self) -> jsonscan.Node | None:
        if not self._scanned:
            self._root, self._scanned = jsonscan.scan(self.text), True
        return self._root

    def whole(self) -> tuple[int, int]:
        root = self.root
        if root is not None:
            return root.start, root.end
        return content_span(self.text)

    def span(self, path: Path, key: bool = False) -> tuple[int, int]:
        if not path:
            return self.whole()
        found = jsonscan.path_span(self.text, path, key, self.root)
        return found if found is not None else self.whole()

    def number(self, path: Path, value: int) -> tuple[int, int]:
        """A u64 value's digits. On a canonical line (fields in schema order, compact) values are found in order by
        a plain search for `"key":digits`, so the many lines with large hashes are never scanned."""
        if self.canonical:
            digits = str(value)
            needle = f'"{path[-1]}":{digits}'
            pos = self.text.find(needle, self._cursor)
            if pos >= 0:
                after = pos + len(needle)
                if not self.text[after : after + 1].isdigit():
                    self._cursor = after
                    return after - len(digits), after
        return self.span(path)


def analyze_line(text: str, info: FormatInfo, state: LineState | None = None) -> LineResult:
    """`state` is the document's (a line read alone gets a fresh one)."""
    return next(analyze_lines((text,), info, state if state is not None else LineState()))


def analyze_lines(texts: Iterable[str], info: FormatInfo, state: LineState) -> Iterator[LineResult]:
    """The line pass of each of a file's lines, in order, in one loop: no call a line to get to it."""
    decode, encode, read, slow, has_duplicates = _DECODER.decode, _ENCODER.encode, _read, _slow, \
        duplicates.has_duplicates
    for text in texts:
        if too_deep(text, SERDE_DEPTH):
            yield slow(text, state)
            continue
        try:
            record = decode(text)
        except msgspec.DecodeError:
            yield slow(text, state)
            continue
        raw = text.encode()
        encoded = encode(record)
        canonical = encoded == raw or encoded == raw.strip()
        if not canonical and has_duplicates(text):
            yield slow(text, state)
            continue
        yield read(text, record, canonical, state)


def _read(text: str, record: Any, canonical: bool, state: LineState, locator: _Locator | None = None,
          issues: tuple[LineIssue, ...] = ()) -> LineResult:
    """A record thndrs 0.1.0 reads (decoded without error, unknown keys aside). `canonical`: the line is exactly
    the record's encoding."""
    cls: type = type(record)
    big = large_integers(record) if record.seq > JS_SAFE or has_u64_beyond_seq(cls) else _NONE
    for _, value in big:
        if value > U64_MAX:
            return _slow(text, state)
    time_ok = TIME.fullmatch(record.time) is not None
    findings = envelope(record, time_ok) if record.schema_version != 1 or not time_ok else _NONE
    by_type = BY_TYPE.get(cls)
    if by_type is not None:
        more = by_type(record)
        if more:
            findings = findings + more
    if findings or big:
        if locator is None:
            locator = _Locator(text, canonical)
        found = list(issues)
        for finding in findings:
            start, end = locator.span(finding.path, finding.mark is Mark.KEY)
            found.append(LineIssue(finding.code, start, end, finding.message, finding.severity))
        for path, value in big:
            start, end = locator.number(path, value)
            found.append(LineIssue("THN062", start, end, _large_message(path, value)))
        issues = tuple(found)
    return line_result(LineKind.OBJECT, of_record(record, time_ok, state), issues,
                       titles.of_record(TAG_OF[cls], record, state.shared) if state.titles else "")


_NONE: list[Any] = []


def _large_message(path: Path, value: int) -> str:
    return (f"`{dotted(path)}` is {value}, more than 9007199254740992, past which JavaScript cannot hold every "
            "whole number: thndrs reads it exactly, but a JavaScript tool that reads it as a number rounds it (keep "
            "the exact digits)")


# ---------------------------------------------------------------------------------------------------------------
# Slow path


SERDE_DEPTH = 127
"""Deepest nesting thndrs reads: serde_json counts every array and object, the record's own included, against its
default recursion limit of 128, and fails on the 128th level."""


def _slow(text: str, state: LineState) -> LineResult:
    decoded = decode(text)
    kind = decoded.kind
    if kind is LineKind.BLANK:
        return LineResult(LineKind.BLANK)
    titled = state.titles
    deep = first_past(text, SERDE_DEPTH) if kind in (LineKind.OBJECT, LineKind.NON_OBJECT) else None
    if deep is not None:
        end = bracket_end(text, deep) or len(text.rstrip())
        message = (f"JSON nested deeper than {SERDE_DEPTH} levels: thndrs's JSON parser stops at 128 levels "
                   "('recursion limit exceeded'), so thndrs drops this line (the record is lost); nest the value less "
                   "deeply, or delete the line")
        return line_result(LineKind.INVALID, None, (LineIssue("THN001", deep, end, message),),
                           "too deep" if titled else "")
    if kind is LineKind.INVALID:
        end = len(text.rstrip())
        start = min(decoded.error_col, max(end - 1, 0))
        message = (f"not JSON ({decoded.error}): the thndrs 0.1.0 reader drops this line silently (the record is "
                   "lost); later builds refuse to resume the session ('record N is corrupt'); repair the JSON by "
                   "hand, or, when it is the torn last line, cut it (quick fix, or `session-lsp fix --unsafe-fixes`)")
        return line_result(kind, None, (LineIssue("THN001", start, max(end, start + 1), message),),
                           "not JSON" if titled else "")
    if kind is LineKind.GLUED:
        count = len(decoded.parts)
        message = (f"{count} JSON records on one line (a newline is missing before column {decoded.parts[1] + 1}): "
                   "thndrs's JSON parser fails ('trailing characters'), so thndrs drops the whole line and every "
                   "record on it is lost; the quick fix (or `session-lsp fix`) splits it")
        start, end = glue_point(text, decoded.parts)
        return line_result(kind, count, (LineIssue("THN001", start, end, message),),
                           f"{count} glued records" if titled else "", decoded.parts)
    if kind is LineKind.NON_OBJECT:
        locator = _Locator(text, False)
        start, end = locator.whole()
        got = validate.json_type(decoded.value)
        message = (f"JSON {got}, not an object: thndrs reads every line as a record object, so it drops this line; "
                   "delete it (quick fix, or `session-lsp fix --unsafe-fixes`)")
        return line_result(kind, None, (LineIssue("THN003", start, end, message),), f"JSON {got}" if titled else "")
    return _object(text, decoded.value, state)


def _object(text: str, obj: dict[str, Any], state: LineState) -> LineResult:
    locator = _Locator(text, False)
    issues = [LineIssue("THN010", start, end, message)
              for start, end, message in duplicates.findings(locator.root)]
    tag = obj.get("type")
    if not isinstance(tag, str):
        if "type" in obj:
            start, end = locator.span(("type",))
            message = (f"`type` is {validate.json_type(tag)}, not a string: thndrs cannot tell which record this "
                       "is, so it drops this line; write the record's type as a string (completion offers them)")
        else:
            start, end = locator.whole()
            message = ("no `type` key: thndrs cannot tell which record this is, so it drops this line; add the "
                       "record's `type` (completion offers them)")
        issues.append(LineIssue("THN004", start, end, message))
        return line_result(LineKind.OBJECT, of_object(obj), tuple(issues),
                           "record without type" if state.titles else "")
    cls = s.RECORD_TYPES.get(tag)
    if cls is None:
        start, end = locator.span(("type",))
        build = s.OTHER_BUILD_TYPES.get(tag)
        if build is not None:
            message = (f"`{tag}` is a record type of {build}, not of thndrs 0.1.0: the 0.1.0 reader drops this "
                       "line; the builds that know it read it")
            issues.append(LineIssue("THN006", start, end, message))
        else:
            message = (f"`{tag}` is not a record type of any thndrs build ('unknown variant'), so thndrs drops this "
                       "line; correct the type (completion offers them), or delete the line")
            issues.append(LineIssue("THN005", start, end, message))
        return line_result(LineKind.OBJECT, of_object(obj), tuple(issues), tag if state.titles else "")
    schema_issues = validate.check(obj, cls)
    hints = tuple(_schema_issue(issue, obj, tag, locator) for issue in schema_issues
                  if issue.kind is IssueKind.UNKNOWN_FIELD)
    errors = [issue for issue in schema_issues if issue.kind is not IssueKind.UNKNOWN_FIELD]
    if not errors and not issues:
        for issue in schema_issues:
            _remove(obj, issue.path)
        try:
            record = msgspec.convert(obj, cls)
        except msgspec.ValidationError as error:
            start, end = locator.whole()
            issues.append(LineIssue("THN008", start, end, f"{error}: {DROPPED}; correct the value"))
        else:
            return _read(text, record, False, state, locator, hints)
    issues.extend(_schema_issue(issue, obj, tag, locator) for issue in errors)
    issues.extend(hints)
    return line_result(LineKind.OBJECT, of_object(obj), tuple(issues),
                       titles.of_object(tag, obj, state.shared) if state.titles else "")


def _remove(obj: Any, path: Path) -> None:
    for item in path[:-1]:
        obj = obj[item]
    del obj[path[-1]]


def _value_at(obj: Any, path: Path) -> Any:
    for item in path:
        obj = obj[item]
    return obj


def _schema_issue(issue: SchemaIssue, obj: dict[str, Any], tag: str, locator: _Locator) -> LineIssue:
    code = _CODES[issue.kind]
    where = dotted(issue.path)
    if issue.kind is IssueKind.MISSING:
        start, end = locator.span(issue.path[:-1])
        message = f"`{where}` is missing: {DROPPED}; add it (completion offers the record's fields)"
    elif issue.kind is IssueKind.UNKNOWN_FIELD:
        start, end = locator.span(issue.path, key=True)
        owner = issue.owner
        holder = f"`{tag}` records" if owner is None or owner in TAG_OF else owner.__name__
        message = f"`{where}` is not a field of {holder}: thndrs ignores it, so it never sees this data"
    else:
        start, end = locator.span(issue.path)
        message = f"`{where}`: {issue.message}{_case_hint(issue, obj)}: {DROPPED}; correct the value"
    return LineIssue(code, start, end, message)


def _case_hint(issue: SchemaIssue, obj: dict[str, Any]) -> str:
    """For an enum spelled in the wrong case (`"ok"` for ToolStatus `"Ok"`), name the right spelling."""
    if issue.kind is not IssueKind.ENUM:
        return ""
    value = _value_at(obj, issue.path)
    for allowed in _literal_values(issue):
        if isinstance(value, str) and value.lower() == allowed.lower():
            return f" (spellings are case-sensitive: thndrs writes {allowed!r})"
    return ""


def _literal_values(issue: SchemaIssue) -> tuple[str, ...]:
    allowed = issue.message.split(", got ", 1)[0].removeprefix("expected ")
    values: list[str] = []
    for part in allowed.split(" | "):
        try:
            value = msgspec.json.decode(part)
        except msgspec.DecodeError:
            continue
        if isinstance(value, str):
            values.append(value)
    return tuple(values)
