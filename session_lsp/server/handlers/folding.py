"""textDocument/foldingRange: runs of one branch (Elyra), one turn's lines (thndrs)."""

from __future__ import annotations

from lsprotocol import types

from ...analysis import Document, features
from .. import convert
from ..app import SessionServer


def _folding(doc: Document) -> list[types.FoldingRange]:
    return [convert.folding_range(item) for item in features.folding_ranges(doc)]


async def folding_range(ls: SessionServer, params: types.FoldingRangeParams) -> list[types.FoldingRange] | None:
    return await ls.read(params.text_document.uri, _folding)


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)(folding_range)
