"""The server reads each message's body once and keeps none of them: a didOpen's body is the whole file (50 MB of
a large session), so it goes once the message is handled, not when the next message arrives."""

from __future__ import annotations

import asyncio
import sys
import threading

from session_lsp.server import create_server


async def test_a_body_is_let_go_once_handled_while_the_next_message_is_awaited() -> None:
    server = create_server()
    server._stop_event = threading.Event()
    reader = asyncio.StreamReader()
    handled: list[bytes | bytearray] = []
    server.protocol.receive = handled.append  # type: ignore[method-assign, assignment]
    serving = asyncio.ensure_future(server._serve(reader))
    body = b'{"text":"' + b"a" * 100_000 + b'"}'
    reader.feed_data(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    for _ in range(100):  # until it is handled and the reader waits for the next header
        await asyncio.sleep(0)
    assert [bytes(found) for found in handled] == [body]
    held = sys.getrefcount(handled[0])  # outside the assert, whose rewriting keeps a reference of its own
    assert held == 2  # `handled` and getrefcount's argument: neither the reader nor the loop
    reader.feed_eof()
    await serving
