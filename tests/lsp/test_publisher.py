"""The publisher and the settings meeting mid-publish: a client (Eglot) answers workspace/configuration twice at
start, after `initialized` and after its first didChangeConfiguration. The second, equal answer can land while the
first diagnostics are being computed; they must still go out, since nothing else would publish them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from session_lsp.analysis import Document
from session_lsp.analysis.rule_filter import RuleFilter
from session_lsp.server.app import SessionServer
from session_lsp.server.convert import WirePublish
from session_lsp.server.settings import Settings

URI = "file:///work/s.jsonl"
TEXT = '{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:15:00.000Z","cwd":"/w"}\n{"type":"x"\n'


def published_after(reload: Settings) -> tuple[list[WirePublish], bool]:
    """Publish the document's diagnostics while `reload` is applied in the middle of computing them: what was
    published, and whether another publish is scheduled."""

    async def scenario() -> tuple[list[WirePublish], bool]:
        server = SessionServer()
        server.protocol.client_capabilities = types.ClientCapabilities()  # pushes, as Eglot takes them
        server.protocol.server_capabilities = types.ServerCapabilities(
            position_encoding=types.PositionEncodingKind.Utf16)
        sent: list[WirePublish] = []
        server.publish_diagnostics = sent.append  # type: ignore[method-assign,assignment]
        server.settle_later = lambda entry: None  # type: ignore[method-assign]
        await server.settings_changed(Settings(RuleFilter()))
        entry = server.store.add(URI, 1)
        entry.doc = Document(TEXT)

        async def run(fn: Callable[..., Any], *args: Any) -> Any:
            result = fn(*args)
            await server.settings_changed(reload)  # the second configuration answer arrives meanwhile
            return result

        server.run = run  # type: ignore[method-assign]
        await server.publisher.publish(entry)
        return sent, URI in server.publisher._timers

    return asyncio.run(scenario())


def test_an_equal_second_answer_does_not_drop_the_first_diagnostics() -> None:
    sent, scheduled = published_after(Settings(RuleFilter()))
    assert not scheduled
    assert [(params.uri, params.version, {d.code for d in params.diagnostics}) for params in sent] == \
        [(URI, 1, {"ELY001"})]


def test_a_different_answer_drops_them_for_the_publish_it_schedules() -> None:
    """Here the change schedules a publish with the new rules, so the one computed with the old rules is dropped."""
    assert published_after(Settings(RuleFilter(ignore=["ELY001"]))) == ([], True)
