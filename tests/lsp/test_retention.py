"""Nothing is kept per notification: pygls filed the future of every notification (and of every step of its
generator handlers) in `_request_futures` under a fresh uuid and never took it out, so a server that had seen N
didChanges held 2N futures (2.8 KB of memory an edit, for as long as it ran). Here the real protocol object reads
the messages an editor sends, in this process, and the futures alive are counted after two equal rounds of edits:
the second round must leave exactly as many as the first. (The memory curve itself is a benchmark:
benchmarks/edit_memory.py.)"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import json
import threading
from typing import Any

from session_lsp.server import create_server

URI = "file:///work/retention.jsonl"
LINES = [
    '{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:15:00.000Z","cwd":"/w"}',
    '{"type":"message","id":"a1","parentId":null,"timestamp":"2026-03-01T09:15:01.000Z",'
    '"message":{"role":"user","content":"hello","timestamp":1772356501000}}',
]
ROUND = 300
"""didChanges a round: before the fix, each round left 600 more futures."""


class Writer:
    """The server's output, parsed into messages as it is written."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.messages: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) != -1:
            header = bytes(self.buffer[:end]).decode("ascii")
            length = int(next(line.split(":")[1] for line in header.split("\r\n")
                              if line.lower().startswith("content-length")))
            if len(self.buffer) < end + 4 + length:
                return
            self.messages.append(json.loads(self.buffer[end + 4 : end + 4 + length]))
            del self.buffer[: end + 4 + length]

    def close(self) -> None:
        pass


def _futures() -> int:
    gc.collect()
    return sum(1 for item in gc.get_objects() if isinstance(item, (asyncio.Future, concurrent.futures.Future)))


async def _scenario() -> list[tuple[int, int]]:
    server = create_server()
    writer = Writer()
    server.protocol.set_writer(writer)
    server.protocol._include_headers = True
    server._stop_event = threading.Event()

    def send(message: dict[str, Any]) -> None:
        server.protocol.receive(json.dumps({"jsonrpc": "2.0", **message}).encode())

    async def answer(msg_id: str) -> None:
        while not any(m.get("id") == msg_id and "method" not in m for m in writer.messages):
            await asyncio.sleep(0.005)

    async def published(version: int) -> None:
        while not any(m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version
                      for m in writer.messages):
            await asyncio.sleep(0.005)

    send({"id": "init", "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {},
                                                           "initializationOptions": {"diagnosticsDelayMs": 0}}})
    await answer("init")
    send({"method": "initialized", "params": {}})
    send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": URI, "languageId": "jsonl", "version": 1, "text": "\n".join(LINES) + "\n"}}})
    await published(1)
    at = LINES[1].index("hello")
    version, counts = 1, []
    for _ in range(2):
        for n in range(ROUND):
            version += 1
            start, end = (at, at) if n % 2 == 0 else (at, at + 1)
            send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": URI, "version": version},
                "contentChanges": [{"range": {"start": {"line": 1, "character": start},
                                              "end": {"line": 1, "character": end}},
                                    "text": "x" if n % 2 == 0 else ""}]}})
        send({"id": f"probe-{version}", "method": "textDocument/hover", "params": {
            "textDocument": {"uri": URI}, "position": {"line": 1, "character": at}}})
        await answer(f"probe-{version}")
        await published(version)
        while server._background or server.publisher._tasks:  # the settle after the publish
            await asyncio.sleep(0.005)
        writer.messages.clear()
        counts.append((len(server.protocol._request_futures), _futures()))
    server.analysis.shutdown()
    return counts


def test_no_future_is_kept_per_notification() -> None:
    (filed_first, alive_first), (filed_second, alive_second) = asyncio.run(_scenario())
    assert filed_first == filed_second == 0
    assert alive_second == alive_first
