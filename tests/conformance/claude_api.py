"""A fake Anthropic Messages API for the real Claude Code, on loopback only: it records every request body (what
Claude Code rebuilt from a session file) and answers with a scripted stream.

Standard library only: it runs inside the loopback-only network namespace (claude_run.py), in the process that
starts the CLIs. Each CLI gets its own base URL, `http://127.0.0.1:PORT/c/<case>`, so a request is filed under
the case that sent it without looking into the body.

A script is a list of (phrase, steps): the first phrase found in the last prompt (the last user message that is
not only tool results) picks the steps, and the step is 1 + the highest step of any tool_use id this server
issued that appears after that prompt (so a resumed or compacted conversation continues where it stopped). A
step is a list of blocks:
  ["think", text] | ["text", text] | ["tool", name, input] | ["hang", seconds] | ["error", status, type, message]
Without a matching phrase the answer is the text "OK.". A summary request (/compact) gets SUMMARY.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SUMMARY = ("<analysis>\nThe user asked a question about the project; I answered it.\n</analysis>\n\n<summary>\n"
           "1. Primary Request and Intent:\n   The user asked about the notes project.\n\n"
           "2. Pending Tasks:\n   - None.\n\n3. Current Work:\n   Answered the question.\n</summary>")
Block = list[Any]
Script = list[tuple[str, list[list[Block]]]]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _is_results(content: Any) -> bool:
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result"
                                             for b in content)


class Api:
    """The server's state: requests by case, the scripts by case, and the step of each tool id issued."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: dict[str, list[dict[str, Any]]] = {}
        self.scripts: dict[str, Script] = {}
        self.steps: dict[str, int] = {}
        self.counter = 0

    def _id(self, prefix: str, case: str) -> str:
        """A new id, unique across runs too (a resumed session must not get the ids of its first run again)."""
        with self.lock:
            self.counter += 1
            count = self.counter
        digest = hashlib.sha256(f"{case}/{count}".encode()).digest()
        return prefix + base64.b32encode(digest).decode()[:22].lower()

    def decide(self, case: str, body: dict[str, Any]) -> tuple[list[Block], int]:
        """The blocks to answer with, and their step in the script."""
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)
                    and m.get("role") in ("user", "assistant")]
        last = _text_of(messages[-1].get("content")) if messages else ""
        if "summary of the conversation" in last.lower() or "create a detailed summary" in last.lower():
            return [["text", SUMMARY]], 0
        start = next((i for i in range(len(messages) - 1, -1, -1) if messages[i].get("role") == "user"
                      and not _is_results(messages[i].get("content"))), None)
        prompt = _text_of(messages[start].get("content")) if start is not None else ""
        steps = next((steps for phrase, steps in self.scripts.get(case, []) if phrase in prompt), None)
        if steps is None:
            return [["text", "OK."]], 0
        step = 0
        for message in messages[(start or 0) + 1:]:
            content = message.get("content")
            if message.get("role") == "assistant" and isinstance(content, list):
                for block in content:
                    if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("id") in self.steps:
                        step = max(step, self.steps[block["id"]] + 1)
        return (steps[step], step) if step < len(steps) else ([["text", "Done."]], step)

    def events(self, case: str, body: dict[str, Any], blocks: list[Block], step_of: int) -> list[tuple[str, Any]]:
        """The SSE events of one streamed message; a ("hang", seconds) pseudo-event stops the stream there."""
        out: list[tuple[str, Any]] = [("message_start", {"type": "message_start", "message": {
            "id": self._id("msg_01", case), "type": "message", "role": "assistant", "model": body.get("model", "fake"),
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": max(1, len(json.dumps(body)) // 4), "output_tokens": 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}})]
        tools = False
        for index, block in enumerate(blocks):
            if block[0] == "hang":
                out.append(("hang", block[1]))
                return out
            start: dict[str, Any]
            if block[0] == "think":
                start = {"type": "thinking", "thinking": "", "signature": ""}
                deltas = [{"type": "thinking_delta", "thinking": block[1]},
                          {"type": "signature_delta",
                           "signature": base64.b64encode(hashlib.sha512(block[1].encode()).digest()).decode()}]
            elif block[0] == "text":
                start = {"type": "text", "text": ""}
                deltas = [{"type": "text_delta", "text": block[1]}]
            else:
                tools = True
                tool_id = self._id("toolu_01", case)
                with self.lock:
                    self.steps[tool_id] = step_of
                start = {"type": "tool_use", "id": tool_id, "name": block[1], "input": {}}
                deltas = [{"type": "input_json_delta", "partial_json": json.dumps(block[2])}]
            out.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                "content_block": start}))
            out += [("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
                    for delta in deltas]
            out.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        out.append(("message_delta", {"type": "message_delta", "delta": {
            "stop_reason": "tool_use" if tools else "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 20}}))
        out.append(("message_stop", {"type": "message_stop"}))
        return out


def serve(api: Api) -> ThreadingHTTPServer:
    """Starts the server on an ephemeral loopback port, in a daemon thread."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _json(self, code: int, value: Any) -> None:
            data = json.dumps(value).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if code >= 400:
                self.send_header("x-should-retry", "false")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.split("?")[0].rstrip("/").endswith("/models"):
                return self._json(200, {"data": [], "has_more": False})
            self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "no such route"}})

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            parts = self.path.split("?")[0].split("/")
            case = parts[2] if len(parts) > 2 and parts[1] == "c" else ""
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            if not isinstance(body, dict):
                return self._json(400, {"type": "error", "error": {"type": "invalid_request_error",
                                                                   "message": "not JSON"}})
            if self.path.split("?")[0].endswith("/count_tokens"):
                return self._json(200, {"input_tokens": max(1, len(raw) // 4)})
            with api.lock:
                api.requests.setdefault(case, []).append(body)
            blocks, step = api.decide(case, body)
            error = next((block for block in blocks if block[0] == "error"), None)
            if error is not None:
                return self._json(error[1], {"type": "error", "error": {"type": error[2], "message": error[3]}})
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for name, data in api.events(case, body, blocks, step):
                if name == "hang":
                    time.sleep(float(data))
                    return
                chunk = f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
