"""A repair's values and the helpers that build its edits against a document's lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import msgspec

from .. import jsonscan
from ..detect import FormatInfo
from ..diagnostics import Diagnostic, Span
from ..jsonscan import Path
from ..registry import Applicability, rule
from ..results import LineResult, Linked, Options, Session


class TextEdit(msgspec.Struct, frozen=True):
    """Replace `span` (end exclusive) with `new_text`. Edits in one list never overlap and refer to the document
    before any of them is applied, as an LSP WorkspaceEdit does."""

    span: Span
    new_text: str


class Fix(msgspec.Struct, frozen=True):
    """One repair, as the editor's quick fix and `session-lsp fix` both apply it: text edits on the document's lines
    (in the sense of `TextEdit`), the rule codes it repairs and how safe it is (the rule's `fix` in the registry)."""

    title: str
    codes: tuple[str, ...]
    applicability: Applicability
    edits: tuple[TextEdit, ...]

    @property
    def safe(self) -> bool:
        return self.applicability is Applicability.SAFE


class FixDoc(Protocol):
    """What a fixer reads of a document (`document.Document` is one): its lines and line results, the link pass
    (`linked.model` for the links written in the file), the file's session (`results.Session`), its format and
    the options it was analysed with."""

    @property
    def lines(self) -> Sequence[str]: ...

    @property
    def results(self) -> Sequence[LineResult]: ...

    @property
    def linked(self) -> Linked: ...

    @property
    def session(self) -> Session: ...

    @property
    def format(self) -> FormatInfo: ...

    @property
    def options(self) -> Options: ...


Fixer = Callable[[FixDoc, Diagnostic], Fix | None]
"""A repair of one diagnostic (what the rule left in its `data` included), or None when this one has none."""

Fixers = Mapping[str, tuple[int, Fixer]]
"""A format's fixers (`Format.fixers`): rule code -> (phase, fixer)."""


class FileWide:
    """A fixer whose fix is one for the whole file, the same for every diagnostic of a code (a renumbering of every
    record): the fixes of many diagnostics (a round of `fix_document`, the quick fixes of a range) make it, and list
    it, once a code, not once a diagnostic, which read every line of the file again for each of thousands."""

    def __init__(self, fixer: Fixer) -> None:
        self.fixer = fixer

    def __call__(self, doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
        return self.fixer(doc, diagnostic)


LINES, FILE, IDS, PARENTS, REFERENCES = range(5)
"""The phases `fix_document` applies one a round, re-analysing between rounds: bytes and lines (so every later fix
sees the lines the agent will read), then the end of the file and the header, ids (so that parents can then name
them), parents, and the other references and values."""


def fix(code: str, title: str, *edits: TextEdit) -> Fix:
    """A fix of rule `code`, as safe as the registry says its fix is."""
    applicability = rule(code).fix
    assert applicability is not None, f"{code} declares no fix in the registry"
    return Fix(title, (code,), applicability, edits)


def json_text(value: object) -> str:
    return msgspec.json.encode(value).decode()


def delete_line(lines: Sequence[str], line: int) -> TextEdit:
    """The whole line and its line break (the one before it for the last line), so no blank line is left."""
    if line + 1 < len(lines):
        return TextEdit(Span(line, 0, line + 1, 0), "")
    if line == 0:
        return TextEdit(Span(0, 0, 0, len(lines[0])), "")
    return TextEdit(Span(line - 1, len(lines[line - 1]), line, len(lines[line])), "")


def insert_members(text: str, members: str) -> tuple[int, str] | None:
    """Where and what to insert so an object line starts with `members` (JSON text without braces)."""
    start = text.find("{")
    if start < 0:
        return None
    empty = text[start + 1:].lstrip().startswith("}")
    return start + 1, members if empty else members + ","


def replace_line(lines: Sequence[str], line: int, new_text: str) -> TextEdit:
    return TextEdit(Span(line, 0, line, len(lines[line])), new_text)


def replace_value(lines: Sequence[str], line: int, path: Path, new_json: str,
                  root: jsonscan.Node | None = None) -> TextEdit | None:
    """Replace the JSON value at `path` on `line` with the JSON text `new_json`; None when the path is not there."""
    found = jsonscan.value_span(lines[line], path, root)
    if found is None:
        return None
    return TextEdit(Span(line, found[0], line, found[1]), new_json)


def insert_line_after(lines: Sequence[str], line: int, new_text: str) -> TextEdit:
    end = len(lines[line])
    return TextEdit(Span(line, end, line, end), "\n" + new_text)


def remove_value(lines: Sequence[str], line: int, path: Path) -> TextEdit | None:
    """Remove the object member or array item at `path` on `line`, with the comma that separated it; None when the
    path is not there."""
    text = lines[line]
    parent = jsonscan.find(jsonscan.scan(text), path[:-1])
    last = path[-1] if path else None
    if parent is None:
        return None
    # each piece runs from where it starts (a member's key) to where its value ends
    if parent.members is not None:
        pieces = [(key_start, value.end) for _, key_start, _, value in parent.members]
        names = [name for name, _, _, _ in parent.members]
        index = len(names) - 1 - names[::-1].index(last) if isinstance(last, str) and last in names else None
    elif parent.items is not None:
        pieces = [(item.start, item.end) for item in parent.items]
        index = last if isinstance(last, int) and 0 <= last < len(pieces) else None
    else:
        return None
    if index is None:
        return None
    if index + 1 < len(pieces):
        start, end = pieces[index][0], pieces[index + 1][0]
    elif index > 0:
        start, end = pieces[index - 1][1], pieces[index][1]
    else:
        start, end = pieces[index]
    return TextEdit(Span(line, start, line, end), "")
