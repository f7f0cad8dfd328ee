"""The Elyra link model: the entry tree as pi builds it from a file, and the links written in it.

pi indexes entries by `id` (a later duplicate replaces an earlier one), follows `parentId` through that index,
resumes from the last entry in file order and orders siblings by timestamp (spec §1.8). A v1 file has no ids: pi's
migration chains its entries in file order, so that chain is the tree here too.

The model is held by the server for files of 100,000 entries, so it keeps flat integer arrays indexed by line
(`-1` = none) and the line facts it was built from, never a per-entry object. Everything is built in O(n): parents
through the id index, children as one compressed array, cycles by colouring, depths by one walk from the roots.
The tool-call pairing is filled in by the link pass, which finds it in its walk over the tree.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import Any, overload

from ..jsonscan import Path
from ..lines import LineKind
from ..results import LineResult, Reference
from .facts import EntryFacts, HeaderFacts

NONE = -1
BLOCK_BITS = 20
"""A tool call is packed into one int: `line << BLOCK_BITS | block index`."""
_BLOCK_MASK = (1 << BLOCK_BITS) - 1


def pack_call(line: int, block: int) -> int:
    return line << BLOCK_BITS | block


def unpack_call(packed: int) -> tuple[int, int]:
    return packed >> BLOCK_BITS, packed & _BLOCK_MASK


class ActivePath(Sequence[int]):
    """The lines from the root to the leaf pi resumes from, with O(1) membership (`line in path`)."""

    def __init__(self, lines: Sequence[int], size: int) -> None:
        self._lines = array("i", lines)
        self._member = bytearray(size)
        for line in self._lines:
            self._member[line] = 1

    def __len__(self) -> int:
        return len(self._lines)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return list(self._lines[index])
        return self._lines[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._lines)

    def __contains__(self, line: object) -> bool:
        return isinstance(line, int) and 0 <= line < len(self._member) and self._member[line] == 1

    def __repr__(self) -> str:
        return f"ActivePath({list(self._lines)!r})"


class ElyraModel:
    """What pi builds from the file: entries, id index, tree, leaf, labels, name, and the tool-call pairs.
    Implements `results.LinkModel`."""

    def __init__(self, results: Sequence[LineResult], tree: bool, version: int | None = None) -> None:
        size = len(results)
        self.tree = tree
        """Whether parentId links make the tree (v2+); False for v1, whose tree is the file order."""
        self.version = version
        """The header's version as detected (None when it is not an integer or there is no header)."""
        self.line_facts: list[Any] = [result.facts for result in results]
        """Per line: its HeaderFacts / EntryFacts, None for a line pi cannot parse."""
        self._junk = bytearray(result.kind is LineKind.NON_OBJECT for result in results)
        self._size = size
        headers: list[int] = []
        entries: list[int] = []
        parsed: list[int] = []
        others: list[int] = []
        tool_lines: list[int] = []
        by_id: dict[str, int] = {}
        duplicates: list[tuple[int, int]] = []
        for number, found in enumerate(self.line_facts):
            if found is None:
                continue
            parsed.append(number)
            if type(found) is HeaderFacts:
                headers.append(number)
                continue
            entries.append(number)
            entry_id = found.id
            if entry_id is not None:
                earlier = by_id.get(entry_id)
                if earlier is not None:
                    duplicates.append((number, earlier))
                by_id[entry_id] = number
            if found.type != "message":
                others.append(number)
            elif found.tool_calls or found.tool_call_id is not None:
                tool_lines.append(number)
        self.header_line: int | None = headers[0] if headers else None
        """The first `type:"session"` line (pi's header); None when the file has none."""
        self.headers: list[int] = headers
        self.entry_lines = array("i", entries)
        """Every entry line (parsed, not a header) in file order."""
        self.parsed_lines = array("i", parsed)
        """Every line pi can parse, in file order: what a v1 `firstKeptEntryIndex` counts (header = 0)."""
        self.by_id = by_id
        """id -> the line pi's index holds for it (the last entry with that id)."""
        self.duplicates = duplicates
        """(line, earlier line with the same id) for every entry whose id was used before."""
        self.special_lines = others
        """Entries that are not `message`s (compactions, labels, summaries, ...), in file order."""
        self.tool_lines = tool_lines
        """`message` entries with tool calls or a toolCallId, in file order."""
        self.leaf: int | None = entries[-1] if entries else None
        """The last entry in file order: what pi resumes from."""
        self.dangling: list[int] = []
        """Entries whose parentId names no entry (pi's context walk stops there)."""
        self.self_parents: list[int] = []
        self.null_roots: list[int] = []
        """Entries with `parentId: null`, in file order."""
        self.parent_of = self._link_parents(entries)
        """Per line: the parent entry's line, -1 for a root or a line that is not an entry."""
        self.child_start, self.child_list = self._children_index(entries)
        """The children of line `l` are `child_list[child_start[l]:child_start[l + 1]]`."""
        self.roots: list[int] = [line for line in entries if self.parent_of[line] == NONE]
        """Entries without a parent in the tree (null, dangling, missing or self parentId), in file order."""
        self.cycles: list[tuple[int, ...]] = self._find_cycles(entries)
        """Each parentId loop once, as its lines in parent order; a self-parent is a loop of one."""
        self._depth = self._depths()
        self.active_path = self._path_of_leaf()
        self.labels: dict[str, tuple[str, int]] = {}
        """target id -> (label, label line), resolved in file order; an empty or absent label clears."""
        self.session_name: str | None = None
        """The latest non-empty session_info name (pi `main`)."""
        self._first_kept: dict[int, int] = {}
        self._named_by: dict[str, list[int]] = {}
        self._resolve_specials()
        self._result_call: dict[int, int] = {}
        self._call_results: dict[int, list[int]] = {}

    # -- construction -------------------------------------------------------------------------------------------

    def _link_parents(self, entries: list[int]) -> array[int]:
        parent = [NONE] * self._size
        facts = self.line_facts
        if not self.tree:
            previous = NONE
            for line in entries:
                parent[line] = previous
                previous = line
            return array("i", parent)
        by_id = self.by_id
        dangling, self_parents, null_roots = self.dangling, self.self_parents, self.null_roots
        for line in entries:
            found = facts[line]
            parent_id = found.parent_id
            if parent_id is None:
                if found.has_parent:
                    null_roots.append(line)
                continue
            target = by_id.get(parent_id)
            if target is None:
                dangling.append(line)
            elif parent_id == found.id:
                self_parents.append(line)
            else:
                parent[line] = target
        return array("i", parent)

    def _children_index(self, entries: list[int]) -> tuple[array[int], array[int]]:
        """Children as one array: those of line `l` are `list[start[l]:start[l + 1]]`, sorted as pi's tree view
        sorts them (by timestamp; file order among equals and when a timestamp is unreadable)."""
        parent = self.parent_of
        count = [0] * (self._size + 1)
        for line in entries:
            up = parent[line]
            if up != NONE:
                count[up + 1] += 1
        total = 0
        for index in range(len(count)):
            total += count[index]
            count[index] = total
        start = array("i", count)
        fill = count
        children = [0] * total
        for line in entries:
            up = parent[line]
            if up != NONE:
                children[fill[up]] = line
                fill[up] += 1
        facts = self.line_facts
        for up in range(self._size):
            begin, end = start[up], start[up + 1]
            if end - begin > 1:
                group = children[begin:end]
                stamps = [facts[line].timestamp for line in group]
                if None not in stamps and stamps != sorted(stamps):
                    order = sorted(range(len(group)), key=lambda i: stamps[i])
                    children[begin:end] = [group[i] for i in order]
        return start, array("i", children)

    def _find_cycles(self, entries: list[int]) -> list[tuple[int, ...]]:
        cycles: list[tuple[int, ...]] = [(line,) for line in self.self_parents]
        if not self.tree:
            return cycles
        parent = self.parent_of
        colour = [0] * self._size  # 0 unseen, k = on the walk started at the k-th entry, -1 done
        for walk_id, start in enumerate(entries, 1):
            if colour[start]:
                continue
            walk: list[int] = []
            line = start
            while line != NONE and colour[line] == 0:
                colour[line] = walk_id
                walk.append(line)
                line = parent[line]
            if line != NONE and colour[line] == walk_id:
                cycles.append(tuple(walk[walk.index(line):]))
            for seen in walk:
                colour[seen] = -1
        return cycles

    def _depths(self) -> array[int]:
        depth = [NONE] * self._size
        start, children = self.child_start, self.child_list
        stack: list[int] = []
        for root in self.roots:
            depth[root] = 0
            stack.append(root)
            while stack:
                line = stack.pop()
                below = depth[line] + 1
                for index in range(start[line], start[line + 1]):
                    child = children[index]
                    depth[child] = below
                    stack.append(child)
        return array("i", depth)

    def _path_of_leaf(self) -> ActivePath:
        if self.leaf is None:
            return ActivePath((), self._size)
        path = self.path_to_root(self.leaf)
        path.reverse()
        return ActivePath(path, self._size)

    def _resolve_specials(self) -> None:
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
                    target = self._v1_kept(line, found.first_kept_index)
                    if target is not None:
                        self._first_kept[line] = target
            elif kind == "branch_summary" and found.from_id is not None:
                named_by.setdefault(found.from_id, []).append(line)
        if not self.tree:
            for line in self.entry_lines:
                parent_id = facts[line].parent_id
                if parent_id is not None:
                    named_by.setdefault(parent_id, []).append(line)

    def _v1_kept(self, line: int, index: int) -> int | None:
        """The line pi's v1 migration takes `firstKeptEntryIndex` to name: the index-th parsed line, when it is an
        entry object before the compaction (a later entry has no id yet when the migration reaches the compaction,
        a header or a non-object line has none at all)."""
        parsed = self.parsed_lines
        if not 0 < index < len(parsed):
            return None
        target = parsed[index]
        if target >= line or type(self.line_facts[target]) is not EntryFacts or self._junk[target]:
            return None
        return target

    # -- pairing (filled by the link pass) -------------------------------------------------------------------------

    def pair(self, result_line: int, call: int) -> None:
        """Record that the toolResult on `result_line` answers the packed tool call `call`."""
        self._result_call[result_line] = call
        self._call_results.setdefault(call, []).append(result_line)

    # -- queries -------------------------------------------------------------------------------------------------

    def result_call(self, line: int) -> int | None:
        """The packed call the toolResult on `line` answers."""
        return self._result_call.get(line)

    def facts(self, line: int) -> Any:
        return self.line_facts[line] if 0 <= line < self._size else None

    def is_entry(self, line: int) -> bool:
        return 0 <= line < self._size and type(self.line_facts[line]) is EntryFacts

    def parent(self, line: int) -> int | None:
        if not 0 <= line < self._size:
            return None
        up = self.parent_of[line]
        return None if up == NONE else up

    def children(self, line: int) -> list[int]:
        if not 0 <= line < self._size:
            return []
        return list(self.child_list[self.child_start[line] : self.child_start[line + 1]])

    def child_count(self, line: int) -> int:
        if not 0 <= line < self._size:
            return 0
        return self.child_start[line + 1] - self.child_start[line]

    @property
    def branch_points(self) -> list[int]:
        """Entries with more than one child, in file order."""
        start = self.child_start
        return [line for line in self.entry_lines if start[line + 1] - start[line] > 1]

    def depth(self, line: int) -> int | None:
        """Entries above this one (a root has depth 0); None for a line that is not an entry."""
        if not self.is_entry(line):
            return None
        known = self._depth[line]
        return known if known != NONE else len(self.path_to_root(line)) - 1

    def path_to_root(self, line: int) -> list[int]:
        """This entry and its ancestors, this line first. Stops before an entry already on the path, so a
        parentId loop (which makes pi walk forever) ends the path instead of hanging."""
        if not self.is_entry(line):
            return []
        parent = self.parent_of
        path = [line]
        if self._depth[line] != NONE:
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
        """Whether walking parentId from this entry never reaches a root (pi's walk from here hangs)."""
        if not self.is_entry(line):
            return False
        if self._depth[line] == NONE:
            return True
        top = self.path_to_root(line)[-1]
        return top in self.self_parents

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
            packed = self._result_call.get(line)
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
        return list(self._call_results.get(pack_call(line, block), ()))

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
        elif kind == "label" and found.target_id is not None:
            out.append(Reference(line, ("targetId",), "targetId", found.target_id, by_id.get(found.target_id)))
        elif found.tool_call_id is not None:
            packed = self._result_call.get(line)
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
            sources.extend(self._call_results.get(pack_call(line, call.index), ()))
        out: list[Reference] = []
        for source in sorted(set(sources)):
            out.extend(ref for ref in self.references_from(source) if ref.target == line)
        return out

    def identity(self, line: int) -> tuple[Path, str] | None:
        entry_id = self.entry_id(line)
        return (("id",), entry_id) if entry_id is not None else None


