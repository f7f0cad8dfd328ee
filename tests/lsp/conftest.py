"""End-to-end tests of the language server: a real server process driven by pytest-lsp, once as Neovim 0.11
(pulls diagnostics, counts UTF-8 bytes) and once as VS Code 1.65 (receives pushes, counts UTF-16 units)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_harness import CLIENTS, DELAY_MS, SERVER, Editor, make_client
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, client_factory=make_client), params=CLIENTS)
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> AsyncIterator[None]:
    await _start(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def editor(client: LanguageClient) -> Editor:
    return Editor(client, client.client_name, client.init_result)  # type: ignore[attr-defined]


async def _start(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> None:
    lsp_client.set_configuration({}, section="sessionLsp")
    result = await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities(request.param),
        initialization_options={"diagnosticsDelayMs": DELAY_MS},
        root_uri=Path.cwd().as_uri(),
    ))
    lsp_client.init_result = result  # type: ignore[attr-defined]
    lsp_client.client_name = request.param  # type: ignore[attr-defined]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, client_factory=make_client), params=CLIENTS,
                    scope="module")
async def module_client(request: pytest.FixtureRequest, lsp_client: LanguageClient) -> AsyncIterator[None]:
    """One server per module and client: for the feature tests, which only read documents they open under URIs
    of their own (`lsp_features.Session`), so they cannot disturb each other. Tests that use it need
    `pytestmark = pytest.mark.asyncio(loop_scope="module")`."""
    await _start(request, lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def shared_editor(module_client: LanguageClient) -> Editor:
    return Editor(module_client, module_client.client_name, module_client.init_result)  # type: ignore[attr-defined]
