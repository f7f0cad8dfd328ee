"""Repairs: the one mechanism behind the editor's quick fixes, its "fix all" source action and `session-lsp fix`.

A fixer reads one diagnostic (and what the rule left in its `data`: the parent the entry above would be, the call an
orphan result lost) and returns a `Fix`: text edits on the document's lines, a title, the codes it repairs and its
applicability, which is the rule's (`registry.Rule.fix`). `fixes()` answers the editor's quick fixes;
`fix_document()` applies them to a fixpoint, for the CLI and the "fix all" action.

The fixers are the formats': each face declares its own (`Format.fixers`, rule code -> (phase, fixer), in its
package's `fixes.py`, with the repairs every format shares in `fixing.generic`), and the codes one renumbering
repairs (`Format.renumbered`). This module applies them and names no rule.

What no fixer does: drop a line the agent would have read. A line is deleted only when the agent cannot read it
either (a torn last line, a line that is not an object, a blank line) or cannot use it (an orphan tool result no
provider accepts, a message entry without a message, a context_edit whose replacement pi cannot read: pi throws on
the last two or sends nothing from them); an entry the agent reads is relinked, never removed.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate

import msgspec

from .. import jsonscan
from ..diagnostics import Diagnostic, Span
from ..document import Document, analyze
from ..fixing import LINES, REFERENCES, FileWide, Fix, Fixer, TextEdit, generic
from ..lines import LineKind
from ..registry import RULES, Applicability, rule

MAX_ROUNDS = 12
"""A fix can uncover the next problem (a header moved up shows the dangling parents below it); each round fixes one
phase, so a file converges in a few rounds, and a bound keeps a pathological one from running on."""


def renumber(doc: Document, codes: Sequence[str]) -> Fix | None:
    """The record numbers in line order, as the format's writer numbers them: one fix for every seq diagnostic."""
    if not codes:
        return None
    numbering = doc.session.renumbering()
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


SEQ_PHASE = REFERENCES
"""The renumbering runs with the other references and values."""

def _phased(doc: Document, diagnostics: Sequence[Diagnostic]) -> list[tuple[int, Fix]]:
    """Each diagnostic's fix with its phase, in diagnostic order; the seq diagnostics share one renumbering, and the
    diagnostics of one code whose fixer is `FileWide` share that fix, listed at the first of them."""
    out: list[tuple[int, Fix]] = []
    seq_codes: list[str] = []
    fixers, renumbered = doc.face.fixers, doc.face.renumbered
    made: dict[tuple[FileWide, str], Fix | None] = {}
    for diagnostic in diagnostics:
        if not 0 <= diagnostic.span.line < len(doc.lines):
            continue
        if diagnostic.code in renumbered:
            seq_codes.append(diagnostic.code)
            continue
        found = fixers.get(diagnostic.code) or _glued(doc, diagnostic)
        if found is not None:
            phase, fixer = found
            if isinstance(fixer, FileWide):  # one fix a code, listed once
                key = (fixer, diagnostic.code)
                if key in made:
                    continue
                fix = made[key] = fixer(doc, diagnostic)
            else:
                fix = fixer(doc, diagnostic)
            if fix is not None:
                out.append((phase, fix))
    numbering = renumber(doc, seq_codes)
    if numbering is not None:
        out.append((SEQ_PHASE, numbering))
    return out


def _glued(doc: Document, diagnostic: Diagnostic) -> tuple[int, Fixer] | None:
    """Splitting a glued line is every format's fix (the line pass says a line is glued): a format's rule that
    declares a fix and sits on such a line gets it without a row in its format's `fixers`."""
    if fixable(diagnostic) is None or doc.results[diagnostic.span.line].kind is not LineKind.GLUED:
        return None
    return LINES, generic.split_glued_line


def fixes(doc: Document, diagnostics: Sequence[Diagnostic]) -> list[Fix]:
    """The fix of each diagnostic that has one (safe and unsafe), as the editor offers them: each once, though two
    diagnostics share it (an entry missing both `id` and `parentId` has one fix for the two)."""
    return list(dict.fromkeys(fix for _, fix in _phased(doc, diagnostics)))


def fixable(diagnostic: Diagnostic) -> Applicability | None:
    """Whether a diagnostic's rule has a fix, and of which kind (a given diagnostic may still have none: an
    ELY001 that is not the last line)."""
    return rule(diagnostic.code).fix if diagnostic.code in RULES else None


# -- applying fixes -----------------------------------------------------------------------------------------------


def apply_edits(lines: Sequence[str], edits: Sequence[TextEdit]) -> str:
    """The document's text with non-overlapping `edits` applied (all relative to `lines`), made of the text's pieces
    between them in one join: thousands of fixes in a round (a file of junk lines) each copied the whole text."""
    starts = [0, *accumulate(len(line) + 1 for line in lines[:-1])]
    text = "\n".join(lines)
    pieces: list[str] = []
    kept = len(text)
    """The text from here on is in `pieces`."""
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.start, e.span.end_line, e.span.end), reverse=True):
        span = edit.span
        start = starts[span.line] + span.start
        end = starts[span.end_line] + span.end
        pieces += (text[end:kept], edit.new_text)
        kept = start
    pieces.append(text[:kept])
    return "".join(reversed(pieces))


def _rows(fix: Fix) -> tuple[int, int]:
    """The lines a fix changes: an edit that ends at the start of a line (a deleted line, with its line break) leaves
    that line as it was, so the fixes of two junk lines in a row go in one round."""
    spans = [edit.span for edit in fix.edits]
    return (min(span.line for span in spans),
            max(span.end_line - 1 if span.end == 0 and span.end_line > span.line else span.end_line for span in spans))


class _Rows:
    """The line ranges the fixes taken in a round change, kept sorted and apart, so whether a fix's range meets one
    of them is one search (a round of a file of junk lines takes thousands of fixes)."""

    def __init__(self) -> None:
        self._lows: list[int] = []
        self._highs: list[int] = []

    def take(self, low: int, high: int) -> bool:
        """Whether `low..high` (both included) meets no range taken yet; if so it is taken."""
        at = bisect_right(self._lows, high)  # the ranges that start at or before `high`: the last ends latest
        if at and self._highs[at - 1] >= low:
            return False
        self._lows.insert(at, low)
        self._highs.insert(at, high)
        return True


class Repaired(msgspec.Struct, frozen=True):
    """What `fix_document` did: the new text (the old one when nothing applied), the fixes applied in order, and
    how many more an `--unsafe-fixes` run would apply now (`unsafe_left`); whether no fix it may apply is left
    (`converged`), and whether it stopped because fixes undid each other (`looped`: a run again goes round too)."""

    text: str
    applied: tuple[Fix, ...]
    unsafe_left: int
    converged: bool
    looped: bool = False


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
        rows = _Rows()
        taken = [fix for phase, fix in allowed if phase == first and rows.take(*_rows(fix))]
        text = apply_edits(current.lines, [edit for fix in taken for edit in fix.edits])
        applied.extend(taken)
        if text in seen:  # fixes that undo each other: stop rather than go round
            phased = _phased(current, select(current.diagnostics()))
            return Repaired(text, tuple(applied), sum(1 for _, fix in phased if not fix.safe), False, looped=True)
        seen.add(text)
        current = analyze(text, current.options)
    phased = _phased(current, select(current.diagnostics()))  # the rounds ran out: the last may have done it all
    return Repaired(text, tuple(applied), sum(1 for _, fix in phased if not fix.safe),
                    not any(unsafe or fix.safe for _, fix in phased))
