"""textDocument/codeLens and textDocument/inlayHint: branch points and the leaf pi resumes from."""

from __future__ import annotations

from lsprotocol import types

from ...analysis import Document, features
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer
from .commands import SERVER_COMMANDS


def _lenses(doc: Document, uri: str, encoding: Encoding) -> list[types.CodeLens]:
    out = []
    for item in features.code_lenses(doc):
        lens = convert.code_lens(doc.lines, item, encoding)
        if lens.command is not None and lens.command.command in SERVER_COMMANDS:
            lens.command.arguments = [uri, *(lens.command.arguments or ())]
        out.append(lens)
    return out


def _hints(doc: Document, rng: types.Range, encoding: Encoding) -> list[types.InlayHint]:
    return [convert.inlay_hint(doc.lines, item, encoding)
            for item in features.inlay_hints(doc, rng.start.line, rng.end.line)]


async def code_lens(ls: SessionServer, params: types.CodeLensParams) -> list[types.CodeLens] | None:
    uri = params.text_document.uri
    return await ls.read(uri, _lenses, uri, ls.encoding)


async def inlay_hint(ls: SessionServer, params: types.InlayHintParams) -> list[types.InlayHint] | None:
    return await ls.read(params.text_document.uri, _hints, params.range, ls.encoding)


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))(code_lens)
    server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))(inlay_hint)
