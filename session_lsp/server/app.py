"""The language server object: pygls plumbing plus the state every handler shares.

`SessionProtocol` replaces pygls's built-in document sync: the built-ins keep a pygls TextDocument per URI and
rebuild its whole text on every change, which costs O(file) per keystroke on a 45 MB session. Ours only hand the
notification to our handlers, which keep `analysis.Document`s in `DocumentStore`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from ..analysis.rule_filter import RuleFilter
from ..analysis.text import Encoding
from . import convert
from .diagnostics import Publisher
from .documents import DocumentStore, OpenDocument, retarget
from .memory import settle
from .settings import Settings

T = TypeVar("T")

SETTINGS_WAIT = 2.0
"""Seconds the first diagnostics wait for the client's settings before going out with the defaults."""


class SessionProtocol(LanguageServerProtocol):
    _server: SessionServer

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        result: types.InitializeResult = yield from super().lsp_initialize(params)
        # pygls advertises pull diagnostics to every client; a client that cannot pull gets pushes instead.
        if not self._server.pull:
            result.capabilities.diagnostic_provider = None
        return result

    def _user(self, method: str, params: Any) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(method)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_CLOSE, params)


class SessionServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("session-lsp", __version__, protocol_cls=SessionProtocol)
        self.store = DocumentStore()
        self.publisher = Publisher(self)
        self.settings = Settings(RuleFilter())
        self.settings_generation = 0
        self.settings_asked = 0
        self.settings_applied = 0
        self._settings_ready = asyncio.Event()
        self.analysis = ThreadPoolExecutor(max_workers=2, thread_name_prefix="session-lsp-analysis")
        """Where documents are built, edited and read, so a long analysis never stalls the event loop."""
        self._background: set[asyncio.Task[None]] = set()

    @property
    def pull(self) -> bool:
        """Whether this client pulls diagnostics (`textDocument/diagnostic`) rather than receiving pushes."""
        document = self.client_capabilities.text_document
        return document is not None and document.diagnostic is not None

    @property
    def encoding(self) -> Encoding:
        return convert.encoding_of(self.server_capabilities.position_encoding)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.analysis, fn, *args)

    async def read(self, uri: str, fn: Callable[..., T], *args: Any, versioned: bool = False) -> T | None:
        """`fn(document, *args)` in a worker, after every change sent before this request; None when the URI is
        not open. `versioned` passes the document's version after the document (for versioned workspace edits)."""
        entry = self.store.get(uri)
        if entry is None:
            return None
        async with entry.lock:
            if entry.doc is None:
                return None
            head = (entry.doc, entry.version) if versioned else (entry.doc,)
            return await self.run(fn, *head, *args)

    def settle_later(self, entry: OpenDocument) -> None:
        """Once diagnostics have gone out: compress the document's idle lines and give freed memory back, behind
        the document's lock like any other work on it."""
        task = asyncio.ensure_future(self._settle(entry))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _settle(self, entry: OpenDocument) -> None:
        async with entry.lock:
            if entry.doc is not None and not entry.closed:
                await self.run(settle, entry.doc)

    @property
    def versioned_edits(self) -> bool:
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace else None
        return bool(edit and edit.document_changes)

    @property
    def rules(self) -> RuleFilter:
        return self.settings.rules

    async def settings_changed(self, new: Settings) -> None:
        first = not self._settings_ready.is_set()
        old, self.settings = self.settings, new
        if new.pi_version != old.pi_version:
            # every open document is analysed again for the new target before any diagnostics go out
            for entry in self.store:
                async with entry.lock:
                    if entry.doc is not None and not entry.closed:
                        await self.run(retarget, entry.uri, entry.doc, new.pi_version)
        self._settings_ready.set()
        if new == old:
            return
        self.settings_generation += 1
        if self.pull:
            refresh = self.client_capabilities.workspace and self.client_capabilities.workspace.diagnostics
            if refresh and refresh.refresh_support:
                self.workspace_diagnostic_refresh(None)
        elif not first:
            self.publisher.schedule_all()

    async def settings_loaded(self) -> None:
        if self._settings_ready.is_set():
            return
        try:
            await asyncio.wait_for(self._settings_ready.wait(), SETTINGS_WAIT)
        except TimeoutError:
            self._settings_ready.set()

    def log(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.window_log_message(types.LogMessageParams(kind, message))
