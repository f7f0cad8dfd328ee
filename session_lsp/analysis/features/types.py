"""What editor features return: plain frozen values in core positions (0-based lines, code-point columns).

The server turns these into LSP types at its edge; nothing here knows about pygls or lsprotocol.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..diagnostics import Span
from ..fixing import Fix as Fix
from ..fixing import TextEdit as TextEdit


class Location(msgspec.Struct, frozen=True):
    """A place in this document, or in another file when `path` is set (then `span` is the start of that file)."""

    span: Span
    path: str | None = None


class Hover(msgspec.Struct, frozen=True):
    markdown: str
    span: Span
    """The range hovered (the value or key under the cursor)."""


class Symbol(msgspec.Struct, frozen=True):
    """A document symbol. `kind` is one of: "file", "event", "object", "namespace", "string", "key", "function",
    "module", "package", "field", "null" (names of LSP SymbolKinds, lower case; the server maps them)."""

    name: str
    detail: str
    kind: str
    span: Span
    selection_span: Span
    children: tuple[Symbol, ...] = ()


class FoldingRange(msgspec.Struct, frozen=True):
    """Lines `start_line`..`end_line` inclusive. `kind` is "region" (or "comment", "imports" as LSP has them)."""

    start_line: int
    end_line: int
    kind: str = "region"


class SelectionRange(msgspec.Struct, frozen=True):
    """A span and the next larger one around it (None at the whole line)."""

    span: Span
    parent: SelectionRange | None = None


class CompletionItem(msgspec.Struct, frozen=True):
    """`kind` is an LSP CompletionItemKind name in lower case: "value", "enum_member", "field", "property",
    "reference", "snippet", "keyword". `insert_text` replaces `edit_span`; when `is_snippet` it uses LSP snippet
    syntax ($1, ${1:default}, $0)."""

    label: str
    kind: str
    detail: str
    insert_text: str
    edit_span: Span
    is_snippet: bool = False
    sort_text: str = ""
    filter_text: str = ""
    """What the client matches typed text against (empty: the label). Values are filtered with their quotes,
    since the edit span starts at the opening quote."""
    documentation: str = ""


class CodeAction(msgspec.Struct, frozen=True):
    """`kind` is "quickfix" (or "refactor.rewrite", "source.fixAll"). `diagnostic_codes` are the codes it fixes."""

    title: str
    kind: str
    edits: tuple[TextEdit, ...]
    diagnostic_codes: tuple[str, ...] = ()
    is_preferred: bool = False


class CodeLens(msgspec.Struct, frozen=True):
    """A lens with `command` None is display-only; otherwise the server registers `command` and passes `arguments`
    (JSON values, e.g. a line number to jump to)."""

    span: Span
    title: str
    command: str | None = None
    arguments: tuple[Any, ...] = ()


class InlayHint(msgspec.Struct, frozen=True):
    """A label shown at (line, col); `padding_left` puts a space before it."""

    line: int
    col: int
    label: str
    padding_left: bool = True
    tooltip: str = ""


class PrepareRename(msgspec.Struct, frozen=True):
    """The span that a rename at the cursor would change, and its current text (placeholder)."""

    span: Span
    placeholder: str


class RenameError(msgspec.Struct, frozen=True):
    """Why a rename is refused; the server shows `message` (LSP: a ResponseError)."""

    message: str
