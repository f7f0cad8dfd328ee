"""textDocument/hover."""

from __future__ import annotations

from lsprotocol import types

from ...analysis import Document, features
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer


def _hover(doc: Document, pos: types.Position, encoding: Encoding, markdown: bool) -> types.Hover | None:
    line, col = convert.from_position(doc.lines, pos, encoding)
    found = features.hover(doc, line, col)
    return convert.hover(doc.lines, found, encoding, markdown) if found is not None else None


def _markdown(ls: SessionServer) -> bool:
    document = ls.client_capabilities.text_document
    formats = document.hover.content_format if document and document.hover else None
    return formats is None or types.MarkupKind.Markdown in formats


async def hover(ls: SessionServer, params: types.HoverParams) -> types.Hover | None:
    return await ls.read(params.text_document.uri, _hover, params.position, ls.encoding, _markdown(ls))


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
