"""Definition, references and rename over the links the format's model knows (`results.LinkModel`).

A request looks at the cursor's line, the model's indexes and the lines it names: never at the whole file.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from .. import jsonscan
from ..anchors import line_span
from ..detect import Kind
from ..diagnostics import Span
from ..document import Document
from ..elyra.facts import EntryFacts
from ..results import Reference
from .cursor import Cursor, cursor_at, is_identity, reference_at
from .types import Location, PrepareRename, RenameError, TextEdit
from .values import ELYRA_REFERENCE_FIELDS
from .views import elyra_view

FILE_FIELDS = ("parentSession", "branchedFrom", "fullOutputPath")
"""Elyra fields that hold a path to another file."""


def _value_span(doc: Document, line: int, path: jsonscan.Path) -> Span:
    found = jsonscan.value_span(doc.lines[line], path)
    return Span(line, found[0], line, found[1]) if found is not None else line_span(doc.lines, line)


def _named_span(doc: Document, line: int, value: str) -> Span:
    """Where `value` is declared on `line`: the line's identity when it has that value, else the first `id`-like
    member holding it (an Elyra toolCall block inside an assistant message), else the whole line."""
    model = doc.linked.model
    identity = model.identity(line) if model is not None else None
    if identity is not None and identity[1] == value:
        return _value_span(doc, line, tuple(identity[0]))
    text = doc.lines[line]
    stack = [jsonscan.scan(text)]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        for _key, _, _, child in reversed(node.members or ()):
            if child.kind == "string" and jsonscan.string_value(text, child) == value:
                return Span(line, child.start, line, child.end)
            stack.append(child)
        stack.extend(reversed(node.items or ()))
    return line_span(doc.lines, line)


def _declaration(doc: Document, cursor: Cursor) -> tuple[int, str] | None:
    """(line, value) of what the cursor names: the target of a reference, or the cursor's own line when it is on
    a declaration (the line's identity, or a value other lines refer to, such as a toolCall id)."""
    reference = reference_at(doc, cursor)
    if reference is not None:
        return None if reference.target is None else (reference.target, reference.value)
    if cursor.value is None:
        return None
    if is_identity(doc, cursor):
        return cursor.line, cursor.value
    model = doc.linked.model
    if model is not None and any(r.value == cursor.value for r in model.references_to(cursor.line)):
        return cursor.line, cursor.value
    return None


def definition(doc: Document, line: int, col: int, exists: Callable[[str], bool] | None = None) -> list[Location]:
    cursor = cursor_at(doc, line, col)
    if cursor is None or doc.linked.model is None:
        return []
    if doc.format.kind is Kind.ELYRA and cursor.field in FILE_FIELDS and cursor.value:
        check = exists or doc.options.exists
        if check is None or check(cursor.value):
            return [Location(Span(0, 0, 0, 0), cursor.value)]
        return []
    reference = reference_at(doc, cursor)
    if reference is None or reference.target is None:
        return []
    return [Location(_named_span(doc, reference.target, reference.value))]


def _incoming(doc: Document, target: int, value: str) -> list[Reference]:
    return [r for r in doc.linked.model.references_to(target) if r.value == value]


def references(doc: Document, line: int, col: int, include_declaration: bool = True) -> list[Location]:
    cursor = cursor_at(doc, line, col)
    if cursor is None or doc.linked.model is None:
        return []
    found = _declaration(doc, cursor)
    if found is None:
        return []
    target, value = found
    out = [Location(_named_span(doc, target, value))] if include_declaration else []
    out.extend(Location(_value_span(doc, r.line, tuple(r.path))) for r in _incoming(doc, target, value))
    return out


def _entry_id_at(doc: Document, cursor: Cursor) -> tuple[int, str] | None:
    """The Elyra entry whose id a rename at the cursor changes: on the `id` itself or on a reference to it."""
    if doc.format.kind is not Kind.ELYRA or doc.linked.model is None:
        return None
    if cursor.path == ("id",) and isinstance(doc.results[cursor.line].facts, EntryFacts) and cursor.value:
        return cursor.line, cursor.value
    reference = reference_at(doc, cursor)
    if reference is not None and reference.field in ELYRA_REFERENCE_FIELDS and reference.target is not None:
        return reference.target, reference.value
    return None


def _tool_call_at(doc: Document, cursor: Cursor) -> tuple[int, int, str] | None:
    """(assistant line, block index, id) of the Elyra tool call whose id a rename at the cursor changes: on the
    toolCall block's `id` or on a toolResult's `toolCallId` that answers it."""
    if doc.format.kind is not Kind.ELYRA or doc.linked.model is None:
        return None
    model = doc.linked.model
    reference = reference_at(doc, cursor)
    if reference is not None:
        call = model.tool_call(cursor.line) if reference.field == "toolCallId" else None
        return (*call, reference.value) if call is not None else None
    path, facts = cursor.path, doc.results[cursor.line].facts
    block = path[2] if len(path) == 4 and path[:2] == ("message", "content") and path[3] == "id" else None
    if (isinstance(block, int) and cursor.value and isinstance(facts, EntryFacts)
            and any(call.index == block and call.id == cursor.value for call in facts.tool_calls)):
        return cursor.line, block, cursor.value
    return None


def _inner(span: Span) -> Span:
    """A string token's span without its quotes."""
    return Span(span.line, span.start + 1, span.end_line, max(span.start + 1, span.end - 1))


def _writable(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (a JSON-RPC string may carry a lone surrogate, a file cannot)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def prepare_rename(doc: Document, line: int, col: int) -> PrepareRename | None:
    cursor = cursor_at(doc, line, col)
    if cursor is None or cursor.value_span is None:
        return None
    found = _entry_id_at(doc, cursor) or _tool_call_at(doc, cursor)
    if found is None:
        return None
    return PrepareRename(_inner(cursor.value_span), found[-1])


def rename(doc: Document, line: int, col: int, new_name: str) -> list[TextEdit] | RenameError:
    if not _writable(new_name):
        return RenameError("the new id has a lone surrogate (half of a UTF-16 pair), which a UTF-8 file cannot hold")
    cursor = cursor_at(doc, line, col)
    call = _tool_call_at(doc, cursor) if cursor is not None else None
    if call is not None:
        return _rename_tool_call(doc, *call, new_name)
    found = _entry_id_at(doc, cursor) if cursor is not None else None
    if found is None:
        return RenameError("only an Elyra entry id (or a parentId, targetId, fromId or firstKeptEntryId naming "
                           "one) or a tool call id (or a toolCallId naming one) can be renamed here")
    target, old = found
    if not new_name:
        return RenameError("an entry id cannot be empty: pi would index the entry under an empty key")
    if new_name == old:
        return []
    if new_name == "root":
        return RenameError('"root" is what branch_summary.fromId writes for "before the first entry"; '
                           "an entry with this id would be ambiguous")
    view = elyra_view(doc)
    if view is not None and new_name in view.by_id:
        return RenameError(f"id {new_name!r} is already used by line {view.by_id[new_name] + 1}: "
                           "pi keeps only the later of two entries with one id")
    literal = msgspec.json.encode(new_name).decode()
    edits = [TextEdit(_value_span(doc, target, ("id",)), literal)]
    for reference in _incoming(doc, target, old):
        if reference.field in ELYRA_REFERENCE_FIELDS:
            edits.append(TextEdit(_value_span(doc, reference.line, tuple(reference.path)), literal))
    edits.sort(key=lambda e: (e.span.line, e.span.start))
    return edits


def _rename_tool_call(doc: Document, line: int, block: int, old: str, new_name: str) -> list[TextEdit] | RenameError:
    """The toolCall block's `id` and the `toolCallId` of every result that answers it."""
    if not new_name:
        return RenameError("a tool call id cannot be empty: providers reject a tool call without one")
    if new_name == old:
        return []
    model = doc.linked.model
    for number in model.entry_lines:
        if any(call.id == new_name for call in model.line_facts[number].tool_calls):
            return RenameError(f"tool call id {new_name!r} is already used on line {number + 1}: provider APIs "
                               "require tool call ids to be unique")
    literal = msgspec.json.encode(new_name).decode()
    edits = [TextEdit(_value_span(doc, line, ("message", "content", block, "id")), literal)]
    for answer in model.tool_results(line, block):
        edits.append(TextEdit(_value_span(doc, answer, ("message", "toolCallId")), literal))
    edits.sort(key=lambda e: (e.span.line, e.span.start))
    return edits
