"""Repairs: the one mechanism behind the editor's quick fixes, its "fix all" source action and `session-lsp fix`.

A fixer reads one diagnostic (and what the rule left in its `data`: the parent the entry above would be, the call an
orphan result lost) and returns a `Fix`: text edits on the document's lines, a title, the codes it repairs and its
applicability, which is the rule's (`registry.Rule.fix`). `fixes()` answers the editor's quick fixes;
`fix_document()` applies them to a fixpoint, for the CLI and the "fix all" action.

What no fixer does: drop a line the agent would have read. A line is deleted only when the agent cannot read it
either (a torn last line, a line that is not an object, a blank line); an entry the agent reads is relinked, never
removed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import msgspec

from .. import jsonscan
from ..detect import leading_trim
from ..diagnostics import Diagnostic, Span
from ..document import Document, analyze
from ..lines import LineKind, split_glued
from ..registry import RULES, Applicability, rule
from ..text import fresh_id
from .codex_fixes import FIXERS as CODEX_FIXERS
from .edits import delete_line as _delete_line
from .edits import json_text as _json
from .edits import replace_line, replace_value
from .edits import rule_fix as _fix
from .edits import salvaged as _salvaged
from .edits import utf8_fix as _utf8
from .types import Fix, TextEdit
from .values import elyra_parent_above, reference_values

SEQ_CODES = ("THN030", "THN031", "THN032", "THN033")
MAX_ROUNDS = 12
"""A fix can uncover the next problem (a header moved up shows the dangling parents below it); each round fixes one
phase, so a file converges in a few rounds, and a bound keeps a pathological one from running on."""

Fixer = Callable[[Document, Diagnostic], Fix | None]


def _insert_members(text: str, members: str) -> tuple[int, str] | None:
    """Where and what to insert so an object line starts with `members` (JSON text without braces)."""
    start = text.find("{")
    if start < 0:
        return None
    empty = text[start + 1:].lstrip().startswith("}")
    return start + 1, members if empty else members + ","


# -- the lines themselves -----------------------------------------------------------------------------------------


def _split_glued(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    line = diagnostic.span.line
    if doc.results[line].kind is not LineKind.GLUED:
        return None
    pieces = split_glued(doc.lines[line], doc.results[line].parts)
    return _fix(diagnostic.code, f"Split into {len(pieces)} lines", replace_line(doc.lines, line, "\n".join(pieces)))


def _drop_bom(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """The byte order mark, or the other space JSON does not allow, before the header: what pi 0.73 trims."""
    lead = leading_trim(doc.lines[0])
    if not lead:
        return None
    what = "byte order mark" if doc.lines[0][:lead] == "\ufeff" else "space before the header JSON does not allow"
    return _fix(diagnostic.code, f"Remove the {what}", TextEdit(Span(0, 0, 0, lead), ""))


def _lf(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """A `\\r` before the line's `\\n`: the agent reads it as JSON whitespace and writes `\\n` alone."""
    line = diagnostic.span.line
    text = doc.lines[line]
    if not text.endswith("\r"):
        return None
    return _fix(diagnostic.code, "Write the line ending as \\n (drop the \\r)",
                TextEdit(Span(line, len(text) - 1, line, len(text)), ""))


def _final_newline(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    last = len(doc.lines) - 1
    if doc.lines[last] == "":
        return None
    end = len(doc.lines[last])
    return _fix(diagnostic.code, "Add the final newline", TextEdit(Span(last, end, last, end), "\n"))


def _torn_tail(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """A line JSON cannot read, made one record again where a mechanical repair does it; else, only for the last
    line with no newline after it (a write the agent never finished), the line cut: the agent drops it too."""
    line = diagnostic.span.line
    salvaged = _salvaged(doc.lines[line]) if line < len(doc.lines) else None
    if salvaged is not None:
        return _fix(diagnostic.code, salvaged[1], replace_line(doc.lines, line, salvaged[0]))
    last = len(doc.lines) - 1
    if diagnostic.span.line != last or doc.lines[last] == "":
        return None
    return _fix(diagnostic.code, "Cut the torn last line (the agent drops it too)",
                TextEdit(Span(last, 0, last, len(doc.lines[last])), ""))


def _drop_line(what: str) -> Fixer:
    def fixer(doc: Document, diagnostic: Diagnostic) -> Fix | None:
        line = diagnostic.span.line
        if line == len(doc.lines) - 1 and doc.lines[line] == "":
            return None
        return _fix(diagnostic.code, f"Delete this {what}", _delete_line(doc.lines, line))
    return fixer


# -- the header ---------------------------------------------------------------------------------------------------


def _move_header(doc: Document, line: int, code: str) -> Fix | None:
    if line <= 0 or line >= len(doc.lines):
        return None
    lines = doc.lines
    insert = TextEdit(Span(0, 0, 0, 0), lines[line].strip() + "\n")
    return _fix(code, f"Move the header from line {line + 1} to the first line", insert, _delete_line(lines, line))


def _header(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    data = diagnostic.data or {}
    if "header_line" in data:
        return _move_header(doc, data["header_line"], diagnostic.code)
    if "header_id" in data:
        edit = replace_value(doc.lines, diagnostic.span.line, ("id",), _json(data["header_id"]))
        return _fix(diagnostic.code, f"Give the header the id {data['header_id']!r}", edit) if edit else None
    if "header" in data:
        return _fix(diagnostic.code, "Insert the session header pi would have written",
                    TextEdit(Span(0, 0, 0, 0), _json(data["header"]) + "\n"))
    return None


def _header_first(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    return _move_header(doc, diagnostic.span.line, diagnostic.code)


def _tree_version(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY020: the entries carry a tree, so the header says version 3 (a missing `version` is added)."""
    line = (diagnostic.data or {}).get("header_line")
    if not isinstance(line, int):
        return None
    edit = replace_value(doc.lines, line, ("version",), "3")
    if edit is None:
        found = _insert_members(doc.lines[line], '"version":3')
        if found is None:
            return None
        edit = TextEdit(Span(line, found[0], line, found[0]), found[1])
    return _fix(diagnostic.code, "Set the header's version to 3", edit)


def _version(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY016: the version pi reads the number as (below 2: 1, else its whole part, at most 3)."""
    line = diagnostic.span.line
    found = jsonscan.value_span(doc.lines[line], ("version",))
    if found is None:
        return None
    try:
        value = float(doc.lines[line][found[0]:found[1]])
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    version = 1 if value < 2 else min(3, int(value))
    return _fix(diagnostic.code, f"Set version to {version}, as pi reads it",
                TextEdit(Span(line, found[0], line, found[1]), str(version)))


# -- ids and parents ----------------------------------------------------------------------------------------------


def _taken(doc: Document) -> Callable[[str], bool]:
    model = doc.linked.model
    return lambda candidate: model is not None and doc.face.id_in_use(model, candidate)


def _missing_ids(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY021: an entry without `id` or `parentId` gets a fresh id and the entry above as its parent."""
    line = diagnostic.span.line
    text = doc.lines[line]
    members: list[str] = []
    if jsonscan.value_span(text, ("id",)) is None:
        members.append(f'"id":{_json(fresh_id(f"{line}/{text}", _taken(doc)))}')
    if jsonscan.value_span(text, ("parentId",)) is None:
        members.append(f'"parentId":{_json(elyra_parent_above(doc, line))}')
    found = _insert_members(text, ",".join(members)) if members else None
    if found is None:
        return None
    title = "Give this entry " + " and ".join(("a fresh id" if m.startswith('"id"') else "the entry above as parent")
                                                for m in members)
    return _fix(diagnostic.code, title, TextEdit(Span(line, found[0], line, found[0]), found[1]))


def _id_type(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY033 on an entry's `id` (a number, null, an array): a fresh string id; other fields are left to a person."""
    line = diagnostic.span.line
    found = jsonscan.value_span(doc.lines[line], ("id",))
    if found is None or (found[0], found[1]) != (diagnostic.span.start, diagnostic.span.end):
        return None
    new = fresh_id(f"{line}/{doc.lines[line]}", _taken(doc))
    return _fix(diagnostic.code, f"Give this entry the fresh id {new!r}",
                TextEdit(Span(line, found[0], line, found[1]), _json(new)))


NEUTRAL: dict[str, object] = {"content": [], "stopReason": "stop", "summary": "", "thinkingLevel": "off",
                              "customType": "custom", "name": "", "details": {}}
"""What a missing required field is given: a value that adds nothing to what the agent sends (no text, a normal
stop). Fields whose value cannot be guessed (a role, a toolCallId) are left to a person."""


def _open_call(doc: Document, line: int) -> str | None:
    """The open tool call the result on `line` most likely answers: of the calls completion offers there, one with
    the result's tool name, else the first."""
    try:
        root = msgspec.json.decode(doc.lines[line])
    except msgspec.DecodeError:
        return None
    message = root.get("message") if isinstance(root, dict) else None
    if not isinstance(message, dict):
        return None
    offered = reference_values(doc, line, "toolCallId", [root, message])
    name = message.get("toolName")
    named = [value for value, detail in offered if isinstance(name, str) and f"open {name} call" in detail]
    chosen = (named or [value for value, _ in offered])[:1]
    return chosen[0] if chosen and isinstance(chosen[0], str) else None


def _missing_field(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    path = (diagnostic.data or {}).get("missing")
    if not isinstance(path, list) or not path:
        return None
    line, key = diagnostic.span.line, path[-1]
    value = _open_call(doc, line) if path == ["message", "toolCallId"] else NEUTRAL.get(key)
    role = jsonscan.find(jsonscan.scan(doc.lines[line]), ("message", "role"))
    if path == ["message", "content"] and role is not None and jsonscan.string_value(doc.lines[line], role) == "system":
        value = ""  # a system message's content is a string: pi 1.6 sends the missing one as ""
    if value is None:
        return None
    text = doc.lines[line]
    enclosing = tuple(path[:-1])
    found = jsonscan.value_span(text, enclosing) if enclosing else (0, len(text))
    if found is None:
        return None
    inserted = _insert_members(text[found[0]:found[1]], f"{_json(key)}:{_json(value)}")
    if inserted is None:
        return None
    at = found[0] + inserted[0]
    return _fix(diagnostic.code, f"Add `{'.'.join(map(str, path))}`: {_json(value)}",
                TextEdit(Span(line, at, line, at), inserted[1]))


def _drop_orphan(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """An orphan result no unanswered call could take: the line goes, and the entries below it hang from its parent,
    so no other entry leaves the path. Providers reject the result, so the agent could never send it."""
    line = diagnostic.span.line
    model = doc.linked.model
    parent = jsonscan.value_span(doc.lines[line], ("parentId",))
    if model is None:
        return None
    parent_json = doc.lines[line][parent[0]:parent[1]] if parent is not None else "null"
    edits = [_delete_line(doc.lines, line)]
    for reference in model.references_to(line):
        if reference.field == "parentId" and reference.line != line:
            edit = replace_value(doc.lines, reference.line, reference.path, parent_json)
            if edit is not None:
                edits.append(edit)
    return _fix(diagnostic.code, "Delete this orphan tool result (its children move up to its parent)", *edits)


def _orphan(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    call = (diagnostic.data or {}).get("suggested_call")
    if call is None:
        return _drop_orphan(doc, diagnostic)
    edit = replace_value(doc.lines, diagnostic.span.line, ("message", "toolCallId"), _json(call))
    return _fix(diagnostic.code, f"Point toolCallId at the unanswered call {call!r}", edit) if edit else None


def _reparent(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    line = diagnostic.span.line
    data = diagnostic.data or {}
    if "suggested_parent" not in data:
        return None
    parent = data["suggested_parent"]
    edit = replace_value(doc.lines, line, ("parentId",), _json(parent))
    if edit is None:
        return None
    note = data.get("suggested_note") or ("the entry above" if parent is not None else
                                          "no entry above: make this a root")
    title = f"Set parentId to {_json(parent) if parent is None else repr(parent)} ({note})"
    return _fix(diagnostic.code, title, edit)


def _reid(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """The later of two entries with one id gets a fresh id (one a rename would take), and the lines the model says
    meant this entry by it are pointed at it."""
    model, face = doc.linked.model, doc.face
    line = diagnostic.span.line
    target = face.reid(model, line) if model is not None else None
    if model is None or target is None:
        return None
    data = diagnostic.data or {}
    new = data.get("new_id") or fresh_id(f"{target.value}/{line}",
                                         lambda candidate: face.rename_refusal(model, target, candidate) is not None)
    edits = [change for number, path in target.places
             if (change := replace_value(doc.lines, number, path, _json(new))) is not None]
    if not edits or edits[0].span.line != target.places[0][0]:
        return None
    moved = len(edits) - 1
    title = f"Give this entry the fresh id {new!r}" + (f" and update the {moved} line{'s' if moved != 1 else ''} "
                                                       "written after it" if moved else "")
    return _fix(diagnostic.code, title, *edits)


def _suggested(key: str, path: tuple[str, ...], title: str) -> Fixer:
    """A reference the link pass found a better value for (`data[key]`)."""
    def fixer(doc: Document, diagnostic: Diagnostic) -> Fix | None:
        value = (diagnostic.data or {}).get(key)
        if value is None:
            return None
        edit = replace_value(doc.lines, diagnostic.span.line, path, _json(value))
        return _fix(diagnostic.code, title.format(value=value), edit) if edit is not None else None
    return fixer


def _hook_message(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    edit = replace_value(doc.lines, diagnostic.span.line, ("message", "role"), '"custom"')
    return _fix(diagnostic.code, 'Rename role "hookMessage" to "custom"', edit) if edit is not None else None


def renumber(doc: Document, codes: Sequence[str]) -> Fix | None:
    """The record numbers in line order, as the format's writer numbers them: one fix for every seq diagnostic."""
    model = doc.linked.model
    if model is None or not codes:
        return None
    numbering = doc.face.renumbering(model)
    edits: list[TextEdit] = []
    for number, path, value in numbering.changes:
        found = jsonscan.value_span(doc.lines[number], path)
        if found is not None:
            edits.append(TextEdit(Span(number, found[0], number, found[1]), str(value)))
    if not edits:
        return None
    count = numbering.count
    title = f"Renumber seq 0..{count - 1} in line order ({len(edits)} record{'s' if len(edits) != 1 else ''} change)"
    return Fix(title, tuple(dict.fromkeys(codes)), Applicability.SAFE, tuple(edits))


FIXERS: dict[str, tuple[int, Fixer]] = {
    # phase 0: bytes and lines, so every later fix sees the lines the agent will read
    "ELY006": (0, _utf8), "THN002": (0, _utf8),
    "ELY008": (0, _drop_bom),
    "ELY002": (0, _split_glued), "THN001": (0, _split_glued),
    "ELY001": (0, _torn_tail), "THN071": (0, _torn_tail), "CCD006": (0, _torn_tail),
    "ELY003": (0, _drop_line("line, which holds no entry")), "THN003": (0, _drop_line("line, which holds no record")),
    "ELY004": (0, _drop_line("blank line")), "THN070": (0, _drop_line("blank line")),
    "ELY026": (0, _lf), "CCD005": (0, _lf),
    # phase 1: the end of the file and the header
    "ELY005": (1, _final_newline),
    "ELY010": (1, _header), "ELY011": (1, _header_first), "ELY020": (1, _tree_version), "ELY016": (1, _version),
    # phase 2: ids, so that parents can then name them
    "ELY021": (2, _missing_ids), "ELY033": (2, _id_type), "ELY040": (2, _reid),
    # phase 3: parents
    "ELY042": (3, _reparent), "ELY044": (3, _reparent), "ELY045": (3, _reparent),
    # phase 4: the other references and values
    "ELY032": (4, _missing_field),
    "ELY070": (4, _orphan),
    "ELY050": (4, _suggested("suggested_first_kept", ("firstKeptEntryId",), "Keep the history from {value!r}")),
    "ELY076": (4, _suggested("suggested_first_kept", ("firstKeptEntryId",), "Keep the history from {value!r}")),
    "ELY024": (4, _hook_message),
    **CODEX_FIXERS,
}
SEQ_PHASE = 4

_ALL_FIXABLE = frozenset({*FIXERS, *SEQ_CODES})
assert {code for code, found in ((c, rule(c)) for c in _ALL_FIXABLE) if found.fix is None} == set(), \
    "every fixer's rule declares its applicability"


def _phased(doc: Document, diagnostics: Sequence[Diagnostic]) -> list[tuple[int, Fix]]:
    """Each diagnostic's fix with its phase, in diagnostic order; the seq diagnostics share one renumbering."""
    out: list[tuple[int, Fix]] = []
    seq_codes: list[str] = []
    for diagnostic in diagnostics:
        if not 0 <= diagnostic.span.line < len(doc.lines):
            continue
        if diagnostic.code in SEQ_CODES:
            seq_codes.append(diagnostic.code)
            continue
        found = FIXERS.get(diagnostic.code) or _glued(doc, diagnostic)
        if found is not None:
            phase, fixer = found
            fix = fixer(doc, diagnostic)
            if fix is not None:
                out.append((phase, fix))
    numbering = renumber(doc, seq_codes)
    if numbering is not None:
        out.append((SEQ_PHASE, numbering))
    return out


def _glued(doc: Document, diagnostic: Diagnostic) -> tuple[int, Fixer] | None:
    """Splitting a glued line is every format's fix (the line pass says a line is glued): a format's rule that
    declares a fix and sits on such a line gets it without a row here."""
    if fixable(diagnostic) is None or doc.results[diagnostic.span.line].kind is not LineKind.GLUED:
        return None
    return 0, _split_glued


def fixes(doc: Document, diagnostics: Sequence[Diagnostic]) -> list[Fix]:
    """The fix of each diagnostic that has one (safe and unsafe), as the editor offers them."""
    return [fix for _, fix in _phased(doc, diagnostics)]


def fixable(diagnostic: Diagnostic) -> Applicability | None:
    """Whether a diagnostic's rule has a fix, and of which kind (a given diagnostic may still have none: an
    ELY001 that is not the last line)."""
    return rule(diagnostic.code).fix if diagnostic.code in RULES else None


# -- applying fixes -----------------------------------------------------------------------------------------------


def apply_edits(lines: Sequence[str], edits: Sequence[TextEdit]) -> str:
    """The document's text with non-overlapping `edits` applied (all relative to `lines`)."""
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    text = "\n".join(lines)
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.start, e.span.end_line, e.span.end), reverse=True):
        span = edit.span
        start = starts[span.line] + span.start
        end = starts[span.end_line] + span.end
        text = text[:start] + edit.new_text + text[end:]
    return text


def _rows(fix: Fix) -> tuple[int, int]:
    return min(e.span.line for e in fix.edits), max(e.span.end_line for e in fix.edits)


class Repaired(msgspec.Struct, frozen=True):
    """What `fix_document` did: the new text (the old one when nothing applied), the fixes applied in order, and
    how many more an `--unsafe-fixes` run would apply now (`unsafe_left`)."""

    text: str
    applied: tuple[Fix, ...]
    unsafe_left: int
    converged: bool


Select = Callable[[Sequence[Diagnostic]], Sequence[Diagnostic]]


def fix_document(doc: Document, select: Select = lambda found: found, unsafe: bool = False,
                 rounds: int = MAX_ROUNDS) -> Repaired:
    """Apply the fixes of the selected diagnostics until none is left (or `rounds` ran): in each round, the fixes of
    the earliest phase that has any, skipping one whose lines another fix of the round already changed. Each round
    analyses the new text again, so a fix is always computed on the lines it edits."""
    applied: list[Fix] = []
    seen: set[str] = set()
    current = doc
    text = "\n".join(doc.lines)
    for _ in range(rounds):
        phased = _phased(current, select(current.diagnostics()))
        allowed = [(phase, fix) for phase, fix in phased if unsafe or fix.safe]
        if not allowed:
            left = sum(1 for _, fix in phased if not fix.safe)
            return Repaired(text, tuple(applied), left, True)
        first = min(phase for phase, _ in allowed)
        taken: list[Fix] = []
        rows: list[tuple[int, int]] = []
        for phase, fix in allowed:
            low, high = _rows(fix)
            if phase != first or any(low <= end and start <= high for start, end in rows):
                continue
            taken.append(fix)
            rows.append((low, high))
        text = apply_edits(current.lines, [edit for fix in taken for edit in fix.edits])
        applied.extend(taken)
        if text in seen:  # fixes that undo each other: stop rather than go round
            break
        seen.add(text)
        current = analyze(text, current.options)
    phased = _phased(current, select(current.diagnostics()))
    return Repaired(text, tuple(applied), sum(1 for _, fix in phased if not fix.safe), False)
