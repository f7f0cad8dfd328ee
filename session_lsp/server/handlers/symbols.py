"""textDocument/documentSymbol: the conversation tree (Elyra) or the turns (thndrs)."""

from __future__ import annotations

from lsprotocol import types

from ...analysis import Document, features
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer


def _symbols(doc: Document, uri: str, encoding: Encoding,
             hierarchical: bool) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    found = features.document_symbols(doc)
    if hierarchical:
        return [convert.symbol(doc.lines, item, encoding) for item in found]
    return convert.flat_symbols(doc.lines, uri, found, encoding)


def _hierarchical(ls: SessionServer) -> bool:
    document = ls.client_capabilities.text_document
    symbol = document.document_symbol if document else None
    return bool(symbol and symbol.hierarchical_document_symbol_support)


async def document_symbol(ls: SessionServer, params: types.DocumentSymbolParams
                          ) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
    uri = params.text_document.uri
    return await ls.read(uri, _symbols, uri, ls.encoding, _hierarchical(ls))


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbol)
