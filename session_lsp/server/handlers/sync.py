"""didOpen / didChange / didSave / didClose: keep the store's `Document`s in step with the editor.

The first analysis of a file (a second or so for 45 MB) and every edit run in a worker thread under the
document's lock, so other documents and requests keep being served, and later changes queue behind it in order.
"""

from __future__ import annotations

import logging

from lsprotocol import types

from ..app import SessionServer
from ..documents import apply_changes, build, reread

logger = logging.getLogger(__name__)


async def did_open(ls: SessionServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    entry = ls.store.add(item.uri, item.version)
    async with entry.lock:
        try:
            entry.doc = await ls.run(build, item.uri, item.text, ls.settings_for(item.uri).releases)
        except Exception:  # the core promises not to raise; if it does, say so once instead of on every edit
            logger.exception("analysing %s failed", item.uri)
            ls.log(f"session-lsp could not analyse {item.uri}; see the server's log", types.MessageType.Error)
            return
    if not ls.pull:
        ls.publisher.schedule(entry, 0)


async def did_change(ls: SessionServer, params: types.DidChangeTextDocumentParams) -> None:
    uri, version = params.text_document.uri, params.text_document.version
    entry = ls.store.get(uri)
    if entry is None:
        logger.warning("didChange for %s, which is not open", uri)
        return
    entry.latest = version
    ls.publisher.cancel(uri)
    async with entry.lock:
        if entry.doc is None:
            return
        await ls.run(apply_changes, entry.doc, params.content_changes, ls.encoding)
        entry.version = version
    if not ls.pull and entry.current:
        ls.publisher.schedule(entry)


async def did_save(ls: SessionServer, params: types.DidSaveTextDocumentParams) -> None:
    """The editor wrote the file: a document whose lines were read from invalid UTF-8 (ELY006, THN002) reads the
    disk again, so it says what a fresh open of the saved file says."""
    entry = ls.store.get(params.text_document.uri)
    if entry is None:
        return
    async with entry.lock:
        if entry.doc is None or not entry.doc.replaced or not await ls.run(reread, entry.uri, entry.doc):
            return
        entry.rereads += 1
    if not ls.pull and entry.current:
        ls.publisher.schedule(entry, 0)


async def did_close(ls: SessionServer, params: types.DidCloseTextDocumentParams) -> None:
    if ls.store.remove(params.text_document.uri) is not None and not ls.pull:
        ls.publisher.clear(params.text_document.uri)


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
