"""Reading LSP frames from a byte stream that may be malformed.

pygls 2.1's reader trusts its input: a header block without a usable Content-Length leaves the body to be read
as a header line, glued to the next message's header, and since bodies have no line breaks every later message
is lost the same way, so the server never answers again; a Content-Length too large to allocate kills the server
with a traceback. This reader logs one line per problem and picks up again at the next `Content-Length` header,
even one glued to the end of garbage, so one bad frame costs that frame (and at worst the one it swallows), never
the session.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import BinaryIO, Protocol

logger = logging.getLogger(__name__)

MAX_BODY = 1 << 31
"""The largest Content-Length accepted (2 GiB): a message carries at most the text of a file an editor opened. A
larger claim is refused before any read, and its body is skipped like garbage."""

CHUNK = 1 << 20
"""A body is read in pieces of at most this many bytes, so memory follows the bytes that arrive, not the length
the header claims."""

LINE_LIMIT = 1 << 20
"""The longest header line read at once; a longer run of bytes without a line break is garbage read in pieces."""

_NAME = b"content-length"


class Reader(Protocol):
    async def readline(self) -> bytes:
        """One line with its line break; less only at the end of the stream or past a length limit."""

    async def read(self, n: int) -> bytes:
        """At most `n` bytes, at least one unless the stream has ended."""


class StdinReader:
    """Standard input read in a worker thread (a blocking read would stop the event loop)."""

    def __init__(self, stream: BinaryIO, executor: ThreadPoolExecutor) -> None:
        self.stream = stream
        self.executor = executor

    async def readline(self) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.stream.readline, LINE_LIMIT)

    async def read(self, n: int) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.stream.read, n)


async def _line(reader: Reader | asyncio.StreamReader) -> bytes:
    """A header line; an asyncio stream refuses a line over its limit (after dropping it), which is garbage too."""
    try:
        return await reader.readline()
    except ValueError:
        return b"\0"


async def _body(reader: Reader | asyncio.StreamReader, length: int) -> bytearray | None:
    """Exactly `length` bytes, or None when the stream ends first."""
    body = bytearray()
    while len(body) < length:
        chunk = await reader.read(min(length - len(body), CHUNK))
        if not chunk:
            return None
        body += chunk
    return body


def _length(value: bytes) -> int | None:
    text = value.strip()
    if not text.isdigit():
        logger.error("Content-Length %r is not a byte count: the frame is skipped", text[:40].decode("latin-1"))
        return None
    length = int(text)
    if length > MAX_BODY:
        logger.error("Content-Length %d is over the limit of %d bytes: the frame is skipped", length, MAX_BODY)
        return None
    return length


async def frames(reader: Reader | asyncio.StreamReader,
                 stop: threading.Event) -> AsyncIterator[bytearray]:
    """The body of every well-framed message, in order, until the stream ends or `stop` is set."""
    length: int | None = None
    headers = False
    while not stop.is_set():
        line = await _line(reader)
        if not line:
            return
        if not line.strip():
            if length is not None:
                body = await _body(reader, length)
                if body is None:
                    logger.error("the stream ended inside a message body of %d bytes", length)
                    return
                yield body
                del body  # the caller is done with it: a didOpen's 50 MB go now, not when the next message comes
            elif headers:
                logger.error("a header block without a usable Content-Length: its body is skipped")
            length, headers = None, False
            continue
        at = line.lower().rfind(_NAME)
        if at > 0:
            logger.error("skipped %d bytes that are not a message header", at)
            line, length, headers = line[at:], None, False
        name, colon, value = line.partition(b":")
        name = name.strip().lower()
        if colon and name == _NAME:
            length, headers = _length(value), True
        elif colon and name and b" " not in name and at < 0:
            headers = True  # Content-Type, or a header of some extension: nothing to act on
        else:
            logger.error("skipped a line of %d bytes that is not a message header", len(line))
