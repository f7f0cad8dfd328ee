"""The Elyra link pass: every rule that looks across lines (spec §5.1), and the model they are checked against.

It reads only line kinds and facts, never text, so an edit that leaves them unchanged keeps the previous result.
Everything is O(n): the model (tree and tool-call pairs) is built complete with flat arrays, and the rules read
it.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Sequence
from typing import Any

import msgspec

from ..detect import FormatInfo
from ..diagnostics import Severity
from ..jsonscan import Path
from ..lines import LineKind
from ..results import Anchor, LineResult, Linked, LinkIssue, Options, RelatedAnchor
from ..text import fresh_id
from .facts import EDITABLE_ROLES, EntryFacts, HeaderFacts, NullFacts
from .model import NONE, ElyraModel, unpack_call
from .placing import off_the_path
from .releases import PiRelease
from .releases import release as pi_release
from .session import ElyraSession

_PI_FILE_NAME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_(.+)\.jsonl\Z")
"""`<toISOString with ':' and '.' replaced by '-'>_<session id>.jsonl`; a prefix (a copy's) is tolerated."""
_RELATED_LIMIT = 20


def id_in_file_name(path: str | None) -> str | None:
    """The session id in a file name pi chose (`<time>_<id>.jsonl`), else None."""
    match = _PI_FILE_NAME.search(re.split(r"[/\\]", path)[-1]) if path else None
    return match.group(1) if match is not None else None


def is_tree(info: FormatInfo) -> bool:
    """Whether parentId links make the tree: v2 and later (an unknown version is taken as current)."""
    return info.version is None or info.version >= 2


def link(lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo, options: Options) -> Linked:
    model = ElyraModel(results, is_tree(info), info.version)
    checker = _Checker(model, pi_release(options.pi_version))
    checker.file_rules(lines, results, info, options)
    if model.tree:
        checker.id_rules()
        checker.reference_rules()
    else:
        checker.v1_rules()
    checker.order_rules()
    checker.tool_rules(checker.goes_on())
    checker.leaf_rule()
    return Linked(model, checker.placed(), ElyraSession(model, info, options))


SCAN_LIMIT = 64
"""Entries `goes_on` reads after an unanswered call before it builds its table of the next message."""


def relink(previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
           options: Options, changed: Collection[int]) -> Linked | None:
    """The link pass after edits that changed the facts of the lines in `changed` and nothing else, from the
    previous result, or None when only `link` can tell: when the one changed line is an entry that
    `ElyraModel.with_entry` can follow (a parentId, a timestamp, a result's toolCallId or toolName), the new model
    comes from the old one at the cost of what moved, and every rule, cheap given the model, runs again."""
    model = previous.model
    if len(changed) != 1 or not isinstance(model, ElyraModel) or len(results) != model.size:
        return None
    (line,) = changed
    old, facts = model.line_facts[line], results[line].facts
    if old == facts:  # typed over and back
        return previous
    if line == len(results) - 1 or type(facts) is not EntryFacts:
        return None
    new = model.with_entry(line, facts)
    if new is None:
        return None
    checker = _Checker(new, pi_release(options.pi_version))
    checker.file_rules(lines, results, info, options)
    checker.id_rules()
    checker.reference_rules()
    checker.order_rules()
    checker.tool_rules(checker.goes_on())
    checker.leaf_rule()
    return Linked(new, checker.placed(), ElyraSession(new, info, options))


_PATH_RULES = frozenset({"ELY042", "ELY050", "ELY051", "ELY055", "ELY058", "ELY059", "ELY070", "ELY071", "ELY072",
                         "ELY073", "ELY074", "ELY075", "ELY076", "ELY077"})
"""Rules about what pi sends from a path: they matter only where pi resumes, which `_Checker.placed` says."""
_SPEAKING_TYPES = frozenset({"custom_message", "branch_summary", "compaction"})
"""Entry types (besides messages) that put a message into pi's model context."""


class _Checker:
    def __init__(self, model: ElyraModel, release: PiRelease) -> None:
        self.model = model
        self.release = release
        self.facts = model.line_facts
        self.issues: list[LinkIssue] = []

    def add(self, code: str, line: int, path: Path, message: str, *, key: bool = False,
            related: Sequence[tuple[int, Path, str]] = (), severity: Severity | None = None,
            data: dict[str, Any] | None = None) -> None:
        others = tuple(RelatedAnchor(Anchor(other, other_path), text) for other, other_path, text in related)
        self.issues.append(LinkIssue(code, Anchor(line, path, key), message, severity, others, data))

    def placed(self) -> list[LinkIssue]:
        """The issues, those of `_PATH_RULES` told where they are when that is not the path pi resumes: on an
        abandoned branch, or compacted away on it."""
        model = self.model
        if not model.tree or model.resumed is None:
            return self.issues
        out: list[LinkIssue] = []
        for issue in self.issues:
            line = issue.anchor.line
            if issue.code in _PATH_RULES:
                note = off_the_path(model, line)
                if note is not None:
                    issue = msgspec.structs.replace(issue, message=f"{issue.message} {note}")
            out.append(issue)
        return out

    # -- the file and its header ------------------------------------------------------------------------------

    def file_rules(self, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
                   options: Options) -> None:
        model, facts = self.model, self.facts
        if results and results[-1].kind is not LineKind.BLANK:
            self.add("ELY005", len(results) - 1, (),
                     f"the file does not end with a newline (pi ends every line it writes): "
                     f"{self.release.final_newline}", severity=self.release.final_newline_severity)
        self._header_missing(info, lines, options)
        for duplicate in model.headers[1:]:
            self.add("ELY013", duplicate, ("type",),
                     f"a second session header: pi takes the first one (line {model.headers[0] + 1}) as the header "
                     "and skips this line everywhere else (a past pi bug wrote duplicates)",
                     related=((model.headers[0], ("type",), "the header pi uses"),))
        header_line = model.header_line
        if header_line is None:
            return
        header: HeaderFacts = facts[header_line]
        parent_session, key = header.parent_session, header.parent_session_key
        if options.exists is not None and parent_session is not None and key is not None \
                and not options.exists(parent_session):
            self.add("ELY018", header_line, (key,),
                     f"`{key}` {parent_session!r} does not exist: the session this one was forked from cannot be "
                     "opened (pi only records the path; nothing else depends on it)")
        named = id_in_file_name(options.path)
        if named is not None and header.id is not None and named != header.id:
            self.add("ELY019", header_line, ("id",),
                     f"the file name says session {named!r} but the header id is {header.id!r}: pi never checks "
                     "this, but it hints at a copied or renamed file")
        if not model.tree:
            if not self._tree_fields_in_v1(header_line, info) and (header.version == 1 or not header.has_version):
                self._migrated(header_line, header, "v1 file: pi migrates it when it opens it, giving every entry an "
                               "id, each the child of the line above (a compaction's firstKeptEntryIndex becomes a "
                               "firstKeptEntryId), and rewrites the file in place")
        elif info.version == 2 and header.version == 2:
            self._migrated(header_line, header, "v2 file: pi migrates it to v3 when it opens it (hookMessage roles "
                           "renamed custom; ids and parents kept) and rewrites the file in place")

    def _header_not_first(self, first: int, lines: Sequence[str]) -> None:
        """ELY011, as the targeted release's `--continue` scans for the header: 0.73 parses the first line only; 1.6
        skips blank, malformed and falsy lines, as far as its scan limit."""
        release = self.release
        related = ((0, (), "the first line, which is not the header"),)
        opened = f"the header is on line {first + 1}, after lines pi cannot parse: {release.name} loads it when opened"
        if not release.header_scan_skips:
            self.add("ELY011", first, ("type",),
                     f"{opened} explicitly, but its `pi --continue` parses only the first physical line and ignores "
                     "this session; the quick fix (or `session-lsp fix`) moves it to the first line", related=related)
            return
        end = sum(len(line.encode("utf-8", "surrogatepass")) + 1 for line in lines[: first + 1])
        limit = release.header_scan_bytes
        if end > limit:
            self.add("ELY011", first, ("type",),
                     f"{opened} explicitly, but its `pi --continue` scans only the first {limit} bytes for the header, "
                     f"and this one ends at byte {end}: it ignores this session; the quick fix (or `session-lsp fix`) "
                     "moves it to the first line", related=related)
            return
        self.add("ELY011", first, ("type",),
                 f"{opened} and its `pi --continue` skips the blank, malformed and falsy lines before it, so the "
                 "session resumes as usual (pi 0.73's `--continue` parsed only the first line and ignored it)",
                 related=related, severity=Severity.INFORMATION)

    def _migrated(self, header_line: int, header: HeaderFacts, what: str) -> None:
        """ELY025, for a sound old file whose version no other rule reports: pi rewrites it on first open."""
        said = f"version {header.version}" if header.has_version else "no `version`"
        self.add("ELY025", header_line, ("version",) if header.has_version else ("type",), f"{said}, a {what}")

    def _header_missing(self, info: FormatInfo, lines: Sequence[str], options: Options) -> None:
        model, facts = self.model, self.facts
        entries = len(model.entry_lines)
        consequence = self.release.bad_header.format(entries=f"{entries} {'entry' if entries == 1 else 'entries'}")
        first = model.first_parsed
        if first is None:
            where = info.header_line if info.header_line is not None else 0
            self.add("ELY010", where, (), f"no line of this file parses, so there is no session header: {consequence}")
            return
        found = facts[first]
        session_id = id_in_file_name(options.path) or fresh_id(options.path or "session", model.by_id.__contains__)
        if type(found) is HeaderFacts:
            if found.id is None:
                data: dict[str, Any] = {"header_id": session_id}
                if not found.has_version and any(facts[line].has_id for line in model.entry_lines):
                    # another program's `session` line: pi would read its missing version as v1 and migrate
                    data["header_version"] = 3
                self.add("ELY010", first, ("id",), f"the header's `id` is not a string: {consequence}; the quick fix "
                         f"(or `session-lsp fix --unsafe-fixes`) gives it the id {session_id!r}", data=data)
            elif first > 0:
                self._header_not_first(first, lines)
            return
        if type(found) is NullFacts:
            self.add("ELY010", first, (), "the first line pi can parse is JSON null, not a `{\"type\":\"session\"}` "
                     f"header: {self.release.null_line}; delete the line (quick fix on ELY003)")
            return
        problem = "the first line pi can parse is not a `{\"type\":\"session\"}` header"
        if model.header_line is not None:
            problem += f" (the one on line {model.header_line + 1} comes too late)"
            fix = "the quick fix (or `session-lsp fix --unsafe-fixes`) moves it to the first line"
            data = {"header_line": model.header_line}
        else:
            fix = "the quick fix (or `session-lsp fix --unsafe-fixes`) writes a header as pi would"
            data = {"header": self._header(session_id)}
        self.add("ELY010", first, ("type",) if found.type is not None else (), f"{problem}: {consequence}; {fix}",
                 data=data)

    def _header(self, session_id: str) -> dict[str, Any]:
        """The header pi would have written for these entries: version 3 when they carry ids (else pi's v1
        migration gives them ids), the first entry's time, and no working directory (pi reads "" as unknown)."""
        model, facts = self.model, self.facts
        tree = any(facts[line].has_id for line in model.entry_lines)
        stamp = next((facts[line].timestamp for line in model.entry_lines if facts[line].timestamp), None)
        header: dict[str, Any] = {"type": "session"}
        if tree:
            header["version"] = 3
        header.update({"id": session_id, "timestamp": stamp or "1970-01-01T00:00:00.000Z", "cwd": ""})
        return header

    def _tree_fields_in_v1(self, header_line: int, info: FormatInfo) -> bool:
        """ELY020; whether it fired."""
        facts = self.facts
        carrying = [line for line in self.model.entry_lines if facts[line].has_id or facts[line].has_parent]
        if not carrying:
            return False
        first = carrying[0]
        header: HeaderFacts = facts[header_line]
        version = "has no `version`" if not header.has_version else f"says version {header.version}" \
            if header.version is not None else "has a `version` pi reads as 1"
        self.add("ELY020", first, ("id",) if facts[first].has_id else ("parentId",), key=True,
                 message=(f"the header {version} (v1) but {len(carrying)} entries carry id/parentId: on open pi runs "
                          "the v1→v2 migration, overwrites every id and parentId with one new linear chain and "
                          "rewrites the file, so branches are flattened and firstKeptEntryId/targetId/fromId are left "
                          "dangling; set the header's version to 3 (quick fix, or `session-lsp fix --unsafe-fixes`)"),
                 data={"header_line": header_line},
                 related=((header_line, ("type",), "the header without a tree version"),))
        return True

    # -- ids and parents (v2+) ------------------------------------------------------------------------------------

    def id_rules(self) -> None:
        model, facts = self.model, self.facts
        if model.duplicates:
            self._duplicates()
        for line in model.dangling:
            parent_id = facts[line].parent_id
            self.add("ELY042", line, ("parentId",),
                     f"parentId {parent_id!r} names no entry: pi builds the context by following parentId up from "
                     "the leaf and stops here, so everything above is silently missing from the model context (pi's "
                     "tree view shows this entry as an orphan root); point it at the entry above (quick fix, or "
                     "`session-lsp fix --unsafe-fixes`)",
                     data=self._previous_id(line))
        for line in model.self_parents:
            self.add("ELY044", line, ("parentId",),
                     "parentId is this entry's own id: pi follows parentId up from the leaf to build the context "
                     "and its tree, and loops forever here, so pi hangs when this path is resumed; point it at the "
                     "entry above (quick fix, or `session-lsp fix --unsafe-fixes`)", data=self._previous_id(line))
        for cycle in model.cycles:
            if len(cycle) < 2:
                continue
            shown = " → ".join(str(line + 1) for line in cycle[:_RELATED_LIMIT])
            # the loop is broken where a parent comes later in the file than its child: pi's writer never made that
            # link, so that parentId is the one written wrong
            cut = next((line for index, line in enumerate(cycle) if cycle[(index + 1) % len(cycle)] > line),
                       cycle[0])
            for index, line in enumerate(cycle):
                up = cycle[(index + 1) % len(cycle)]
                fix = ("set parentId to the entry above to break it (quick fix, or `session-lsp fix --unsafe-fixes`)"
                       if line == cut else f"the quick fix on line {cut + 1} breaks it")
                self.add("ELY045", line, ("parentId",),
                         f"following parentId from here comes back to this entry (lines {shown} → …): pi follows "
                         f"parentId up to build the context and never gets out, so pi hangs when this path is "
                         f"resumed; {fix}",
                         related=((up, ("id",), "its parent, on the same loop"),),
                         data=self._previous_id(line) if line == cut else None)
        roots = model.null_roots
        for line in roots[1:]:
            self.add("ELY046", line, ("parentId",),
                     f"another root (parentId null; {len(roots)} in this file): legal in pi (a re-edited first "
                     "message or a branch summarised from the start), and a separate tree in pi's tree view",
                     related=((roots[0], ("parentId",), "the first root"),))

    def _duplicates(self) -> None:
        model, facts = self.model, self.facts
        repeated = {facts[line].id for line, _ in model.duplicates}
        occurrences: dict[str, list[int]] = {}
        naming: dict[str, list[int]] = {}
        for line in model.entry_lines:
            found = facts[line]
            if found.id in repeated:
                occurrences.setdefault(found.id, []).append(line)
            if found.parent_id in repeated:
                naming.setdefault(found.parent_id, []).append(line)
        used = set(model.by_id)
        looped = {member for cycle in model.cycles if len(cycle) > 1 for member in cycle}
        for entry_id, lines in occurrences.items():
            first = lines[0]
            children = naming.get(entry_id, [])
            for index, line in enumerate(lines[1:], 1):
                until = lines[index + 1] if index + 1 < len(lines) else len(facts)
                # children are in file order: those between two occurrences are one slice (an id used on thousands
                # of lines, by as many children, made this quadratic)
                meant = children[bisect_right(children, line):bisect_left(children, until)]
                earlier = children[bisect_right(children, lines[index - 1]):bisect_left(children, line)]
                fresh = fresh_id(f"{entry_id}/{line}", used.__contains__)
                used.add(fresh)
                written = "1 entry written for the earlier one now hangs" if len(earlier) == 1 else \
                    f"{len(earlier)} entries written for the earlier one now hang"
                note = f"; {written} under this one instead" if earlier else ""
                previous = lines[index - 1]
                severity = None
                if line in looped:
                    what = (f"pi's index keeps only the later entry, which sits on a parentId loop: pi's /tree "
                            f"(getTree) lists it under line {previous + 1}'s parent and again inside the loop, and "
                            "never returns")
                elif facts[line] == facts[previous]:
                    what = (f"this line repeats line {previous + 1} (same id and parent): the path and context pi "
                            "builds are unchanged, but pi's /tree lists this entry, and everything below it, twice")
                    severity = Severity.WARNING
                else:
                    what = ("pi's index keeps only the later entry, so the earlier one and its subtree become "
                            f"unreachable, and pi's /tree lists this entry twice (under line {previous + 1}'s parent "
                            f"too){note}")
                fix = ("delete one of the two lines" if severity is Severity.WARNING else "give this entry a fresh "
                       "id (quick fix, or `session-lsp fix --unsafe-fixes`)")
                self.add("ELY040", line, ("id",),
                         f"id {entry_id!r} is already used on line {first + 1}: {what}; {fix}",
                         related=((first, ("id",), "the first entry with this id"),),
                         data={"new_id": fresh, "parent_lines": meant}, severity=severity)

    def _previous_id(self, line: int) -> dict[str, Any]:
        """The id of the nearest entry above `line` that can be its parent (the parent pi would have written), as a
        quick fix's `data`: `suggested_parent`, and `suggested_note`, which says which entry that is and, when it
        is not the one right above, which entries were passed over and why. Passed over are an entry without an
        id, one whose id pi's index resolves to a later entry (a duplicate: pointing at it would re-parent this
        entry under that one) and one that hangs below this entry (the new link would close a loop)."""
        model, facts = self.model, self.facts
        entries, by_id = model.entry_lines, model.by_id
        index = bisect_left(entries, line) - 1
        passed: list[str] = []
        while index >= 0:
            above = entries[index]
            entry_id: str | None = facts[above].id
            owner = by_id.get(entry_id) if entry_id is not None else None
            if entry_id is None:
                passed.append(f"line {above + 1}, which has no id")
            elif owner != above:
                where = f"line {owner + 1}" if owner is not None else "another entry"
                why = _LOOP if owner is not None and model.is_ancestor(line, owner) else "written later"
                passed.append(f"line {above + 1}, whose id {entry_id!r} pi resolves to {where}, {why}")
            elif model.is_ancestor(line, above):
                passed.append(f"line {above + 1}, {_LOOP}")
            else:
                note = "the entry above" if not passed else f"the entry on line {above + 1}"
                return {"suggested_parent": entry_id, "suggested_note": note + _passing(passed)}
            index -= 1
        note = "no entry above: make this a root" if not passed else "make this a root" + _passing(passed)
        return {"suggested_parent": None, "suggested_note": note}

    # -- order and time -------------------------------------------------------------------------------------------

    def order_rules(self) -> None:
        """ELY043 (a parent below its child) and ELY036 (a child older than its parent)."""
        model, facts = self.model, self.facts
        parent = model.parent_of
        for line in model.parent_below:
            up = parent[line]
            self.add("ELY043", line, ("parentId",),
                     f"the parent (line {up + 1}) comes later in the file than this entry: pi's append-only writer "
                     "never does that (a hand edit or a bad merge); pi still resolves it",
                     related=((up, ("id",), "the parent"),))
        for line in model.older_than_parent:
            up = parent[line]
            stamp, above = facts[line].timestamp, facts[up].timestamp
            self.add("ELY036", line, ("timestamp",),
                     f"this entry is older than its parent ({stamp} < {above} on line {up + 1}): pi stamps every "
                     "entry when it appends it, so this history was copied or edited by hand",
                     related=((up, ("timestamp",), "the parent's timestamp"),))

    # -- references -----------------------------------------------------------------------------------------------

    def reference_rules(self) -> None:
        model, facts = self.model, self.facts
        by_id = model.by_id
        for line in model.special_lines:
            found = facts[line]
            kind = found.type
            if kind == "compaction":
                kept = found.first_kept_id
                if kept is not None and kept not in by_id:
                    turn = self._turn_above(line)
                    fix = (f"point it at the entry on line {by_id[turn] + 1}, the last user message above, to keep "
                           "that turn (quick fix, or `session-lsp fix --unsafe-fixes`)" if turn is not None
                           else "point it at the entry the summary stops at")
                    self.add("ELY050", line, ("firstKeptEntryId",),
                             f"firstKeptEntryId {kept!r} names no entry: pi sends only the summary and what came "
                             "after the compaction, so the recent history it meant to keep is lost from the context; "
                             + fix, data={"suggested_first_kept": turn} if turn is not None else None)
            elif kind == "branch_summary":
                source = found.from_id
                if source is not None and source != "root" and source not in by_id:
                    self.add("ELY052", line, ("fromId",),
                             f"fromId {source!r} names no entry (nor is it \"root\"): pi only records it, but the "
                             "link to the abandoned branch is broken")
            elif kind == "label":
                target = found.target_id
                if target is not None and target not in by_id:
                    self.add("ELY053", line, ("targetId",),
                             f"targetId {target!r} names no entry: pi stores the label against nothing and never "
                             "shows it (pi's own API refuses to write this)")
            elif kind == "context_edit" and self.release.projection:
                self._context_edit(line, found)

    def _turn_above(self, line: int) -> str | None:
        """The id of the nearest user message above a compaction on its path: a kept history that starts there
        keeps a whole turn, so no tool result is cut from its call."""
        model, facts = self.model, self.facts
        if not model.tree:
            return None
        up = model.parent_of[line]
        seen: set[int] | None = {line} if model.pre[line] == NONE else None
        """The lines passed, when the compaction is on or below a parentId loop (the walk would go round it)."""
        while up != NONE:
            found: EntryFacts = facts[up]
            entry_id = found.id
            if found.type == "message" and found.role == "user" and entry_id is not None \
                    and model.by_id.get(entry_id) == up:
                return entry_id
            if seen is not None:
                if up in seen:
                    return None
                seen.add(up)
            up = model.parent_of[up]
        return None

    def _context_edit(self, line: int, found: EntryFacts) -> None:
        """ELY058: pi's `projectContextEntry` omits any target that yields messages, but replaces content only of
        user, assistant, toolResult and custom messages; an edit of anything else changes nothing."""
        target_id = found.target_id
        if target_id is None:
            return
        target = self.model.by_id.get(target_id)
        name = self.release.name
        if target is None:
            self.add("ELY058", line, ("targetId",),
                     f"targetId {target_id!r} names no entry: {name} applies this edit to nothing, so it has no "
                     "effect")
            return
        aimed = self.facts[target]
        kind = aimed.type if type(aimed) is EntryFacts else "session"
        speaks = kind in _SPEAKING_TYPES or (kind == "message" and aimed.role is not None)
        editable = kind == "custom_message" or (kind == "message" and aimed.role in EDITABLE_ROLES)
        if speaks and (found.omits or editable):
            if self.release.projection and kind == "message" and aimed.role == "assistant" and aimed.tool_calls \
                    and not found.keeps_calls:
                self._calls_dropped(line, target, aimed, found.omits)
            return
        what = f"a `{aimed.role}` message" if kind == "message" else f"a `{kind}` entry"
        why = ("sends nothing to the model for it" if not speaks
               else "replaces the content only of user, assistant, toolResult and custom messages")
        self.add("ELY058", line, ("targetId",),
                 f"this edit targets {what} (line {target + 1}): {name} {why}, so the edit has no effect",
                 related=((target, ("id",), "the entry this edit names"),))

    def _calls_dropped(self, line: int, target: int, aimed: EntryFacts, omits: bool) -> None:
        """ELY077: an edit that omits an assistant message, or replaces its content without its tool calls, leaves
        the results of those calls on the path without them."""
        model = self.model
        orphans = [(result, call.id) for call in aimed.tool_calls
                   for result in model.tool_results(target, call.index)
                   if model.is_ancestor(result, line) or model.is_ancestor(line, result)]
        if not orphans:
            return
        names = ", ".join(dict.fromkeys(repr(call_id) for _, call_id in orphans))
        how = "omits" if omits else "replaces the content of"
        repair = ("point targetId at another entry, or keep the tool calls in a replacement" if omits
                  else "keep the tool calls in the replacement") + " (quick fix, or `session-lsp fix --unsafe-fixes`)"
        self.add("ELY077", line, ("targetId",) if omits else ("replacement",),
                 f"this edit {how} the assistant message on line {target + 1}, which holds the tool call(s) {names}: "
                 f"{self.release.name} still sends their results, now without the calls, and providers reject a "
                 f"tool result whose call is missing; {repair}",
                 data={"target_line": target, "calls": list(dict.fromkeys(call_id for _, call_id in orphans))},
                 related=((target, ("id",), "the assistant message whose calls go"),
                          *((result, ("message", "toolCallId"), "a result sent without its call")
                            for result, _ in orphans[:_RELATED_LIMIT])))

    def v1_rules(self) -> None:
        """ELY022: a v1 `firstKeptEntryIndex` that pi's migration cannot turn into a `firstKeptEntryId`."""
        model, facts = self.model, self.facts
        parsed = model.parsed_lines
        for line in model.special_lines:
            found = facts[line]
            index = found.first_kept_index
            if found.type != "compaction" or index is None or index < 0 or model.first_kept(line) is not None:
                continue
            own = bisect_left(parsed, line)
            if index >= len(parsed):
                reason = f"is past the end of the file (only {len(parsed)} lines parse)"
            elif index == own:
                reason = "points at this compaction itself"
            elif index > own:
                reason = f"points past this compaction (at line {parsed[index] + 1})"
            elif type(facts[parsed[index]]) is HeaderFacts:
                reason = "points at a session header"
            else:
                reason = f"points at line {parsed[index] + 1}, which is not a JSON object"
            lost = parsed[index] - index if index < len(parsed) else line + 1 - len(parsed)
            shift = (f" (the index counts only lines pi can parse, header = 0; {lost} lines above do not parse)"
                     if lost > 0 else " (the index counts lines pi can parse, header = 0)")
            self.add("ELY022", line, ("firstKeptEntryIndex",),
                     f"firstKeptEntryIndex {index} {reason}{shift}: after pi's v1 migration this compaction has no "
                     "firstKeptEntryId, so no recent messages are kept in context")

    # -- tool calls and compactions along each path -------------------------------------------------------------

    def tool_rules(self, goes_on: Callable[[int], bool]) -> None:
        """What the model's pairing of results with calls found (ELY070, ELY071, ELY073, ELY074, ELY075), the calls
        no result answers (ELY072, see `unanswered`) and the compactions that cut pairs apart."""
        model, facts = self.model, self.facts
        for packed, previous in model.repeated_calls:
            self._duplicate_call(packed, previous)
        for line, first in model.repeated_results:
            self.add("ELY074", line, ("message", "toolCallId"),
                     f"a second result for tool call {facts[line].tool_call_id!r} on this path (the first is on line "
                     f"{first + 1}): providers require exactly one result per call",
                     related=((first, ("message", "toolCallId"), "the first result"),))
        calls = model.result_calls
        for line in model.dropped:
            self._dropped_call(line, calls[line])
        for line in model.misnamed:
            self._name_mismatch(line, calls[line])
        for line, packed in model.early.items():
            self._late(line, packed)
        above = _unanswered_calls_above(model, facts) if model.orphans else {}
        for line in model.orphans:
            self._orphan(line, above[line])
        self.unanswered(goes_on)
        self.compactions()

    def _duplicate_call(self, packed: int, previous: int) -> None:
        line, block = unpack_call(packed)
        call_id = self.model.call(packed).id
        other, other_block = unpack_call(previous)
        where = "earlier in this message" if other == line else f"on line {other + 1}"
        self.add("ELY074", line, ("message", "content", block, "id"),
                 f"tool call id {call_id!r} is already used {where} on this path: provider APIs require unique "
                 "call ids, and a result cannot say which call it answers",
                 related=((other, ("message", "content", other_block, "id"), "the first call with this id"),))

    def _dropped_call(self, line: int, packed: int) -> None:
        call_line, block = unpack_call(packed)
        stop = self.facts[call_line].stop_reason
        self.add("ELY071", line, ("message", "toolCallId"),
                 f"the call this result answers (line {call_line + 1}) is in an assistant message with stopReason "
                 f"{stop!r}: pi drops that message before sending, so this result reaches the provider without its "
                 "call, which rejects it",
                 related=((call_line, ("message", "content", block, "id"), "the call, in a dropped message"),))

    def _name_mismatch(self, line: int, packed: int) -> None:
        call_line, block = unpack_call(packed)
        name, call_name = self.facts[line].tool_name, self.model.call(packed).name
        self.add("ELY073", line, ("message", "toolName"),
                 f"toolName {name!r} differs from the call's name {call_name!r} (line {call_line + 1}): pi's replay "
                 "and rendering take the tool from the result and get it wrong",
                 related=((call_line, ("message", "content", block, "name"), "the call's name"),))

    def _late(self, line: int, packed: int) -> None:
        call_line, block = unpack_call(packed)
        self.add("ELY075", line, ("message", "toolCallId"),
                 f"this result comes before its call (line {call_line + 1}) on the path: providers reject a tool "
                 "result that precedes its call",
                 related=((call_line, ("message", "content", block, "id"), "the call, further down"),))

    def _orphan(self, line: int, call: int | None) -> None:
        """ELY070; `call`: the unanswered call above it with its tool name (`_unanswered_calls_above`)."""
        model, facts = self.model, self.facts
        where = "an earlier assistant message on this path" if model.tree else "an earlier assistant message"
        if call is not None:
            call_line = unpack_call(call)[0]
            fix = (f"the unanswered call {model.call(call).id!r} on line {call_line + 1} has this result's tool name: "
                   "point toolCallId at it (quick fix, or `session-lsp fix --unsafe-fixes`)")
            data: dict[str, Any] | None = {"suggested_call": model.call(call).id}
        else:
            fix = "correct toolCallId to the id of its call, or delete this line"
            data = None
        self.add("ELY070", line, ("message", "toolCallId"),
                 f"toolCallId {facts[line].tool_call_id!r} matches no tool call in {where}: pi does not "
                 f"repair orphan results, and the provider rejects a tool result without its call; {fix}", data=data)

    def unanswered(self, goes_on: Callable[[int], bool]) -> None:
        """ELY072 for each call no result answers; `goes_on(line)` says whether the conversation went on past the
        call without the user: the first message entry after the line in its subtree is not the user's (asked only
        for a `toolUse` call). A user's message next is the run that stopped while the tool ran (pi closed or
        killed) and was resumed: pi's synthetic "No result provided" is then the truth, and only information."""
        model, facts = self.model, self.facts
        for packed in model.unanswered:
            line, block = unpack_call(packed)
            found = facts[line]
            call = model.call(packed)
            named = f" ({call.name})" if call.name else ""
            path: Path = ("message", "content", block, "id")
            if found.stop_reason == "toolUse" and goes_on(line):
                self.add("ELY072", line, path, severity=Severity.WARNING,
                         message=(f"tool call {call.id!r}{named} was never answered, yet the conversation goes "
                                  "on after it: pi inserts a synthetic \"No result provided\" error result, so "
                                  "the model is told the tool returned nothing"))
                continue
            self.add("ELY072", line, path,
                     f"tool call {call.id!r}{named} has no result on this path: pi inserts a synthetic \"No result "
                     "provided\" error result before the next request (common after an abort)")

    def goes_on(self) -> Callable[[int], bool]:
        """`unanswered`'s test: whether the first `message` entry after the line in its subtree is not the user's.
        It looks `SCAN_LIMIT` entries ahead (in a file pi wrote the next entry is that message); past them it reads
        one O(n) table, built when first needed (per position in the depth-first order, the position of the next
        `message` entry at or after it), so many calls above long runs of other entries stay linear."""
        model, facts = self.model, self.facts
        order = model.order
        table: list[int] = []

        def goes_on(line: int) -> bool:
            start, end = model.pre[line] + 1, model.end_of(line)
            for position in range(start, min(end, start + SCAN_LIMIT)):
                found: EntryFacts = facts[order[position]]
                if found.type == "message":
                    return found.role != "user"
            if end <= start + SCAN_LIMIT:
                return False
            if not table:
                table.extend([len(order)] * (len(order) + 1))
                following = len(order)
                for index in range(len(order) - 1, -1, -1):
                    if facts[order[index]].type == "message":
                        following = index
                    table[index] = following
            following = table[start]
            return following < end and facts[order[following]].role != "user"

        return goes_on

    def compactions(self) -> None:
        """ELY051 (firstKeptEntryId not an ancestor) and ELY056 (a later compaction below replaces this one)."""
        model, facts = self.model, self.facts
        pre, end_at = model.pre, model.end_at
        compactions = [line for line in model.special_lines
                       if facts[line].type == "compaction" and pre[line] != NONE]
        if model.tree:
            for line in compactions:
                kept = model.first_kept(line)
                # its own id is a retain-none compaction (pi 1.x writes it; both releases then keep nothing)
                if kept is not None and kept != line and not model.is_ancestor(kept, line):
                    self.add("ELY051", line, ("firstKeptEntryId",),
                             f"firstKeptEntryId names line {kept + 1}, which is not an ancestor of this compaction: "
                             "pi keeps nothing from before the compaction, so only the summary and what follows it "
                             "are sent", related=((kept, ("id",), "the entry it names"),))
            compactions.sort(key=pre.__getitem__)
        for line in compactions:
            self._cut_calls(line)
        for line, later in itertools.pairwise(compactions):
            if pre[later] < end_at[pre[line]]:
                self.add("ELY056", line, ("type",),
                         f"a later compaction below it (line {later + 1}) replaces it on that path: pi uses only the "
                         "last compaction on the path, so there this summary is never sent",
                         related=((later, ("type",), "the compaction pi uses there"),))

    def _cut_calls(self, line: int) -> None:
        """ELY076: the entries the compaction keeps hold a tool result whose call is above its first kept entry, so
        pi sends that result, right after the summary, without the call."""
        model = self.model
        kept = model.first_kept(line)
        if kept is None or kept == line or not model.is_ancestor(kept, line) or not model.pair_depth:
            return
        orphans: list[tuple[int, int]] = []
        up = model.parent_of[line]
        # a result answers a call at most `pair_depth` entries above it, so only the results less than that far
        # below `kept` can answer one above it: the walk starts there (on a file of thousands of compactions that
        # keep from one early entry, walking every path whole was quadratic)
        lowest = (model.depth(kept) or 0) + model.pair_depth - 1
        if up != NONE and (model.depth(up) or 0) > lowest:
            up = model.ancestor_at(up, lowest)
        while up != NONE:
            call = model.result_calls.get(up)
            if call is not None:
                call_line = unpack_call(call)[0]
                if call_line != kept and model.is_ancestor(call_line, kept):
                    orphans.append((up, call_line))
            if up == kept:
                break
            up = model.parent_of[up]
        if not orphans:
            return
        result, call_line = orphans[-1]
        more = f" (and {len(orphans) - 1} more)" if len(orphans) > 1 else ""
        field = "firstKeptEntryId" if model.tree else "firstKeptEntryIndex"
        call_id = self.facts[call_line].id
        data = {"suggested_first_kept": call_id} if model.tree and call_id is not None else None
        fix = (f"start the kept history at line {call_line + 1} instead (quick fix, or `session-lsp fix "
               "--unsafe-fixes`)" if data else f"start the kept history at line {call_line + 1} instead")
        self.add("ELY076", line, (field,),
                 f"the kept history starts at line {kept + 1}, below the tool call on line {call_line + 1} that the "
                 f"result on line {result + 1} answers{more}: pi cuts the call away but sends the result right "
                 f"after the summary, and providers reject a tool result whose call is missing; {fix}", data=data,
                 related=((result, ("message", "toolCallId"), "the result pi sends without its call"),
                          (call_line, ("message", "content"), "the call the compaction cut away")))

    # -- the leaf -------------------------------------------------------------------------------------------------

    def leaf_rule(self) -> None:
        model, facts = self.model, self.facts
        leaf = model.leaf
        if leaf is None:
            return
        path = model.active_path
        found = facts[leaf]
        if model.resumed is None:
            self.add("ELY047", leaf, ("type",) if found.type is not None else (),
                     "pi resumes from this line, the last in the file, but it has no id: pi's path from it is empty, "
                     f"so the context it sends holds none of the {len(model.entry_lines) - 1} entries above, and the "
                     "next message is appended as a new root")
            return
        notes = [f"{len(path)} {'entry' if len(path) == 1 else 'entries'} on its path to the root"]
        if model.in_cycle(leaf):
            notes.append("the path loops, so pi hangs building the context")
        elif (root := model.root_of(leaf)) is not None and root in model.dangling:
            notes.append(f"the walk stops at line {root + 1}, whose parent is missing")
        branches = len(model.branch_points)
        if branches:
            notes.append(f"{branches} branch point{'s' if branches > 1 else ''} in the file; other branches are "
                         "not in the context")
        self.add("ELY047", leaf, ("type",) if found.type is not None else (),
                 "pi resumes from this entry: it is the last one in the file (not the deepest or newest node), so "
                 f"the next message is appended below it ({'; '.join(notes)})")


_LOOP = "which hangs below this entry and would close a loop"


def _passing(passed: list[str]) -> str:
    """`; passing over line 3, which ...` for a quick fix's title: what the suggested parent skipped."""
    if not passed:
        return ""
    more = f" and {len(passed) - 2} more" if len(passed) > 2 else ""
    return "; passing over " + " and ".join(passed[:2]) + more


def _unanswered_calls_above(model: ElyraModel, facts: Sequence[Any]) -> dict[int, int | None]:
    """For each orphan result, the nearest unanswered call above it (the last in file order; of two on one line,
    the first block) with its tool name, on its path in a tree (else anywhere above it): the call the result most
    likely belonged to before its toolCallId was damaged. Found in one sweep for all of them, not by reading every
    unanswered call for each orphan, which made a file with thousands of both quadratic (20,000 lines: 47 s)."""
    found: dict[int, int | None] = dict.fromkeys(model.orphans)
    named: dict[str | None, list[tuple[int, int, int]]] = {}
    """Per tool name, the unanswered calls with it: (where the sweep meets the call, its place among them, it)."""
    for order, packed in enumerate(model.unanswered):
        line = unpack_call(packed)[0]
        where = model.pre[line] if model.tree else line
        if where != NONE:
            named.setdefault(model.call(packed).name, []).append((where, order, packed))
    for calls in named.values():
        calls.sort()
    if not model.tree:
        lines = {name: [where for where, _, _ in calls] for name, calls in named.items()}
        for orphan in model.orphans:
            name = facts[orphan].tool_name
            at = bisect_left(lines.get(name, ()), orphan)
            if at:
                keys = lines[name]
                found[orphan] = named[name][bisect_left(keys, keys[at - 1])][2]
        return found
    ends = model.end_at
    stacks: dict[str | None, list[tuple[int, int]]] = {}
    """Per tool name, the unanswered calls whose subtree the sweep is in, innermost last: (the position after the
    call's subtree, the nearest call among it and the ones below it). Subtrees nest, so each stack does too."""
    pushed = dict.fromkeys(named, 0)
    for here, orphan in sorted((model.pre[line], line) for line in model.orphans if model.pre[line] != NONE):
        name = facts[orphan].tool_name
        if name not in named:
            continue
        calls, stack = named[name], stacks.setdefault(name, [])
        at = pushed[name]
        while at < len(calls) and calls[at][0] < here:
            start, _, packed = calls[at]
            at += 1
            while stack and stack[-1][0] <= start:
                stack.pop()
            nearest = stack[-1][1] if stack and unpack_call(stack[-1][1])[0] >= unpack_call(packed)[0] else packed
            stack.append((ends[start], nearest))
        pushed[name] = at
        while stack and stack[-1][0] <= here:
            stack.pop()
        found[orphan] = stack[-1][1] if stack else None
    return found
