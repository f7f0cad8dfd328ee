"""The server settles a newly opened document (compresses its lines) once its diagnostics are out, a step at a time
behind the document's lock: a change the client sends meanwhile waits for one step, not for the whole settle, and
the steps left are dropped for that change's own settle."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from session_lsp.analysis import Document, Options
from session_lsp.analysis.line_store import LineStore
from session_lsp.server import memory
from session_lsp.server.app import SessionServer

URI = "file:///work/s.jsonl"
HEADER = '{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:15:00.000Z","cwd":"/w"}'
TEXT = "\n".join([HEADER, *(f'{{"type":"custom","id":"{n:08x}","parentId":null,"data":"x"}}' for n in range(400))])


def settled(change_after: int | None) -> tuple[int, Document, SessionServer]:
    """Settle a document, the client sending version 2 after `change_after` steps (None: never): how many steps
    ran, and the document."""

    async def scenario() -> tuple[int, Document, SessionServer]:
        server = SessionServer()
        entry = server.store.add(URI, 1)
        doc = entry.doc = Document(TEXT, Options())
        steps = 0

        async def run(fn: Callable[..., Any], *args: Any) -> Any:
            nonlocal steps
            assert entry.lock.locked()
            result = fn(*args)
            steps += 1
            if steps == change_after:
                entry.latest = 2  # didChange marks the newer version before it waits for the lock
            return result

        server.run = run  # type: ignore[method-assign]
        await server._settle(entry)
        return steps, doc, server

    return asyncio.run(scenario())


def _packed(doc: Document) -> int:
    assert isinstance(doc.lines, LineStore)
    return sum(block.data is not None for block in doc.lines._blocks)


@pytest.fixture(autouse=True)
def small_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "PACKING_STEP", 2)


def test_a_settle_undisturbed_compresses_the_document() -> None:
    steps, doc, _ = settled(None)
    # 401 lines, 7 blocks: 3 steps pack 2 blocks each, the fourth finds 1 block left and ends
    assert steps == 4
    assert list(doc.results) == list(Document(TEXT).results)
    assert _packed(doc) == 7


def test_a_change_sent_during_the_settle_ends_it_at_the_next_step() -> None:
    steps, doc, _ = settled(change_after=2)
    assert steps == 2
    assert _packed(doc) == 4
