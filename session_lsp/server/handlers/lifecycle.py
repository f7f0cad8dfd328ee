"""initialize / initialized / shutdown, the `sessionLsp` settings (workspace/configuration) and the configuration
files under them (workspace/didChangeWatchedFiles)."""

from __future__ import annotations

import logging
import os
from typing import Any

from lsprotocol import types

from ...config import DOTFILE, PYPROJECT
from .. import settings
from ..app import SessionServer
from ..documents import path_of

CONFIG_FILES = (PYPROJECT, DOTFILE)

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
    watched = workspace.did_change_watched_files if workspace else None
    if watched is not None and watched.dynamic_registration:
        registration = types.Registration(
            id="session-lsp-configuration-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILES]),
        )
        try:
            await ls.client_register_capability_async(types.RegistrationParams([registration]))
        except Exception:  # without it, an edited file is still read again at the next publish (its mtime)
            logger.debug("client refused to register workspace/didChangeWatchedFiles", exc_info=True)
    await load_settings(ls)


async def did_change_watched_files(ls: SessionServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A `pyproject.toml` or `.session-lsp.toml` was created, changed or deleted: the documents it configures are
    analysed and published again (the editor's settings still override it). Other files are not ours to watch."""
    folders = sorted({os.path.dirname(path) for change in params.changes
                      if (path := path_of(change.uri)) is not None and os.path.basename(path) in CONFIG_FILES})
    if folders:
        await ls.config_files_changed(folders)


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
    server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(did_change_watched_files)
    server.feature(types.SHUTDOWN)(shutdown)
