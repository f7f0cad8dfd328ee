"""A Claude Code file's link model: its records by uuid, the conversation chain Claude Code resumes, and the tool
calls paired along it. Built whole by its constructor and never changed afterwards (ARCHITECTURE.md, invariant 8).

How Claude Code 2.1.332 rebuilds a conversation from the file (seen with the real CLI resuming damaged copies):
it indexes the chain records (user, assistant, attachment, system, progress) by `uuid`, a later row with an equal
uuid replacing the earlier; it takes the last main-chain record (not a sidechain) that no record names as parent as
the leaf, and walks `parentUuid` up from it. Where a `parentUuid` names nothing, or a record already walked (a cycle),
it links the record to the one written last before it by `timestamp` (at most 5 s earlier; of several written at that
same instant, the first in the file), among the chain records of its side (main or sidechain) not walked yet, a
`file_snapshot` system record excepted; with none, or no readable timestamp, the history starts at the record. A null
`parentUuid` ends the walk (a compact boundary's, on purpose: the summary below it replaces what it hides, whose leaf
`logicalParentUuid` names). When a compaction kept a segment (`compactMetadata.preservedSegment`), Claude Code first
leaves every record placed before the last boundary out of its map, the segment's excepted, and relinks the segment
under the summary, with what hung under the summary under the segment's tail.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from datetime import datetime
from itertools import pairwise
from typing import Any

from ..jsonscan import Path
from ..results import Reference
from .facts import Facts, records_of


class Record:
    """One record of the file: its line, its place on a glued line and its facts."""

    __slots__ = ("facts", "line", "part")

    def __init__(self, line: int, part: int, facts: Facts) -> None:
        self.line = line
        self.part = part
        self.facts = facts


CHAIN_TAGS = frozenset({"user", "assistant", "attachment", "system"})
"""The record types Claude Code links into the conversation (a missing `parentUuid` counts as null)."""

BRIDGE_MS = 5000.0
"""How much earlier than a record with a broken link the record Claude Code links it to may be written."""


def epoch_ms(timestamp: str | None) -> float | None:
    """A `timestamp` as milliseconds, as JavaScript's `Date` reads an ISO 8601 one; None where it reads NaN."""
    if timestamp is None:
        return None
    try:
        moment = datetime.fromisoformat(timestamp)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None  # Claude Code writes UTC with `Z`; a time without zone would be read as local time
    return moment.timestamp() * 1000.0


class ClaudeModel:
    """The file's records, the chain from the resume leaf and the tool pairs on it."""

    def __init__(self, facts: Sequence[Any]) -> None:
        records: list[Record] = []
        for line, value in enumerate(facts):
            for part, one in enumerate(records_of(value)):
                records.append(Record(line, part, one))
        self.records = records
        self.views: dict[str, Any] = {}
        at_line: dict[int, Record] = {}
        for record in records:
            at_line.setdefault(record.line, record)
        self.at_line = at_line
        """The (first) record of each line."""
        by_uuid: dict[str, int] = {}
        first: dict[str, int] = {}
        duplicates: list[tuple[int, int]] = []
        for index, record in enumerate(records):
            f = record.facts
            if f.uuid is None or f.tag not in CHAIN_TAGS:
                continue
            if f.uuid in first:
                duplicates.append((first[f.uuid], index))
            else:
                first[f.uuid] = index
            by_uuid[f.uuid] = index
        self.by_uuid = by_uuid
        self.first = first
        self.duplicates = duplicates
        """(first, later) record indices declaring one uuid."""
        self.subagent = not any(r.facts.has_parent and not r.facts.sidechain for r in records
                                if r.facts.tag in CHAIN_TAGS)
        """Every chain record is a sidechain: the file is a subagent's transcript, its chain its own."""
        self.relinked: dict[int, str] = {}
        """Records whose parent Claude Code changes to walk a compaction's kept segment: its head's is the anchor
        (the summary), and what hung under the anchor hangs under the segment's tail."""
        self.first_main: int | None = next((index for index, record in enumerate(records)
                                             if record.facts.uuid is not None and record.facts.tag in CHAIN_TAGS
                                             and not record.facts.sidechain), None)
        """The conversation's first record (of the main chain): a null `parentUuid` below it is a cut (`cut`)."""
        self.dropped, self.tail = self._before_compaction()
        self.leaf = self._leaf()
        responses: dict[str, list[int]] = {}
        for index, record in enumerate(records):
            f = record.facts
            if f.tag == "assistant" and f.message_id is not None and f.sidechain == self.subagent and (
                    f.uuid is None or by_uuid.get(f.uuid) == index):
                responses.setdefault(f.message_id, []).append(index)
        self.responses = responses
        """message id -> the records of that response Claude Code sends together, in file order."""
        chain, self.bridged, self.cycle = self._walk()
        self.chain = self._with_siblings(self._with_response(chain))
        self.on_chain = set(self.chain)
        uses: dict[str, int] = {}
        for index, record in enumerate(records):
            for call in record.facts.uses:
                uses.setdefault(call, index)
        self.uses = uses
        """Every tool_use id of the file -> the record declaring it first."""
        message_lines: dict[str, int] = {}
        for record in records:
            if record.facts.tag == "user" and record.facts.uuid is not None:
                message_lines.setdefault(record.facts.uuid, record.line)
        self.user_lines = message_lines

    def _before_compaction(self) -> tuple[frozenset[int], int | None]:
        """What Claude Code leaves out of its map when a compaction kept a segment: every record placed before the
        last compact boundary (by its uuid's first row) but the kept segment's; and the segment's tail, to which it
        links a user or assistant record whose parent is one of those. Nothing when no boundary kept a segment, or
        the last one's segment cannot be walked from tail to head."""
        boundaries = [index for index, record in enumerate(self.records)
                      if record.facts.subtype == "compact_boundary" and record.facts.uuid is not None
                      and self.by_uuid.get(record.facts.uuid) == index]
        if not any(self.records[index].facts.segment is not None for index in boundaries):
            return frozenset(), None
        order: dict[str, int] = {}
        for record in self.records:
            if record.facts.tag in CHAIN_TAGS and record.facts.uuid is not None:
                order.setdefault(record.facts.uuid, len(order))
        last = max(boundaries, key=lambda index: order[self.records[index].facts.uuid or ""])
        boundary = self.records[last].facts
        preserved: list[int] = []
        if boundary.segment is not None:
            head, _, tail = boundary.segment
            found = self.by_uuid.get(tail)
            walked: set[int] = set()
            """`preserved` as a set: a segment of thousands of records read the list for each (as did `dropped`)."""
            while found is not None and found not in walked:
                preserved.append(found)
                walked.add(found)
                if self.records[found].facts.uuid == head:
                    break
                parent = self.records[found].facts.parent
                found = None if parent is None else self.by_uuid.get(parent)
            else:
                return frozenset(), None
        if preserved and boundary.segment is not None:
            anchor = boundary.segment[1]
            tail_uuid = self.records[preserved[0]].facts.uuid or ""
            for index in self.by_uuid.values():
                if index != preserved[-1] and self.records[index].facts.parent == anchor:
                    self.relinked[index] = tail_uuid
            for index, above in pairwise(preserved):  # tail first: each under the one before
                self.relinked[index] = self.records[above].facts.uuid or ""
            self.relinked[preserved[-1]] = anchor
        cut = order[boundary.uuid or ""]
        kept = frozenset(preserved)
        dropped = frozenset(index for uuid, index in self.by_uuid.items() if order[uuid] < cut and index not in kept)
        return dropped, preserved[0] if preserved else None

    def cut(self, index: int) -> bool:
        """Whether the record cuts the conversation (CCD021): a chain record of the main side below the first whose
        `parentUuid` is null or missing, not at a compact boundary."""
        f = self.records[index].facts
        return (f.parent is None and f.uuid is not None and f.tag in CHAIN_TAGS and not f.sidechain
                and f.subtype != "compact_boundary" and self.first_main is not None and self.first_main < index)

    def _leaf(self) -> int | None:
        """The chain record whose uuid the file declares last: Claude Code keeps records in a map by uuid, in the
        order of their first row (a later row with the same uuid replaces the content, not the place), and resumes
        from the last, whatever `last-prompt` or `summary` name."""
        for uuid in reversed(self.first):
            index = self.by_uuid[uuid]
            if self.records[index].facts.sidechain == self.subagent:
                return index
        return None

    def _walk(self) -> tuple[list[int], dict[int, int], int | None]:
        """The chain from the root to the leaf (record indices); the records whose dangling parent was bridged, to
        the record it was bridged to; the record whose parent closes a cycle, if any."""
        chain: list[int] = []
        bridged: dict[int, int] = {}
        seen: set[int] = set()
        index = self.leaf
        cycle = None
        while index is not None:
            seen.add(index)
            chain.append(index)
            f = self.records[index].facts
            if f.parent is None or f.subtype == "compact_boundary":
                break
            found = self.by_uuid.get(self.relinked.get(index, f.parent))
            if found is not None and found in self.dropped:
                found = self.tail if f.tag in ("user", "assistant") else None
            if found is not None and found in seen:
                cycle = index
                found = None
            if found is None:
                found = self._by_time(index, seen)
                if found is not None:
                    bridged[index] = found
            index = found
        chain.reverse()
        return chain, bridged, cycle

    def _with_response(self, chain: list[int]) -> list[int]:
        """The chain with every record of each response on it: Claude Code writes one record a content block, and
        sends all the records of a `message.id` as one message, those off the chain (above a cut, on a side branch)
        included, after its first record on the chain."""
        responses = self.responses
        on = set(chain)
        if all(i in on for group in responses.values() for i in group):
            return chain
        out: list[int] = []
        emitted: set[int] = set()
        position = 0
        while position < len(chain):
            index = chain[position]
            position += 1
            if index in emitted:
                continue
            message_id = self.records[index].facts.message_id
            group = responses.get(message_id, ()) if message_id is not None else ()
            out.append(index)
            emitted.add(index)
            missing = [member for member in group if member not in on and member not in emitted]
            if not missing:
                continue
            # the response's records off the chain join its run of records on it, in file order
            run: list[int] = []
            while position < len(chain) and self.records[chain[position]].facts.message_id == message_id:
                run.append(chain[position])
                position += 1
            for member in sorted([*run, *missing]):
                if member not in emitted:
                    out.append(member)
                    emitted.add(member)
        return out

    def _with_siblings(self, chain: list[int]) -> list[int]:
        """The chain with the results of parallel tool calls that hang off it: Claude Code writes each result
        under the record of its own call, so all but the last call's result are on side branches; it sends them
        with the others, after the records of the response that made the calls."""
        on = set(chain)
        hanging: dict[int, list[int]] = {}
        for index, record in enumerate(self.records):
            f = record.facts
            if f.tag != "user" or not f.results or index in on or f.parent is None:
                continue
            parent = self.by_uuid.get(f.parent)
            if parent is not None and parent in on and self.by_uuid.get(f.uuid or "") == index:
                hanging.setdefault(parent, []).append(index)
        if not hanging:
            return chain
        out: list[int] = []
        waiting: list[int] = []
        position = 0
        while position < len(chain):
            index = chain[position]
            out.append(index)
            position += 1
            waiting.extend(hanging.get(index, ()))
            following = self.records[chain[position]].facts if position < len(chain) else None
            if waiting and (following is None or following.tag != "assistant"
                            or following.message_id != self.records[index].facts.message_id):
                while position < len(chain) and self.records[chain[position]].facts.results:
                    waiting.append(chain[position])
                    position += 1
                out.extend(sorted(waiting))  # the results of one response's calls go out in file order
                waiting = []
        return out

    def _by_time(self, index: int, seen: set[int]) -> int | None:
        """The record Claude Code links a record with a broken link to (see the module's docstring)."""
        own = epoch_ms(self.records[index].facts.timestamp)
        if own is None:
            return None
        side = self.records[index].facts.sidechain
        timed = self.views.get(f"timed-{side}")
        if timed is None:
            # Claude Code's map by uuid: a key's place is its first row's, its value the last row's; the rows
            # without a uuid share one key (JavaScript's `undefined`)
            place: dict[str | None, tuple[int, int]] = {}
            for found, record in enumerate(self.records):
                if record.facts.tag in CHAIN_TAGS:
                    uuid = record.facts.uuid
                    place[uuid] = (place[uuid][0] if uuid in place else len(place), found)
            entries: list[tuple[float, int, int]] = []
            for position, found in place.values():
                f = self.records[found].facts
                at = epoch_ms(f.timestamp)
                if found in self.dropped:
                    continue
                if f.sidechain == side and at is not None and not (f.tag == "system" and f.subtype == "file_snapshot"):
                    entries.append((at, -position, found))
            entries.sort()
            timed = self.views[f"timed-{side}"] = entries
        at = bisect_right(timed, (own, 1, 0)) - 1
        while at >= 0 and timed[at][2] in seen:
            at -= 1
        if at < 0 or own - timed[at][0] > BRIDGE_MS:
            return None
        return timed[at][2]

    def with_facts(self, changes: Mapping[int, Facts]) -> ClaudeModel:
        """This model with the facts of some records replaced (record index -> facts), for a relink after edits that
        changed nothing any link or index reads (the digest of a row's text): the records are new, everything the
        constructor derived is shared, the views are copied. Neither model changes afterwards."""
        model = ClaudeModel.__new__(ClaudeModel)
        model.__dict__.update(self.__dict__)
        records = list(self.records)
        at_line = dict(self.at_line)
        for index, facts in changes.items():
            old = records[index]
            records[index] = Record(old.line, old.part, facts)
            if at_line.get(old.line) is old:
                at_line[old.line] = records[index]
        model.records, model.at_line, model.views = records, at_line, dict(self.views)
        return model

    # -- results.LinkModel --------------------------------------------------------------------------------------

    def line_of_uuid(self, value: str) -> int | None:
        index = self.by_uuid.get(value)
        return None if index is None else self.records[index].line

    def references_from(self, line: int) -> Sequence[Reference]:
        record = self.at_line.get(line)
        if record is None:
            return []
        f = record.facts
        found: list[Reference] = []
        for field, value in (("parentUuid", f.parent), ("logicalParentUuid", f.logical_parent),
                             ("sourceToolAssistantUUID", f.source_tool)):
            if value is not None:
                found.append(Reference(line, (field,), field, value, self.line_of_uuid(value)))
        if f.leaf is not None:
            found.append(Reference(line, ("leafUuid",), "leafUuid", f.leaf, self.line_of_uuid(f.leaf)))
        if f.snapshot is not None:
            found.append(Reference(line, ("messageId",), "messageId", f.snapshot, self.line_of_uuid(f.snapshot)))
        for path, value in result_paths(f):
            use = self.uses.get(value)
            found.append(Reference(line, path, "tool_use_id", value, None if use is None else self.records[use].line))
        return found

    def references_to(self, line: int) -> Sequence[Reference]:
        incoming = self.views.get("incoming")
        if incoming is None:
            incoming = {}
            for other in self.at_line:
                for ref in self.references_from(other):
                    if ref.target is not None:
                        incoming.setdefault(ref.target, []).append(ref)
            self.views["incoming"] = incoming
        return list(incoming.get(line, ()))

    def identity(self, line: int) -> tuple[Path, str] | None:
        record = self.at_line.get(line)
        if record is not None and record.facts.uuid is not None:
            return ("uuid",), record.facts.uuid
        return None


def result_paths(f: Facts) -> list[tuple[Path, str]]:
    """The JSON path of each tool_result's `tool_use_id` on a user record."""
    paths: list[tuple[Path, str]] = []
    results = iter(f.results)
    for number, block in enumerate(f.blocks):
        if block == "tool_result":
            value = next(results, None)
            if value is not None:
                paths.append((("message", "content", number, "tool_use_id"), value))
    return paths


def use_paths(f: Facts) -> list[tuple[Path, str]]:
    """The JSON path of each tool_use's `id` on an assistant record."""
    paths: list[tuple[Path, str]] = []
    uses = iter(f.uses)
    for number, block in enumerate(f.blocks):
        if block in ("tool_use", "server_tool_use"):
            value = next(uses, None)
            if value is not None:
                paths.append((("message", "content", number, "id"), value))
    return paths
