"""The language server object: pygls plumbing plus the state every handler shares.

`SessionProtocol` replaces pygls's built-in document sync: the built-ins keep a pygls TextDocument per URI and
rebuild its whole text on every change, which costs O(file) per keystroke on a 45 MB session. Ours only hand the
notification to our handlers, which keep `analysis.Document`s in `DocumentStore`.

A handler may answer with `Encoded` JSON (our own requests: a tree of a million nodes): its parts go to the writer
as they are, where pygls would dump the result to one string and encode that again (3.7 times a 500 MB file's
size at the peak, for `sessionLsp/analyzeFile`).

It also takes each message body from our reader (`wire.py`) and answers what pygls would only log a traceback for
(and leave unanswered): a body that is not JSON, not a JSON-RPC 2.0 message, a request before `initialize`, or
params that do not fit the method.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import sys
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO, TypeVar

import msgspec
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage
from pygls.protocol.language_server import lsp_method

from .. import __version__
from ..analysis.payload_types import Buffer
from ..analysis.rule_filter import RuleFilter
from ..analysis.text import Encoding, without_surrogates
from . import convert, wire
from .diagnostics import Publisher
from .documents import DocumentStore, OpenDocument, path_of, retarget
from .memory import settling
from .settings import Configured, Settings

T = TypeVar("T")
logger = logging.getLogger(__name__)

SETTINGS_WAIT = 2.0
"""Seconds the first diagnostics wait for the client's settings before going out with the defaults."""


def _decode(body: bytes | bytearray) -> Any:
    """A message body as Python values. msgspec reads a large didOpen about twice as fast as `json`; the few
    bodies it refuses and `json` reads (NaN, a lone surrogate escape, a number beyond float range, a BOM) are read
    by `json` as before, and a body neither reads raises `json`'s ValueError."""
    try:
        return msgspec.json.decode(body)
    except msgspec.DecodeError:
        return _without_surrogates(json.loads(body))


def _without_surrogates(data: Any) -> Any:
    """A document's text as the server keeps it: a lone surrogate (only `json` reads its escape) as U+FFFD, which
    takes its place in every position encoding (`text.without_surrogates`), so positions, the analysis and the
    diagnostics' encoding to the wire all work on it; other strings (a rename's new name) are left as sent."""
    method = data.get("method") if isinstance(data, dict) else None
    params = data.get("params") if method in (types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE) else None
    if not isinstance(params, dict):
        return data
    holders = [params.get("textDocument"), *(changes if isinstance(changes := params.get("contentChanges"), list)
                                              else [])]
    for holder in holders:
        if isinstance(holder, dict) and isinstance(holder.get("text"), str):
            holder["text"] = without_surrogates(holder["text"])
    return data


def _stepped(steps: Iterator[None]) -> bool:
    """One step of `steps`; False when none was left."""
    return next(steps, _DONE) is not _DONE


_DONE = object()


def _id(data: Any) -> int | str | None:
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _envelope_problem(data: Any) -> str | None:
    """Why `data` is not a JSON-RPC 2.0 request, notification or response; None when it is one."""
    if not isinstance(data, dict):
        return f"a message is a JSON object, not {type(data).__name__}"
    if data.get("jsonrpc") != "2.0":
        return f'expected "jsonrpc": "2.0", got {data.get("jsonrpc")!r:.40}'
    if "method" in data:
        if not isinstance(data["method"], str):
            return "method is not a string"
        if "id" in data and _id(data) is None:
            return "a request id is a number or a string"
        if data.get("params") is not None and not isinstance(data["params"], (dict, list)):
            return "params are an object or an array"
        return None
    if "id" not in data or ("result" not in data and "error" not in data):
        return "neither a request, a notification nor a response"
    return None



def _below(path: str | None, folders: Sequence[str]) -> bool:
    """Whether a document's file is in one of `folders` or below it."""
    if path is None:
        return False
    path = os.path.abspath(path)
    return any(os.path.commonpath([path, os.path.abspath(folder)]) == os.path.abspath(folder) for folder in folders)


class CannotListen(Exception):
    """`serve --tcp` could not open its socket: the CLI says why in one line and exits with status 2."""

class Encoded:
    """A result already encoded as JSON, in parts that make one value together."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Buffer]) -> None:
        self.parts = parts


class SessionProtocol(LanguageServerProtocol):
    _server: SessionServer
    _initialize_seen = False

    def receive(self, body: bytes | bytearray) -> None:
        """Handle one message body; a malformed one is answered with its JSON-RPC error (the id is null when it
        cannot be known), a notification that cannot be handled is dropped with a line in the log."""
        try:
            data = _decode(body)
        except ValueError as error:
            self._refuse(None, JsonRpcParseError(f"the message is not JSON: {error}"))
            return
        if (problem := _envelope_problem(data)) is not None:
            self._refuse(_id(data), JsonRpcInvalidRequest(problem))
            return
        method = data.get("method")
        request = method is not None and "id" in data
        if self._shutdown and method != types.EXIT:
            # LSP: after `shutdown`, a request is answered with InvalidRequest, a notification other than `exit`
            # is dropped (pygls would leave the request unanswered, so a client waits for it forever)
            if request:
                self._refuse(_id(data), JsonRpcInvalidRequest(f"{method} after shutdown: only exit is accepted"))
            else:
                logger.info("dropped %s after shutdown", method or "a response")
            return
        if not self._initialize_seen and method not in (types.INITIALIZE, types.EXIT):
            if request:
                self._refuse(_id(data), JsonRpcServerNotInitialized(f"{method} before initialize"))
            else:
                logger.warning("dropped %s: the server is not initialized yet", method or "a response")
            return
        try:
            message = self._structure(data)
        except Exception as error:
            if request:
                self._refuse(_id(data), JsonRpcInvalidParams(f"params of {method} do not fit: {error}"))
            else:
                logger.warning("dropped %s: it does not fit its type (%s)", method or "a response", error)
            return
        if method == types.INITIALIZE:
            self._initialize_seen = True
        self.handle_message(message)

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: tuple[Any, ...] | None = None,
                         kwargs: dict[str, Any] | None = None) -> None:
        """pygls's, but a handler's future leaves `_request_futures` when it is done. pygls files the future of every
        notification (and of every step of its built-in generator handlers) there under a fresh uuid, and only a
        request's answer takes its own out again, so each didChange left two futures behind for the life of the
        server (2.8 KB of memory per edit)."""

        def done(future: Any) -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, done, args, kwargs)

    def _run_generator(self, future: Any, *, gen: Generator[Any, Any, Any], result_future: Any) -> None:
        """pygls's, but a step cancelled (the event loop closing on `exit` or at the end of input while a first
        analysis runs) cancels the whole handler instead of raising inside an event loop callback, which asyncio
        would log as a traceback."""
        if future is not None and future.cancelled():
            gen.close()
            result_future.cancel()
            return
        super()._run_generator(future, gen=gen, result_future=result_future)

    def _structure(self, data: dict[str, Any]) -> Any:
        """The typed message, picked as pygls's object hook picks it, but raising instead of logging a traceback
        when the params do not fit."""
        if "method" in data:
            kind = self.get_message_type(data["method"]) or (
                JsonRPCRequestMessage if "id" in data else JsonRPCNotification)
        elif "error" in data:
            kind = types.ResponseErrorMessage
        else:
            kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
        return self._converter.structure(data, kind)

    def _refuse(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        logger.warning("refused a message: %s", error.message)
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": error.code, "message": error.message}})

    def _send_data(self, data: Any) -> None:
        result = getattr(data, "result", None)
        if isinstance(data, JsonRPCResponseMessage) and isinstance(result, Encoded):
            self._send_encoded(data.id, result)
        else:
            super()._send_data(data)

    def _send_encoded(self, msg_id: int | str | None, result: Encoded) -> None:
        """The response around `result`'s parts, which are written as they are (never joined into one copy)."""
        self._write(b'{"jsonrpc":"2.0","id":' + msgspec.json.encode(msg_id) + b',"result":', result.parts)

    def notify_encoded(self, method: str, params: msgspec.Struct) -> None:
        """A notification whose params msgspec encodes (pygls's `notify` has cattrs unstructure them first)."""
        self._write(b'{"jsonrpc":"2.0","method":' + msgspec.json.encode(method) + b',"params":',
                    [msgspec.json.encode(params)])

    def _write(self, before: bytes, parts: list[Buffer]) -> None:
        """One message: `before`, the parts of its last member's value, and the closing brace."""
        if self.writer is None:
            logger.error("cannot send the message: no transport")
            return
        length = len(before) + sum(memoryview(part).nbytes for part in parts) + 1
        header = (f"Content-Length: {length}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                  .encode("ascii") if self._include_headers else b"")
        try:
            for piece in (header + before, *parts, b"}"):
                self.writer.write(piece)  # type: ignore[arg-type]  # pygls's writers pass any bytes-like object on
        except BrokenPipeError:
            logger.exception("cannot send the message: the client is gone")
            raise

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        result: types.InitializeResult = yield from super().lsp_initialize(params)
        # pygls advertises pull diagnostics to every client; a client that cannot pull gets pushes instead.
        if not self._server.pull:
            result.capabilities.diagnostic_provider = None
        return result

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls's, but the work in flight is cancelled from a copy of `_request_futures`: a cancelled future leaves
        the dict at once (`_execute_handler`), which pygls's loop over the dict itself does not survive."""
        if (handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield handler, args, None
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True

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
    protocol: SessionProtocol

    def __init__(self) -> None:
        super().__init__("session-lsp", __version__, protocol_cls=SessionProtocol)
        self.store = DocumentStore()
        self.publisher = Publisher(self)
        self.settings = Settings(RuleFilter())
        """The editor's settings; a document's own are `settings_for(uri)`, its configuration file's under them."""
        self.editor_value: Any = None
        """The editor's `sessionLsp` object as it sent it, to lay over each configuration file."""
        self.configs = Configured(self.log)
        self.settings_generation = 0
        self.settings_asked = 0
        self.settings_applied = 0
        self._settings_ready = asyncio.Event()
        self.analysis = ThreadPoolExecutor(max_workers=2, thread_name_prefix="session-lsp-analysis")
        """Where documents are built, edited and read, so a long analysis never stalls the event loop."""
        self._background: set[asyncio.Task[None]] = set()
        self._stopped = False

    def publish_diagnostics(self, params: convert.WirePublish) -> None:
        self.protocol.notify_encoded(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """pygls's, with our reader; the status the `exit` notification asks for (0 after `shutdown`, else 1) is
        the process's, where pygls's swallows it, and so is the end of input: 0 after `shutdown`, else 1."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = wire.StdinReader(stdin or sys.stdin.buffer, self.thread_pool)
        try:
            asyncio.run(self._serve(reader))
        except BrokenPipeError:
            logger.error("the client closed the connection")
        finally:
            self.shutdown()
        if not self.protocol._shutdown:
            # the input ended without `shutdown` and `exit`: the client is gone, as for `exit` alone (LSP: status 1)
            logger.error("the client closed the server's input without shutdown and exit")
            raise SystemExit(1)

    def start_tcp(self, host: str, port: int) -> None:
        """pygls's, with our reader."""
        self._stop_event = threading.Event()

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.protocol.set_writer(writer)
            await self._serve(reader)
            self.shutdown()

        async def listen() -> None:
            try:
                self._server = await asyncio.start_server(connection, host, port)
            except OSError as error:  # a busy port, an address that is not this machine's, a host with no address
                reason = error.strerror if isinstance(error, socket.gaierror) or not error.errno \
                    else os.strerror(error.errno)
                raise CannotListen(f"cannot listen on {host}:{port}: {reason or error}") from None
            async with self._server:
                await self._server.serve_forever()

        try:
            asyncio.run(listen())
        except asyncio.CancelledError:
            logger.debug("the TCP server stopped")

    async def _serve(self, reader: wire.Reader | asyncio.StreamReader) -> None:
        assert self._stop_event is not None
        async for body in wire.frames(reader, self._stop_event):
            self.protocol.receive(body)
            del body  # not kept until the next message arrives (a didOpen's is the whole file)

    @property
    def pull(self) -> bool:
        """Whether this client pulls diagnostics (`textDocument/diagnostic`) rather than receiving pushes."""
        document = self.client_capabilities.text_document
        return document is not None and document.diagnostic is not None

    @property
    def encoding(self) -> Encoding:
        return convert.encoding_of(self.server_capabilities.position_encoding)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker. A caller cancelled meanwhile (`$/cancelRequest`) waits for a worker that has
        started, so the document lock it holds is not released while the worker still reads the document. After
        `shutdown`, nothing more runs: the caller is cancelled (a debounced publish, a settle)."""
        if self._stopped:
            raise asyncio.CancelledError
        work = self.analysis.submit(fn, *args)
        done = asyncio.wrap_future(work)
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            if not work.cancel():
                await asyncio.wait([done])
            raise

    def stop_analysis(self) -> None:
        """At `shutdown`: drop the analyses still queued, and run none from now on."""
        self._stopped = True
        self.analysis.shutdown(wait=False, cancel_futures=True)

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
        """Once diagnostics have gone out: compress the document's idle lines and give freed memory back
        (`memory.settling`)."""
        task = asyncio.ensure_future(self._settle(entry))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _settle(self, entry: OpenDocument) -> None:
        """The steps of `settling`, each behind the document's lock like any other work on it, and taken again
        between steps, so a change sent meanwhile waits for one step; the steps left are dropped once the client
        has sent a newer version (its publish settles the document again)."""
        version, doc, steps = entry.latest, entry.doc, None
        while not entry.closed and entry.latest == version:
            async with entry.lock:
                if entry.doc is None or entry.doc is not doc or entry.version != version:
                    return
                if steps is None:
                    steps = settling(entry.doc)
                if not await self.run(_stepped, steps):
                    return

    @property
    def versioned_edits(self) -> bool:
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace else None
        return bool(edit and edit.document_changes)

    def settings_for(self, uri: str) -> Settings:
        """A document's settings: those of its configuration file (found upward from it), the editor's over them."""
        return self.configs.settings_for(path_of(uri), self.settings, self.editor_value)

    def rules_for(self, uri: str) -> RuleFilter:
        return self.settings_for(uri).rules

    async def settings_changed(self, new: Settings, value: Any = None) -> None:
        """Settings equal to the current ones change nothing: a client that answers workspace/configuration twice
        at start (after `initialized` and after its first didChangeConfiguration) must not make a publish in flight
        look stale, since no new publish would follow it. Configuration files are looked for again."""
        first = not self._settings_ready.is_set()
        old = self.settings
        self.configs.forget()
        if new == old and value == self.editor_value:
            self._settings_ready.set()
            return
        self.settings, self.editor_value = new, value
        await self._retarget(list(self.store))
        self._settings_ready.set()
        self._republish(list(self.store) if not first else [])

    async def config_files_changed(self, folders: Sequence[str]) -> None:
        """Configuration files in `folders` were created, changed or deleted (workspace/didChangeWatchedFiles):
        they are looked for and read again, and the open documents below those folders (the only ones a file
        there configures) are analysed again for their release and get their diagnostics again."""
        self.configs.forget()
        affected = [entry for entry in self.store if _below(path_of(entry.uri), folders)]
        await self._retarget(affected)
        self._republish(affected)

    async def _retarget(self, entries: Sequence[OpenDocument]) -> None:
        """A document whose target release changed is analysed again before any diagnostics go out."""
        for entry in entries:
            if entry.doc is None or self.settings_for(entry.uri).releases == entry.doc.options.releases:
                continue  # its lock is not taken: a publish holding it may be what applies these settings
            async with entry.lock:
                if entry.doc is not None and not entry.closed:
                    releases = self.settings_for(entry.uri).releases
                    if releases != entry.doc.options.releases:
                        await self.run(retarget, entry.uri, entry.doc, releases)

    def _republish(self, entries: Sequence[OpenDocument]) -> None:
        """The settings of `entries` changed: a pulling client is asked to pull again (when it can be), the others
        are pushed their diagnostics again."""
        self.settings_generation += 1
        if self.pull:
            refresh = self.client_capabilities.workspace and self.client_capabilities.workspace.diagnostics
            if refresh and refresh.refresh_support:
                self.workspace_diagnostic_refresh(None)
            return
        for entry in entries:
            self.publisher.schedule(entry, 0)

    async def settings_loaded(self) -> None:
        if self._settings_ready.is_set():
            return
        try:
            await asyncio.wait_for(self._settings_ready.wait(), SETTINGS_WAIT)
        except TimeoutError:
            self._settings_ready.set()

    def log(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.window_log_message(types.LogMessageParams(kind, message))
