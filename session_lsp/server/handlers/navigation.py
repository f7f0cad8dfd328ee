"""textDocument/definition and textDocument/references."""

from __future__ import annotations

from lsprotocol import types

from ...analysis import Document, features
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer


def _definition(doc: Document, uri: str, pos: types.Position, encoding: Encoding) -> list[types.Location]:
    line, col = convert.from_position(doc.lines, pos, encoding)
    return [convert.location(doc.lines, uri, found, encoding) for found in features.definition(doc, line, col)]


def _references(doc: Document, uri: str, pos: types.Position, encoding: Encoding,
                declaration: bool) -> list[types.Location]:
    line, col = convert.from_position(doc.lines, pos, encoding)
    return [convert.location(doc.lines, uri, found, encoding)
            for found in features.references(doc, line, col, declaration)]


async def definition(ls: SessionServer, params: types.DefinitionParams) -> list[types.Location] | None:
    uri = params.text_document.uri
    return await ls.read(uri, _definition, uri, params.position, ls.encoding)


async def references(ls: SessionServer, params: types.ReferenceParams) -> list[types.Location] | None:
    uri = params.text_document.uri
    return await ls.read(uri, _references, uri, params.position, ls.encoding, params.context.include_declaration)


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DEFINITION)(definition)
    server.feature(types.TEXT_DOCUMENT_REFERENCES)(references)
