"""One module per LSP method family; each `register`s its handlers on the server."""

from __future__ import annotations

from ..app import SessionServer
from . import (
    code_actions,
    commands,
    completion,
    custom,
    diagnostics,
    folding,
    hover,
    lenses,
    lifecycle,
    navigation,
    rename,
    selection,
    symbols,
    sync,
)

MODULES = (lifecycle, sync, diagnostics, hover, navigation, rename, symbols, folding, selection, completion,
           code_actions, lenses, commands, custom)


def register_all(server: SessionServer) -> None:
    for module in MODULES:
        module.register(server)
