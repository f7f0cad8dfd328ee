"""Definition, references and rename over the links the format's model knows (`results.LinkModel`).

A request looks at the cursor's line, the model's indexes and the lines it names: never at the whole file.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from .. import jsonscan
from ..anchors import line_span
from ..diagnostics import Span
from ..document import Document
from .cursor import Cursor, cursor_at, is_identity, reference_at
from .types import Location, PrepareRename, RenameError, TextEdit


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
    linked = doc.face.linked_file(cursor.field, cursor.value, doc.options) if cursor.field and cursor.value else None
    if linked is not None:
        check = exists or doc.options.exists
        if check is None or check(linked):
            return [Location(Span(0, 0, 0, 0), linked)]
        return []
    reference = reference_at(doc, cursor)
    if reference is None or reference.target is None:
        return []
    return [Location(_named_span(doc, reference.target, reference.value))]


def references(doc: Document, line: int, col: int, include_declaration: bool = True) -> list[Location]:
    cursor = cursor_at(doc, line, col)
    model = doc.linked.model
    if cursor is None or model is None:
        return []
    found = _declaration(doc, cursor)
    if found is None:
        return []
    target, value = found
    out = [Location(_named_span(doc, target, value))] if include_declaration else []
    out.extend(Location(_value_span(doc, r.line, tuple(r.path))) for r in model.references_to(target)
               if r.value == value)
    return out


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
    if cursor is None or cursor.value_span is None or doc.linked.model is None:
        return None
    target = doc.session.rename_target(cursor.line, cursor.path, cursor.value)
    return PrepareRename(_inner(cursor.value_span), target.value) if target is not None else None


def rename(doc: Document, line: int, col: int, new_name: str) -> list[TextEdit] | RenameError:
    if not _writable(new_name):
        return RenameError("the new id has a lone surrogate (half of a UTF-16 pair), which a UTF-8 file cannot hold")
    cursor = cursor_at(doc, line, col)
    target = None if cursor is None else doc.session.rename_target(cursor.line, cursor.path, cursor.value)
    if doc.linked.model is None or target is None:
        scope = doc.face.rename_scope
        return RenameError(f"only {scope} can be renamed here" if scope else "nothing can be renamed in this file")
    if new_name and new_name == target.value:
        return []
    refusal = doc.session.rename_refusal(target, new_name)
    if refusal is not None:
        return RenameError(refusal)
    literal = msgspec.json.encode(new_name).decode()
    edits = [TextEdit(_value_span(doc, number, path), literal) for number, path in target.places]
    edits.sort(key=lambda e: (e.span.line, e.span.start))
    return edits
