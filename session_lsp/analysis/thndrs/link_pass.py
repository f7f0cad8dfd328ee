"""The link pass for thndrs: rules that look across lines (session identity, seq and time order, turns, pairs,
compactions, background processes, blank and truncated lines). O(n): one pass builds the model, one checks order.

Decisions:

* THN070 (blank line) is reported here, not by the line pass: an empty last element of `lines` is the end of a
  file that ends with "\\n", not a blank line, and only this pass knows which element is last.
* THN071 (truncated last line) is reported *with* THN001 on the same line, not instead of it: THN001 says where
  the JSON breaks (a column the line pass knows), THN071 why (the write was cut off) and what follows from it.
* THN033 (seq gap) is not reported when unreadable lines between the two records account for the missing seqs (a
  glued line counts for each record on it): the lost records are in plain view, each with its own error.
* THN022 (session id vs file name) is checked only when the file is named like a thndrs session file (its stem
  contains a `session-YYYYMMDD-HHMMSS` id) or lies in a `sessions` directory: thndrs only ever looks a session up
  by such a file, and an exported or fixture file named otherwise would always "mismatch".
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Sequence

import msgspec

from ..detect import FormatInfo
from ..diagnostics import Severity
from ..lines import LineKind
from ..result_store import facts_of, lines_of_kind
from ..results import Anchor, LineResult, Linked, LinkIssue, Options, RelatedAnchor
from .checks import file_parts
from .facts import RecordFacts
from .model import ThndrsModel
from .session import ThndrsSession

RENUMBER = {"renumber": True}
"""Quick-fix data: rewrite every seq as 0, 1, 2, ... in line order."""

_ID_IN_NAME = re.compile(r"session-\d{8}-\d{6}")
_UNREADABLE = (LineKind.INVALID, LineKind.GLUED, LineKind.NON_OBJECT)
_REFUSE = "later builds refuse to resume the session"
_RENUMBER = "renumber seq in line order (quick fix, or `session-lsp fix`)"


def _related(line: int, message: str, path: tuple[str | int, ...] = ()) -> tuple[RelatedAnchor, ...]:
    return (RelatedAnchor(Anchor(line, path), message),)


def link(lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo, options: Options) -> Linked:
    facts = [found if isinstance(found, RecordFacts) else None for found in facts_of(results)]
    stem, directory = file_parts(options.path)
    model = ThndrsModel(facts, stem)
    issues: list[LinkIssue] = []
    _lines(lines, results, issues)
    _identity(model, facts, stem, directory, issues)
    _order(results, facts, issues)
    _tools(model, issues)
    _permissions(model, issues)
    _turns(model, issues)
    _compactions(model, facts, issues)
    _processes(model, issues)
    return Linked(model, [issue for issue in issues if issue.code in _ANY_LINE or _valid(facts, issue.anchor.line)],
                  ThndrsSession(model, info, options))


_TOOL_CODES = frozenset({"THN040", "THN041", "THN042", "THN043"})
"""What `_tools` reports: all that a call_id can change."""


def relink(previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
           options: Options, changed: Collection[int]) -> Linked | None:
    """The link pass after an edit that changed only the call_id of one tool record (typing in it), from the
    previous result: the records with the old or the new call_id are paired again and the tool rules run again;
    every other issue stays. None for any other edit: then `link` runs."""
    model = previous.model
    if len(changed) != 1 or not isinstance(model, ThndrsModel) or len(results) != len(model.facts):
        return None
    (line,) = changed
    old, new = model.facts[line], results[line].facts
    if type(old) is not RecordFacts or type(new) is not RecordFacts:
        return None
    if old == new:
        return previous
    if old.type not in ("tool_started", "tool_finished") or old.turn_id is None or None in (old.call_id, new.call_id) \
            or msgspec.structs.replace(old, call_id=new.call_id) != new:
        return None  # a record without a call_id is paired by no call_id: the full pass says what it does
    moved = model.with_call_id(line, new)
    tools: list[LinkIssue] = []
    _tools(moved, tools)
    kept = [issue for issue in previous.issues if issue.code not in _TOOL_CODES]
    return Linked(moved, kept + [issue for issue in tools if _valid(moved.facts, issue.anchor.line)],
                  ThndrsSession(moved, info, options))


_ANY_LINE = frozenset({"THN020", "THN031", "THN032", "THN033", "THN035", "THN037", "THN070", "THN071"})
"""Rules about the file's own order and shape, reported on every line. The others are reported only on records
thndrs reads: a dropped record has its own error, and what it lacks (a finish, a user, an outcome) does not matter."""


def _valid(facts: Sequence[RecordFacts | None], line: int) -> bool:
    f = facts[line] if 0 <= line < len(facts) else None
    return f is not None and f.valid


def _lines(lines: Sequence[str], results: Sequence[LineResult], issues: list[LinkIssue]) -> None:
    last = len(lines) - 1
    for number in lines_of_kind(results, LineKind.BLANK):
        if not (number == last and lines[number] == ""):
            issues.append(LinkIssue("THN070", Anchor(number),
                                    "blank line: the thndrs reader skips it, and thndrs never writes one"))
    if last >= 0 and lines[last] != "" and results[last].kind in (LineKind.INVALID, LineKind.GLUED):
        issues.append(LinkIssue(
            "THN071", Anchor(last),
            "the last line has no final newline and does not parse: the write was cut off (typically a crash). "
            f"The thndrs 0.1.0 reader drops it; {_REFUSE}; cut it (quick fix, or `session-lsp fix --unsafe-fixes`)"))


def _identity(model: ThndrsModel, facts: Sequence[RecordFacts | None], stem: str | None, directory: str | None,
              issues: list[LinkIssue]) -> None:
    first_valid = next((line for line, f in enumerate(facts) if f is not None and f.valid), None)
    meta = model.meta_line
    if first_valid is not None and facts[first_valid].type != "session_meta":  # type: ignore[union-attr]
        related = _related(meta, "the session_meta record") if meta is not None else ()
        where = ("" if meta is None else " (the session_meta record is not readable)" if meta < first_valid
                 else " (session_meta comes later)")
        issues.append(LinkIssue(
            "THN020", Anchor(first_valid, ("type",)),
            f"the first record thndrs reads is `{facts[first_valid].type}`, not session_meta{where}: 0.1.0 falls "  # type: ignore[union-attr]
            "back to the file name as title and \"unknown\" as model; later builds refuse to resume the session "
            "(\"session metadata is missing\"); move the session_meta record to the first line (or add one: "
            "completion offers it)", related=related))
    if meta is None:
        return
    for line in model.metas[1:]:
        issues.append(LinkIssue(
            "THN021", Anchor(line, ("type",)),
            "another session_meta: thndrs's summary takes title and model from the last one, title lookup from the "
            "first; forks copy neither", related=_related(meta, "the first session_meta")))
    meta_facts = facts[meta]
    assert meta_facts is not None
    if meta_facts.seq is not None and meta_facts.seq != 0:
        issues.append(LinkIssue("THN030", Anchor(meta, ("seq",)),
                                f"session_meta has seq {meta_facts.seq}: the writer always starts a file at 0",
                                data=RENUMBER))
    session_id = meta_facts.session_id
    if session_id is None:
        return
    named_like_session = stem is not None and (_ID_IN_NAME.search(stem) is not None or directory == "sessions")
    if named_like_session and session_id != stem:
        issues.append(LinkIssue(
            "THN022", Anchor(meta, ("session_id",)),
            f"session_id {session_id!r} differs from the file name {stem!r}: thndrs looks sessions up by file name, "
            "and later builds refuse to resume this one (\"session identity mismatch\")"))
    for line in model.acp_sessions:
        local = facts[line].session_id  # type: ignore[union-attr]
        if local is not None and local != session_id:
            issues.append(LinkIssue(
                "THN024", Anchor(line, ("local_session_id",)),
                f"local_session_id {local!r} is not this session's id {session_id!r}: the writer always copies its "
                "own id", related=_related(meta, "session_meta", ("session_id",))))


def _order(results: Sequence[LineResult], facts: Sequence[RecordFacts | None], issues: list[LinkIssue]) -> None:
    """seq: duplicates, decreases and gaps against the highest seq so far; schema_version agreement; time order."""
    seen: dict[int, int] = {}
    top: int | None = None
    top_line = 0
    unreadable = 0
    previous_time: str | None = None
    previous_time_line = 0
    versions: Counter[int] = Counter()
    for line, f in enumerate(facts):
        if f is None:
            result = results[line]
            if result.kind is LineKind.GLUED:
                unreadable += result.facts
            elif result.kind in _UNREADABLE:
                unreadable += 1
            continue
        if f.schema_version is not None:
            versions[f.schema_version] += 1
        seq = f.seq
        if seq is not None:
            if seq in seen:
                issues.append(LinkIssue(
                    "THN031", Anchor(line, ("seq",)),
                    f"seq {seq} is used again: two writers appended to this file at once; {_REFUSE}; {_RENUMBER}",
                    related=_related(seen[seq], f"seq {seq} first used here", ("seq",)), data=RENUMBER))
            elif top is not None and seq < top:
                issues.append(LinkIssue(
                    "THN032", Anchor(line, ("seq",)),
                    f"seq {seq} is lower than seq {top} on an earlier line: the records are out of order; {_REFUSE}; "
                    f"{_RENUMBER}",
                    related=_related(top_line, f"seq {top}", ("seq",)), data=RENUMBER))
            elif top is not None and seq - top - 1 > unreadable:
                missing = seq - top - 1
                issues.append(LinkIssue(
                    "THN033", Anchor(line, ("seq",)),
                    f"seq jumps from {top} to {seq}: {missing} record{'s' if missing > 1 else ''} lost (a failed "
                    "write, or a corrupt line the reader dropped)",
                    related=_related(top_line, f"seq {top}", ("seq",)), data=RENUMBER))
            seen.setdefault(seq, line)
            if top is None or seq > top:
                top, top_line = seq, line
            unreadable = 0
        if f.time is not None:
            if previous_time is not None and f.time < previous_time:
                issues.append(LinkIssue(
                    "THN037", Anchor(line, ("time",)),
                    f"time {f.time} is earlier than {previous_time} on a previous record: a clock change or an edit "
                    "(equal times are normal at 1-second resolution)",
                    related=_related(previous_time_line, previous_time, ("time",))))
            previous_time, previous_time_line = f.time, line
    if len(versions) > 1:
        common = versions.most_common(1)[0][0]
        first = next(line for line, f in enumerate(facts) if f is not None and f.schema_version == common)
        for line, f in enumerate(facts):
            if f is not None and f.schema_version is not None and f.schema_version != common:
                issues.append(LinkIssue(
                    "THN035", Anchor(line, ("schema_version",)),
                    f"schema_version {f.schema_version} while most records have {common}: unexpected in an "
                    "append-only file written by one build",
                    related=_related(first, f"schema_version {common}", ("schema_version",))))


def _later_turn_finder(model: ThndrsModel) -> list[str | None]:
    """For each position in `model.user_lines`: the only turn_id of the user records from there on, or None when
    there are several (so "is there a later user record of another turn?" is answered in O(log n))."""
    only: list[str | None] = [None] * len(model.user_lines)
    current: str | None = None
    several = False
    for index in range(len(model.user_lines) - 1, -1, -1):
        turn_id = model.facts[model.user_lines[index]].turn_id  # type: ignore[union-attr]
        if current is None and not several:
            current = turn_id
        elif turn_id != current:
            several = True
        only[index] = None if several else current
    return only


def _later_turn_exists(model: ThndrsModel, only: list[str | None], line: int, turn_id: str) -> bool:
    index = bisect_right(model.user_lines, line)
    if index >= len(model.user_lines):
        return False
    return only[index] is None or only[index] != turn_id


def _tools(model: ThndrsModel, issues: list[LinkIssue]) -> None:
    for line, first in model.duplicate_starts:
        issues.append(LinkIssue(
            "THN043", Anchor(line, ("call_id",)),
            "this call_id was already started in this turn: replay cannot tell the two calls apart",
            related=_related(first, "the earlier tool_started", ("call_id",))))
    only = _later_turn_finder(model)
    for call in model.tool_calls:
        if call.call_id == "?":
            continue
        if call.started is None and call.finished is not None:
            if call.other_turn_start is not None:
                issues.append(LinkIssue(
                    "THN042", Anchor(call.finished, ("turn_id",)),
                    f"call {call.call_id!r} was started in another turn: thndrs matches call ids within a turn, so "
                    "replay shows this finish as a detached tool row and leaves the start running",
                    related=_related(call.other_turn_start, "tool_started in another turn", ("turn_id",))))
            else:
                issues.append(LinkIssue(
                    "THN040", Anchor(call.finished, ("call_id",)),
                    f"no earlier tool_started for call {call.call_id!r} in turn {call.turn_id!r}: replay shows a "
                    f"detached #{call.call_id} tool row, and forks drop it"))
        elif call.started is not None and call.finished is None and call.claimed_by is None:
            later = _later_turn_exists(model, only, call.started, call.turn_id)
            issues.append(LinkIssue(
                "THN041", Anchor(call.started, ("call_id",)),
                f"tool call {call.call_id!r} never finished: replay leaves it \"running\"" + (
                    "; a later turn exists, so this is not just a crash in the last turn" if later
                    else " (normal after a crash or cancel in the last turn)"),
                severity=Severity.WARNING if later else None))


def _permissions(model: ThndrsModel, issues: list[LinkIssue]) -> None:
    for pair in model.permissions:
        if pair.request is None and pair.outcome is not None:
            issues.append(LinkIssue(
                "THN046", Anchor(pair.outcome, ("tool_call_id",)),
                f"no earlier acp_permission_request for tool call {pair.tool_call_id!r}: replay shows a detached "
                "permission row, and forks drop it"))
        elif pair.request is not None and pair.outcome is None:
            issues.append(LinkIssue(
                "THN047", Anchor(pair.request, ("tool_call_id",)),
                f"permission request for {pair.tool_call_id!r} has no outcome: it stays pending on replay"))


def _turns(model: ThndrsModel, issues: list[LinkIssue]) -> None:
    for turn in model.turns.values():
        first = next((line for line in turn.lines if model.facts[line].valid), None)  # type: ignore[union-attr]
        if first is not None and (turn.user is None or turn.user > first):
            related = _related(turn.user, "the user record of this turn", ("turn_id",)) if turn.user is not None else ()
            count = sum(1 for line in turn.lines if turn.user is None or line < turn.user)
            issues.append(LinkIssue(
                "THN048", Anchor(first, ("turn_id",)),
                f"turn {turn.turn_id!r} has no earlier user record ({count} record{'s' if count > 1 else ''} before "
                "it): thndrs cannot fork at this turn (\"no replayable user message\"); usually a lost line",
                related=related))
        if turn.user is not None and turn.closing is None:
            issues.append(LinkIssue(
                "THN049", Anchor(turn.user, ("turn_id",)),
                f"turn {turn.turn_id!r} never settled (no assistant_finished, cancelled or failed): it is not a fork "
                "point; normal for a crash in the last turn"))


def _compactions(model: ThndrsModel, facts: Sequence[RecordFacts | None], issues: list[LinkIssue]) -> None:
    for line in model.compactions:
        f = facts[line]
        assert f is not None
        if f.covered is None:
            continue
        start, end = f.covered
        problem: tuple[str, str] | None = None
        if start > end:
            problem = ("covered_start_seq", f"covered_start_seq {start} is after covered_end_seq {end}")
        elif f.seq is not None and end >= f.seq:
            problem = ("covered_end_seq", f"covered_end_seq {end} is not before the compaction's own seq {f.seq}")
        elif start not in model.covered_lines:
            problem = ("covered_start_seq", f"no record has seq {start}")
        elif end not in model.covered_lines:
            problem = ("covered_end_seq", f"no record has seq {end}")
        if problem is not None:
            issues.append(LinkIssue(
                "THN050", Anchor(line, ("audit", problem[0])),
                f"{problem[1]}: the audit cannot be tied to the records it replaced"))
    for line in model.reviews:
        handle = facts[line].recovery_handle  # type: ignore[union-attr]
        if handle is None:
            continue
        target = model.handles.get(handle)
        if target is None or target > line:
            related = _related(target, "a later compaction lists it") if target is not None else ()
            issues.append(LinkIssue(
                "THN051", Anchor(line, ("recovery_handle",)),
                f"recovery handle {handle!r} is not among the recovery_handles of an earlier compaction: the review "
                "refers to nothing", related=related))


def _processes(model: ThndrsModel, issues: list[LinkIssue]) -> None:
    for process in model.processes:
        if process.repeated_running is not None:
            issues.append(LinkIssue(
                "THN053", Anchor(process.repeated_running, ("process_id",)),
                f"background process {process.process_id} is reported running again before it ended: the writer "
                "writes one running record per process", related=_related(process.running, "the first running record",
                                                                          ("process_id",))))
        if process.terminal is None:
            issues.append(LinkIssue(
                "THN054", Anchor(process.running, ("process_id",)),
                f"background process {process.process_id} has no later record: its outcome is unknown"))
    for line in model.orphan_terminals:
        pid = model.facts[line].process_id  # type: ignore[union-attr]
        issues.append(LinkIssue(
            "THN053", Anchor(line, ("process_id",)),
            f"a terminal record for background process {pid} without its running record: the writer starts every "
            "background command with one, so it was lost"))
