"""The repairs every format shares: what is wrong with a line as bytes and JSON (glued records, a torn or damaged
line, a stray `\\r`, a byte order mark, invalid UTF-8, a blank or non-object line, a missing final newline) and a
fresh id for the later of two lines declaring one (from the session's `reid`). A format's `fixers` name these for
its own rule codes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import msgspec

from .. import jsonscan
from ..detect import leading_trim
from ..diagnostics import Diagnostic, Span
from ..lines import LineKind, split_glued
from ..results import Reference
from ..text import fresh_id
from .edits import Fix, FixDoc, Fixer, TextEdit, delete_line, fix, json_text, replace_line, replace_value


def split_glued_line(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    line = diagnostic.span.line
    if doc.results[line].kind is not LineKind.GLUED:
        return None
    pieces = split_glued(doc.lines[line], doc.results[line].parts)
    return fix(diagnostic.code, f"Split into {len(pieces)} lines", replace_line(doc.lines, line, "\n".join(pieces)))


def drop_bom(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """The byte order mark, or the other space JSON does not allow, before the header: what pi 0.73 trims."""
    lead = leading_trim(doc.lines[0])
    if not lead:
        return None
    what = "byte order mark" if doc.lines[0][:lead] == "\ufeff" else "space before the header JSON does not allow"
    return fix(diagnostic.code, f"Remove the {what}", TextEdit(Span(0, 0, 0, lead), ""))


def lf(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """A `\\r` before the line's `\\n`: the agent reads it as JSON whitespace and writes `\\n` alone."""
    line = diagnostic.span.line
    text = doc.lines[line]
    if not text.endswith("\r"):
        return None
    return fix(diagnostic.code, "Write the line ending as \\n (drop the \\r)",
                TextEdit(Span(line, len(text) - 1, line, len(text)), ""))


def final_newline(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    last = len(doc.lines) - 1
    if doc.lines[last] == "":
        return None
    end = len(doc.lines[last])
    return fix(diagnostic.code, "Add the final newline", TextEdit(Span(last, end, last, end), "\n"))


_BAD_ESCAPE = re.compile(r'\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})')
"""A backslash JSON does not allow after it (a hand edit's `\\q`, `\\x41`, `\\u12`)."""


def _an_object(text: str) -> bool:
    try:
        return isinstance(msgspec.json.decode(text), dict)
    except (msgspec.DecodeError, RecursionError):
        return False


_QUOTE_OR_ESCAPE = re.compile(r'\\.|"', re.DOTALL)
_AFTER_QUOTE = re.compile(r"[ \t]*(.?)", re.DOTALL)
_ENDS_STRING = frozenset(",:}]")
"""What may follow a string's closing quote in an object line (spaces skipped): anything else means the quote is
inside the string."""


def _escape_stray_quotes(text: str) -> str | None:
    """The line with every quote inside a string escaped where what follows it cannot follow a string's end (a hand
    edit's `"say "hi""`); None when there is none."""
    pieces: list[str] = []
    kept = 0
    inside = False
    for found in _QUOTE_OR_ESCAPE.finditer(text):
        if found.group() != '"':
            continue
        after = _AFTER_QUOTE.match(text, found.end())
        following = after.group(1) if after is not None else ""
        if inside and following and following not in _ENDS_STRING:
            pieces += [text[kept:found.start()], '\\"']
            kept = found.end()
        else:
            inside = not inside
    return "".join(pieces) + text[kept:] if pieces else None


def salvage(text: str) -> tuple[str, str] | None:
    """The line as one record, when a mechanical repair gives one: NUL bytes left out, a stray backslash or quote
    escaped, or a torn start cut (a record appended after a write that never finished). With what was done, for
    the title."""
    if "\x00" in text and _an_object(mended := text.replace("\x00", "")):
        return mended, "Remove the NUL bytes"
    if _an_object(mended := _BAD_ESCAPE.sub(r"\\\\", text)):
        return mended, "Escape the stray backslash"
    # before escaping quotes, which could read a torn start and the record after it as one string
    for found in re.finditer(r'\{"', text):
        if found.start() and _an_object(text[found.start():]):
            return text[found.start():], "Cut the torn start (the record after it is whole)"
    quoted = _escape_stray_quotes(text)
    if quoted is not None and (_an_object(quoted) or _an_object(quoted := _BAD_ESCAPE.sub(r"\\\\", quoted))):
        return quoted, "Escape the stray quotes inside the string"
    return None


def torn_tail(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """A line JSON cannot read, made one record again where a mechanical repair does it; else, only for the last
    line with no newline after it (a write the agent never finished), the line cut: the agent drops it too."""
    line = diagnostic.span.line
    salvaged = salvage(doc.lines[line]) if line < len(doc.lines) else None
    if salvaged is not None:
        return fix(diagnostic.code, salvaged[1], replace_line(doc.lines, line, salvaged[0]))
    last = len(doc.lines) - 1
    if diagnostic.span.line != last or doc.lines[last] == "":
        return None
    return fix(diagnostic.code, "Cut the torn last line (the agent drops it too)",
                TextEdit(Span(last, 0, last, len(doc.lines[last])), ""))


def drop_line(what: str) -> Fixer:
    def fixer(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
        line = diagnostic.span.line
        if line == len(doc.lines) - 1 and doc.lines[line] == "":
            return None
        return fix(diagnostic.code, f"Delete this {what}", delete_line(doc.lines, line))
    return fixer


def utf8(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """The text already holds U+FFFD where the bytes were invalid, as the agent reads them; writing it makes that
    replacement permanent, which is what the agent's own rewrite would do."""
    spans = [diagnostic.span, *(related.span for related in diagnostic.related)]
    edits: list[TextEdit] = []
    for number in sorted({span.line for span in spans if span.line == span.end_line}):
        mine = [span for span in spans if span.line == number and span.end_line == number]
        text = doc.lines[number]
        # where a stray byte broke the JSON (it sits between tokens), dropping it lets the agent read the line
        kept = text
        for span in sorted(mine, key=lambda span: span.start, reverse=True):
            kept = kept[:span.start] + kept[span.end:]
        if doc.results[number].kind is LineKind.INVALID and _parses(kept):
            edits.append(replace_line(doc.lines, number, kept))
        else:
            edits.extend(TextEdit(span, text[span.start:span.end]) for span in mine)
    return fix(diagnostic.code, "Write the invalid bytes as U+FFFD, as the agent reads them", *edits)


def _parses(text: str) -> bool:
    try:
        msgspec.json.decode(text)
    except msgspec.DecodeError:
        return False
    return True


def reid(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """The later of two entries with one id gets a fresh id (one a rename would take), and the lines the model says
    meant this entry by it are pointed at it."""
    session = doc.session
    line = diagnostic.span.line
    target = session.reid(line)
    if target is None:
        return None
    data = diagnostic.data or {}
    new = data.get("new_id") or fresh_id(f"{target.value}/{line}",
                                         lambda candidate: session.rename_refusal(target, candidate) is not None)
    edits = [change for number, path in target.places
             if (change := replace_value(doc.lines, number, path, json_text(new))) is not None]
    if not edits or edits[0].span.line != target.places[0][0]:
        return None
    moved = len(edits) - 1
    title = f"Give this entry the fresh id {new!r}" + (f" and update the {moved} line{'s' if moved != 1 else ''} "
                                                       "written after it" if moved else "")
    return fix(diagnostic.code, title, *edits)


def unlink_line(lines: Sequence[str], line: int, parent_field: str, references: Iterable[Reference]) -> list[TextEdit]:
    """The line deleted, and the lines whose `parent_field` names its entry (`references`: what the model says names
    the line) given its own parent instead, so no other entry leaves the path."""
    parent = jsonscan.value_span(lines[line], (parent_field,))
    parent_json = lines[line][parent[0]:parent[1]] if parent is not None else "null"
    edits = [delete_line(lines, line)]
    for reference in references:
        if reference.field == parent_field and reference.line != line:
            edit = replace_value(lines, reference.line, reference.path, parent_json)
            if edit is not None:
                edits.append(edit)
    return edits
