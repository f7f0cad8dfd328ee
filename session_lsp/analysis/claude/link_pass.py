"""The link pass for Claude Code: the chain Claude Code resumes (model.py) and what is wrong along it, anchored to a
line and a JSON path. Reads only the line pass's facts."""

from __future__ import annotations

from collections.abc import Sequence

from ..detect import FormatInfo
from ..diagnostics import Severity
from ..jsonscan import Path
from ..lines import LineKind, is_blank
from ..result_store import facts_of, lines_of_kind
from ..results import Anchor, LineResult, Linked, LinkIssue, Options, RelatedAnchor
from .facts import Facts
from .model import ClaudeModel, Record, result_paths, use_paths
from .session import ClaudeSession

EMPTY = ("the file holds no conversation Claude Code can resume: `claude --resume` exits with 'No conversation found "
         "with session ID: ...' and sends nothing; add a user prompt record (completion offers one), or "
         "`session-lsp new --format claude` prints a session to start from")


def link(lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo, options: Options) -> Linked:
    model = ClaudeModel(facts_of(results))
    issues: list[LinkIssue] = []
    _blank_lines(lines, results, issues)
    if model.leaf is None:
        first = info.header_line or 0
        issues.append(LinkIssue("CCD050", Anchor(first), EMPTY))
    _duplicates(model, issues)
    _parents(model, issues)
    _tools(model, issues)
    _thinking(model, issues)
    _sessions(model, issues)
    _leaves(model, issues)
    _snapshots(model, issues)
    return Linked(model, issues, ClaudeSession(model, info, options))


def _blank_lines(lines: Sequence[str], results: Sequence[LineResult], issues: list[LinkIssue]) -> None:
    last = len(lines) - 1
    for number in lines_of_kind(results, LineKind.BLANK):
        if not (number == last and lines[number] == "") and is_blank(lines[number]):
            issues.append(LinkIssue("CCD004", Anchor(number), "blank line: Claude Code skips it (it never writes one)"))


def _at(record: Record, path: Path = (), key: bool = False) -> Anchor:
    """A glued line's later records have no paths of their own: they are anchored to the whole line."""
    return Anchor(record.line, path if record.part == 0 else (), key and record.part == 0)


def _duplicates(model: ClaudeModel, issues: list[LinkIssue]) -> None:
    for first, later in model.duplicates:
        a, b = model.records[first], model.records[later]
        if a.facts.digest == b.facts.digest:
            message = (f"this row repeats line {a.line + 1} exactly (a re-appended row): Claude Code reads the uuid "
                       "once, so it is harmless; delete the copy to keep the file small")
            issues.append(LinkIssue("CCD024", _at(b, ("uuid",)), message, Severity.HINT,
                                    (RelatedAnchor(_at(a, ("uuid",)), "first written here"),)))
        else:
            message = (f"uuid already declared on line {a.line + 1} by a different row: Claude Code keeps the later "
                       "row only, so the earlier one's content is lost on resume and records naming this uuid attach "
                       "here; give one of them a fresh uuid")
            issues.append(LinkIssue("CCD024", _at(b, ("uuid",)), message, Severity.WARNING,
                                    (RelatedAnchor(_at(a, ("uuid",)), "also declared here"),)))


def _parents(model: ClaudeModel, issues: list[LinkIssue]) -> None:
    for index, record in enumerate(model.records):
        f = record.facts
        if f.uuid is None or f.tag not in ("user", "assistant", "attachment", "system"):
            continue
        on = index in model.on_chain
        if f.parent is not None and f.parent not in model.by_uuid:
            severity = None
            if on and index in model.bridged:
                target = model.records[model.bridged[index]]
                does = (f"Claude Code links it to the record written last before it (line {target.line + 1}, by "
                        "`timestamp`) and sends the chain from there")
            elif on:
                does = ("no record was written within 5 s before it (by `timestamp`), so Claude Code starts the "
                        "history here on resume: everything above is not sent")
                severity = Severity.ERROR
            else:
                does = "Claude Code cannot follow it (the record is not on the chain it resumes)"
            message = f"`parentUuid` names no record of this file: {does}; point it at the record it follows"
            issues.append(LinkIssue("CCD020", _at(record, ("parentUuid",)), message, severity))
        elif model.cut(index):
            written = "null" if f.has_parent else "missing"
            message = (f"`parentUuid` is {written} in the middle of the conversation: Claude Code ends the chain "
                       "here on resume, so everything above is not sent (a tool result whose call is cut off becomes "
                       "'[Orphaned tool result removed due to conversation resume]'); set it to the uuid of the "
                       "record above")
            issues.append(LinkIssue("CCD021", _at(record, ("parentUuid",) if f.has_parent else ()), message,
                                    None if on else Severity.INFORMATION))
        if f.logical_parent is not None and f.logical_parent not in model.by_uuid:
            message = ("`logicalParentUuid` names no record of this file: the conversation before the compaction is "
                       "gone (Claude Code resumes from the summary below the boundary either way)")
            issues.append(LinkIssue("CCD022", _at(record, ("logicalParentUuid",)), message))
        if f.sidechain and on and not model.subagent:
            message = ("a sidechain (subagent) record on the main conversation's chain: Claude Code resumes through "
                       "it and sends the subagent's messages as if the main agent had written them; link the main "
                       "chain past it")
            issues.append(LinkIssue("CCD041", _at(record, ("isSidechain",)), message))
    if model.cycle is not None:
        record = model.records[model.cycle]
        message = ("`parentUuid` closes a cycle: walking up from the leaf, Claude Code would come back to a record it "
                   "has sent; it breaks the cycle here and links the record to the one written last before it (by "
                   "`timestamp`, within 5 s; with none, the history starts here); point it at the record it follows")
        issues.append(LinkIssue("CCD023", _at(record, ("parentUuid",)), message))


def _tools(model: ClaudeModel, issues: list[LinkIssue]) -> None:
    """Pairs of tool_use and tool_result along the chain Claude Code resumes."""
    called: dict[str, int] = {}
    answered: set[str] = set()
    for index in model.chain:
        record = model.records[index]
        f = record.facts
        if f.tag == "assistant":
            for call in f.uses:
                called.setdefault(call, index)
            answered.update(f.server_results)
        elif f.tag == "user":
            for path, call in result_paths(f):
                if call in answered:
                    message = ("a second tool_result for this call: Claude Code sends the first one only")
                    issues.append(LinkIssue("CCD032", _at(record, path), message, Severity.INFORMATION))
                elif call not in called and index == model.chain[0] and record.facts.parent is None:
                    message = ("tool_result whose call is above the cut in the chain: Claude Code sends '[Orphaned "
                               "tool result removed due to conversation resume]' in its place; point the null "
                               "parentUuid that cuts the chain at the record above it (CCD021)")
                    issues.append(LinkIssue("CCD030", _at(record, path), message))
                elif call not in called:
                    later = model.uses.get(call)
                    where = ("its tool_use comes later in the chain" if later is not None and later in model.on_chain
                             else "no tool_use on the resumed chain has this id")
                    message = (f"tool_result without its call ({where}): Claude Code drops it on resume (a user turn "
                               "left empty is sent as '(no content)'); remove it or restore the call")
                    issues.append(LinkIssue("CCD030", _at(record, path), message))
                answered.add(call)
    talk = [model.records[index].facts for index in model.chain if model.records[index].facts.tag in ("user",
                                                                                                     "assistant")]
    last = next((f for f in reversed(talk) if f.tag == "assistant" and not f.api_error), None)
    ended_by_error = bool(talk) and talk[-1].tag == "assistant" and talk[-1].api_error
    for call, index in called.items():
        if call in answered:
            continue
        record = model.records[index]
        path = next((p for p, value in use_paths(record.facts) if value == call), ())
        if last is not None and record.facts.message_id is not None and record.facts.message_id == last.message_id:
            cause = "the turn ended in an API error" if ended_by_error else "the session ended"
            message = (f"tool_use whose result was never written ({cause} first): on resume Claude Code sends its "
                       "interrupted-call result in its place"
                       + (", and once the error is 6 hours old it leaves this response out instead and resumes from "
                          "the message before it" if ended_by_error else "") + "; add the result or remove the call")
        else:
            message = ("tool_use with no tool_result on the resumed chain: Claude Code drops the call on resume (the "
                       "model never sees it was made); add its result or remove the call")
        issues.append(LinkIssue("CCD031", _at(record, path), message))


def _thinking(model: ClaudeModel, issues: list[LinkIssue]) -> None:
    """A merged assistant turn (records sharing message.id, consecutive on the chain) must start with its thinking."""
    previous: Facts | None = None
    other = False
    for index in model.chain:
        record = model.records[index]
        f = record.facts
        if f.tag != "assistant":
            if f.tag == "user":
                previous, other = None, False
            continue
        if previous is None or f.message_id is None or f.message_id != previous.message_id:
            other = False
        for number, block in enumerate(f.blocks):
            if block in ("thinking", "redacted_thinking") and other:
                message = ("a thinking block after text or a tool call of the same response: Claude Code merges the "
                           "records of one message.id into one assistant message, and the API requires its thinking "
                           "first (400 on resume); move this record above the others of its response")
                issues.append(LinkIssue("CCD043", _at(record, ("message", "content", number, "type")), message))
            elif block not in ("thinking", "redacted_thinking"):
                other = True
        previous = f


def _sessions(model: ClaudeModel, issues: list[LinkIssue]) -> None:
    first: tuple[str, Record] | None = None
    for record in model.records:
        f = record.facts
        if f.session is None or f.tag not in ("user", "assistant", "attachment", "system"):
            continue
        if first is None:
            first = (f.session, record)
        elif f.session != first[0]:
            message = (f"`sessionId` differs from line {first[1].line + 1}'s ({first[0]}): Claude Code loads every "
                       "record of the file whatever its sessionId, so this one is resumed with the others (a fork "
                       "copies history under its new id; records pasted from another session do not belong)")
            issues.append(LinkIssue("CCD040", _at(record, ("sessionId",)), message, Severity.INFORMATION,
                                    (RelatedAnchor(_at(first[1], ("sessionId",)), "first sessionId"),)))
            return


def _leaves(model: ClaudeModel, issues: list[LinkIssue]) -> None:
    for record in model.records:
        f = record.facts
        if f.leaf is not None and f.leaf not in model.by_uuid:
            message = (f"`leafUuid` names no record of this file: the {f.tag} is not attached to any conversation "
                       "point (Claude Code resumes from the last record of the chain anyway)")
            issues.append(LinkIssue("CCD042", _at(record, ("leafUuid",)), message))


def _snapshots(model: ClaudeModel, issues: list[LinkIssue]) -> None:
    """A file-history-snapshot checkpoints the files at a user prompt, named by `messageId`."""
    first: dict[str, Record] = {}
    for record in model.records:
        f = record.facts
        if f.snapshot is None:
            continue
        target = model.by_uuid.get(f.snapshot)
        if target is None or model.records[target].facts.tag != "user":
            what = "no record" if target is None else f"a {model.records[target].facts.tag} record"
            message = (f"`messageId` names {what}, not a user prompt: the file checkpoint is attached to no prompt "
                       "(a resume ignores snapshots, so the conversation is unaffected)")
            issues.append(LinkIssue("CCD025", _at(record, ("messageId",)), message))
        elif not f.snapshot_update and f.snapshot in first:
            earlier = first[f.snapshot]
            message = (f"a second snapshot (not an update) for the prompt line {earlier.line + 1}'s snapshot "
                       "already checkpoints: the later one wins when files are restored")
            issues.append(LinkIssue("CCD025", _at(record, ("messageId",)), message,
                                    related=(RelatedAnchor(_at(earlier, ("messageId",)), "first snapshot"),)))
        if not f.snapshot_update:
            first.setdefault(f.snapshot, record)
