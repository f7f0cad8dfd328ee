"""Diagnostics for open documents: pushed after a short per-URI debounce, or left for the client to pull.

A client that declares `textDocument.diagnostic` pulls; every other client gets pushes. Pushed diagnostics carry
the version they were computed for, and are dropped if the client has sent a newer version meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from ..analysis import Diagnostic, Document
from ..analysis.rule_filter import RuleFilter
from ..analysis.text import Encoding
from . import convert
from .documents import OpenDocument

HIDDEN = frozenset({"SLS001"})
"""Codes the server never shows: a file that is not a session stays quiet in the editor."""

DEFAULT_DELAY = 0.15
"""Seconds of quiet typing before diagnostics are recomputed and pushed."""


def shown(doc: Document, rules: RuleFilter) -> list[Diagnostic]:
    return [d for d in rules.apply(doc.diagnostics()) if d.code not in HIDDEN]


def for_client(doc: Document, uri: str, rules: RuleFilter, encoding: Encoding) -> list[convert.WireDiagnostic]:
    return convert.diagnostics(doc.lines, uri, shown(doc, rules), encoding)


def result_id(entry: OpenDocument, generation: int) -> str:
    """Changes whenever the text, the settings or what the server knows of the file on disk change, so an unchanged
    report is only sent when nothing did."""
    return f"{entry.version}.{generation}" + (f".{entry.rereads}" if entry.rereads else "")


T = TypeVar("T")


class Host(Protocol):
    """What the publisher needs from the server: named here, so that this module never imports the server that
    owns it (app.py imports this one)."""

    @property
    def store(self) -> Iterable[OpenDocument]: ...
    def rules_for(self, uri: str) -> RuleFilter: ...
    @property
    def encoding(self) -> Encoding: ...
    async def settings_loaded(self) -> None: ...
    async def run(self, fn: Callable[..., T], *args: Any) -> T: ...
    def publish_diagnostics(self, params: convert.WirePublish) -> None: ...
    def settle_later(self, entry: OpenDocument) -> None: ...


class Publisher:
    def __init__(self, server: Host) -> None:
        self.server = server
        self.delay = DEFAULT_DELAY
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def cancel(self, uri: str) -> None:
        timer = self._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()

    def schedule(self, entry: OpenDocument, delay: float | None = None) -> None:
        """(Re)start the URI's timer: a burst of edits yields one computation, after the last of them."""
        self.cancel(entry.uri)
        loop = asyncio.get_running_loop()
        self._timers[entry.uri] = loop.call_later(self.delay if delay is None else delay, self._fire, entry)

    def schedule_all(self) -> None:
        for entry in self.server.store:
            self.schedule(entry, 0)

    def _fire(self, entry: OpenDocument) -> None:
        self._timers.pop(entry.uri, None)
        task = asyncio.ensure_future(self.publish(entry))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, entry: OpenDocument) -> None:
        server = self.server
        await server.settings_loaded()
        async with entry.lock:
            if not entry.current:
                return
            assert entry.doc is not None
            version, rules = entry.version, server.rules_for(entry.uri)
            items = await server.run(for_client, entry.doc, entry.uri, rules, server.encoding)
        if entry.closed or version != entry.latest or rules != server.rules_for(entry.uri):
            return  # a newer publish follows
        server.publish_diagnostics(convert.WirePublish(entry.uri, items, version))
        server.settle_later(entry)

    def clear(self, uri: str) -> None:
        self.cancel(uri)
        self.server.publish_diagnostics(convert.WirePublish(uri, []))
