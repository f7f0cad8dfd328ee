"""The Elyra link model: the entry tree as pi builds it from a file, and the links written in it.

pi indexes entries by `id` (a later duplicate replaces an earlier one), follows `parentId` through that index,
resumes from the last entry in file order and orders siblings by timestamp (spec §1.8). A v1 file has no ids: pi's
migration chains its entries in file order, so that chain is the tree here too.

The model is held by the server for files of 100,000 entries, so it keeps flat integer arrays indexed by line
(`-1` = none) and the line facts it was built from, never a per-entry object. Everything is built in O(n): parents
through the id index, children as one compressed array, cycles by colouring, depths by one walk from the roots,
and tool results paired with their calls in one walk over the tool lines in that order (no per-entry ancestor
walk, which would make a 100,000-entry chain quadratic). The constructor builds all of it; the link pass only reads
the model. An edit to one parentId or timestamp, or to one result's toolCallId or toolName, gives a new model
(`with_entry`) at the cost of the part of the order that moves and the pairs across the moved edge, not of the file.
"""

from __future__ import annotations

import contextlib
import itertools
import operator
import weakref
from array import array
from bisect import bisect_right, insort
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from itertools import compress, count
from typing import Any, overload

import msgspec

from ..columns import LOW, PART, U64, ColumnMap, counting, cut_and_insert, line_column, shift
from ..jsonscan import Path
from ..layered import Layered
from ..lines import LineKind
from ..result_store import facts_of
from ..results import LineResult, Reference
from .fact_columns import ASSISTANT, COUNT_SHIFT, NULL_PARENT, OBJECT, ROLE, FactColumns, earlier, hex_key
from .facts import FAILED_STOPS, EntryFacts, HeaderFacts, ToolCallFact
from .id_index import IdIndex

NONE = -1
BLOCK_BITS = 20
"""A tool call is packed into one int: `line << BLOCK_BITS | block index`."""
BLOCK_MASK = (1 << BLOCK_BITS) - 1
NEAR_LIMIT = 4096
"""Entries `with_entry` looks at below a moved entry for a pair that spans the moved edge, before it gives up."""
_TREE_FIELDS = frozenset({"parent_id", "has_parent", "timestamp"})
_RESULT_FIELDS = frozenset({"tool_call_id", "tool_name"})
_RELINKED = _TREE_FIELDS | _RESULT_FIELDS
"""The facts `with_entry` can follow when they are all that changed on the line."""


def pack_call(line: int, block: int) -> int:
    return line << BLOCK_BITS | block


def unpack_call(packed: int) -> tuple[int, int]:
    return packed >> BLOCK_BITS, packed & BLOCK_MASK


def _close_runs(runs: list[tuple[int, int]], top: int, level: int, end_at: array[int], position: int) -> int:
    """End, at `position`, the subtrees of the path's entries at `level` and deeper (the path as `ElyraModel._walk`
    keeps it, runs of (first position, first depth) up to `top`); the new `top`. The walk takes an entry off its
    stack only at a depth where a run starts, so runs close whole."""
    while top > level:
        first, first_level = runs.pop()
        end_at[first : first + top - first_level] = array("i", [position]) * (top - first_level)
        top = first_level
    return top


class ActivePath(Sequence[int]):
    """The lines from the root to the leaf pi resumes from. Membership (`line in path`) is an O(1) ancestor test;
    the lines themselves are listed only when asked for."""

    def __init__(self, model: ElyraModel, leaf: int | None) -> None:
        self._model: ElyraModel = weakref.proxy(model)
        """Weak, since the model holds its path: a cycle would keep every replaced model (tens of MB on a large file)
        alive until the garbage collector's rare full pass."""
        self._leaf = leaf
        self._lines: array[int] | None = None
        self._members: set[int] | None = None

    def _materialized(self) -> array[int]:
        if self._lines is None:
            lines = self._model.path_to_root(self._leaf) if self._leaf is not None else []
            lines.reverse()
            self._lines = array("i", lines)
        return self._lines

    @property
    def reaches_root(self) -> bool:
        """False when the path meets a parentId loop (pi would never finish walking it)."""
        return self._leaf is None or self._model.pre[self._leaf] != NONE

    def __len__(self) -> int:
        if self._leaf is None:
            return 0
        depth = self._model.depth(self._leaf)
        return depth + 1 if depth is not None else len(self._materialized())

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        lines = self._materialized()
        if isinstance(index, slice):
            return list(lines[index])
        return lines[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._materialized())

    def __contains__(self, line: object) -> bool:
        if self._leaf is None or not isinstance(line, int):
            return False
        if self.reaches_root:
            return self._model.is_ancestor(line, self._leaf)
        if self._members is None:
            self._members = set(self._materialized())
        return line in self._members

    def __repr__(self) -> str:
        return f"ActivePath({list(self._materialized())!r})"


class ElyraModel:
    """What pi builds from the file: entries, id index, tree, leaf, labels, name, and the tool-call pairs.
    Implements `results.LinkModel`."""

    def __init__(self, results: Sequence[LineResult], tree: bool, version: int | None = None) -> None:
        size = len(results)
        self.tree = tree
        """Whether parentId links make the tree (v2+); False for v1, whose tree is the file order."""
        self.version = version
        """The header's version as detected (None when it is not an integer or there is no header)."""
        self.line_facts = FactColumns.wrap(facts_of(results))
        """Per line: its HeaderFacts / EntryFacts, None for a line pi cannot parse. Of a read-only document's
        `PlainResults`, their own store (`FactColumns`, the plain messages as columns), shared: neither changes it
        (`with_entry` changes a copy)."""
        self._size = size
        self.by_id: IdIndex
        """id -> the line pi's index holds for it (the last entry with that id); made by `_scan`."""
        self.dangling: list[int] = []
        """Entries whose parentId names no entry (pi's context walk stops there)."""
        self.self_parents: list[int] = []
        self.null_roots: list[int] = []
        """Entries with `parentId: null`, in file order."""
        self.parent_below: list[int] = []
        """Entries whose parent comes later in the file."""
        self.older_than_parent: list[int] = []
        """Entries whose timestamp is earlier than their parent's (both in pi's form)."""
        parent = array("i", [NONE]) * size
        headers, entries, others, tool_lines = self._scan(parent)
        self.header_line: int | None = headers[0] if headers else None
        """The first `type:"session"` line (pi's header); None when the file has none."""
        self.headers: list[int] = headers
        self.entry_lines = entries
        """Every entry line (parsed, not a header) in file order."""
        self.first_parsed: int | None = min([*headers[:1], *entries[:1]], default=None)
        """The first line pi can parse: the header, in a healthy file."""
        self.parsed_lines = array("i", sorted([*headers, *entries]) if not tree else ())
        """v1 only: every line pi can parse, in file order, which a `firstKeptEntryIndex` counts (header = 0)."""
        self.special_lines = others
        """Entries that are not `message`s (compactions, labels, summaries, ...), in file order."""
        self.tool_lines = tool_lines
        """`message` entries with tool calls or a toolCallId, in file order."""
        self.leaf: int | None = entries[-1] if entries else None
        """The last entry in file order: what pi resumes from."""
        first_child, next_sibling, branch_points, chain = self._siblings(parent)
        self.branch_points: list[int] = branch_points
        """Entries with more than one child, in file order."""
        self.roots: list[int] = self._roots(parent)
        """Entries without a parent in the tree (null, dangling, missing or self parentId), in file order."""
        order, pre, end_at, depth_at = self._walk(chain, first_child, next_sibling)
        self.parent_of = parent
        """Per line: the parent entry's line, -1 for a root or a line that is not an entry."""
        self.first_child = first_child
        self.next_sibling = next_sibling
        """Children of `l`: `first_child[l]`, then `next_sibling` of each, in pi's tree-view order."""
        self.order = self.entry_lines if order == self.entry_lines else order
        """The entries reachable from a root, depth first (each root, then its subtrees in child order)."""
        self.pre = pre
        """Per line: its position in `order`, -1 when unreachable (on or below a parentId loop)."""
        self.end_at = end_at
        """Per position in `order`: the position after its subtree, so `a` is an ancestor of `b` iff
        pre[a] <= pre[b] < end_at[pre[a]]. Kept by position, like `depth_at`, so that a subtree's values are one run
        that a relink moves and shifts as a whole."""
        self.depth_at = depth_at
        """Per position in `order`: the entry's depth (a root is 0)."""
        self._chained: bytearray | None = None
        """Per position in `order`: 1 when the entry's parent is the entry at the position before (see `chained`)."""
        self.cycles: list[tuple[int, ...]] = self._find_cycles(entries)
        """Each parentId loop once, as its lines in parent order; a self-parent is a loop of one."""
        leaf_facts = self.line_facts[self.leaf] if self.leaf is not None else None
        self.resumed: int | None = None if leaf_facts is None or (leaf_facts.type is None and not leaf_facts.has_id) \
            else self.leaf
        """The leaf pi's context walk starts from: None when the last line is junk without an id (a non-object
        line, `{}`), whose undefined id makes pi's path and context empty."""
        self.active_path = ActivePath(self, self.resumed)
        """Root to leaf: what pi's context walk follows on resume."""
        self.views: dict[str, object] = {}
        """What the features derive from this model and keep while it lives (the outline's tree layout), built on
        first request. A copy starts without them: it may differ."""
        self.labels: dict[str, tuple[str, int]] = {}
        """target id -> (label, label line), resolved in file order; an empty or absent label clears."""
        self.session_name: str | None = None
        """The latest non-empty session_info name (pi `main`)."""
        self._first_kept: dict[int, int] = {}
        self._named_by: dict[str, list[int]] = {}
        self._resolve_specials(results)
        self._pair_calls()

    # -- construction -------------------------------------------------------------------------------------------

    def _scan(self, parent: array[int]) -> tuple[list[int], array[int], list[int], array[int]]:
        """Headers, entries, the id index, and (v2+) each entry's parent when it is the entry above (in a file pi
        wrote, every one but a branch's first child): of the lines in the columns at C speed (`_linked_above`), of
        the lines kept as objects in one Python step each. The others (a parent further up or down, dangling, self)
        are resolved once the index is complete; if an id repeats, every parent is linked again, because pi's index
        holds the last entry with an id."""
        facts, tree = self.line_facts, self.tree
        codes, objects, ids, stamps, tool_at = facts.codes, facts.objects, facts.ids, facts.stamps, facts.tool_at
        older, null_roots = self.older_than_parent, self.null_roots
        headers: list[int] = []
        object_entries: list[int] = []
        others: list[int] = []
        object_tools: list[int] = []
        unresolved: list[int] = []
        named: dict[str, int] = {}
        """The ids of the lines kept as objects, as the id index is built (those in the columns are read there)."""
        with_name = 0
        header_type = HeaderFacts
        add_entry, find = object_entries.append, named.get
        plain = ids and tree
        rooted = list(compress(count(), map(operator.and_, codes, itertools.repeat(NULL_PARENT)))) \
            if plain else []
        """The plain lines whose parentId is null."""
        linked = self._linked_above(parent, rooted) if plain else bytearray()
        """In the columns: linked[l] = 1 when plain line l's parent is plain line l - 1, set at C speed."""
        previous, previous_id, previous_key = NONE, None, NONE
        previous_stamp: str | int | None = None
        """The entry read last, its id (or, in the columns, its integer) and its timestamp (in the columns, its
        integer): the next entry's parent in a file pi wrote, whose id the line pass hands on as the same string."""
        done = NONE
        for number in compress(count(), map(operator.not_, codes)):  # the lines kept as objects, at C speed
            if number - done > 1:  # plain lines came in between: the last of them is the entry read last
                previous, previous_id, previous_key, previous_stamp = number - 1, None, ids[number - 1], \
                    stamps[number - 1]
            done = number
            found = objects[number]
            if found is None:
                continue
            if type(found) is header_type:
                headers.append(number)
                continue
            add_entry(number)
            stamp = found.timestamp
            entry_id = found.id
            if tree:
                parent_id = found.parent_id
                if parent_id is not None:
                    target = previous if parent_id is previous_id or (
                        previous_key != NONE and previous_id is None and hex_key(parent_id) == previous_key) \
                        else find(parent_id)
                    if target is None:
                        unresolved.append(number)
                    else:
                        parent[number] = target
                        if stamp is not None:
                            above: str | int | None = previous_stamp if target == previous \
                                else facts.stamp_of(target)
                            if above is not None and earlier(stamp, above):
                                older.append(number)
                elif found.has_parent:
                    null_roots.append(number)
            if entry_id is not None:
                named[entry_id] = number
                with_name += 1
            if found.type != "message":
                others.append(number)
            elif found.tool_calls or found.tool_call_id is not None:
                object_tools.append(number)
            previous, previous_id, previous_key, previous_stamp = number, entry_id, NONE, stamp
        entries = line_column(compress(count(), codes))
        tool_lines = line_column(compress(count(), tool_at))
        if plain:
            # the plain lines not linked to the line above: a root, or a parent found through the index
            null_roots.extend(rooted)
            line = 0
            while (line := linked.find(0, line)) >= 0:
                if codes[line] and not codes[line] & NULL_PARENT:
                    unresolved.append(line)
                line += 1
            older.extend(compress(count(1), map(operator.and_, linked[1:],
                                                 map(operator.lt, stamps[1:], stamps[:-1]))))
            older.sort()
            null_roots.sort()
            unresolved.sort()
        if object_entries:
            entries = line_column(sorted([*entries, *object_entries]) if entries else object_entries)
        if object_tools:
            tool_lines = line_column(sorted([*tool_lines, *object_tools]) if tool_lines else object_tools)
        by_id = self.by_id = IdIndex(facts, named)
        # what the link pass looks up, found in one pass: the parents not above, the ids of the lines kept as
        # objects (the same id in the columns repeats it) and what the special entries name
        named_ids = itertools.chain(named, *((found.first_kept_id, found.from_id, found.target_id)
                                            for found in map(objects.__getitem__, others)))
        by_id.resolve(itertools.chain(map(facts.parent_key_of, unresolved),
                                      map(hex_key, filter(None, named_ids))))
        self.duplicates: list[tuple[int, int]] = []
        """(line, earlier line with the same id) for every entry whose id was used before."""
        if with_name != len(named) or by_id.repeats():
            self._find_duplicates(entries)
        if not tree:
            previous = NONE
            stamp_above = None
            for line in entries:
                parent[line] = previous
                previous = line
                stamp = facts.stamp_of(line)
                if stamp is not None and stamp_above is not None and earlier(stamp, stamp_above):
                    older.append(line)
                stamp_above = stamp
        elif self.duplicates:
            parent[:] = array("i", [NONE]) * len(parent)
            del older[:], null_roots[:]
            self._link(entries, parent)
        elif unresolved:
            self._link(unresolved, parent)
            older.sort()
        return headers, entries, others, tool_lines

    def _linked_above(self, parent: array[int], rooted: list[int]) -> bytearray:
        """linked[l] = 1 when line l and the line above are plain messages in the columns and l's parentId is that
        line's id (what pi writes between two branch points); their parents set, as runs, at C speed."""
        facts = self.line_facts
        codes, ids, parents = facts.codes, facts.ids, facts.parents
        size = len(codes)
        linked = bytearray(1) + bytearray(map(operator.eq, parents[1:], ids[:-1]))
        line = -1
        while (line := codes.find(OBJECT, line + 1)) >= 0:  # an object line links nothing, is linked to nothing
            linked[line] = 0
            if line + 1 < size:
                linked[line + 1] = 0
        for line in rooted:
            linked[line] = 0
        start = 0
        while (start := linked.find(1, start)) >= 0:
            stop = linked.find(0, start)
            if stop < 0:
                stop = size
            parent[start:stop] = counting(start - 1, stop - start)
            start = stop
        return linked

    def _roots(self, parent: array[int]) -> list[int]:
        """The entries whose parent is NONE, found among the lines that have none with `array.index` (at C speed: in
        a file pi wrote, only the header and the first entry have none)."""
        facts, header_type = self.line_facts, HeaderFacts
        roots: list[int] = []
        line = -1
        with contextlib.suppress(ValueError):
            while True:
                line = parent.index(NONE, line + 1)
                found = facts[line]
                if found is not None and type(found) is not header_type:
                    roots.append(line)
        return roots

    def _find_duplicates(self, entries: Sequence[int]) -> None:
        entry_id_of = self.line_facts.entry_id_of
        seen: dict[str, int] = {}
        for number in entries:
            entry_id = entry_id_of(number)
            if entry_id is not None:
                if entry_id in seen:
                    self.duplicates.append((number, seen[entry_id]))
                seen[entry_id] = number

    def _link(self, lines: Sequence[int], parent: array[int]) -> None:
        """Link `lines` to their parents through the complete id index."""
        facts, by_id = self.line_facts, self.by_id
        parent_id_of, stamp_of = facts.parent_id_of, facts.stamp_of
        by_id.resolve(map(facts.parent_key_of, lines))
        dangling, self_parents, null_roots = self.dangling, self.self_parents, self.null_roots
        below, older = self.parent_below, self.older_than_parent
        for line in lines:
            parent_id = parent_id_of(line)
            if parent_id is None:
                if facts.has_parent_of(line):
                    null_roots.append(line)
                continue
            target = by_id.get(parent_id)
            if target is None:
                dangling.append(line)
            elif parent_id == facts.entry_id_of(line):
                self_parents.append(line)
            else:
                parent[line] = target
                if target > line:
                    below.append(line)
                stamp = stamp_of(line)
                if stamp is not None:
                    above = stamp_of(target)
                    if above is not None and earlier(stamp, above):
                        older.append(line)

    def _siblings(self, parent: array[int]) -> tuple[array[int], array[int], list[int], bytearray]:
        """First-child / next-sibling links in file order, then re-sorted as pi's tree view sorts children (by
        timestamp; file order among equals, and wherever a timestamp is unreadable); and the chain (see `_walk`).
        A line whose parent is the line above is its parent's first child unless the parent has another child
        before it: those are set at C speed, and only the other children, and the lines above them, take a Python
        step."""
        size = self._size
        chain = bytearray(map(operator.eq, parent[1:], range(size - 1)))
        """chain[l] = 1 when line l + 1's parent is l."""
        first_child = counting(1, size)
        if size:
            first_child[-1] = NONE
        next_sibling = array("i", [NONE]) * size
        others: list[int] = []
        line = -1
        while (line := chain.find(0, line + 1)) >= 0:
            first_child[line] = NONE
            if parent[line + 1] != NONE:
                others.append(line + 1)
        if size and parent[0] != NONE:
            others.append(0)
        for up in {parent[line] for line in others}:
            if up + 1 < size and chain[up]:
                first_child[up] = NONE
                others.append(up + 1)
        others.sort()
        branching: set[int] = set()
        for line in reversed(others):
            up = parent[line]
            head = first_child[up]
            if head != NONE:
                next_sibling[line] = head
                branching.add(up)
            first_child[up] = line
        facts = self.line_facts
        for up in branching:
            group = []
            child = first_child[up]
            while child != NONE:
                group.append(child)
                child = next_sibling[child]
            ordered = _sibling_order(group, facts)
            if ordered is not group:
                _set_children(up, ordered, first_child, next_sibling)
        return first_child, next_sibling, sorted(branching), chain

    def _walk(self, sole: bytearray, first_child: array[int],
              next_sibling: array[int]) -> tuple[array[int], array[int], array[int], array[int]]:
        """Depth-first order from the roots, with each line's position, and per position its subtree's end and its
        depth, in one pass down. The walk goes by runs: lines each the only child of the line above it (what pi
        writes between two branch points) are found with one `bytearray.find` and given their positions, depths
        and subtree ends as slices, so a file pi wrote is as many Python steps as it has branches, not entries.
        `sole` is `_siblings`' chain, which the walk takes over: with the branch points cut, sole[l] = 1 when line
        l + 1's parent is l and l has no other child, so that l + 1 continues l's run."""
        size = self._size
        pre = array("i", [NONE]) * size
        for up in self.branch_points:
            if up < size - 1:
                sole[up] = 0
        order = array("i")
        levels = array("i")
        end_at = array("i", [0]) * len(self.entry_lines)
        runs: list[tuple[int, int]] = []
        """The path above the entry visited, as the runs it was entered by: (first position, first depth); a run holds
        the depths up to the next run's first (the last one's up to `top`), at consecutive positions."""
        top = 0
        """One past the depth of the deepest entry on the path."""
        depth = array("i", [NONE]) * size
        stack: list[int] = []
        position = 0
        for root in self.roots:
            depth[root] = 0
            stack.append(root)
            while stack:
                line = stack.pop()
                level = depth[line]
                while True:
                    if top > level:
                        top = _close_runs(runs, top, level, end_at, position)
                    last = sole.find(0, line)
                    if last < 0:
                        last = size - 1
                    count = last - line + 1
                    pre[line : last + 1] = counting(position, count)
                    order.extend(counting(line, count))
                    levels.extend(counting(level, count))
                    runs.append((position, level))
                    position += count
                    level += count
                    top = level
                    child = first_child[last]
                    if child == NONE:
                        break
                    sibling = next_sibling[child]
                    if sibling != NONE:
                        group = []
                        while sibling != NONE:
                            depth[sibling] = level
                            group.append(sibling)
                            sibling = next_sibling[sibling]
                        group.reverse()
                        stack.extend(group)
                    line = child
        _close_runs(runs, top, 0, end_at, position)
        del end_at[position:]
        return order, pre, end_at, levels

    def _find_cycles(self, entries: Sequence[int]) -> list[tuple[int, ...]]:
        """Loops among the entries no root reaches (a reachable entry's ancestors end at a root), by colouring."""
        cycles: list[tuple[int, ...]] = [(line,) for line in self.self_parents]
        if len(self.order) == len(entries):
            return cycles
        parent, pre = self.parent_of, self.pre
        colour: dict[int, int] = {}  # line -> the walk that met it first
        for walk_id, start in enumerate((line for line in entries if pre[line] == NONE), 1):
            if start in colour:
                continue
            walk: list[int] = []
            line = start
            while line != NONE and line not in colour:
                colour[line] = walk_id
                walk.append(line)
                line = parent[line]
            if line != NONE and colour[line] == walk_id:
                cycles.append(tuple(walk[walk.index(line):]))
        return cycles

    def _resolve_specials(self, results: Sequence[LineResult]) -> None:
        facts, by_id = self.line_facts, self.by_id
        labels, named_by = self.labels, self._named_by
        for line in self.special_lines:
            found = facts[line]
            kind = found.type
            if kind == "label":
                target = found.target_id
                if target is not None:
                    named_by.setdefault(target, []).append(line)
                    if found.label:
                        labels[target] = (found.label, line)
                    else:
                        labels.pop(target, None)
            elif kind == "context_edit":
                if found.target_id is not None:
                    named_by.setdefault(found.target_id, []).append(line)
            elif kind == "session_info":
                if found.name:
                    self.session_name = found.name
            elif kind == "compaction":
                kept = found.first_kept_id
                if self.tree:
                    if kept is not None:
                        named_by.setdefault(kept, []).append(line)
                        target = by_id.get(kept)
                        if target is not None:
                            self._first_kept[line] = target
                elif found.first_kept_index is not None:
                    target = self._v1_kept(line, found.first_kept_index, results)
                    if target is not None:
                        self._first_kept[line] = target
            elif kind == "branch_summary" and found.from_id is not None:
                named_by.setdefault(found.from_id, []).append(line)
        if not self.tree:
            for line in self.entry_lines:
                parent_id = facts[line].parent_id
                if parent_id is not None:
                    named_by.setdefault(parent_id, []).append(line)

    def _v1_kept(self, line: int, index: int, results: Sequence[LineResult]) -> int | None:
        """The line pi's v1 migration takes `firstKeptEntryIndex` to name: the index-th parsed line, when it is an
        entry object before the compaction (a later entry has no id yet when the migration reaches the compaction,
        a header or a non-object line has none at all)."""
        parsed = self.parsed_lines
        if not 0 < index < len(parsed):
            return None
        target = parsed[index]
        if target >= line or type(self.line_facts[target]) is not EntryFacts \
                or results[target].kind is not LineKind.OBJECT:
            return None
        return target

    def _pair_calls(self) -> None:
        """Pair results with calls, visiting the tool lines in the tree's depth-first order. A call is open for
        the lines of its subtree (up to the call line's `end_at`); each map holds, per id, a stack of candidates in
        that order, so the innermost open one is on top once the closed ones above it are popped."""
        facts, depths, pre, ends = self.line_facts, self.depth_at, self.pre, self.end_at
        result_column = array(U64, bytes(8 * self._size))
        """Per line: the packed call + 1 its result answers (0: none), `result_calls` once built."""
        first = ColumnMap(self._size, BLOCK_BITS)
        """packed call -> the first result (in depth-first order) that answers it, `first_results` once built: a
        slot a call line (a dictionary of the pairs took 23 bytes a line of a generated session at the peak)."""
        first_answer, first_slots = first.claim, first.slots
        self.more_results: dict[int, list[int]] = {}
        """packed call -> the further results answering it (other branches, or duplicates)."""
        self.repeated_calls: list[tuple[int, int]] = []
        """(packed call, the packed call with the same id still open above it on its path)."""
        self.repeated_results: list[tuple[int, int]] = []
        """(result line, the first result on its path that answers the same call)."""
        self.dropped: list[int] = []
        """Results whose call above them is in a message pi drops before sending (a failed stopReason)."""
        self.misnamed: list[int] = []
        """Results whose toolName differs from the name of the call above them that they answer."""
        self.early: dict[int, int] = {}
        """Results that answer no call above them -> the first call with their id below them (the result comes
        first on the path)."""
        pair_depth = 0
        repeated = False
        keyed, object_keys = facts.keyed, facts.object_keys
        answered: bytearray | None = None
        """In a keyed store, a byte a key: whether a result with that id has been seen (`result_ids` otherwise)."""
        result_ids: set[Any] = set()
        open_calls: Any = {}
        """call id (its key) -> the packed open call, or a stack of them once two calls share the id: in a keyed
        store a list by key (8 bytes a distinct id, where a dictionary took 37 bytes a line of the pi-written
        benchmark at the peak), else a dictionary."""
        extra: dict[Any, int] = {}
        if keyed:
            # every key an int: the ids of lines replaced after the fill that the store does not hold get the
            # numbers after its own
            size = len(facts.id_starts)
            extra = {key: size + number for number, key in enumerate(dict.fromkeys(
                key for held in object_keys.values() for key in (*held[0], held[1]) if type(key) is str))}
            if extra:
                object_keys = {line: (tuple(extra.get(key, key) for key in calls), extra.get(answer, answer))
                               for line, (calls, answer) in object_keys.items()}
            open_calls = [None] * (size + len(extra))
            answered = bytearray(size + len(extra))
        look_up = open_calls.__getitem__ if keyed else open_calls.get
        tools = self.tool_lines if self.order is self.entry_lines \
            else sorted((line for line in self.tool_lines if pre[line] != NONE), key=pre.__getitem__)
        shadows_answered: dict[int | str | None, int] = {}
        """call id with a stack -> how many calls at its bottom have their first answer already: a result answers
        every open call with its id, and visiting those again for each result made a file whose calls all share
        one id quadratic."""
        answers: dict[int, list[int]] = {}
        """packed call -> results on paths through it, once it has more than one."""
        more_results = self.more_results
        waiting: dict[int | str | None, list[int]] = {}
        unpaired: list[int] = []
        late = self.early
        calls: list[int] = []
        bits = BLOCK_BITS
        codes, objects, tool_at, keys, marks = facts.codes, facts.objects, facts.tool_at, facts.call_keys, \
            facts.call_marks
        # a call id is known by its key (`FactColumns.call_key`) in a keyed store, else by itself
        for line in tools:
            here = pre[line]
            code = codes[line]
            found: Sequence[tuple[Any, int]] | None
            if code:  # in the columns, a tool line's call records start at tool_at
                at = tool_at[line]
                if code & ROLE != ASSISTANT:
                    found = None
                elif code >> COUNT_SHIFT == 1:  # most messages make one call
                    found = ((keys[at], marks[at] >> 8),)
                else:
                    found = [(keys[record], marks[record] >> 8) for record in range(at, at + (code >> COUNT_SHIFT))]
            elif not (listed := objects[line].tool_calls):
                found = None
            elif keyed:
                found = list(zip(object_keys[line][0], [call.index for call in listed], strict=True))
            elif len(listed) == 1:
                found = ((listed[0].id, listed[0].index),)
            else:
                found = [(call.id, call.index) for call in listed]
            if found:
                for call_id, index in found:
                    made = line << bits | index
                    calls.append(made)
                    known = look_up(call_id)
                    if known is None:
                        open_calls[call_id] = made
                    else:
                        repeated = True
                        stack = [known] if type(known) is int else known
                        while stack and ends[pre[stack[-1] >> bits]] <= here:
                            stack.pop()
                        if shadows_answered.get(call_id, 0) > len(stack):
                            shadows_answered[call_id] = len(stack)
                        if stack:
                            self.repeated_calls.append((made, stack[-1]))
                        stack.append(made)
                        open_calls[call_id] = stack
                    if waiting and call_id in waiting:
                        above = waiting[call_id]
                        while above and ends[pre[above[-1]]] <= here:
                            above.pop()
                        for result in above:
                            late.setdefault(result, made)
                continue
            call_id = keys[at] if code else object_keys[line][1] if keyed else objects[line].tool_call_id
            if answered is not None:
                if answered[call_id]:
                    repeated = True
                answered[call_id] = 1
            elif call_id in result_ids:
                repeated = True
            else:
                result_ids.add(call_id)
            known = look_up(call_id)
            if type(known) is int:
                packed = known if ends[pre[known >> bits]] > here else None
            else:
                while known and ends[pre[known[-1] >> bits]] <= here:
                    known.pop()
                packed = known[-1] if known else None
                if known:  # pi matches by id: this answers the open calls under the top too (each encloses the next)
                    for shadowed in known[min(shadows_answered.get(call_id, 0), len(known)):-1]:
                        first_answer(shadowed, line)
                    shadows_answered[call_id] = len(known) - 1
            if packed is None:
                unpaired.append(line)
                waiting.setdefault(call_id, []).append(line)
                continue
            call_line = packed >> bits
            apart = depths[here] - depths[pre[call_line]]
            if apart > pair_depth:
                pair_depth = apart
            result_column[line] = packed + 1
            if code and codes[call_line]:  # `_compare` of two lines in the columns, inline
                record, block = tool_at[call_line], packed & BLOCK_MASK
                while marks[record] >> 8 != block:
                    record += 1
                if (marks[record] ^ marks[at]) & 0xFF:  # one name, one number
                    insort(self.misnamed, line)
            else:
                self._compare(line, packed, self.dropped, self.misnamed)
            slot = first_slots[call_line]
            if not slot:  # the first answer of the first call of the line answered (`first.claim`, inline)
                first_slots[call_line] = (packed & BLOCK_MASK) << PART | line + 1
                continue
            given = (slot & LOW) - 1 if slot >> PART == packed & BLOCK_MASK else first_answer(packed, line)
            if given is None:
                continue
            more_results.setdefault(packed, []).append(line)
            stack = answers.setdefault(packed, [given])
            while stack and ends[pre[stack[-1]]] <= here:
                stack.pop()
            if stack:
                self.repeated_results.append((line, stack[-1]))
            stack.append(line)
        for line, packed in late.items():
            result_column[line] = packed + 1
            if first_answer(packed, line) is not None:
                more_results.setdefault(packed, []).append(line)
        self.orphans = sorted(line for line in unpaired if line not in late)
        """Results whose id no call on their path has, above or below them."""
        first.recount()
        self.unanswered: list[int] = first.missing(calls) if len(first) < len(calls) else []
        """The packed calls no result answers."""
        self.result_calls: MutableMapping[int, int] = ColumnMap.over(result_column)
        """toolResult line -> the packed call it answers: the nearest open one above it, else (see `early`) the
        first one below it."""
        self.first_results: MutableMapping[int, int] = first
        """packed call -> the first result (in depth-first order) that answers it."""
        self.unique_pairs = not repeated
        """Whether every tool call id and every result's toolCallId is used once: then each result has one
        candidate call, and which way they are related on the tree decides everything (see `with_entry`)."""
        self.loose: dict[int, int | None] = {
            line: None if (key := facts.call_key_of(line)) is None else look_up(extra.get(key, key))
            for line in unpaired} if self.unique_pairs else {}
        """With `unique_pairs`: each result that answers no call above it -> the packed call with its id (None:
        there is none)."""
        self.pair_depth = pair_depth
        """At least the most entries between a result and the call above it that it answers (their depth
        difference): exact when built, an upper bound after `with_entry`."""

    def _compare(self, line: int, packed: int, dropped: list[int], misnamed: list[int]) -> None:
        """Note in `dropped` and `misnamed` whether the result on `line` answers a call that pi drops, or one with
        another name than its toolName."""
        facts = self.line_facts
        codes, tool_at, marks = facts.codes, facts.tool_at, facts.call_marks
        call_line, block = packed >> BLOCK_BITS, packed & BLOCK_MASK
        code = codes[call_line]
        # loops, not a call a pair: this runs for every pair of a large file (`_pair_calls` compares two lines in
        # the columns itself)
        if code:  # a plain assistant message in the columns: its stop reason is never a failed one
            record = tool_at[call_line]
            while marks[record] >> 8 != block:  # the call is one of the line's records
                record += 1
            call_name: str | None = facts.names[marks[record] & 0xFF]
        else:
            assistant = facts.objects[call_line]
            if assistant.stop_reason in FAILED_STOPS:
                insort(dropped, line)
            call_name = None
            for call in assistant.tool_calls:
                if call.index == block:
                    call_name = call.name
                    break
        name = facts.names[marks[tool_at[line]] & 0xFF] if codes[line] else facts.objects[line].tool_name
        if name is not None and call_name is not None and call_name != name:
            insort(misnamed, line)

    # -- one entry edited -----------------------------------------------------------------------------------------

    def with_entry(self, line: int, facts: EntryFacts) -> ElyraModel | None:
        """The model of the file after an edit that changed only entry `line`'s facts (to `facts`), built from
        this one; None when only the full build can tell. Followed: a new parentId or timestamp (the subtree of
        `line` moves, and only the results with their call on the other side of the moved edge are paired again),
        and a result's new toolCallId or toolName (that result is paired again), in a v2+ file without duplicate
        ids or parentId loops whose tool call ids and results' toolCallIds are each used once, as pi writes them.
        With every id used once, a result answers its call when the call is above it, comes before it when the call
        is below it, and is an orphan otherwise."""
        old = self.facts(line)
        if type(old) is not EntryFacts or not self.tree or not self.unique_pairs or self.duplicates or self.cycles:
            return None
        differs = {name for name in _RELINKED if getattr(old, name) != getattr(facts, name)}
        if msgspec.structs.replace(old, **{name: getattr(facts, name) for name in differs}) != facts:
            return None
        crossing: dict[int, int | None] | None
        if differs <= _TREE_FIELDS:
            crossing = {} if old.parent_id == facts.parent_id else self._crossing_pairs(line)
            new = self._moved(line, facts) if crossing is not None else None
        elif differs <= _RESULT_FIELDS and old.tool_call_id is not None and facts.tool_call_id is not None \
                and not facts.tool_calls:
            crossing = self._repaired_result(line, facts.tool_call_id)
            new = self._with_facts(line, facts)
        else:
            return None
        if crossing is None or new is None:
            return None
        if crossing:
            new._repair(self, crossing)
        return new

    def _crossing_pairs(self, line: int) -> dict[int, int | None] | None:
        """The results whose pairing moving `line`'s subtree can change (line -> the packed call with their id):
        those with exactly one of themselves and that call inside the subtree. A result in it answering a call
        above `line` is at most `pair_depth - 1` levels below `line`, so only those levels are looked at (None:
        too many entries there); a result that answers no call above it is in `loose`."""
        start = self.pre[line]
        stop = self.end_at[start]
        pre, result_calls = self.pre, self.result_calls
        found: dict[int, int | None] = {}
        level, seen = [line], 0
        for _ in range(self.pair_depth):
            below: list[int] = []
            for entry in level:
                packed = result_calls.get(entry)
                if packed is not None and not start <= pre[packed >> BLOCK_BITS] < stop:
                    found[entry] = packed
                below.extend(self.children(entry))
            seen += len(below)
            if not below:
                break
            if seen > NEAR_LIMIT:
                return None
            level = below
        for entry, call in self.loose.items():
            if call is not None and (start <= pre[entry] < stop) != (start <= pre[call >> BLOCK_BITS] < stop):
                found[entry] = call
        return found

    def _repaired_result(self, line: int, call_id: str) -> dict[int, int | None] | None:
        """For a result whose toolCallId is now `call_id`: {line: the packed call with that id, or None}; None when
        another result already answers that id (then pairs are no longer one to one)."""
        tool_calls_of, call_id_of = self.line_facts.tool_calls_of, self.line_facts.call_id_of
        found = None
        for other in self.tool_lines:
            calls = tool_calls_of(other)
            if calls:
                for call in calls:
                    if call.id == call_id:
                        found = pack_call(other, call.index)
            elif other != line and call_id_of(other) == call_id:
                return None
        return {line: found}

    def _repair(self, old: ElyraModel, moved: Mapping[int, int | None]) -> None:
        """Part of building this model from `old`: pair again the results in `moved` (line -> the packed call with
        their id, None when no call has it), whose path to that call changed. Every table it changes is a copy (the two
        large ones layered over the old model's)."""
        result_calls, first_results = Layered.over(old.result_calls), Layered.over(old.first_results)
        loose, early, unanswered = dict(old.loose), dict(old.early), set(old.unanswered)
        orphans = [other for other in old.orphans if other not in moved]
        dropped = [other for other in old.dropped if other not in moved]
        misnamed = [other for other in old.misnamed if other not in moved]
        for line, packed in moved.items():
            answered = result_calls.pop(line, None)
            if answered is not None:
                del first_results[answered]
                unanswered.add(answered)
            early.pop(line, None)
            if packed is None:
                loose[line] = None
                insort(orphans, line)
                continue
            call_line = packed >> BLOCK_BITS
            if self.is_ancestor(call_line, line):
                loose.pop(line, None)
                apart = self.depth_at[self.pre[line]] - self.depth_at[self.pre[call_line]]
                self.pair_depth = max(self.pair_depth, apart)
                self._compare(line, packed, dropped, misnamed)
            else:
                loose[line] = packed
                if not self.is_ancestor(line, call_line):
                    insort(orphans, line)
                    continue
                early[line] = packed
            result_calls[line] = packed
            first_results[packed] = line
            unanswered.discard(packed)
        self.result_calls, self.first_results, self.loose, self.early = result_calls, first_results, loose, early
        self.orphans, self.dropped, self.misnamed = orphans, dropped, misnamed
        self.unanswered = sorted(unanswered)

    def _moved(self, line: int, facts: EntryFacts) -> ElyraModel | None:
        """The tree after entry `line`'s parentId or timestamp changed (to `facts`'): the subtree of `line` moves
        under its new parent, or becomes a root, or moves among its siblings (which pi orders by timestamp). Costs
        the moved part of the depth-first order and the paths above the old and new parent, not the file. None
        when the new parent would close a parentId loop."""
        parent_id = facts.parent_id
        target = NONE
        if parent_id is not None:
            found = self.by_id.get(parent_id)
            if found == line or (found is not None and self.is_ancestor(line, found)):
                return None
            target = NONE if found is None else found
        new = self._with_facts(line, facts)
        parent = new.parent_of = array("i", self.parent_of)
        was = parent[line]
        parent[line] = target
        new.dangling = [other for other in self.dangling if other != line]
        new.null_roots = [other for other in self.null_roots if other != line]
        new.parent_below = [other for other in self.parent_below if other != line]
        if target != NONE:
            if target > line:
                insort(new.parent_below, line)
        elif parent_id is not None:
            insort(new.dangling, line)
        elif facts.has_parent:
            insort(new.null_roots, line)
        retimed = {line, *self.children(line)}
        older = new.older_than_parent = [other for other in self.older_than_parent if other not in retimed]
        for entry in sorted(retimed):
            up = parent[entry]
            if up != NONE:
                stamp, above = new.line_facts[entry].timestamp, new.line_facts[up].timestamp
                if stamp is not None and above is not None and stamp < above:
                    insort(older, entry)
        first_child = new.first_child = array("i", self.first_child)
        next_sibling = new.next_sibling = array("i", self.next_sibling)
        next_sibling[line] = NONE
        if was == target:
            groups = [(was, self.children(was))]
        else:
            groups = [(was, [child for child in self.children(was) if child != line]),
                      (target, [*self.children(target), line])]
        branch_points = set(self.branch_points)
        for up, group in groups:
            if up == NONE:
                continue
            group.sort()
            _set_children(up, _sibling_order(group, new.line_facts), first_child, next_sibling)
            if len(group) > 1:
                branch_points.add(up)
            else:
                branch_points.discard(up)
        new.branch_points = sorted(branch_points)
        if (was == NONE) != (target == NONE):
            new.roots = [root for root in self.roots if root != line]
            if target == NONE:
                insort(new.roots, line)
        new._move_subtree(self, line, was, target)
        return new

    def _with_facts(self, line: int, facts: EntryFacts) -> ElyraModel:
        """A copy with `line`'s facts replaced and nothing else: for an edit that changes no link of the tree."""
        new = _copy(self)
        new.line_facts = self.line_facts.copy()
        new.line_facts[line] = facts
        return new

    def _move_subtree(self, old: ElyraModel, line: int, was: int, target: int) -> None:
        """Depth-first order, positions, subtree ends and depths after `line`'s subtree moved from under `was` to
        under `target` (NONE: a root). The subtree is one run of the order, and of each per-position column: it is
        cut out and put back where the new parent's children (or the roots) place it. The values that change do so
        by one amount a run (the subtree's positions and depths, the positions between its two places, the ends on
        the paths above the old and the new parent), each run shifted at C speed; only the positions of the lines
        that moved are set one by one."""
        pre, end_at = old.pre, old.end_at
        start = pre[line]
        size = end_at[start] - start

        def after_cut(position: int) -> int:
            return position - size if position >= start + size else position

        if target != NONE:
            following = self.next_sibling[line]
            at = after_cut(pre[following]) if following != NONE else after_cut(end_at[pre[target]])
        else:
            index = bisect_right(self.roots, line)
            at = after_cut(pre[self.roots[index]]) if index < len(self.roots) else len(old.order) - size
        ends, depths, chained = array("i", end_at), array("i", old.depth_at), bytearray(old.chained())
        for up, change in ((was, -size), (target, size)):  # the ancestors of both parents keep their size
            if up != NONE and was != target:
                for low, high in old.ancestor_runs(up):
                    shift(ends, low, high, change)
        shift(ends, start, start + size, at - start)
        shift(depths, start, start + size, (old.depth_at[pre[target]] + 1 if target != NONE else 0)
              - old.depth_at[start])
        order = old.order
        if at != start:
            # besides the subtree, what lay between its two places moves, by its size
            low, high, by = (at, start, size) if at < start else (start + size, at + size, -size)
            shift(ends, low, high, by)
            order = array("i", order)
            for column in (order, ends, depths):
                cut_and_insert(column, start, start + size, at)
            cut_and_insert(chained, start, start + size, at)
            pre = array("i", pre)
            first, last = min(at, start), max(at, start) + size
            for position in range(first, last):
                pre[order[position]] = position
        parent = self.parent_of
        for position in (at, at + size, start if at >= start else start + size):
            if position < len(order):
                chained[position] = position > 0 and parent[order[position]] == order[position - 1]
        self.order, self.pre, self.end_at, self.depth_at, self._chained = order, pre, ends, depths, chained

    # -- queries -------------------------------------------------------------------------------------------------

    def call(self, packed: int) -> ToolCallFact:
        """The tool call a packed call stands for."""
        line, block = unpack_call(packed)
        return next(call for call in self.line_facts.tool_calls_of(line) if call.index == block)

    def result_call(self, line: int) -> int | None:
        """The packed call the toolResult on `line` answers."""
        return self.result_calls.get(line)

    @property
    def size(self) -> int:
        """The number of lines the model was built from."""
        return self._size

    def facts(self, line: int) -> Any:
        return self.line_facts[line] if 0 <= line < self._size else None

    def is_entry(self, line: int) -> bool:
        return 0 <= line < self._size and self.line_facts.is_entry(line)

    def parent(self, line: int) -> int | None:
        if not 0 <= line < self._size:
            return None
        up = self.parent_of[line]
        return None if up == NONE else up

    def children(self, line: int) -> list[int]:
        """The entries whose parent this is, ordered as pi's tree view orders them."""
        out: list[int] = []
        if not 0 <= line < self._size:
            return out
        child = self.first_child[line]
        while child != NONE:
            out.append(child)
            child = self.next_sibling[child]
        return out

    def is_ancestor(self, above: int, line: int) -> bool:
        """Whether `above` is `line` or on its path to the root."""
        if not (0 <= above < self._size and 0 <= line < self._size):
            return False
        start = self.pre[above]
        return start != NONE and start <= self.pre[line] < self.end_at[start]

    def ancestor_at(self, line: int, depth: int) -> int:
        """The entry on `line`'s path to the root at `depth` (not deeper than `line`, which a root reaches). In a
        run of entries each below the one before, as pi writes them, it is the entry that many positions up the
        depth-first order; anywhere else the path is walked."""
        position = self.pre[line] - (self.depth_at[self.pre[line]] - depth)
        if position >= 0 and self.depth_at[position] == depth and self.is_ancestor(self.order[position], line):
            return self.order[position]
        for _ in range(self.depth_at[self.pre[line]] - depth):
            line = self.parent_of[line]
        return line

    def depth(self, line: int) -> int | None:
        """Entries above this one (a root has depth 0); None for a line that is not an entry."""
        if not self.is_entry(line):
            return None
        position = self.pre[line]
        return self.depth_at[position] if position != NONE else len(self.path_to_root(line)) - 1

    def end_of(self, line: int) -> int:
        """The position in `order` after this entry's subtree; NONE for an entry no root reaches."""
        position = self.pre[line]
        return self.end_at[position] if position != NONE else NONE

    def chained(self) -> bytearray:
        """Per position in `order`: 1 when the entry's parent is the entry at the position before, else 0 (a root,
        or a later child). Built on a relink's first need (a check never needs it), then kept up by each relink."""
        if self._chained is None:
            order, parent = self.order, self.parent_of
            self._chained = bytearray(b"\0"[: len(order)]) \
                + bytearray(map(operator.eq, map(parent.__getitem__, order[1:]), order))
        return self._chained

    def ancestor_runs(self, line: int) -> Iterator[tuple[int, int]]:
        """`line` and the entries above it, as runs of positions in `order` [low, high): one a stretch of the path
        where each parent is the entry at the position before, so a 50,000-entry path pi wrote without branching is
        a few runs, found at C speed. `line` must be reachable from a root."""
        chained, order, pre, parent = self.chained(), self.order, self.pre, self.parent_of
        position = pre[line]
        while True:
            low = chained.rfind(0, 0, position + 1)
            yield low, position + 1
            up = parent[order[low]]
            if up == NONE:
                return
            position = pre[up]

    def path_to_root(self, line: int) -> list[int]:
        """This entry and its ancestors, this line first. Stops before an entry already on the path, so a
        parentId loop (which makes pi walk forever) ends the path instead of hanging."""
        if not self.is_entry(line):
            return []
        parent = self.parent_of
        path = [line]
        if self.pre[line] != NONE:
            up = parent[line]
            while up != NONE:
                path.append(up)
                up = parent[up]
            return path
        seen = {line}
        up = parent[line]
        while up != NONE and up not in seen:
            seen.add(up)
            path.append(up)
            up = parent[up]
        return path

    def in_cycle(self, line: int) -> bool:
        """Whether walking parentId from this entry never ends in pi: it meets a loop or a self-parent."""
        if not self.is_entry(line):
            return False
        if self.pre[line] == NONE:
            return True
        return self.root_of(line) in self.self_parents

    def root_of(self, line: int) -> int | None:
        """The root this entry's path ends at (for an entry on or below a loop: where the walk comes back)."""
        if not self.is_entry(line):
            return None
        start = self.pre[line]
        if start == NONE:
            return self.path_to_root(line)[-1]
        roots = self.roots
        index = bisect_right([self.pre[root] for root in roots], start) - 1
        return roots[index]

    def first_kept(self, line: int) -> int | None:
        """For a compaction: the entry its firstKeptEntryId (v1: firstKeptEntryIndex, as migrated) names."""
        return self._first_kept.get(line)

    def entry_id(self, line: int) -> str | None:
        found = self.facts(line)
        return found.id if type(found) is EntryFacts else None

    def tool_call(self, line: int, call_id: str | None = None) -> tuple[int, int] | None:
        """(assistant line, block index) of the tool call that `call_id` names as seen from `line`: for a
        toolResult (call_id None or its own) the call it answers; otherwise the nearest call with that id among
        the line's ancestors."""
        found = self.facts(line)
        if type(found) is not EntryFacts:
            return None
        if call_id is None or call_id == found.tool_call_id:
            packed = self.result_calls.get(line)
            if packed is not None:
                return unpack_call(packed)
            if call_id is None:
                return None
        for up in self.path_to_root(line):
            for call in self.line_facts[up].tool_calls:
                if call.id == call_id:
                    return up, call.index
        return None

    def tool_results(self, line: int, block: int) -> list[int]:
        """The toolResult lines that answer the call in block `block` of the assistant entry on `line`."""
        call = pack_call(line, block)
        first = self.first_results.get(call)
        return [] if first is None else [first, *self.more_results.get(call, ())]

    def open_calls(self, line: int) -> list[tuple[int, int]]:
        """Tool calls on the path to `line` (this line included) that no result on that path answers, oldest
        first, as (assistant line, block index)."""
        answered: set[str] = set()
        calls: list[tuple[int, int]] = []
        for up in self.path_to_root(line):
            found = self.line_facts[up]
            if found.tool_call_id is not None:
                answered.add(found.tool_call_id)
            for call in reversed(found.tool_calls):
                if call.id not in answered:
                    calls.append((up, call.index))
        calls.reverse()
        return calls

    # -- LinkModel ------------------------------------------------------------------------------------------------

    def references_from(self, line: int) -> list[Reference]:
        found = self.facts(line)
        if type(found) is HeaderFacts:
            if found.parent_session is not None and found.parent_session_key is not None:
                key = found.parent_session_key
                return [Reference(line, (key,), key, found.parent_session, None)]
            return []
        if type(found) is not EntryFacts:
            return []
        by_id = self.by_id
        out: list[Reference] = []
        if found.parent_id is not None:
            out.append(Reference(line, ("parentId",), "parentId", found.parent_id, by_id.get(found.parent_id)))
        kind = found.type
        if kind == "compaction":
            if found.first_kept_id is not None:
                out.append(Reference(line, ("firstKeptEntryId",), "firstKeptEntryId", found.first_kept_id,
                                     by_id.get(found.first_kept_id)))
            if not self.tree and found.first_kept_index is not None:
                out.append(Reference(line, ("firstKeptEntryIndex",), "firstKeptEntryIndex",
                                     str(found.first_kept_index), self._first_kept.get(line)))
        elif kind == "branch_summary" and found.from_id is not None:
            out.append(Reference(line, ("fromId",), "fromId", found.from_id, by_id.get(found.from_id)))
        elif (kind == "label" or kind == "context_edit") and found.target_id is not None:
            out.append(Reference(line, ("targetId",), "targetId", found.target_id, by_id.get(found.target_id)))
        elif found.tool_call_id is not None:
            packed = self.result_calls.get(line)
            target = None if packed is None else packed >> BLOCK_BITS
            out.append(Reference(line, ("message", "toolCallId"), "toolCallId", found.tool_call_id, target))
        return out

    def references_to(self, line: int) -> list[Reference]:
        found = self.facts(line)
        if type(found) is not EntryFacts:
            return []
        sources: list[int] = []
        if self.tree:
            sources.extend(self.children(line))
            if line in self.self_parents:
                sources.append(line)
        if found.id is not None:
            sources.extend(self._named_by.get(found.id, ()))
        if not self.tree:
            sources.extend(kept for kept, target in self._first_kept.items() if target == line)
        for call in found.tool_calls:
            sources.extend(self.tool_results(line, call.index))
        out: list[Reference] = []
        for source in sorted(set(sources)):
            out.extend(ref for ref in self.references_from(source) if ref.target == line)
        return out

    def identity(self, line: int) -> tuple[Path, str] | None:
        entry_id = self.entry_id(line)
        return (("id",), entry_id) if entry_id is not None else None

    def label(self, line: int) -> str | None:
        """The label pi shows on this entry (the latest label entry naming its id), if any."""
        entry_id = self.entry_id(line)
        if entry_id is None:
            return None
        found = self.labels.get(entry_id)
        return found[0] if found is not None and self.by_id.get(entry_id) == line else None


def _sibling_order(group: list[int], facts: Sequence[Any]) -> list[int]:
    """Children (given in file order) as pi's tree view orders them: by timestamp, file order among equals; all in
    file order when any timestamp is unreadable. Returns `group` itself when that is the order already."""
    stamps = [facts[child].timestamp for child in group]
    if None in stamps or stamps == sorted(stamps):
        return group
    return [group[i] for i in sorted(range(len(group)), key=stamps.__getitem__)]


def _set_children(up: int, group: list[int], first_child: array[int], next_sibling: array[int]) -> None:
    first_child[up] = group[0] if group else NONE
    for child, after in itertools.pairwise(group):
        next_sibling[child] = after
    if group:
        next_sibling[group[-1]] = NONE


def _copy(model: ElyraModel) -> ElyraModel:
    """A shallow copy: the fields a relink replaces are then replaced, never changed in place. The active path is
    new, since it refers to its model (weakly: the old one is freed once replaced), and so are the views."""
    new = ElyraModel.__new__(ElyraModel)
    new.__dict__.update(model.__dict__)
    new.active_path = ActivePath(new, model.resumed)
    new.views = {}
    return new
