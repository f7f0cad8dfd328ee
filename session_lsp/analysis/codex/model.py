"""A Codex rollout's link model: its records in file order, its turns, its calls by `call_id`, and the history Codex
rebuilds from it when it resumes. Built whole by its constructor and never changed afterwards (ARCHITECTURE.md,
invariant 8).

How Codex 0.171.0 rebuilds the history (openai/codex `reconstruct_history_from_rollout`, and the real CLI resuming
damaged copies): it reads the lines it can decode in file order; every response item it knows, but messages of role
"system", is recorded (duplicates too: an item written twice is sent twice); a `compacted` record with a
`replacement_history` replaces everything recorded before it with that history (one without, with the user messages
so far and its summary); a `thread_rolled_back` event drops the last `num_turns` user turns. Before it sends the
history it normalises it: an output whose call is not in it is dropped (logged "Orphan function call output for
call id: ..."), and a call without an output gets one right after it, "aborted".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ..jsonscan import Path
from ..results import Reference
from . import schema as s
from .facts import Facts, Kept

SUMMARY = -2
"""The position of a compaction's summary message (one without replacement_history)."""


class Record(msgspec.Struct, frozen=True, gc=False):
    line: int
    facts: Facts


class Entry(msgspec.Struct, frozen=True, gc=False, array_like=True):
    """One item of the history Codex sends: a record's item (`position` -1), the `position`th item of a compaction's
    replacement history, or that compaction's summary (`SUMMARY`); `synthetic`: the "aborted" output Codex adds
    after that call."""

    record: int
    position: int = -1
    synthetic: bool = False


class Turn(msgspec.Struct, frozen=True, gc=False):
    turn_id: str | None
    line: int
    """The task_started event (or the turn's first record)."""
    last: int
    end: str | None
    """How it ended: "task_complete", "turn_aborted", or None when no event says (a killed run)."""
    records: tuple[int, ...]


class CodexModel:
    """The file's records, turns and calls, and the history Codex sends on resume."""

    def __init__(self, facts: Sequence[Any]) -> None:
        records = [Record(line, value) for line, value in enumerate(facts) if isinstance(value, Facts)]
        self.records = records
        self.views: dict[str, Any] = {}
        self.at_line = {record.line: index for index, record in enumerate(records)}
        first = records[0] if records else None
        self.meta = first if first is not None and first.line == 0 and first.facts.tag == "session_meta" \
            and first.facts.readable else None
        """The session_meta on the first line, which Codex requires; None: it refuses the file."""
        calls: dict[str, int] = {}
        outputs: dict[str, list[int]] = {}
        turns_by_id: dict[str, int] = {}
        for index, record in enumerate(records):
            f = record.facts
            if f.call_id is not None and f.kind in s.CALLS:
                calls.setdefault(f.call_id, index)
            elif f.call_id is not None and f.kind in s.OUTPUTS:
                outputs.setdefault(f.call_id, []).append(index)
            if f.kind in s.TURN_STARTS and f.turn_id is not None:
                turns_by_id.setdefault(f.turn_id, index)
        self.calls = calls
        """Every call_id -> the record making the call first."""
        self.outputs = outputs
        self.turn_starts = turns_by_id
        self.turns = self._turns()
        last = records[-1] if records else None
        self.unnumbered_end = last if last is not None and not last.facts.has_ordinal and any(
            r.facts.has_ordinal for r in records) else None
        """The last record, when it has no `ordinal` and others have: Codex refuses to resume the file."""
        self.rolled_back: dict[int, list[int]] = {}
        """A thread_rolled_back record -> the records its rollback drops from the history."""
        self.last_compaction: int | None = None
        """The line of the last compaction Codex applies: what is above it is replaced by its history."""
        history, self.orphans, self.synthetic = self._replay()
        self.history = history
        self.sent = {entry.record for entry in history if entry.position == -1 and not entry.synthetic}

    def _turns(self) -> list[Turn]:
        turns: list[Turn] = []
        current: list[int] = []
        start: Record | None = None
        end: str | None = None

        def close() -> None:
            if start is not None:
                last = self.records[current[-1]].line if current else start.line
                turns.append(Turn(start.facts.turn_id, start.line, last, end, tuple(current)))

        for index, record in enumerate(self.records):
            f = record.facts
            if f.kind in s.TURN_STARTS and f.tag == "event_msg":
                close()
                start, current, end = record, [index], None
            elif start is not None:
                current.append(index)
                if f.kind in s.TURN_ENDS and f.tag == "event_msg" and end is None:
                    end = f.kind
        close()
        return turns

    @staticmethod
    def ignored(f: Facts) -> bool:
        """A compaction whose replacement_history and its metadata differ in length: Codex ignores it (the real
        0.171.0 rebuilt the history from the compaction before it, and every item after that)."""
        return f.replaced is not None and f.replaced_meta is not None and f.replaced != f.replaced_meta

    def _kept(self, entry: Entry) -> Kept | Facts:
        record = self.records[entry.record]
        if entry.position >= 0:
            return record.facts.kept[entry.position]
        return record.facts

    def _replay(self) -> tuple[list[Entry], list[int], list[int]]:
        history: list[Entry] = []
        for index, record in enumerate(self.records):
            f = record.facts
            if not f.readable:
                continue
            if f.tag == "response_item" and f.sent:
                history.append(Entry(index))
            elif f.tag == "compacted":
                if self.ignored(f):
                    continue
                self.last_compaction = record.line
                if f.replaced is not None:
                    history = [Entry(index, n) for n, kept in enumerate(f.kept) if kept.sent]
                else:
                    history = [e for e in history if self._kept(e).prompt] + [Entry(index, SUMMARY)]
            elif f.tag == "event_msg" and f.kind == "thread_rolled_back" and f.num_turns:
                prompts = [n for n, e in enumerate(history) if e.position != SUMMARY and self._kept(e).prompt]
                if prompts:
                    cut = prompts[max(len(prompts) - f.num_turns, 0)]
                    self.rolled_back[index] = [e.record for e in history[cut:] if e.position == -1]
                    history = history[:cut]
                else:
                    self.rolled_back[index] = []
        return self._normalised(history)

    def _normalised(self, history: list[Entry]) -> tuple[list[Entry], list[int], list[int]]:
        """Codex's `ensure_call_outputs_present` and `remove_orphan_outputs`: the entries sent, the records of the
        outputs dropped, the records of the calls answered with "aborted"."""
        called: dict[str, set[str]] = {}
        answered: dict[str, set[str]] = {}
        for entry in history:
            kept = self._kept(entry)
            if kept.call_id is None:
                continue
            if kept.kind in s.CALLS:
                called.setdefault(s.OUTPUT_OF[kept.kind], set()).add(kept.call_id)
            elif kept.kind in s.OUTPUTS:
                answered.setdefault(kept.kind, set()).add(kept.call_id)
        out: list[Entry] = []
        orphans: list[int] = []
        synthetic: list[int] = []
        for entry in history:
            kept = self._kept(entry)
            if kept.kind in s.OUTPUTS and kept.call_id is not None and \
                    kept.call_id not in called.get(kept.kind, set()):
                if entry.position == -1:
                    orphans.append(entry.record)
                continue
            out.append(entry)
            if kept.kind in s.CALLS and kept.call_id is not None and \
                    kept.call_id not in answered.get(s.OUTPUT_OF[kept.kind], set()):
                out.append(Entry(entry.record, entry.position, True))
                if entry.position == -1:
                    synthetic.append(entry.record)
        return out, orphans, synthetic

    # -- results.LinkModel --------------------------------------------------------------------------------------

    def references_from(self, line: int) -> Sequence[Reference]:
        index = self.at_line.get(line)
        if index is None:
            return []
        f = self.records[index].facts
        found: list[Reference] = []
        if f.call_id is not None and f.kind in s.OUTPUTS:
            call = self.calls.get(f.call_id)
            found.append(Reference(line, ("payload", "call_id"), "call_id", f.call_id,
                                   None if call is None else self.records[call].line))
        if f.turn_id is not None and not (f.kind in s.TURN_STARTS and f.tag == "event_msg"):
            start = self.turn_starts.get(f.turn_id)
            path: Path = (("payload", "internal_chat_message_metadata_passthrough", "turn_id")
                          if f.tag == "response_item" else ("payload", "turn_id"))
            found.append(Reference(line, path, "turn_id", f.turn_id,
                                   None if start is None else self.records[start].line))
        return found

    def references_to(self, line: int) -> Sequence[Reference]:
        incoming = self.views.get("incoming")
        if incoming is None:
            incoming = {}
            for record in self.records:
                for ref in self.references_from(record.line):
                    if ref.target is not None:
                        incoming.setdefault(ref.target, []).append(ref)
            self.views["incoming"] = incoming
        return list(incoming.get(line, ()))

    def identity(self, line: int) -> tuple[Path, str] | None:
        index = self.at_line.get(line)
        if index is None:
            return None
        f = self.records[index].facts
        if f.call_id is not None and f.kind in s.CALLS:
            return ("payload", "call_id"), f.call_id
        if f.kind in s.TURN_STARTS and f.turn_id is not None:
            return ("payload", "turn_id"), f.turn_id
        if f.session is not None:
            return ("payload", "id"), f.session
        return None
