"""Core values <-> LSP values. Core positions are code points; the client counts in the negotiated encoding, so
every conversion needs the text of the line it lands on."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.uris import from_fs_path

from ..analysis import Diagnostic, Span
from ..analysis.line_store import Lines, LineStore
from ..analysis.registry import RULES, Tag
from ..analysis.text import Encoding, from_units, to_units

if TYPE_CHECKING:
    from ..analysis import features

SOURCE = "session-lsp"

TAGS = {Tag.UNNECESSARY: types.DiagnosticTag.Unnecessary, Tag.DEPRECATED: types.DiagnosticTag.Deprecated}
"""Editors fade unnecessary text and strike deprecated text (a rule's `registry.Rule.tag`)."""
_CONVERTER = get_converter()


def encoding_of(kind: types.PositionEncodingKind | str | None) -> Encoding:
    value = kind.value if isinstance(kind, types.PositionEncodingKind) else kind
    return Encoding(value) if value in {e.value for e in Encoding} else Encoding.UTF16


def _line(lines: Sequence[str], number: int) -> str:
    return lines[number] if 0 <= number < len(lines) else ""


def _units(lines: Sequence[str], line: int, col: int, encoding: Encoding) -> int:
    """The client's column for code point `col` on `line`. On an ASCII line it is the same in every encoding, and a
    store of lines knows which lines are without reading them: a read can decompress a block, and a publish
    converts the columns of every diagnostic, on lines spread over more blocks than stay decompressed."""
    if isinstance(lines, Lines) and 0 <= line < len(lines) and lines.is_ascii(line):
        return col
    return to_units(_line(lines, line), col, encoding)


def position(lines: Sequence[str], line: int, col: int, encoding: Encoding) -> types.Position:
    return types.Position(line, _units(lines, line, col, encoding))


def range_of(lines: Sequence[str], span: Span, encoding: Encoding) -> types.Range:
    return types.Range(position(lines, span.line, span.start, encoding),
                       position(lines, span.end_line, span.end, encoding))


def from_position(lines: Sequence[str], pos: types.Position, encoding: Encoding) -> tuple[int, int]:
    """Client position -> (line, code-point column); a line past the end means the end of the document."""
    if pos.line >= len(lines):
        last = len(lines) - 1
        return last, len(lines[last]) if lines else 0
    return pos.line, from_units(lines[pos.line], pos.character, encoding)


def from_range(lines: Sequence[str], rng: types.Range, encoding: Encoding) -> Span:
    line, start = from_position(lines, rng.start, encoding)
    end_line, end = from_position(lines, rng.end, encoding)
    return Span(line, start, end_line, end)


class WirePosition(msgspec.Struct, gc=False):
    line: int
    character: int


class WireRange(msgspec.Struct, gc=False):
    start: WirePosition
    end: WirePosition


class WireLocation(msgspec.Struct, gc=False):
    uri: str
    range: WireRange


class WireRelated(msgspec.Struct, gc=False):
    location: WireLocation
    message: str


class WireDiagnostic(msgspec.Struct, omit_defaults=True, rename="camel"):
    """An LSP `Diagnostic` as its JSON, which msgspec encodes: every publish sends all of a file's diagnostics, and
    building them as lsprotocol objects for cattrs to unstructure took four times as long as the edit's analysis."""

    range: WireRange
    message: str
    severity: int
    code: str
    source: str
    related_information: list[WireRelated] | None = None
    tags: list[int] | None = None
    data: dict[str, Any] | None = None


class WirePublish(msgspec.Struct, omit_defaults=True):
    """The params of `textDocument/publishDiagnostics`."""

    uri: str
    diagnostics: list[WireDiagnostic]
    version: int | None = None


def diagnostics(lines: Sequence[str], uri: str, items: Sequence[Diagnostic],
                encoding: Encoding) -> list[WireDiagnostic]:
    wide, size = lines.wide_lines() if isinstance(lines, LineStore) else None, len(lines)

    def units(line: int, col: int) -> int:
        """`_units`, with the lines beyond ASCII of a store known at once: a file with 12,599 diagnostics asked
        the store of each line twice, 90 ms a publish."""
        if wide is not None and 0 <= line < size and line not in wide:
            return col
        return _units(lines, line, col, encoding)

    def wire_range(span: Span) -> WireRange:
        return WireRange(WirePosition(span.line, units(span.line, span.start)),
                         WirePosition(span.end_line, units(span.end_line, span.end)))

    return [WireDiagnostic(wire_range(item.span), item.message, int(item.severity), item.code, SOURCE,
                           [WireRelated(WireLocation(uri, wire_range(r.span)), r.message) for r in item.related]
                           or None,
                           [int(TAGS[tag])] if (tag := _tag(item.code)) is not None else None,
                           {**(item.data or {}), "code": item.code})
            for item in items]


def diagnostic(lines: Sequence[str], uri: str, item: Diagnostic, encoding: Encoding) -> types.Diagnostic:
    """One diagnostic as an lsprotocol value, for what embeds it (a code action)."""
    wire = msgspec.to_builtins(diagnostics(lines, uri, [item], encoding)[0])
    return _CONVERTER.structure(wire, types.Diagnostic)


def _tag(code: str) -> Tag | None:
    found = RULES.get(code)
    return found.tag if found is not None else None


def _kind(enum: type[Any], name: str, default: Any) -> Any:
    """A core kind name ("enum_member") -> the LSP enum member (EnumMember)."""
    return enum.__members__.get(name.title().replace("_", ""), default)


def location(lines: Sequence[str], uri: str, item: features.Location, encoding: Encoding) -> types.Location:
    if item.path is not None:
        return types.Location(from_fs_path(item.path) or item.path, types.Range(types.Position(0, 0),
                                                                                types.Position(0, 0)))
    return types.Location(uri, range_of(lines, item.span, encoding))


def text_edits(lines: Sequence[str], edits: Sequence[features.TextEdit], encoding: Encoding) -> list[types.TextEdit]:
    return [types.TextEdit(range_of(lines, edit.span, encoding), edit.new_text) for edit in edits]


def workspace_edit(lines: Sequence[str], uri: str, version: int, edits: Sequence[features.TextEdit],
                   encoding: Encoding, versioned: bool) -> types.WorkspaceEdit:
    """Versioned when the client supports it, so an edit computed for an older text is refused, not misapplied."""
    converted = text_edits(lines, edits, encoding)
    if versioned:
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
            types.OptionalVersionedTextDocumentIdentifier(uri, version), list(converted))])
    return types.WorkspaceEdit(changes={uri: converted})


def hover(lines: Sequence[str], item: features.Hover, encoding: Encoding, markdown: bool) -> types.Hover:
    kind = types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText
    return types.Hover(types.MarkupContent(kind, item.markdown), range_of(lines, item.span, encoding))


def symbol(lines: Sequence[str], item: features.Symbol, encoding: Encoding) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=item.name or " ",
        kind=_kind(types.SymbolKind, item.kind, types.SymbolKind.Object),
        range=range_of(lines, item.span, encoding),
        selection_range=range_of(lines, item.selection_span, encoding),
        detail=item.detail or None,
        children=[symbol(lines, child, encoding) for child in item.children] or None,
    )


def flat_symbols(lines: Sequence[str], uri: str, items: Sequence[features.Symbol], encoding: Encoding,
                 container: str | None = None) -> list[types.SymbolInformation]:
    """For clients without hierarchical symbols: every symbol, children after their parent."""
    out: list[types.SymbolInformation] = []
    for item in items:
        out.append(types.SymbolInformation(
            name=item.name or " ", kind=_kind(types.SymbolKind, item.kind, types.SymbolKind.Object),
            location=types.Location(uri, range_of(lines, item.span, encoding)), container_name=container))
        out.extend(flat_symbols(lines, uri, item.children, encoding, item.name))
    return out


def folding_range(item: features.FoldingRange) -> types.FoldingRange:
    return types.FoldingRange(item.start_line, item.end_line,
                              kind=_kind(types.FoldingRangeKind, item.kind, types.FoldingRangeKind.Region))


def selection_range(lines: Sequence[str], item: features.SelectionRange, encoding: Encoding) -> types.SelectionRange:
    parent = selection_range(lines, item.parent, encoding) if item.parent is not None else None
    return types.SelectionRange(range_of(lines, item.span, encoding), parent)


_SNIPPET = re.compile(r"\$\{\d+:([^}]*)\}|\$\{\d+\|([^,|]*)[^}]*\}|\$\d+")


def completion(lines: Sequence[str], item: features.CompletionItem, encoding: Encoding,
               snippets: bool) -> types.CompletionItem:
    """Snippet items degrade to plain text (placeholders keep their default) for clients without snippets."""
    text = item.insert_text
    snippet = item.is_snippet and snippets
    if item.is_snippet and not snippets:
        text = _SNIPPET.sub(lambda match: match.group(1) or match.group(2) or "", text)
    return types.CompletionItem(
        label=item.label,
        kind=_kind(types.CompletionItemKind, item.kind, types.CompletionItemKind.Value),
        detail=item.detail or None,
        documentation=types.MarkupContent(types.MarkupKind.Markdown, item.documentation) if item.documentation
        else None,
        sort_text=item.sort_text or None,
        filter_text=item.filter_text or None,
        insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText,
        text_edit=types.TextEdit(range_of(lines, item.edit_span, encoding), text),
    )


def code_lens(lines: Sequence[str], item: features.CodeLens, encoding: Encoding) -> types.CodeLens:
    command = types.Command(title=item.title, command=item.command or "", arguments=list(item.arguments) or None)
    return types.CodeLens(range_of(lines, item.span, encoding), command=command)


def inlay_hint(lines: Sequence[str], item: features.InlayHint, encoding: Encoding) -> types.InlayHint:
    return types.InlayHint(position(lines, item.line, item.col, encoding), item.label,
                           padding_left=item.padding_left, tooltip=item.tooltip or None)
