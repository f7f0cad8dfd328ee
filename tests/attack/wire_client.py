"""A bare JSON-RPC client for the server attack tests: it writes frames byte for byte (so a test can send what no
well-behaved client library would) and reads the server's frames on a thread of its own, so every wait has a
deadline and a hung server fails the test instead of hanging it.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

SERVER = [sys.executable, "-m", "session_lsp", "serve", "--stdio"]

Message = dict[str, Any]


class ServerTimeout(AssertionError):
    """The server did not answer within the case's bound: a hang, as far as these tests are concerned."""


def frame(body: bytes, length: int | None = None) -> bytes:
    """A frame with a correct Content-Length, or the given (possibly wrong) one."""
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


def encode(message: Message) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


class WireClient:
    """One server process over stdio. `bound` sets a wall-clock deadline that every wait inside it shares."""

    def __init__(self, stderr_path: Path, bound: float) -> None:
        self.stderr_path = stderr_path
        self.default_bound = bound
        self._stderr: IO[bytes] = stderr_path.open("wb")
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr)
        self._ids = itertools.count(1)
        self._responses: dict[int | str | None, Message] = {}
        self.published: list[Message] = []
        """The params of every publishDiagnostics, in order."""
        self._arrived = threading.Condition()
        self.eof = threading.Event()
        self._deadline: float | None = None
        self._reader = threading.Thread(target=self._read, name="wire-client-reader", daemon=True)
        self._reader.start()

    # reading ---------------------------------------------------------------------------------------------------

    def _read(self) -> None:
        """Parse the server's frames (pygls writes well-formed ones) until its stdout closes."""
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                length = None
                while (line := stdout.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("ascii").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                if not line or length is None:
                    return
                body = stdout.read(length)
                if len(body) < length:  # the server was killed (`close`) in the middle of a message
                    return
                self._dispatch(json.loads(body))
        finally:
            self.eof.set()
            with self._arrived:
                self._arrived.notify_all()

    def _dispatch(self, message: Message) -> None:
        """Keep responses and published diagnostics; the server's other notifications (log lines) are not what
        these tests check."""
        if message.get("method") == "textDocument/publishDiagnostics":
            with self._arrived:
                self.published.append(message["params"])
                self._arrived.notify_all()
        elif "method" in message and "id" in message:
            # the server asks something of the client (capability registration, ...): say yes with nothing
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif "id" in message:
            with self._arrived:
                self._responses[message.get("id")] = message
                self._arrived.notify_all()

    def _until(self) -> float:
        """The deadline of a wait starting now: the enclosing bound's, else `default_bound` from now."""
        return self._deadline if self._deadline is not None else time.monotonic() + self.default_bound

    @contextmanager
    def bound(self, seconds: float) -> Iterator[None]:
        """Every wait inside shares one deadline `seconds` from now."""
        outer, self._deadline = self._deadline, time.monotonic() + seconds
        try:
            yield
        finally:
            self._deadline = outer

    def response(self, msg_id: int | str | None) -> Message:
        """The server's response to `msg_id` (None: an error response it could give no id to)."""
        until = self._until()
        with self._arrived:
            while msg_id not in self._responses:
                remaining = until - time.monotonic()
                if self.eof.is_set():
                    raise AssertionError(f"the server closed its output before answering {msg_id!r}")
                if remaining <= 0:
                    raise ServerTimeout(f"no response to {msg_id!r} within the bound")
                self._arrived.wait(remaining)
            return self._responses.pop(msg_id)

    def diagnostics(self, uri: str, version: int) -> list[Message]:
        """The diagnostics published for this version of `uri` (waiting for them within the bound)."""
        until = self._until()
        with self._arrived:
            while not (found := [p for p in self.published if p["uri"] == uri and p.get("version") == version]):
                remaining = until - time.monotonic()
                if self.eof.is_set():
                    raise AssertionError(f"the server closed its output before publishing {uri} v{version}")
                if remaining <= 0:
                    raise ServerTimeout(f"no diagnostics for {uri} v{version} within the bound")
                self._arrived.wait(remaining)
            return list(found[-1]["diagnostics"])

    def stray(self) -> dict[int | str | None, Message]:
        """The responses nobody waited for (an error with a null id, an answer to a request sent twice), taken."""
        with self._arrived:
            out, self._responses = self._responses, {}
        return out

    # writing ---------------------------------------------------------------------------------------------------

    def send_raw(self, data: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def send(self, message: Message) -> None:
        self.send_raw(frame(encode(message)))

    def next_id(self) -> int:
        return next(self._ids)

    def start(self, method: str, params: Any = None) -> int:
        """Send a request without waiting; its id."""
        msg_id = self.next_id()
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return msg_id

    def request(self, method: str, params: Any = None) -> Message:
        """The whole response (result or error) to a request."""
        return self.response(self.start(method, params))

    def result(self, method: str, params: Any = None) -> Any:
        """The result of a request that must succeed."""
        answer = self.request(method, params)
        assert "error" not in answer, answer
        return answer["result"]

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    # the session -----------------------------------------------------------------------------------------------

    def initialize(self, encoding: str | None = None) -> Any:
        """A plain client: UTF-16 positions (or the `encoding` it offers), pushed diagnostics, no
        workspace/configuration, versioned edits."""
        general = {"general": {"positionEncodings": [encoding]}} if encoding else {}
        result = self.result("initialize", {
            "processId": None, "rootUri": None,
            "capabilities": {"workspace": {"workspaceEdit": {"documentChanges": True}}, **general},
            "initializationOptions": {"diagnosticsDelayMs": 10},
        })
        self.notify("initialized", {})
        return result

    def wait_exit(self, seconds: float) -> int | None:
        """The process's exit status, or None if it is still running after `seconds`."""
        try:
            return self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def close(self) -> None:
        """Kill the server whatever state it is in, and stop reading."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()
        self._reader.join(5)
        self._stderr.close()


def checksums(folder: Path) -> dict[str, str]:
    """Every regular file under `folder`, by relative path, with the SHA-256 of its bytes."""
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}
