"""The link pass for Codex rollouts: the history Codex rebuilds (model.py) and what is wrong along it, anchored to a
line and a JSON path. Reads only the line pass's facts."""

from __future__ import annotations

from collections.abc import Sequence

from ..detect import FormatInfo
from ..diagnostics import Severity
from ..lines import LineKind, is_blank
from ..result_store import facts_of, lines_of_kind
from ..results import Anchor, LineResult, Linked, LinkIssue, Options, RelatedAnchor
from . import schema as s
from .model import CodexModel, Record
from .session import CodexSession


def link(lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo, options: Options) -> Linked:
    model = CodexModel(facts_of(results))
    issues: list[LinkIssue] = []
    _blank_lines(lines, results, issues)
    _first_line(model, lines, issues)
    _pairs(model, issues)
    _duplicates(model, issues)
    _ordinals(model, issues)
    _compactions(model, issues)
    _rollbacks(model, issues)
    return Linked(model, issues, CodexSession(model, info, options))


def _blank_lines(lines: Sequence[str], results: Sequence[LineResult], issues: list[LinkIssue]) -> None:
    last = len(lines) - 1
    for number in lines_of_kind(results, LineKind.BLANK):
        if not (number == last and lines[number] == "") and is_blank(lines[number]):
            if number == 0:
                continue  # the first line's own rule says more
            issues.append(LinkIssue("CDX004", Anchor(number), "blank line: Codex skips it (it never writes one)"))


def _first_line(model: CodexModel, lines: Sequence[str], issues: list[LinkIssue]) -> None:
    if model.meta is not None:
        return
    later = next((r for r in model.records if r.facts.tag == "session_meta" and r.facts.readable), None)
    if not lines or all(not line.strip() for line in lines):
        message = ("the file is empty: `codex resume` exits with \"rollout at ... is empty\" and sends nothing; "
                   "a rollout starts with its session_meta line")
    elif later is not None:
        message = (f"the first line is not the session_meta (it is on line {later.line + 1}): Codex reads the "
                   "first line as the session metadata and refuses the file (\"does not start with session "
                   "metadata\"), sending nothing; move the session_meta line to the top")
    else:
        message = ("the first line is not a session_meta Codex can read: `codex resume` exits with \"failed to "
                   "read session metadata ... does not start with session metadata\" (or \"has invalid session "
                   "metadata\") and sends nothing; restore the session_meta line (id, timestamp, cwd, originator, "
                   "cli_version) at the top")
    related = (RelatedAnchor(Anchor(later.line), "the session_meta"),) if later is not None else ()
    issues.append(LinkIssue("CDX010", Anchor(0), message, related=related,
                            data={"line": later.line} if later is not None else None))


def _pairs(model: CodexModel, issues: list[LinkIssue]) -> None:
    for index in model.orphans:
        record = model.records[index]
        f = record.facts
        elsewhere = f.call_id in model.calls
        why = ("its call is not in the history Codex rebuilds (a compaction or a rollback above dropped it)"
               if elsewhere else "no call in the file has this call_id")
        message = (f"{f.kind} without its call ({why}): Codex drops it on resume and logs \"Orphan function call "
                   f"output for call id: {f.call_id}\"; restore the call or delete the output")
        related = ((RelatedAnchor(Anchor(model.records[model.calls[f.call_id]].line, ("payload", "call_id")),
                                  "the call"),) if elsewhere and f.call_id is not None else ())
        issues.append(LinkIssue("CDX020", Anchor(record.line, ("payload", "call_id")), message, related=related))
    for record in model.records:
        f = record.facts
        if f.tag == "response_item" and f.readable and f.kind in s.OUTPUTS and f.call_id is None:
            message = (f"{f.kind} without a `call_id`: Codex sends it as it is, at its place, answering no call "
                       "(the Responses API requires the call_id of an output); write its call's call_id")
            issues.append(LinkIssue("CDX020", Anchor(record.line, ("payload",), True), message))
    for index in model.synthetic:
        record = model.records[index]
        f = record.facts
        message = (f"{f.kind} `{f.name or ''}` with no output in the history: on resume Codex sends a synthetic "
                   "output \"aborted\" right after it (the model never learns what the call did); add its output if "
                   "the call ran")
        issues.append(LinkIssue("CDX021", Anchor(record.line, ("payload", "call_id")), message))


def _duplicates(model: CodexModel, issues: list[LinkIssue]) -> None:
    seen: dict[int, Record] = {}
    calls: dict[str, Record] = {}
    for index, record in enumerate(model.records):
        f = record.facts
        if f.tag != "response_item" or not f.readable:
            continue
        earlier = seen.get(f.digest)
        if earlier is not None and index in model.sent:
            message = (f"this item repeats line {earlier.line + 1} exactly (a row written twice): Codex sends both "
                       "copies to the model on resume; delete the copy")
            issues.append(LinkIssue("CDX022", Anchor(record.line, ("payload",), True), message,
                                    related=(RelatedAnchor(Anchor(earlier.line, ("payload",), True), "first copy"),)))
        else:
            seen.setdefault(f.digest, record)
            if f.kind in s.CALLS and f.call_id is not None:
                other = calls.get(f.call_id)
                if other is not None:
                    message = (f"a second call with the call_id of line {other.line + 1}: Codex sends both, and one "
                               "output answers both calls, so the model sees one call's result twice or not at all; "
                               "give this call its own call_id")
                    issues.append(LinkIssue("CDX022", Anchor(record.line, ("payload", "call_id")), message,
                                            related=(RelatedAnchor(Anchor(other.line, ("payload", "call_id")),
                                                                   "first call"),)))
                calls.setdefault(f.call_id, record)


def _ordinals(model: CodexModel, issues: list[LinkIssue]) -> None:
    """Paginated history (the app server's thread reads and resume by pages) orders records by `ordinal`: openai/codex
    #45150 (a final record without one makes resume fatal), #35746 and #38341 (reused ordinals drop records)."""
    numbered = [r for r in model.records if r.facts.has_ordinal]
    if not numbered:
        return
    previous: Record | None = None
    first: dict[int, Record] = {}
    for record in model.records:
        f = record.facts
        if not f.readable:
            continue
        if record is model.unnumbered_end:
            message = ("the last record has no `ordinal` where the others have one: Codex refuses to resume the "
                       "file (\"final paginated rollout record ... is missing an ordinal\", openai/codex #45150) "
                       "and sends nothing; give it the ordinal after the line above's")
            issues.append(LinkIssue("CDX031", Anchor(record.line), message, Severity.ERROR))
            continue
        if f.ordinal is None:
            message = ("no `ordinal` where the other records have one: `codex exec resume` reads the file in line "
                       "order, but paginated history cannot place the record (openai/codex #45150: a last record "
                       "without one makes resume fatal); give it the ordinal after the line above's")
            issues.append(LinkIssue("CDX031", Anchor(record.line), message))
            continue
        if f.ordinal in first:
            other = first[f.ordinal]
            message = (f"`ordinal` {f.ordinal} is line {other.line + 1}'s too: paginated history keeps one record an "
                       "ordinal and drops the other (openai/codex #35746); renumber the records in line order")
            issues.append(LinkIssue("CDX032", Anchor(record.line, ("ordinal",)), message,
                                    related=(RelatedAnchor(Anchor(other.line, ("ordinal",)), "also here"),)))
        elif previous is not None and previous.facts.ordinal is not None and f.ordinal < previous.facts.ordinal:
            message = (f"`ordinal` {f.ordinal} is below line {previous.line + 1}'s ({previous.facts.ordinal}): "
                       "records go backwards, so paginated history orders them unlike the file Codex resumes from "
                       "(openai/codex #38341); renumber the records in line order")
            issues.append(LinkIssue("CDX033", Anchor(record.line, ("ordinal",)), message))
        first.setdefault(f.ordinal, record)
        previous = record


def _compactions(model: CodexModel, issues: list[LinkIssue]) -> None:
    for record in model.records:
        f = record.facts
        if f.tag != "compacted" or not f.readable:
            continue
        if model.ignored(f):
            message = (f"`replacement_history` holds {f.replaced} items but `replacement_history_metadata` "
                       f"{f.replaced_meta}: Codex ignores this compaction on resume, and rebuilds the history from "
                       "the compaction before it (or the start) and every item after that, so the model gets what "
                       "the compaction had replaced; correct the two lists to the same length")
            later = model.last_compaction
            if later is not None and later > record.line:
                message += (f" (compacted away: the compaction on line {later + 1} replaces what is above it, so "
                            "nothing Codex sends is lost)")
            issues.append(LinkIssue("CDX040", Anchor(record.line, ("payload", "replacement_history_metadata"), True),
                                    message, Severity.WARNING if later is not None and later > record.line else None))


def _rollbacks(model: CodexModel, issues: list[LinkIssue]) -> None:
    for index, dropped in model.rolled_back.items():
        record = model.records[index]
        count = record.facts.num_turns
        if not dropped:
            message = (f"a rollback of {count} turn(s) with no user turn left to drop: Codex applies it to nothing "
                       "on resume")
            issues.append(LinkIssue("CDX041", Anchor(record.line, ("payload", "num_turns")), message,
                                    Severity.WARNING))
            continue
        lines = [model.records[i].line for i in dropped]
        message = (f"Codex drops the last {count} user turn(s) on resume: the {len(lines)} item(s) on lines "
                   f"{lines[0] + 1}-{lines[-1] + 1} stay in the file but are not sent")
        issues.append(LinkIssue("CDX041", Anchor(record.line, ("payload", "num_turns")), message,
                                related=tuple(RelatedAnchor(Anchor(line), "not sent") for line in lines[:1])))
