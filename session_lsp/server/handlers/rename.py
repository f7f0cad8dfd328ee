"""textDocument/prepareRename and textDocument/rename: an Elyra entry id and every reference to it."""

from __future__ import annotations

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from ...analysis import Document, features
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer

OPTIONS = types.RenameOptions(prepare_provider=True)


def _prepare(doc: Document, pos: types.Position, encoding: Encoding) -> types.PrepareRenamePlaceholder | None:
    line, col = convert.from_position(doc.lines, pos, encoding)
    found = features.prepare_rename(doc, line, col)
    if found is None:
        return None
    return types.PrepareRenamePlaceholder(convert.range_of(doc.lines, found.span, encoding), found.placeholder)


def _rename(doc: Document, version: int, uri: str, pos: types.Position, new_name: str, encoding: Encoding,
            versioned: bool) -> types.WorkspaceEdit | str:
    line, col = convert.from_position(doc.lines, pos, encoding)
    edits = features.rename(doc, line, col, new_name)
    if isinstance(edits, features.RenameError):
        return edits.message
    return convert.workspace_edit(doc.lines, uri, version, edits, encoding, versioned)


async def prepare_rename(ls: SessionServer, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder | None:
    return await ls.read(params.text_document.uri, _prepare, params.position, ls.encoding)


async def rename(ls: SessionServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    uri = params.text_document.uri
    result = await ls.read(uri, _rename, uri, params.position, params.new_name, ls.encoding, ls.versioned_edits,
                           versioned=True)
    if isinstance(result, str):
        raise JsonRpcException(result, code=types.LSPErrorCodes.RequestFailed.value)
    return result


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)(prepare_rename)
    server.feature(types.TEXT_DOCUMENT_RENAME, OPTIONS)(rename)
