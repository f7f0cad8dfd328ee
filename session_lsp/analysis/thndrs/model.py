"""The thndrs link model: turns, seq index, tool / permission / process pairs, and the references between lines.

Built in one pass over the line facts (O(n)). Pairing follows replay (§2.8): a `tool_finished` answers the oldest
open `tool_started` with the same (turn_id, call_id); a permission outcome the oldest open request with its
tool_call_id (any turn); a terminal `shell_exec` the open `running` record with its process_id. Every object line
takes part, also one thndrs drops for a schema error: its own error says so, and leaving it out would only add
follow-on reports (a lost `user` making its whole turn "without user"). The link pass reports pairing problems only
on records thndrs reads. Turns and pairs hold only ints, strings and lists of ints (no cycles), so they are not
tracked by the garbage collector.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import msgspec

from ..jsonscan import Path
from ..results import Reference
from . import schema as s
from .facts import RecordFacts


class Turn(msgspec.Struct, gc=False):
    turn_id: str
    user: int | None = None
    """The first `user` record of the turn."""
    lines: list[int] = []
    """Every line carrying this turn_id, in file order (the user line included)."""
    closing: int | None = None
    """The first assistant_finished / cancelled / failed record."""


class ToolCall(msgspec.Struct, gc=False):
    turn_id: str
    call_id: str
    started: int | None
    finished: int | None = None
    other_turn_start: int | None = None
    """For a finish without a start in its turn: an open start with the same call_id in another turn."""
    claimed_by: int | None = None
    """For a start: the finish of another turn that named its call_id (see `other_turn_start`)."""


class PermissionPair(msgspec.Struct, gc=False):
    tool_call_id: str
    request: int | None
    outcome: int | None = None


class BackgroundProcess(msgspec.Struct, gc=False):
    process_id: int
    running: int
    terminal: int | None = None
    repeated_running: int | None = None
    """A second `running` record for the process while it was still running."""


_TOOL_TAGS = frozenset({"tool_started", "tool_finished"})


def _created_at(call: ToolCall) -> int:
    """The line a pairing creates a ToolCall at: its start, or a finish without one."""
    return call.started if call.started is not None else call.finished  # type: ignore[return-value]


class _ToolPairing:
    """Replay's matching of tool records, fed in file order: a finish answers the oldest open start with the same
    (turn_id, call_id); one without such a start claims an open start with its call_id in another turn. Records
    with different call_ids never meet, so a subset of call_ids can be paired again on its own."""

    def __init__(self, calls: list[ToolCall], duplicate_starts: list[tuple[int, int]],
                 finish_start: dict[int, int]) -> None:
        self.calls, self.duplicate_starts, self.finish_start = calls, duplicate_starts, finish_start
        self.open_starts: dict[tuple[str, str], deque[ToolCall]] = {}
        self.open_by_call: dict[str, dict[int, ToolCall]] = {}
        self.started: dict[tuple[str, str], int] = {}

    def add(self, line: int, facts: RecordFacts) -> None:
        turn_id, call_id = facts.turn_id, facts.call_id
        assert turn_id is not None and call_id is not None
        if facts.type == "tool_started":
            self._start(line, turn_id, call_id)
        else:
            self._finish(line, turn_id, call_id)

    def _start(self, line: int, turn_id: str, call_id: str) -> None:
        key = (turn_id, call_id)
        call = ToolCall(turn_id, call_id, line)
        self.calls.append(call)
        if call_id == "?":
            return
        if key in self.started:
            self.duplicate_starts.append((line, self.started[key]))
        else:
            self.started[key] = line
        self.open_starts.setdefault(key, deque()).append(call)
        self.open_by_call.setdefault(call_id, {})[line] = call

    def _finish(self, line: int, turn_id: str, call_id: str) -> None:
        if call_id == "?":
            self.calls.append(ToolCall(turn_id, call_id, None, line))
            return
        pending = self.open_starts.get((turn_id, call_id))
        if pending:
            call = pending.popleft()
            call.finished = line
            self.open_by_call[call_id].pop(call.started, None)  # type: ignore[arg-type]
            self.finish_start[line] = call.started  # type: ignore[assignment]
            return
        orphan = ToolCall(turn_id, call_id, None, line)
        others = self.open_by_call.get(call_id)
        if others:
            start_line, other = next(iter(others.items()))
            del others[start_line]
            other.claimed_by = line
            orphan.other_turn_start = start_line
        self.calls.append(orphan)


class ThndrsModel:
    """What the file says, as thndrs replays it. Implements `results.LinkModel`."""

    def __init__(self, facts: Sequence[RecordFacts | None], stem: str | None = None) -> None:
        self.facts = facts
        self.stem = stem
        self._covered_lines: dict[int, int] | None = None
        self.metas: list[int] = []
        self.renames: list[int] = []
        self.turns: dict[str, Turn] = {}
        self.user_lines: list[int] = []
        self.tool_calls: list[ToolCall] = []
        self.duplicate_starts: list[tuple[int, int]] = []
        """(line, earlier start) for a tool_started whose (turn_id, call_id) was started before."""
        self.permissions: list[PermissionPair] = []
        self.processes: list[BackgroundProcess] = []
        self.orphan_terminals: list[int] = []
        """Terminal background shell records whose process_id has no open running record."""
        self.handles: dict[str, int] = {}
        """recovery handle -> the first compaction listing it."""
        self.compactions: list[int] = []
        self.reviews: list[int] = []
        self.acp_sessions: list[int] = []
        self._finish_start: dict[int, int] = {}
        self._outcome_request: dict[int, int] = {}
        self._terminal_running: dict[int, int] = {}
        self._incoming: dict[int, list[Reference]] | None = None
        self._build()

    @property
    def covered_lines(self) -> dict[int, int]:
        """seq -> the first line with it, for the seqs that compactions name as covered: found in one scan when
        first asked for, since an index of every seq would cost more than the rest of the model."""
        if self._covered_lines is None:
            covers = (self.facts[line].covered for line in self.compactions)  # type: ignore[union-attr]
            wanted = {seq for covered in covers if covered is not None for seq in covered}
            found: dict[int, int] = {}
            if wanted:
                for line, facts in enumerate(self.facts):
                    seq = facts.seq if facts is not None else None
                    if seq is not None and seq in wanted and seq not in found:
                        found[seq] = line
            self._covered_lines = found
        return self._covered_lines

    # -- building -------------------------------------------------------------------------------------------

    def _build(self) -> None:
        tools = _ToolPairing(self.tool_calls, self.duplicate_starts, self._finish_start)
        open_requests: dict[str, deque[PermissionPair]] = {}
        running: dict[int, BackgroundProcess] = {}
        for line, facts in enumerate(self.facts):
            if facts is None:
                continue
            tag, turn_id = facts.type, facts.turn_id
            if turn_id is not None:
                turn = self.turns.get(turn_id)
                if turn is None:
                    turn = self.turns[turn_id] = Turn(turn_id, lines=[])
                turn.lines.append(line)
                if tag == "user":
                    self.user_lines.append(line)
                    if turn.user is None:
                        turn.user = line
                elif tag in s.TURN_CLOSERS and turn.closing is None:
                    turn.closing = line
            if tag in _TOOL_TAGS and turn_id is not None and facts.call_id is not None:
                tools.add(line, facts)
            elif tag in ("acp_permission_request", "acp_permission_outcome") and facts.tool_call_id is not None:
                pending = open_requests.setdefault(facts.tool_call_id, deque())
                if tag == "acp_permission_request":
                    pair = PermissionPair(facts.tool_call_id, line)
                    self.permissions.append(pair)
                    pending.append(pair)
                elif pending:
                    pair = pending.popleft()
                    pair.outcome = line
                    self._outcome_request[line] = pair.request  # type: ignore[assignment]
                else:
                    self.permissions.append(PermissionPair(facts.tool_call_id, None, line))
            elif tag == "shell_exec" and facts.process_id is not None:
                self._shell(line, facts, running)
            elif tag == "session_meta":
                self.metas.append(line)
            elif tag == "session_renamed":
                self.renames.append(line)
            elif tag == "compaction":
                self.compactions.append(line)
                for handle in facts.recovery_handles:
                    self.handles.setdefault(handle, line)
            elif tag == "compaction_review":
                self.reviews.append(line)
            elif tag == "acp_session":
                self.acp_sessions.append(line)

    def _shell(self, line: int, facts: RecordFacts, running: dict[int, BackgroundProcess]) -> None:
        pid = facts.process_id
        assert pid is not None
        current = running.get(pid)
        if facts.process_status == "running":
            if current is not None:
                current.repeated_running = line
                return
            process = BackgroundProcess(pid, line)
            self.processes.append(process)
            running[pid] = process
        elif current is not None:
            current.terminal = line
            self._terminal_running[line] = current.running
            del running[pid]
        else:
            self.orphan_terminals.append(line)

    def with_call_id(self, line: int, facts: RecordFacts) -> ThndrsModel:
        """A copy after an edit that changed only the call_id of the tool record on `line`: only the tool records
        with its old or its new call_id are paired again, since replay matches nothing else by call_id."""
        before = self.facts[line]
        assert before is not None
        ids = {before.call_id, facts.call_id}
        new = ThndrsModel.__new__(ThndrsModel)
        new.__dict__.update(self.__dict__)
        new.facts = all_facts = list(self.facts)
        all_facts[line] = facts
        new._incoming = None

        old_group = {number for number, found in enumerate(self.facts) if found is not None and found.call_id in ids}
        new.tool_calls = [call for call in self.tool_calls if call.call_id not in ids]
        new.duplicate_starts = [pair for pair in self.duplicate_starts if pair[0] not in old_group]
        new._finish_start = {end: begin for end, begin in self._finish_start.items() if end not in old_group}
        tools = _ToolPairing(new.tool_calls, new.duplicate_starts, new._finish_start)
        for number in sorted(old_group | {line}):
            found = all_facts[number]
            if found is not None and found.type in _TOOL_TAGS and found.turn_id is not None and found.call_id in ids:
                tools.add(number, found)
        new.tool_calls.sort(key=_created_at)
        new.duplicate_starts.sort()
        return new

    # -- queries --------------------------------------------------------------------------------------------

    @property
    def meta_line(self) -> int | None:
        return self.metas[0] if self.metas else None

    @property
    def session_id(self) -> str | None:
        line = self.meta_line
        return None if line is None else self.facts[line].session_id  # type: ignore[union-attr]

    @property
    def title(self) -> str | None:
        """The listing title thndrs shows: the latest session_renamed, else the first session_meta's title, else the
        file stem."""
        for line in reversed(self.renames):
            title = self.facts[line].title  # type: ignore[union-attr]
            if title is not None:
                return title
        meta = self.meta_line
        if meta is not None and self.facts[meta].title is not None:  # type: ignore[union-attr]
            return self.facts[meta].title  # type: ignore[union-attr]
        return self.stem

    def user_of(self, turn_id: str) -> int | None:
        turn = self.turns.get(turn_id)
        return None if turn is None else turn.user

    def start_of(self, finish_line: int) -> int | None:
        return self._finish_start.get(finish_line)

    def request_of(self, outcome_line: int) -> int | None:
        return self._outcome_request.get(outcome_line)

    def running_of(self, terminal_line: int) -> int | None:
        return self._terminal_running.get(terminal_line)

    # -- LinkModel --------------------------------------------------------------------------------------------

    def references_from(self, line: int) -> list[Reference]:
        facts = self.facts[line] if 0 <= line < len(self.facts) else None
        if facts is None:
            return []
        out: list[Reference] = []
        tag = facts.type
        if facts.turn_id is not None and not (tag == "user" and self.user_of(facts.turn_id) == line):
            out.append(Reference(line, ("turn_id",), "turn_id", facts.turn_id, self.user_of(facts.turn_id)))
        if facts.accounting_turn_id is not None:
            out.append(Reference(line, ("accounting", "turn_id"), "turn_id", facts.accounting_turn_id,
                                 self.user_of(facts.accounting_turn_id)))
        if tag == "tool_finished" and facts.call_id is not None:
            out.append(Reference(line, ("call_id",), "call_id", facts.call_id, self.start_of(line)))
        elif tag == "acp_permission_outcome" and facts.tool_call_id is not None:
            out.append(Reference(line, ("tool_call_id",), "tool_call_id", facts.tool_call_id,
                                 self.request_of(line)))
        elif tag == "shell_exec" and facts.process_id is not None and facts.process_status != "running":
            out.append(Reference(line, ("process_id",), "process_id", str(facts.process_id),
                                 self.running_of(line)))
        elif tag == "compaction_review" and facts.recovery_handle is not None:
            target = self.handles.get(facts.recovery_handle)
            out.append(Reference(line, ("recovery_handle",), "recovery_handle", facts.recovery_handle,
                                 target if target is not None and target < line else None))
        elif tag == "compaction" and facts.covered is not None:
            for name, seq in zip(("covered_start_seq", "covered_end_seq"), facts.covered, strict=True):
                out.append(Reference(line, ("audit", name), name, str(seq), self.covered_lines.get(seq)))
        elif tag == "acp_session" and facts.session_id is not None:
            target = self.meta_line if facts.session_id == self.session_id else None
            out.append(Reference(line, ("local_session_id",), "local_session_id", facts.session_id, target))
        return out

    def references_to(self, line: int) -> list[Reference]:
        if self._incoming is None:
            incoming: dict[int, list[Reference]] = {}
            for source in range(len(self.facts)):
                for reference in self.references_from(source):
                    if reference.target is not None:
                        incoming.setdefault(reference.target, []).append(reference)
            self._incoming = incoming
        return list(self._incoming.get(line, ()))

    def identity(self, line: int) -> tuple[Path, str] | None:
        facts = self.facts[line] if 0 <= line < len(self.facts) else None
        if facts is None:
            return None
        tag = facts.type
        if tag == "user" and facts.turn_id is not None and self.user_of(facts.turn_id) == line:
            return ("turn_id",), facts.turn_id
        if tag == "tool_started" and facts.call_id is not None:
            return ("call_id",), facts.call_id
        if tag == "acp_permission_request" and facts.tool_call_id is not None:
            return ("tool_call_id",), facts.tool_call_id
        if tag == "shell_exec" and facts.process_status == "running" and facts.process_id is not None:
            return ("process_id",), str(facts.process_id)
        if tag == "session_meta" and facts.session_id is not None:
            return ("session_id",), facts.session_id
        if tag == "compaction" and facts.recovery_handles:
            return ("audit", "recovery_handles", 0), facts.recovery_handles[0]
        if facts.seq is not None:
            return ("seq",), str(facts.seq)
        return None
