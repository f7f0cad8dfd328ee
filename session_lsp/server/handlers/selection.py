"""textDocument/selectionRange: value -> member -> enclosing objects -> the line."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ...analysis import Document, features
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer


def _ranges(doc: Document, positions: Sequence[types.Position], encoding: Encoding) -> list[types.SelectionRange]:
    found = features.selection_ranges(doc, [convert.from_position(doc.lines, pos, encoding) for pos in positions])
    return [convert.selection_range(doc.lines, item, encoding) for item in found]


async def selection_range(ls: SessionServer, params: types.SelectionRangeParams) -> list[types.SelectionRange] | None:
    return await ls.read(params.text_document.uri, _ranges, params.positions, ls.encoding)


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)(selection_range)
