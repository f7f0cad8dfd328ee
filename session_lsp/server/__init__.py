"""The language server: the only code that imports pygls or lsprotocol. It converts protocol values to calls on
the analysis core and back."""

from __future__ import annotations

from .app import SessionServer


def create_server() -> SessionServer:
    from .handlers import register_all

    server = SessionServer()
    register_all(server)
    return server


def serve(tcp: tuple[str, int] | None = None) -> None:
    """Serve one client over stdio, or over TCP at (host, port)."""
    server = create_server()
    if tcp is None:
        server.start_io()
    else:
        server.start_tcp(*tcp)


__all__ = ["SessionServer", "create_server", "serve"]
