"""The repairs of Codex rollouts: the fixers of the CDX rules (`FIXERS`, the face's `fixers`; CDX002, a glued
line, is split by the fixer every format shares).

The real Codex 0.171.0 is the judge (tests/conformance/codex_repair.py resumes every fixed mutant with it): a fix
gives Codex back what the damage hid from it (a session_meta moved to the top or rebuilt, a value of the type it
reads, an ordinal on the last record), or writes into the file what Codex does on its own when it resumes (the
"aborted" output it sends for a call without one). A line is deleted only when Codex cannot read it either (a torn,
NUL or garbage line, a payload that is not an object) or drops it on resume (an output whose call is not in the
history it rebuilds).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

import msgspec

from .. import jsonscan
from ..diagnostics import Diagnostic, Span
from ..fixing import (
    FILE,
    IDS,
    LINES,
    PARENTS,
    REFERENCES,
    FileWide,
    Fix,
    FixDoc,
    Fixer,
    Fixers,
    TextEdit,
    delete_line,
    generic,
    json_text,
    replace_value,
)
from ..fixing import fix as rule_fix
from ..jsonscan import Path
from ..lines import LineKind, decode
from . import schema as s
from .context import aborted_output
from .facts import Facts
from .line_pass import RFC3339
from .model import CodexModel
from .names import UUID, thread_in_name, time_in_name
from .releases import DEFAULT_RELEASE

CLI_VERSION = f"{DEFAULT_RELEASE}.0"
"""What a rebuilt session_meta says wrote it: the release whose behaviour the rules state."""
ORIGINATOR = "codex_exec"
_UUID = re.compile(UUID)
_THREAD = re.compile(rf'"thread_id"\s*:\s*"({UUID})"')
_MISSING = object()


# -- reading the document ---------------------------------------------------------------------------------------


def _object(text: str) -> dict[str, Any] | None:
    decoded = decode(text)
    return decoded.value if decoded.kind is LineKind.OBJECT and isinstance(decoded.value, dict) else None


def _model(doc: FixDoc) -> CodexModel | None:
    model = doc.linked.model
    return model if isinstance(model, CodexModel) else None


def _facts(doc: FixDoc, line: int) -> Facts | None:
    facts = doc.results[line].facts
    return facts if isinstance(facts, Facts) else None


def _fits(value: Any, tp: Any) -> bool:
    try:
        msgspec.convert(value, tp, strict=True)
    except (msgspec.ValidationError, TypeError):
        return False
    return True


def _reads(field: msgspec.structs.FieldInfo, value: Any) -> bool:
    """Whether serde reads this field as the line has it (`_MISSING`: absent)."""
    return not field.required if value is _MISSING else _fits(value, field.type)


def _time_near(doc: FixDoc, line: int) -> str | None:
    """The nearest RFC 3339 time a record above (else below) was written at: Codex stamps each record as it appends
    it, so that is the closest time the record can have (`line` -1: the first time in the file)."""
    for number in (*range(line - 1, -1, -1), *range(line + 1, len(doc.lines))):
        if doc.results[number].kind is LineKind.OBJECT:
            found = (_object(doc.lines[number]) or {}).get("timestamp")
            if isinstance(found, str) and RFC3339.match(found):
                return found
    return None


def _cut(lines: Sequence[str], line: int) -> TextEdit:
    """The line gone; a last line without a newline after it is emptied, so the file still ends with one (Codex
    appends its next record after it)."""
    last = len(lines) - 1
    if line == last and lines[last] != "":
        return TextEdit(Span(last, 0, last, len(lines[last])), "")
    return delete_line(lines, line)


def _set(text: str, line: int, container: Path, key: str, value_json: str) -> TextEdit | None:
    """`key` of the object at `container` set to `value_json`: its value replaced, or the member added at its end."""
    found = jsonscan.value_span(text, (*container, key))
    if found is not None:
        return TextEdit(Span(line, found[0], line, found[1]), value_json)
    return _add(text, line, container, [f"{json_text(key)}:{value_json}"])


def _add(text: str, line: int, container: Path, members: list[str]) -> TextEdit | None:
    """`members` (JSON `"key":value` texts) added at the end of the object at `container`."""
    found = jsonscan.value_span(text, container)
    if found is None or not members or text[found[0]] != "{" or text[found[1] - 1] != "}":
        return None
    empty = not text[found[0] + 1:found[1] - 1].strip()
    joined = ",".join(members)
    end = found[1] - 1
    return TextEdit(Span(line, end, line, end), joined if empty else "," + joined)


def _drop_item(text: str, line: int, path: Path, index: int, count: int) -> TextEdit | None:
    """Item `index` of the array at `path` (of `count` items) removed with its comma."""
    this = jsonscan.value_span(text, (*path, index))
    if this is None:
        return None
    if index > 0:
        before = jsonscan.value_span(text, (*path, index - 1))
        return None if before is None else TextEdit(Span(line, before[1], line, this[1]), "")
    if count > 1:
        after = jsonscan.value_span(text, (*path, 1))
        return None if after is None else TextEdit(Span(line, this[0], line, after[0]), "")
    return TextEdit(Span(line, this[0], line, this[1]), "")


# -- lines Codex cannot read --------------------------------------------------------------------------------------


def _unreadable_line(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX001: the line made one record again where a mechanical repair does it (NUL bytes removed, a torn start
    cut); else deleted, as Codex skips it when it resumes."""
    line = diagnostic.span.line
    mended = generic.salvage(doc.lines[line])
    if mended is not None:
        return rule_fix(diagnostic.code, mended[1], TextEdit(Span(line, 0, line, len(doc.lines[line])), mended[0]))
    return rule_fix(diagnostic.code, "Delete the line Codex cannot read (it skips it when it resumes)",
                    _cut(doc.lines, line))


def _skipped_line(what: str) -> Fixer:
    def fixer(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
        line = diagnostic.span.line
        if line == len(doc.lines) - 1 and doc.lines[line] == "":
            return None
        return rule_fix(diagnostic.code, f"Delete this {what} (Codex skips it)", _cut(doc.lines, line))
    return fixer


# -- the session_meta -------------------------------------------------------------------------------------------


def _file_uses_ordinals(doc: FixDoc) -> bool:
    return any(isinstance(r.facts, Facts) and r.facts.has_ordinal for r in doc.results)


def _thread_id(doc: FixDoc, payload: dict[str, Any]) -> str | None:
    """The thread's id: the one in the file name (Codex finds a rollout by it), else the session_meta's own, else
    the `thread_id` its other records carry (token usage, thread settings)."""
    named = thread_in_name(doc.options.path)
    if named is not None:
        return named
    for key in ("id", "session_id"):
        value = payload.get(key)
        if isinstance(value, str) and _UUID.fullmatch(value):
            return value
    for number, result in enumerate(doc.results):
        if isinstance(result.facts, Facts) and result.facts.tag in ("token_usage_record", "event_msg"):
            found = _THREAD.search(doc.lines[number])
            if found is not None:
                return found.group(1)
    return None


def _cwd(doc: FixDoc) -> str:
    """Where the thread ran: the first turn_context's `cwd` (Codex writes one each turn); "/" when none says."""
    for number, result in enumerate(doc.results):
        if isinstance(result.facts, Facts) and result.facts.tag == "turn_context":
            cwd = ((_object(doc.lines[number]) or {}).get("payload") or {}).get("cwd")
            if isinstance(cwd, str) and cwd:
                return cwd
    return "/"


def _meta_value(doc: FixDoc, key: str, record: dict[str, Any], payload: dict[str, Any]) -> Any:
    """What a session_meta field that is missing or unreadable is given (`_MISSING`: nothing can be said)."""
    if key in ("id", "session_id"):
        return _thread_id(doc, payload) or _MISSING
    if key == "timestamp":
        stamp = record.get("timestamp")
        return stamp if isinstance(stamp, str) and RFC3339.match(stamp) else (
            _time_near(doc, 0) or time_in_name(doc.options.path) or _MISSING)
    if key == "cwd":
        return _cwd(doc)
    if key == "originator":
        return ORIGINATOR
    if key == "cli_version":
        return CLI_VERSION
    if key == "history_mode":
        return "paginated" if _file_uses_ordinals(doc) else None
    return None


def _repair_meta(doc: FixDoc, code: str, record: dict[str, Any]) -> Fix | None:
    """The first line's session_meta, each field Codex cannot read given what the file says of it."""
    text = doc.lines[0]
    payload = record.get("payload")
    if not isinstance(payload, dict):
        rebuilt = _rebuilt_meta(doc)
        edit = None if rebuilt is None else _set(text, 0, (), "payload", json_text(rebuilt[1]))
        return rule_fix(code, "Rebuild the session_meta's payload from what the rollout says", edit) \
            if edit is not None else None
    edits: list[TextEdit] = []
    added: list[str] = []
    named: list[str] = []
    for field in msgspec.structs.fields(s.SessionMeta):
        value = payload.get(field.encode_name, _MISSING)
        if _reads(field, value):
            continue
        new = _meta_value(doc, field.encode_name, record, payload)
        if new is _MISSING:
            return None
        named.append(field.encode_name)
        if value is _MISSING:
            added.append(f"{json_text(field.encode_name)}:{json_text(new)}")
        else:
            edit = replace_value(doc.lines, 0, ("payload", field.encode_name), json_text(new))
            if edit is None:
                return None
            edits.append(edit)
    if added:
        insert = _add(text, 0, ("payload",), added)
        if insert is None:
            return None
        edits.append(insert)
    stamp = record.get("timestamp")
    if not isinstance(stamp, str):
        new = _meta_value(doc, "timestamp", {}, payload)
        edit = None if new is _MISSING else _set(text, 0, (), "timestamp", json_text(new))
        if edit is None:
            return None
        edits.append(edit)
        named.append("the line's timestamp")
    ordinal = record.get("ordinal")
    if "ordinal" in record and ordinal is not None and not (
            isinstance(ordinal, int) and not isinstance(ordinal, bool) and ordinal >= 0):
        edit = replace_value(doc.lines, 0, ("ordinal",), "0")
        if edit is None:
            return None
        edits.append(edit)
        named.append("the line's ordinal")
    if not edits:
        return None
    return rule_fix(code, f"Repair the session_meta ({', '.join(named)}, from what the file says)", *edits)


def _rebuilt_meta(doc: FixDoc) -> tuple[str, dict[str, Any]] | None:
    """A minimal session_meta line for a rollout that lost its own: the thread id and time of the file name, the
    cwd of its first turn_context."""
    thread = _thread_id(doc, {})
    stamp = _time_near(doc, -1) or time_in_name(doc.options.path)
    if thread is None or stamp is None:
        return None
    payload: dict[str, Any] = {"id": thread, "session_id": thread, "timestamp": stamp, "cwd": _cwd(doc),
                               "originator": ORIGINATOR, "cli_version": CLI_VERSION}
    record: dict[str, Any] = {"timestamp": stamp}
    if _file_uses_ordinals(doc):
        record["ordinal"] = 0
        payload["history_mode"] = "paginated"
    record |= {"type": "session_meta", "payload": payload}
    return json_text(record), payload


def _session_meta(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX010 (and CDX005 on the first line's session_meta): the session_meta moved to the top, repaired, or, when
    the file has none, rebuilt from the file name (Codex refuses a rollout without one)."""
    later = (diagnostic.data or {}).get("line")
    lines = doc.lines
    if isinstance(later, int) and 0 < later < len(lines):
        return rule_fix(diagnostic.code, f"Move the session_meta from line {later + 1} to the first line",
                        TextEdit(Span(0, 0, 0, 0), lines[later].strip() + "\n"), delete_line(lines, later))
    first = _object(lines[0]) if lines else None
    if first is not None and first.get("type") == "session_meta":
        return _repair_meta(doc, diagnostic.code, first)
    if diagnostic.code != "CDX010":
        return None
    rebuilt = _rebuilt_meta(doc)
    if rebuilt is None:
        return None
    said = rebuilt[1]
    return rule_fix(diagnostic.code, f"Insert a session_meta rebuilt from what the rollout says (thread {said['id']}, "
                    f"started {said['timestamp']}, cwd {said['cwd']})", TextEdit(Span(0, 0, 0, 0), rebuilt[0] + "\n"))


# -- calls and outputs ------------------------------------------------------------------------------------------


def _pairing(doc: FixDoc) -> dict[int, int]:
    """Output line -> the line of the call without output it most likely answers: for each output whose call_id
    names no call of the file (or is missing, or not a string), in file order, the nearest such call above it that
    its kind answers. Made once a model (its views), in one pass with a stack of open calls per output kind: each of
    thousands of diagnostics made it again, reading every open call for each output."""
    model = _model(doc)
    if model is None:
        return {}
    found: dict[int, int] | None = model.views.get("pairing")
    if found is None:
        found = model.views["pairing"] = _paired(model)
    return found


def _paired(model: CodexModel) -> dict[int, int]:
    open_calls = sorted((model.records[index] for index in model.synthetic), key=lambda record: record.line)
    waiting: dict[str, list[int]] = {}
    """Output kind -> the lines of the open calls above the record at hand that it answers, not taken, nearest
    last."""
    passed = 0
    out: dict[int, int] = {}
    for record in model.records:
        f = record.facts
        if f.tag != "response_item" or f.kind not in s.OUTPUTS or (f.call_id is not None and f.call_id in model.calls):
            continue
        while passed < len(open_calls) and open_calls[passed].line < record.line:
            call = open_calls[passed]
            passed += 1
            answered_by = s.OUTPUT_OF.get(call.facts.kind or "")
            if answered_by is not None:
                waiting.setdefault(answered_by, []).append(call.line)
        above = waiting.get(f.kind)
        if above:
            out[record.line] = above.pop()
    return out


def _call_id_of(doc: FixDoc, line: int) -> str | None:
    f = _facts(doc, line)
    return None if f is None else f.call_id


def _point_output(doc: FixDoc, code: str, output: int, call: int) -> Fix | None:
    call_id = _call_id_of(doc, call)
    if call_id is None:
        return None
    edit = _set(doc.lines[output], output, ("payload",), "call_id", json_text(call_id))
    return rule_fix(code, f"Point the output on line {output + 1} at the call on line {call + 1} ({call_id!r}), the "
                    "call left without output", edit) if edit is not None else None


def _orphan_output(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX020: an output whose call_id names no call answers the call left without output above it; one whose call
    Codex does not rebuild (compacted away, rolled back) or with none to answer is deleted: Codex drops it."""
    line = diagnostic.span.line
    f = _facts(doc, line)
    model = _model(doc)
    if f is None or model is None:
        return None
    partner = _pairing(doc).get(line) if f.call_id is None or f.call_id not in model.calls else None
    if partner is not None:
        return _point_output(doc, diagnostic.code, line, partner)
    if f.call_id is None:
        return None  # Codex sends it, answering no call: deleting it would lose what it sends
    call = model.calls.get(f.call_id)
    if call is not None and not model.records[call].facts.readable:
        return None  # its call comes back once the call's own line is repaired
    return rule_fix(diagnostic.code, "Delete this output (Codex drops it on resume: its call is not in the history)",
                    _cut(doc.lines, line))


def _call_without_output(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX021: the output whose call_id was damaged pointed back at the call; else the "aborted" output Codex sends
    for it written after it, so the file says what the model is sent."""
    line = diagnostic.span.line
    output = next((o for o, c in _pairing(doc).items() if c == line), None)
    if output is not None:
        return _point_output(doc, diagnostic.code, output, line)
    record = _object(doc.lines[line])
    payload = record.get("payload") if record is not None else None
    if record is None or not isinstance(payload, dict):
        return None
    new: dict[str, Any] = {"timestamp": record.get("timestamp"), "type": "response_item",
                           "payload": aborted_output(payload)}
    end = len(doc.lines[line])
    return rule_fix(diagnostic.code, "Add the \"aborted\" output Codex sends for this call on resume",
                    TextEdit(Span(line, end, line, end), "\n" + json_text(new)))


# -- values Codex cannot read ------------------------------------------------------------------------------------


def _called_name(doc: FixDoc, kind: str, call_id: Any) -> str | None:
    """A call's lost `name`: the one its output names, else the one name every other call of its kind uses."""
    model = _model(doc)
    if model is None:
        return None
    names: set[str] = set()
    for record in model.records:
        f = record.facts
        if f.tag != "response_item":
            continue
        if f.kind in s.OUTPUTS and f.call_id == call_id and isinstance(call_id, str):
            named = ((_object(doc.lines[record.line]) or {}).get("payload") or {}).get("name")
            if isinstance(named, str) and named:
                return named
        if f.kind == kind and f.name:
            names.add(f.name)
    return names.pop() if len(names) == 1 else None


def _orphan_call_id(doc: FixDoc, line: int, kind: str) -> str:
    """A call's lost `call_id`: that of the output below it whose call is missing, else a new one."""
    model = _model(doc)
    if model is not None:
        for record in model.records:
            f = record.facts
            if record.line > line and f.kind == s.OUTPUT_OF.get(kind) and f.call_id is not None \
                    and f.call_id not in model.calls:
                return f.call_id
    return "call_" + hashlib.sha256(f"{line}/{doc.lines[line]}".encode()).hexdigest()[:24]


def _role(payload: dict[str, Any]) -> str:
    """A message's lost role, from its content: output text is the assistant's; input text the user's, or the
    developer's when Codex's metadata says it holds instructions."""
    content = payload.get("content")
    kinds = {part.get("type") for part in content if isinstance(part, dict)} if isinstance(content, list) else set()
    if "output_text" in kinds:
        return "assistant"
    meta = payload.get("internal_chat_message_metadata_passthrough")
    written = meta.get("content_item_kinds") if isinstance(meta, dict) else None
    if isinstance(written, list) and written and not any(
            isinstance(k, str) and k.startswith(("user.", "environments.")) for k in written):
        return "developer"
    return "user"


def _item_value(doc: FixDoc, line: int, kind: str, key: str, payload: dict[str, Any]) -> Any:
    """What a response item's field that is missing or unreadable is given (`_MISSING`: nothing fits)."""
    value = payload.get(key)
    if key == "call_id":
        if kind in s.OUTPUTS:
            partner = _pairing(doc).get(line)
            found = _call_id_of(doc, partner) if partner is not None else None
            return _MISSING if found is None else found
        return _orphan_call_id(doc, line, kind)
    if key == "name":
        return _called_name(doc, kind, payload.get("call_id")) or _MISSING
    if key == "role":
        return _role(payload)
    if kind == "message" and key == "content":
        text = "output_text" if payload.get("role") == "assistant" else "input_text"
        return [{"type": text, "text": value}] if isinstance(value, str) else []
    if kind == "reasoning" and key == "summary":
        return [{"type": "summary_text", "text": value}] if isinstance(value, str) else []
    if kind == "reasoning" and key == "content":
        return [{"type": "reasoning_text", "text": value}] if isinstance(value, str) else None
    return {"arguments": "{}", "input": "", "output": "aborted"}.get(key)


_NEUTRAL_TITLES = {"arguments": "no arguments", "input": "no input", "output": "\"aborted\", as Codex answers a call "
                   "whose output it does not have"}


def _repair_item(doc: FixDoc, code: str, line: int, record: dict[str, Any]) -> Fix | None:
    payload = record.get("payload")
    if not isinstance(payload, dict):
        return rule_fix(code, "Delete this record: its payload is not an object, so nothing on it can be read "
                        "(Codex skips it)", _cut(doc.lines, line))
    kind = payload.get("type")
    cls = s.ITEM_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        return None
    text = doc.lines[line]
    fixed = dict(payload)
    edits: list[TextEdit] = []
    added: list[str] = []
    said: list[str] = []
    for field in msgspec.structs.fields(cls):
        key = field.encode_name
        value = payload.get(key, _MISSING)
        if _reads(field, value):
            continue
        new = _item_value(doc, line, kind, key, fixed)
        if new is _MISSING:
            return None
        fixed[key] = new
        said.append(f"`{key}`: {_NEUTRAL_TITLES.get(key, json_text(new))}")
        if value is _MISSING:
            added.append(f"{json_text(key)}:{json_text(new)}")
        else:
            edit = replace_value(doc.lines, line, ("payload", key), json_text(new))
            if edit is None:
                return None
            edits.append(edit)
    if added:
        insert = _add(text, line, ("payload",), added)
        if insert is None:
            return None
        edits.append(insert)
    if not edits or not _fits(fixed, s.ResponseItem):
        return None
    return rule_fix(code, "Give Codex a value it reads: " + "; ".join(said), *edits)


def _infer_kind(doc: FixDoc, payload: dict[str, Any]) -> str | None:
    """The response item kind whose fields are exactly those an item of an unknown kind carries (an output's, by
    the call it answers); None when no kind or several fit."""
    keys = set(payload) - {"type", "id", "internal_chat_message_metadata_passthrough", "status"}
    if not keys:
        return None
    fitting = [kind for kind, cls in s.ITEM_KINDS.items()
               if keys <= {f.encode_name for f in msgspec.structs.fields(cls)}
               and _fits({**payload, "type": kind}, s.ResponseItem)]
    if len(fitting) > 1 and set(fitting) <= s.OUTPUTS:
        model = _model(doc)
        call_id = payload.get("call_id")
        call = model.calls.get(call_id) if model is not None and isinstance(call_id, str) else None
        answering = s.OUTPUT_OF.get(model.records[call].facts.kind or "") if model and call is not None else None
        fitting = [kind for kind in fitting if kind == answering]
    return fitting[0] if len(fitting) == 1 else None


def _unknown_kind(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX007 on a response item: its `type` set to the one kind whose fields it has (a typo, a hand edit); in a
    compaction's replacement_history, an item no kind fits (Codex sends it as `{"type":"other"}`, with nothing of
    its own) is removed with its metadata entry."""
    line = diagnostic.span.line
    record = _object(doc.lines[line])
    payload = record.get("payload") if record is not None else None
    if record is None or not isinstance(payload, dict):
        return None
    if record.get("type") == "response_item":
        kind = _infer_kind(doc, payload)
        edit = None if kind is None else replace_value(doc.lines, line, ("payload", "type"), json_text(kind))
        return rule_fix(diagnostic.code, f"Read it as a `{kind}` (its fields are a {kind}'s)", edit) \
            if edit is not None else None
    if record.get("type") != "compacted":
        return None
    return _replacement_items(doc, diagnostic.code, line, payload)


def _replacement_items(doc: FixDoc, code: str, line: int, payload: dict[str, Any]) -> Fix | None:
    """Every replacement_history item Codex cannot send as written: retyped where one kind fits, else removed with
    the metadata entry beside it (an item that is not a response item makes Codex ignore the whole compaction)."""
    history = payload.get("replacement_history")
    metadata = payload.get("replacement_history_metadata")
    if not isinstance(history, list):
        return None
    path: Path = ("payload", "replacement_history")
    edits: list[TextEdit] = []
    dropped: list[int] = []
    retyped: list[str] = []
    for index, item in enumerate(history):
        kind = item.get("type") if isinstance(item, dict) else None
        if isinstance(kind, str) and kind in s.ITEM_KINDS and _fits(item, s.ResponseItem):
            continue
        new = _infer_kind(doc, item) if isinstance(item, dict) else None
        edit = None if new is None else replace_value(doc.lines, line, (*path, index, "type"), json_text(new))
        if edit is not None:
            edits.append(edit)
            retyped.append(f"item {index} as a `{new}`")
        else:
            dropped.append(index)
    if dropped and not (isinstance(metadata, list) and len(metadata) == len(history)):
        return None  # the two lists already differ: CDX040 says which entry goes
    for index in dropped:
        for where, count in ((path, len(history)), (("payload", "replacement_history_metadata"), len(history))):
            edit = _drop_item(doc.lines[line], line, where, index, count)
            if edit is None:
                return None
            edits.append(edit)
    if not edits or len(dropped) > 1:
        return None  # two removals in one list would overlap; one at a time (the fix runs again)
    what = "; ".join([*retyped, *(f"remove item {i}, which Codex cannot send (and its metadata)" for i in dropped)])
    return rule_fix(code, f"Repair the replacement_history: {what}", *edits)


def _unreadable_record(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX005: a session_meta, response item or compaction made readable again (a payload that is not an object,
    with nothing left to read, is deleted)."""
    line = diagnostic.span.line
    record = _object(doc.lines[line])
    if record is None:
        return None
    tag = record.get("type")
    payload = record.get("payload")
    if tag == "session_meta" and line == 0:
        return _session_meta(doc, diagnostic)
    if tag == "response_item":
        return _repair_item(doc, diagnostic.code, line, record)
    if "payload" in record and not isinstance(payload, dict) and isinstance(tag, str) and tag in s.PAYLOADS \
            and s.PAYLOADS[tag] is not Any:
        return rule_fix(diagnostic.code, f"Delete this {tag} record: its payload is not an object (Codex skips it)",
                        _cut(doc.lines, line))
    if tag == "compacted" and isinstance(payload, dict):
        return _replacement_items(doc, diagnostic.code, line, payload)
    return None


def _timestamp(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX008: the time of the nearest record written before it (or after it)."""
    line = diagnostic.span.line
    stamp = _time_near(doc, line) or time_in_name(doc.options.path)
    edit = None if stamp is None else _set(doc.lines[line], line, (), "timestamp", json_text(stamp))
    return rule_fix(diagnostic.code, f"Set the timestamp to {stamp} (the nearest record's time)", edit) \
        if edit is not None else None


def _metadata_length(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX040: the two lists brought one entry nearer the same length: the longer one's repeated entry (written
    twice) removed, the copy whose removal leaves each retained entry beside its item; else a metadata entry that
    names an item the history does not hold removed; else, where an entry is missing, an empty one (`{}`, which
    Codex reads) put first where it leaves each retained entry beside its item. Codex then applies the compaction it
    wrote."""
    line = diagnostic.span.line
    record = _object(doc.lines[line])
    payload = record.get("payload") if record is not None else None
    if not isinstance(payload, dict):
        return None
    history = payload.get("replacement_history")
    metadata = payload.get("replacement_history_metadata")
    if not isinstance(history, list) or not isinstance(metadata, list) or len(history) == len(metadata):
        return None
    key = "replacement_history" if len(history) > len(metadata) else "replacement_history_metadata"
    longer = history if len(history) > len(metadata) else metadata
    path: Path = ("payload", key)
    copies = [i for i, value in enumerate(longer) if any(value == longer[j] for j in range(len(longer)) if j != i)]

    def dropped(index: int) -> int:
        kept = [v for i, v in enumerate(longer) if i != index]
        return _aligned(kept, metadata) if key == "replacement_history" else _aligned(history, kept)

    if copies:
        chosen = max(reversed(copies), key=dropped)
        edit = _drop_item(doc.lines[line], line, path, chosen, len(longer))
        title = f"Remove entry {chosen} of `{key}`, written twice"
    elif key == "replacement_history_metadata":
        held = [item.get("id") for item in history if isinstance(item, dict)]
        strays = [i for i, entry in enumerate(metadata) if _retained_id(entry) not in (None, *held)]
        if len(strays) != 1:
            return None
        edit = _drop_item(doc.lines[line], line, path, strays[0], len(metadata))
        title = f"Remove metadata entry {strays[0]}, which names an item the replacement_history does not hold"
    else:
        at = max(range(len(metadata) + 1),
                 key=lambda p: _aligned(history, [*metadata[:p], {}, *metadata[p:]]))
        edit = _insert_item(doc.lines[line], line, ("payload", "replacement_history_metadata"), at, len(metadata),
                            "{}")
        title = f"Add an empty metadata entry for replacement_history item {at} (Codex reads it)"
    return rule_fix(diagnostic.code, f"{title}, so that Codex applies the compaction", edit) \
        if edit is not None else None


def _aligned(items: Sequence[Any], entries: Sequence[Any]) -> int:
    return sum(1 for item, entry in zip(items, entries, strict=False)
               if isinstance(item, dict) and _retained_id(entry) == item.get("id") is not None)


def _retained_id(entry: Any) -> Any:
    source = entry.get("retained_source") if isinstance(entry, dict) else None
    ident = source.get("id") if isinstance(source, dict) else None
    return ident.get("message_id") if isinstance(ident, dict) else None


def _insert_item(text: str, line: int, path: Path, index: int, count: int, value_json: str) -> TextEdit | None:
    """`value_json` put at `index` of the array at `path` (of `count` items)."""
    if index < count:
        found = jsonscan.value_span(text, (*path, index))
        return None if found is None else TextEdit(Span(line, found[0], line, found[0]), value_json + ",")
    if count:
        found = jsonscan.value_span(text, (*path, count - 1))
        return None if found is None else TextEdit(Span(line, found[1], line, found[1]), "," + value_json)
    found = jsonscan.value_span(text, path)
    if found is None or text[found[0]] != "[":
        return None
    return TextEdit(Span(line, found[0] + 1, line, found[0] + 1), value_json)


# -- ordinals ---------------------------------------------------------------------------------------------------


def _kept(values: Sequence[int | None]) -> set[int]:
    """The positions of the longest run of ordinals that rises in line order: those stay as written."""
    tails: list[int] = []
    tail_at: list[int] = []
    back: dict[int, int] = {}
    for position, value in enumerate(values):
        if value is None:
            continue
        low, high = 0, len(tails)
        while low < high:
            middle = (low + high) // 2
            if tails[middle] < value:
                low = middle + 1
            else:
                high = middle
        if low:
            back[position] = tail_at[low - 1]
        if low == len(tails):
            tails.append(value)
            tail_at.append(position)
        else:
            tails[low], tail_at[low] = value, position
    kept: set[int] = set()
    at = tail_at[-1] if tail_at else None
    while at is not None:
        kept.add(at)
        at = back.get(at)
    return kept


def _numbering(doc: FixDoc) -> list[tuple[int, int]]:
    """(line, ordinal) for each record whose ordinal changes: the rising run kept, every other record given the
    number after the one above (and the records below moved on when that number is taken)."""
    rows = [(number, result.facts) for number, result in enumerate(doc.results)
            if isinstance(result.facts, Facts) and result.kind is LineKind.OBJECT]
    values = [f.ordinal for _, f in rows]
    kept = _kept(values)
    changes: list[tuple[int, int]] = []
    previous = -1
    for position, (number, f) in enumerate(rows):
        value = f.ordinal if position in kept and f.ordinal is not None and f.ordinal > previous else previous + 1
        if value != f.ordinal or not f.has_ordinal:
            changes.append((number, value))
        previous = value
    return changes


def _renumber(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CDX030-CDX033: every record numbered in line order, one fix for all of them; not before the session_meta is
    first (numbering a rollout Codex refuses would number it in the wrong order)."""
    model = _model(doc)
    if model is None or model.meta is None:
        return None
    edits: list[TextEdit] = []
    for number, value in _numbering(doc):
        text = doc.lines[number]
        found = jsonscan.value_span(text, ("ordinal",))
        if found is not None:
            edits.append(TextEdit(Span(number, found[0], number, found[1]), str(value)))
            continue
        at = jsonscan.key_span(text, ("type",))
        if at is None:
            return None
        edits.append(TextEdit(Span(number, at[0], number, at[0]), f'"ordinal":{value},'))
    if not edits:
        return None
    count = len(edits)
    return rule_fix(diagnostic.code, f"Number the records in line order ({count} ordinal{'s' if count != 1 else ''}"
                    " change)", *edits)


_RENUMBER = FileWide(_renumber)

FIXERS: Fixers = {
    # LINES: lines Codex cannot read
    "CDX009": (LINES, generic.utf8),
    "CDX001": (LINES, _unreadable_line),
    "CDX003": (LINES, _skipped_line("line, which holds no record")),
    "CDX004": (LINES, _skipped_line("blank line")),
    # FILE: the session_meta Codex requires first
    "CDX010": (FILE, _session_meta),
    # IDS: values Codex cannot read (an ordinal that is not a whole number too: its line comes back before calls
    # are paired)
    "CDX005": (IDS, _unreadable_record), "CDX007": (IDS, _unknown_kind), "CDX008": (IDS, _timestamp),
    "CDX040": (IDS, _metadata_length), "CDX030": (IDS, _RENUMBER),
    # PARENTS: calls and their outputs
    "CDX020": (PARENTS, _orphan_output), "CDX021": (PARENTS, _call_without_output),
    # REFERENCES: ordinals, once no line is added or removed
    "CDX031": (REFERENCES, _RENUMBER), "CDX032": (REFERENCES, _RENUMBER), "CDX033": (REFERENCES, _RENUMBER),
}
"""Codex's rules with a fix: the phase it runs in and the fixer."""
