"""textDocument/completion: keys, enum values, ids, and whole-entry snippets."""

from __future__ import annotations

from datetime import UTC, datetime

from lsprotocol import types

from ...analysis import Document, features
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer

OPTIONS = types.CompletionOptions(trigger_characters=['"', ":"])


def _complete(doc: Document, pos: types.Position, encoding: Encoding, snippets: bool) -> list[types.CompletionItem]:
    line, col = convert.from_position(doc.lines, pos, encoding)
    found = features.completions(doc, line, col, datetime.now(UTC))
    return [convert.completion(doc.lines, item, encoding, snippets) for item in found]


def _snippets(ls: SessionServer) -> bool:
    document = ls.client_capabilities.text_document
    item = document.completion.completion_item if document and document.completion else None
    return bool(item and item.snippet_support)


async def completion(ls: SessionServer, params: types.CompletionParams) -> list[types.CompletionItem] | None:
    return await ls.read(params.text_document.uri, _complete, params.position, ls.encoding, _snippets(ls))


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_COMPLETION, OPTIONS)(completion)
