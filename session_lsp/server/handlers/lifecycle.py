"""initialize / initialized / shutdown and the `sessionLsp` settings (workspace/configuration)."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types

from .. import settings
from ..app import SessionServer

logger = logging.getLogger(__name__)


def initialize(ls: SessionServer, params: types.InitializeParams) -> None:
    options = params.initialization_options
    delay = options.get("diagnosticsDelayMs") if isinstance(options, dict) else None
    if isinstance(delay, (int, float)) and not isinstance(delay, bool) and delay >= 0:
        ls.publisher.delay = delay / 1000


async def initialized(ls: SessionServer, params: types.InitializedParams) -> None:
    workspace = ls.client_capabilities.workspace
    change = workspace.did_change_configuration if workspace else None
    if change is not None and change.dynamic_registration:
        registration = types.Registration(
            id="session-lsp-configuration",
            method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
            register_options=types.DidChangeConfigurationRegistrationOptions(section=settings.SECTION),
        )
        try:
            await ls.client_register_capability_async(types.RegistrationParams([registration]))
        except Exception:  # a client may refuse; it then only tells us about changes if it wants to
            logger.debug("client refused to register workspace/didChangeConfiguration", exc_info=True)
    await load_settings(ls)


async def did_change_configuration(ls: SessionServer, params: types.DidChangeConfigurationParams) -> None:
    pushed = params.settings.get(settings.SECTION) if isinstance(params.settings, dict) else None
    await load_settings(ls, pushed)


async def load_settings(ls: SessionServer, pushed: Any = None) -> None:
    """Ask the client for the section (when it can answer), else use what it pushed. Only the newest of
    overlapping requests is applied."""
    ls.settings_asked += 1
    number = ls.settings_asked
    value = pushed
    workspace = ls.client_capabilities.workspace
    if workspace is not None and workspace.configuration:
        try:
            values = await ls.workspace_configuration_async(
                types.ConfigurationParams([types.ConfigurationItem(section=settings.SECTION)]))
            value = values[0] if values else None
        except Exception:
            logger.warning("workspace/configuration failed; using the pushed settings", exc_info=True)
    if number < ls.settings_applied:
        return
    ls.settings_applied = number
    parsed, problems = settings.parse(value)
    for problem in problems:
        ls.log(f"{settings.SECTION} settings: {problem}")
    await ls.settings_changed(parsed, value)


def shutdown(ls: SessionServer, params: None) -> None:
    ls.stop_analysis()


def register(server: SessionServer) -> None:
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.INITIALIZED)(initialized)
    server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(did_change_configuration)
    server.feature(types.SHUTDOWN)(shutdown)
