"""workspace/executeCommand: the commands code lenses name.

`sessionLsp.revealLine [uri, line]` moves the editor to a 0-based line with window/showDocument, so a lens works in
any client that can show documents, without client-side code.
"""

from __future__ import annotations

from lsprotocol import types

from ..app import SessionServer

REVEAL_LINE = "sessionLsp.revealLine"
SERVER_COMMANDS = frozenset({REVEAL_LINE})
"""Commands run here; a lens naming one gets the document's URI put before its own arguments."""


async def reveal_line(ls: SessionServer, uri: str, line: int) -> bool:
    window = ls.client_capabilities.window
    if not (window and window.show_document and window.show_document.support):
        return False
    here = types.Position(max(line, 0), 0)
    result = await ls.window_show_document_async(types.ShowDocumentParams(
        uri=uri, take_focus=True, selection=types.Range(here, here)))
    return result.success


def register(server: SessionServer) -> None:
    server.command(REVEAL_LINE)(reveal_line)
