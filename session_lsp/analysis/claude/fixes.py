"""The repairs of Claude Code transcripts (`Format.fixers`): the shared ones (`fixing.generic`) for Claude Code's
rule codes, and its own, each giving the file back what Claude Code 2.1.332 reads on `--resume`, or more, never less.

- a torn line (CCD001) is made one record again where a mechanical repair does it, else cut: Claude Code skips it
  too, wherever it is in the file;
- a `parentUuid` that names nothing, closes a cycle (CCD020, CCD023) or is null or missing mid-chain (CCD021) is
  pointed at the record Claude Code links it to (the one written last before it, by `timestamp`), or, where it
  starts the history there instead, at the record its tool result answers (`sourceToolAssistantUUID`) or the chain
  record above it in the file, so everything above is sent again; the cuts the chain comes to once that one is
  mended have their fixes in the same run, so one run sends the whole conversation again, not one cut more a run;
- a tool_result whose call is gone (CCD030) answers the unanswered call of the response it follows
  (`sourceToolAssistantUUID`, else its parent), or, with none, is dropped, as Claude Code drops it (its record goes
  when nothing else is left in it, its children hanging from its parent);
- a tool_use without result (CCD031) gets the interrupted result Claude Code itself puts in for a call left open at
  the end of a session: in the record written for its result when that is still there, else in a new record below
  the call, through which the chain goes on.

- a thinking block after text or a call of its response (CCD043) goes first, as the API requires;
- a file with no record Claude Code resumes from (CCD050: empty, or nothing left once the lines it cannot read are
  cut) gets the one record it resumes from with an empty history, a `system` `informational` record with no content
  (seen with the real CLI: `--resume` then sends the new prompt alone), so nothing the model reads is invented.

The phases keep them apart: lines first, then parents (the pairing depends on the chain), then orphan results
(relinked or dropped), and last the results written for calls still open.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from itertools import pairwise
from types import MappingProxyType
from typing import Any, NamedTuple

import msgspec

from .. import jsonscan
from ..diagnostics import Diagnostic, Span
from ..fixing import (
    FILE,
    LINES,
    PARENTS,
    REFERENCES,
    Fix,
    FixDoc,
    Fixers,
    TextEdit,
    delete_line,
    fix,
    generic,
    insert_line_after,
    json_text,
    replace_line,
    replace_value,
)
from .context import INTERRUPTED
from .model import CHAIN_TAGS, ClaudeModel, Record, result_paths, use_paths
from .names import session_id_in_file_name
from .session import ClaudeSession

ENVELOPE = ("userType", "entrypoint", "cwd", "sessionId", "version", "gitBranch", "agentId")
"""The fields a record Claude Code writes for a tool result shares with the call's record."""


def _model(doc: FixDoc) -> ClaudeModel | None:
    session = doc.session
    return session.model if isinstance(session, ClaudeSession) else None


def _record(model: ClaudeModel, line: int) -> int | None:
    """The index of the record that counts on `line` (its uuid's row in Claude Code's map), whole on its line."""
    record = model.at_line.get(line)
    if record is None or record.part != 0:
        return None
    uuid_ = record.facts.uuid
    if uuid_ is None or record.facts.tag not in CHAIN_TAGS:
        return None
    index = model.by_uuid.get(uuid_)
    return index if index is not None and model.records[index] is record else None


def _object(text: str) -> dict[str, Any] | None:
    try:
        value = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


Relinks = Mapping[int, int]
"""Record -> the record a fix of the same run hangs it from (its parent as the fix leaves it)."""
NO_RELINKS: Relinks = MappingProxyType({})


def _reaches(model: ClaudeModel, start: int, target: int, relinks: Relinks = NO_RELINKS) -> bool:
    """Whether walking up from `start` as Claude Code does comes to `target` (linking `target` to `start` would close
    a cycle): through `parentUuid`, as `relinks` leaves it, or where Claude Code links a record by time instead (a
    `parentUuid` naming nothing, or closing a loop), through that link."""
    seen: set[int] = set()
    index: int | None = start
    while index is not None and index not in seen:
        if index == target:
            return True
        seen.add(index)
        relinked = relinks.get(index, model.bridged.get(index))
        if relinked is not None:
            index = relinked
            continue
        parent = model.records[index].facts.parent
        index = None if parent is None else model.by_uuid.get(parent)
    return False


def _linkable(model: ClaudeModel, index: int, candidate: int, relinks: Relinks = NO_RELINKS) -> bool:
    """Whether record `index` may hang from `candidate`: a record of its side that Claude Code keeps, that it does not
    name already (a cycle Claude Code closes through a link by time goes round that link: naming it again would be
    no fix), and that is not below it."""
    f, own = model.records[candidate].facts, model.records[index].facts
    return (f.uuid is not None and f.uuid != own.parent and model.by_uuid.get(f.uuid) == candidate
            and candidate not in model.dropped
            and f.sidechain == own.sidechain and not (f.tag == "system" and f.subtype == "file_snapshot")
            and not _reaches(model, candidate, index, relinks))


def _above(model: ClaudeModel, index: int, relinks: Relinks = NO_RELINKS) -> int | None:
    """The chain record of the same side written above this one in the file (that would not close a cycle)."""
    for candidate in range(index - 1, -1, -1):
        if model.records[candidate].facts.tag in CHAIN_TAGS and _linkable(model, index, candidate, relinks):
            return candidate
    return None


def _named(doc: FixDoc, model: ClaudeModel, index: int) -> Fix | None:
    """Claude Code links the record to a row without uuid (its map keeps the last such row under one key): that
    row gets the uuid the broken link names, so the link holds in the file as Claude Code follows it."""
    bridged = model.bridged.get(index)
    wanted = model.records[index].facts.parent
    if bridged is None or wanted is None or model.records[bridged].facts.uuid is not None \
            or model.records[bridged].part != 0:
        return None
    target = model.records[bridged].line
    text = doc.lines[target]
    root = jsonscan.scan(text)
    if root is None or root.kind != "object" or not root.complete or root.get("uuid") is not None:
        return None
    at = root.end - 1
    members = f'"uuid":{json_text(wanted)}'
    edit = TextEdit(Span(target, at, target, at), ("," if root.members else "") + members)
    return fix("CCD020", f"Give line {target + 1}, which Claude Code links this record to (the record written "
                    f"last before it, without uuid), the uuid its parentUuid names", edit)


def _new_parent(model: ClaudeModel, index: int, relinks: Relinks = NO_RELINKS) -> tuple[int, str] | None:
    """Where a record whose link is broken belongs, with why: Claude Code's own link by time when it makes one;
    else the call its tool result answers; else the record above it."""
    bridged = model.bridged.get(index)
    if bridged is not None and _linkable(model, index, bridged, relinks):
        return bridged, "the record Claude Code links it to, written last before it"
    source = model.records[index].facts.source_tool
    found = model.by_uuid.get(source) if source is not None and model.records[index].facts.results else None
    if found is not None and _linkable(model, index, found, relinks):
        return found, "the call its tool result answers"
    above = _above(model, index, relinks)
    return (above, "the record above it") if above is not None else None


def _cuts(model: ClaudeModel) -> dict[int, tuple[int, str]]:
    """The cuts (CCD021: a null or missing `parentUuid` below the conversation's first record) off the chain that
    the runs of `fix` after this one would mend, one step of the chain a run, each with the record its fix hangs it
    from and why: so one run mends them all. Made once a model (its `views`)."""
    found: dict[int, tuple[int, str]] | None = model.views.get("fix-cuts")
    if found is None:
        found = model.views["fix-cuts"] = _cuts_from_top(model)
    return found


def _cuts_from_top(model: ClaudeModel) -> dict[int, tuple[int, str]]:
    """Each step does what one more run would: the cuts on the chain (its top, and those of the responses on it:
    Claude Code sends a response's records together) hang from their new parents, all chosen on the links as the
    steps before left them; the chain then goes up from the top's new parent to the next cut, and the responses it
    meets join it. The steps stop where another fix could change what a later one reads: a new parent whose way up
    meets a record another fix of this run relinks or a `parentUuid` naming nothing (Claude Code links it by time),
    a response joining with such a link, a loop, a compaction, or a cut with no record above it."""
    cuts: dict[int, tuple[int, str]] = {}
    if model.relinked or model.dropped or not model.chain:
        return cuts
    records = model.records
    joined = {records[index].facts.message_id for index in model.chain}
    relinks: dict[int, int] = {}
    top = model.chain[0]
    joining = [index for index in model.chain if _is_cut(model, index)]
    while joining:
        planned: dict[int, tuple[int, str]] = {}
        for cut in joining:
            found = _new_parent(model, cut, relinks)
            if found is None and cut != top:
                continue
            if found is None or _segment(model, found[0], relinks) is None:
                return cuts
            planned[cut] = found
        for cut, found in planned.items():
            relinks[cut] = found[0]
            if cut not in model.on_chain:
                cuts[cut] = found
        segment = _segment(model, planned[top][0], relinks) if top in planned else None
        if segment is None:
            return cuts
        top = segment[-1]
        joining = [top] if _is_cut(model, top) else []
        for index in segment:
            message = records[index].facts.message_id
            if message is None or message in joined:
                continue
            joined.add(message)
            for member in model.responses.get(message, ()):
                parent = records[member].facts.parent
                if member in model.on_chain or member in segment:
                    continue
                if parent is not None and parent not in model.by_uuid:
                    return cuts
                if _is_cut(model, member):
                    joining.append(member)
    return cuts


def _is_cut(model: ClaudeModel, index: int) -> bool:
    """Whether the record is a cut (CCD021) whose fix `_parent` can write: one whole on its line."""
    return model.cut(index) and _record(model, model.records[index].line) == index


def _segment(model: ClaudeModel, start: int, relinks: Relinks) -> list[int] | None:
    """The records from `start` up to the top of its ancestry (as `relinks` leaves it), when every `parentUuid` on the
    way names a record and none is one another fix of this run relinks (a record of the chain whose parent Claude
    Code finds by time, or that closes a loop); else None."""
    walked: list[int] = []
    seen: set[int] = set()
    at = start
    while at not in seen and at not in model.bridged and at != model.cycle:
        seen.add(at)
        walked.append(at)
        relinked = relinks.get(at)
        if relinked is not None:
            at = relinked
            continue
        parent = model.records[at].facts.parent
        if parent is None:
            return walked
        found = model.by_uuid.get(parent)
        if found is None:
            return None
        at = found
    return None


def _parent(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CCD020, CCD021, CCD023 on the chain Claude Code resumes (off it, a relink could pull a record into it); and a
    cut off it that the chain meets once the cuts below it are mended (`_cuts`), which the same run then mends."""
    model = _model(doc)
    line = diagnostic.span.line
    index = _record(model, line) if model is not None else None
    if model is None or index is None:
        return None
    if index not in model.on_chain:
        found = _cuts(model).get(index) if diagnostic.code == "CCD021" else None
        if found is None:
            return None
        target, why = found
        value = _uuid_of(model, target)
        return _set_parent(doc, diagnostic.code, line, value, f"Set parentUuid to {value} ({why}, line "
                           f"{model.records[target].line + 1}: the chain comes to this cut once the cut below it is "
                           "mended)")
    if diagnostic.code == "CCD020" and (named := _named(doc, model, index)) is not None:
        return named
    found = _new_parent(model, index)
    if found is not None:
        target, why = found
        value = _uuid_of(model, target)
        title = f"Set parentUuid to {value} ({why}, line {model.records[target].line + 1})"
    elif diagnostic.code == "CCD021":
        return None
    else:  # nothing above it to follow: the conversation starts here, as Claude Code starts it
        value, title = "null", "Set parentUuid to null (no record above it: the conversation starts here)"
    return _set_parent(doc, diagnostic.code, line, value, title)


def _set_parent(doc: FixDoc, code: str, line: int, value: str, title: str) -> Fix | None:
    """`parentUuid` set to the JSON text `value` on `line`; a missing one goes first, where Claude Code writes it."""
    edit = replace_value(doc.lines, line, ("parentUuid",), value)
    if edit is None:
        text = doc.lines[line]
        start = text.find("{")
        if start < 0:
            return None
        empty = text[start + 1:].lstrip().startswith("}")
        edit = TextEdit(Span(line, start + 1, line, start + 1), f'"parentUuid":{value}' + ("" if empty else ","))
    return fix(code, title, edit)


def _uuid_of(model: ClaudeModel, index: int) -> str:
    return json_text(model.records[index].facts.uuid)


def _torn(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CCD001: the record again where a mechanical repair gives one; else the line goes (Claude Code cannot read it
    either; the last line is emptied so the file still ends with a newline)."""
    line = diagnostic.span.line
    text = doc.lines[line]
    found = generic.salvage(text)
    if found is not None:
        return fix(diagnostic.code, found[1], replace_line(doc.lines, line, found[0]))
    title = "Cut the torn line (Claude Code skips it too)"
    if line == len(doc.lines) - 1:
        return fix(diagnostic.code, title, TextEdit(Span(line, 0, line, len(text)), ""))
    return fix(diagnostic.code, title, delete_line(doc.lines, line))


def _block(doc: FixDoc, line: int, paths: list[tuple[jsonscan.Path, str]],
           diagnostic: Diagnostic) -> tuple[int, str] | None:
    """The content block (its number and id) the diagnostic's span is on."""
    root = jsonscan.scan(doc.lines[line])
    for path, value in paths:
        found = jsonscan.value_span(doc.lines[line], path, root)
        if found is not None and found[0] <= diagnostic.span.start < found[1] + 1:
            return int(path[2]), value
    return None


class _Chain(NamedTuple):
    """What the fixes of calls and results read of the chain, made once a model (its `views`): a file can have
    thousands of them, and each read the whole chain."""

    answered: set[str]
    """The ids of the calls the chain's results answer."""
    position: dict[int, int]
    """Each chain record's place on the chain."""
    by_message: dict[str, list[int]]
    """The chain's assistant records by message id, in chain order."""
    written_for: dict[str, int]
    """uuid -> the first chain record Claude Code wrote for its call's result (a user record naming it as parent
    and by `sourceToolAssistantUUID`)."""
    children: dict[str, list[int]]
    """uuid -> the chain records naming it as their parent, in record order."""


def _chain(model: ClaudeModel) -> _Chain:
    found = model.views.get("fix-chain")
    if found is None:
        found = model.views["fix-chain"] = _Chain(set(), {}, {}, {}, {})
        for index in sorted(model.chain):
            parent = model.records[index].facts.parent
            if parent is not None:
                found.children.setdefault(parent, []).append(index)
        for at, index in enumerate(model.chain):
            facts = model.records[index].facts
            found.position[index] = at
            if facts.tag == "user":
                found.answered.update(facts.results)
                if facts.source_tool is not None and facts.source_tool == facts.parent:
                    found.written_for.setdefault(facts.source_tool, index)
            elif facts.tag == "assistant" and facts.message_id is not None:
                found.by_message.setdefault(facts.message_id, []).append(index)
    return found


def _open_call(model: ClaudeModel, index: int) -> str | None:
    """The call a result without its own most likely answers: an unanswered call of the response its record
    follows (the record named by `sourceToolAssistantUUID`, else its parent), before it on the chain."""
    f = model.records[index].facts
    anchor = next((model.by_uuid[u] for u in (f.source_tool, f.parent) if u is not None and u in model.by_uuid), None)
    if anchor is None or index not in model.on_chain:
        return None
    response = model.records[anchor].facts.message_id
    chain = _chain(model)
    here, position = chain.position[index], chain.position
    candidates = set(chain.by_message.get(response, ())) if response is not None else set()
    if anchor in position and model.records[anchor].facts.tag == "assistant":
        candidates.add(anchor)
    for other in sorted((other for other in candidates if position[other] < here), key=position.__getitem__):
        for call in model.records[other].facts.uses:
            if call not in chain.answered:
                return call
    return None


def _element_cut(text: str, path: jsonscan.Path, number: int, count: int) -> tuple[int, int] | None:
    """The columns to delete to take array element `number` (of `count`) out, with one comma."""
    root = jsonscan.scan(text)
    here = jsonscan.value_span(text, (*path, number), root)
    if here is None:
        return None
    if number + 1 < count:
        after = jsonscan.value_span(text, (*path, number + 1), root)
        return (here[0], after[0]) if after is not None else None
    before = jsonscan.value_span(text, (*path, number - 1), root) if number else None
    return (before[1], here[1]) if before is not None else None


def _orphan(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CCD030: answer the open call of its response, or go as Claude Code drops it."""
    model = _model(doc)
    line = diagnostic.span.line
    index = _record(model, line) if model is not None else None
    if model is None or index is None:
        return None
    f = model.records[index].facts
    found = _block(doc, line, result_paths(f), diagnostic)
    if found is None:
        return None
    number, _ = found
    call = _open_call(model, index)
    if call is not None:
        edit = replace_value(doc.lines, line, ("message", "content", number, "tool_use_id"), json_text(call))
        return fix(diagnostic.code, f"Point tool_use_id at the unanswered call {call!r} of the response above",
                        edit) if edit is not None else None
    if len(f.blocks) > 1:
        cut = _element_cut(doc.lines[line], ("message", "content"), number, len(f.blocks))
        if cut is None:
            return None
        return fix(diagnostic.code, "Remove this tool result, whose call is gone (Claude Code drops it too)",
                        TextEdit(Span(line, cut[0], line, cut[1]), ""))
    return fix(diagnostic.code, "Delete this record, whose tool result has lost its call (Claude Code drops it "
               "too; the records below it hang from its parent)",
               *generic.unlink_line(doc.lines, line, "parentUuid", model.references_to(line)))


def _fresh_uuid(model: ClaudeModel, seed: str) -> str:
    for attempt in range(1000):
        digest = hashlib.sha256(f"{seed}/{attempt}".encode("utf-8", "surrogatepass")).digest()
        candidate = str(uuid.UUID(bytes=digest[:16], version=4))
        if candidate not in model.by_uuid:
            return candidate
    return str(uuid.UUID(bytes=hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest()[:16], version=4))


def _no_conversation(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CCD050: the record Claude Code resumes an empty history from, first in the file, with the session id the file
    name gives (Claude Code finds the session by it; else the one its records carry) and the time of its first
    record (else of the fix, when the caller gives one, else the Unix epoch)."""
    model = _model(doc)
    if model is None:
        return None
    said: dict[str, str] = {}
    for text in doc.lines[:_LOOKED_AT]:
        try:
            record = msgspec.json.decode(text)
        except (msgspec.DecodeError, RecursionError):
            continue
        for key in ("sessionId", "timestamp") if isinstance(record, dict) else ():
            if isinstance(record.get(key), str):
                said.setdefault(key, record[key])
    session = session_id_in_file_name(doc.options.path) or said.get("sessionId") \
        or _fresh_uuid(model, f"session/{doc.options.path}")
    now = datetime.fromtimestamp((doc.options.now or 0.0) / 1000, tz=UTC).isoformat(timespec="milliseconds")
    record = {"parentUuid": None, "isSidechain": False, "type": "system", "subtype": "informational", "content": "",
              "isMeta": False, "level": "info", "timestamp": said.get("timestamp", now.replace("+00:00", "Z")),
              "uuid": _fresh_uuid(model, f"resume/{session}"), "sessionId": session}
    return fix(diagnostic.code, "Insert the record Claude Code resumes an empty history from (a system record with "
               "no content)", TextEdit(Span(0, 0, 0, 0), json_text(record) + "\n"))


_LOOKED_AT = 1000
"""How many lines the CCD050 fix reads for a session id and a time (a file without a conversation is bookkeeping)."""


def _result_record(model: ClaudeModel, index: int) -> Record | None:
    """The record Claude Code wrote for this call's result, still on the chain without it: a user record naming the
    call's record by `sourceToolAssistantUUID`, its content a list."""
    uuid_ = model.records[index].facts.uuid
    found = _chain(model).written_for.get(uuid_) if uuid_ is not None else None
    return model.records[found] if found is not None else None


def _unanswered(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CCD031: the interrupted result Claude Code puts in for a call left open at the end of a session."""
    model = _model(doc)
    line = diagnostic.span.line
    index = _record(model, line) if model is not None else None
    if model is None or index is None:
        return None
    found = _block(doc, line, use_paths(model.records[index].facts), diagnostic)
    if found is None:
        return None
    _, call = found
    block = {"tool_use_id": call, "type": "tool_result", "content": INTERRUPTED, "is_error": True}
    title = "Add the interrupted result Claude Code gives a call left open"
    holder = _result_record(model, index)
    if holder is not None:
        text = doc.lines[holder.line]
        content = jsonscan.find(jsonscan.scan(text), ("message", "content"))
        if content is not None and content.kind == "array":
            at = content.start + 1
            empty = not content.items
            return fix(diagnostic.code, f"{title} (in the record written for its result, line {holder.line + 1})",
                            TextEdit(Span(holder.line, at, holder.line, at), json_text(block) + ("" if empty else ",")))
    call_record = _object(doc.lines[line])
    if call_record is None:
        return None
    own = model.records[index].facts
    new_uuid = _fresh_uuid(model, f"{call}/{own.uuid}")
    record: dict[str, Any] = {"parentUuid": own.uuid, "isSidechain": own.sidechain, "type": "user",
                              "message": {"role": "user", "content": [block]}, "uuid": new_uuid,
                              "timestamp": call_record.get("timestamp"), "sourceToolAssistantUUID": own.uuid}
    record.update((key, call_record[key]) for key in ENVELOPE if key in call_record)
    edits = [insert_line_after(doc.lines, line, json_text(record))]
    for child in _chain(model).children.get(own.uuid, ()) if own.uuid is not None else ():
        other = model.records[child]
        f = other.facts
        if other.part != 0 or f.results or (f.tag == "assistant" and f.message_id == own.message_id):
            continue
        edit = replace_value(doc.lines, other.line, ("parentUuid",), json_text(new_uuid))
        if edit is not None:
            edits.append(edit)
    return fix(diagnostic.code, f"{title} (a new record below the call; the chain goes on through it)", *edits)


def _value_text(doc: FixDoc, line: int, path: jsonscan.Path) -> str | None:
    found = jsonscan.value_span(doc.lines[line], path)
    return doc.lines[line][found[0]:found[1]] if found is not None else None


def _block_type(text: str, item: jsonscan.Node) -> str | None:
    kind = item.get("type")
    return jsonscan.string_value(text, kind) if kind is not None else None


def _thinking_first(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """CCD043: the response's thinking first, as the API requires. Across records (Claude Code writes one a block),
    the thinking record moves up the chain to the head of its response's run; within one record, its thinking
    blocks go first in its content (each block's text as written)."""
    model = _model(doc)
    line = diagnostic.span.line
    index = _record(model, line) if model is not None else None
    if model is None or index is None or index not in model.on_chain:
        return None
    f = model.records[index].facts
    position = model.chain.index(index)
    start = position
    while start and f.message_id is not None and model.records[model.chain[start - 1]].facts.message_id == f.message_id:
        start -= 1
    run = model.chain[start:position + 1]
    if len(run) > 1 and all(model.records[later].facts.parent == model.records[earlier].facts.uuid
                            for earlier, later in pairwise(run)):
        head = model.records[run[0]]
        above = _value_text(doc, head.line, ("parentUuid",))
        previous = model.records[run[-2]].facts.uuid
        if above is None or f.uuid is None or previous is None or any(model.records[i].part for i in run):
            return None
        edits = [replace_value(doc.lines, line, ("parentUuid",), above),
                 replace_value(doc.lines, head.line, ("parentUuid",), json_text(f.uuid))]
        for other in model.records:
            if other.facts.parent == f.uuid and other.facts.tag in CHAIN_TAGS and other.part == 0:
                edits.append(replace_value(doc.lines, other.line, ("parentUuid",), json_text(previous)))
        if any(edit is None for edit in edits):
            return None
        return fix(diagnostic.code, f"Move this thinking record up to the head of its response (above line "
                        f"{head.line + 1}), relinking the records around it", *[e for e in edits if e is not None])
    text = doc.lines[line]
    content = jsonscan.find(jsonscan.scan(text), ("message", "content"))
    if content is None or content.kind != "array" or not content.items:
        return None
    pieces = [(text[item.start:item.end], _block_type(text, item) in ("thinking", "redacted_thinking"))
              for item in content.items]
    ordered = [piece for piece, thinking in pieces if thinking] + [piece for piece, thinking in pieces if not thinking]
    if [piece for piece, _ in pieces] == ordered:
        return None
    return fix(diagnostic.code, "Put this record's thinking blocks first",
                    TextEdit(Span(line, content.start, line, content.end), "[" + ",".join(ordered) + "]"))


UNANSWERED = REFERENCES + 1
"""After the orphan results are relinked or dropped: the calls still open get their results."""

FIXERS: Fixers = {
    "CCD001": (LINES, _torn),
    "CCD050": (FILE, _no_conversation),
    "CCD003": (LINES, generic.drop_line("line, which holds no record")),
    "CCD004": (LINES, generic.drop_line("blank line")),
    "CCD005": (LINES, generic.lf),
    "CCD006": (LINES, generic.torn_tail),
    "CCD020": (PARENTS, _parent), "CCD021": (PARENTS, _parent), "CCD023": (PARENTS, _parent),
    "CCD030": (REFERENCES, _orphan),
    "CCD043": (REFERENCES, _thinking_first),
    "CCD031": (UNANSWERED, _unanswered),
}
"""Claude Code's rules with a fix: the phase it runs in and the fixer (lines, parents, orphan results and thinking
order, then the calls still open)."""
