"""The language server: the only code that imports pygls or lsprotocol. It converts protocol values to calls on
the analysis core and back."""

from __future__ import annotations

import gc
import logging
import sys

from pygls.exceptions import JsonRpcException

from .app import CannotListen, SessionServer

SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the GIL while another waits (Python's default is 0.005). A first analysis runs in a
worker thread for a second or more; the event loop wants the GIL back after every read and every handoff, and at
5 ms a turn the requests of other documents queue behind it."""


def _not_a_clean_exit(record: logging.LogRecord) -> bool:
    """Over TCP, pygls ends the session with sys.exit(0) inside asyncio's connection callback, and asyncio logs
    that as an unhandled exception with a traceback; a normal `exit` notification is no error, so drop that log."""
    error = record.exc_info[1] if record.exc_info else None
    return not (isinstance(error, SystemExit) and error.code in (0, None))


def _answer_without_traceback(record: logging.LogRecord) -> bool:
    """pygls logs the traceback of every JsonRpcException a handler raises, but such an exception is the answer
    (a refused rename, a path that is not a readable file), not a crash: keep the line, drop the traceback."""
    if record.exc_info and isinstance(record.exc_info[1], JsonRpcException):
        record.exc_info = None
        record.exc_text = None
    return True


def create_server() -> SessionServer:
    from .handlers import register_all

    server = SessionServer()
    register_all(server)
    return server


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Serve one client over stdio, or over TCP at (host, port)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    server = create_server()
    # pygls, lsprotocol and cattrs leave over a hundred thousand objects the cyclic garbage collector would scan in
    # every full collection, while diagnostics for a large file are built; none of them ever becomes garbage.
    gc.collect()
    gc.freeze()
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_answer_without_traceback)
    if tcp is None:
        server.start_io()
    else:
        logging.getLogger("asyncio").addFilter(_not_a_clean_exit)
        server.start_tcp(*tcp)


__all__ = ["CannotListen", "SessionServer", "create_server", "serve"]
