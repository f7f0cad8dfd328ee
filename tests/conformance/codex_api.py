"""A fake OpenAI Responses API for the real Codex CLI, on loopback only: it records every request body (what Codex
rebuilt from a rollout) and answers with a scripted stream.

Standard library only: it runs inside the loopback-only network namespace (codex_run.py), in the process that starts
the CLIs. Each CLI gets its own base URL, `http://127.0.0.1:PORT/c/<case>/v1`, so a request is filed under the case
that sent it without looking into the body.

A script is a list of (phrase, steps), as claude_api.py's: the first phrase found in the last prompt (the last user
message that is not context Codex writes itself) picks the steps, and the step is 1 + the highest step of any call id
this server issued that appears after that prompt. A step is a list of blocks:
  ["think", text] | ["text", text] | ["tool", name, arguments] | ["patch", text] | ["hang", seconds]
  | ["error", status, type, message]
A turn Codex compacted in its middle (its calls gone, a summary in their place) continues after the last step
served. Without a matching phrase the answer is the text "OK.". Codex's compaction request (its "CONTEXT CHECKPOINT
COMPACTION" prompt) gets SUMMARY. Every response reports input tokens of a quarter of the request's bytes, so a
small `model_auto_compact_token_limit` makes Codex compact.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SUMMARY = ("Summary of the work so far (handoff):\n- Repository: a tiny Python CLI `notes.py` with unit tests.\n"
           "- The user asked for the line counts of the Python files; `wc -l *.py` answered.\n"
           "- Nothing was modified. No pending tasks.")
CONTEXT_PREFIXES = ("<environment_context>", "<turn_aborted>", "<user_instructions>", "# AGENTS.md",
                    "Another language model started to solve")
CALLS = ("function_call", "custom_tool_call", "local_shell_call")
Block = list[Any]
Script = list[tuple[str, list[list[Block]]]]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict)
                         and b.get("type") in ("input_text", "output_text", "text"))
    return ""


class Api:
    """The server's state: requests by case, the scripts by case, and the step of each call id issued."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests: dict[str, list[dict[str, Any]]] = {}
        self.scripts: dict[str, Script] = {}
        self.steps: dict[str, int] = {}
        self.last: dict[tuple[str, str], int] = {}
        """The last step served per (case, phrase): a turn compacted in its middle continues after it."""
        self.counter = 0

    def _id(self, prefix: str, case: str, length: int = 24) -> str:
        """A new id, unique across runs too (a resumed rollout must not get the ids of its first run again)."""
        with self.lock:
            self.counter += 1
            count = self.counter
        digest = hashlib.sha256(f"{case}/{count}".encode()).digest()
        return prefix + base64.b32encode(digest).decode()[:length].lower()

    def decide(self, case: str, body: dict[str, Any]) -> tuple[list[Block], int]:
        """The blocks to answer with, and their step in the script."""
        items = [item for item in body.get("input") or [] if isinstance(item, dict)]
        start = next((i for i in range(len(items) - 1, -1, -1) if items[i].get("type", "message") == "message"
                      and items[i].get("role") == "user"
                      and not _text_of(items[i].get("content")).lstrip().startswith(CONTEXT_PREFIXES)), None)
        prompt = _text_of(items[start].get("content")) if start is not None else ""
        if "CONTEXT CHECKPOINT COMPACTION" in prompt:
            return [["text", SUMMARY]], 0
        steps = next((steps for phrase, steps in self.scripts.get(case, []) if phrase in prompt), None)
        if steps is None:
            return [["text", "OK."]], 0
        phrase = next(phrase for phrase, candidate in self.scripts[case] if candidate is steps)
        step = 0
        for item in items[(start or 0) + 1:]:
            if item.get("type") in CALLS and item.get("call_id") in self.steps:
                step = max(step, self.steps[item["call_id"]] + 1)
        if step == 0 and any(_text_of(item.get("content")).startswith(CONTEXT_PREFIXES[-1]) for item in items):
            step = self.last.get((case, phrase), -1) + 1
        with self.lock:
            self.last[case, phrase] = step
        return (steps[step], step) if step < len(steps) else ([["text", "Done."]], step)

    def output(self, case: str, blocks: list[Block], step: int) -> list[dict[str, Any]]:
        """The output items of one response; a {"type": "hang"} item stops the stream there."""
        out: list[dict[str, Any]] = []
        for block in blocks:
            if block[0] == "hang":
                out.append({"type": "hang", "seconds": block[1]})
            elif block[0] == "think":
                seal = base64.urlsafe_b64encode(hashlib.sha512(block[1].encode()).digest() * 2).decode()
                out.append({"type": "reasoning", "id": self._id("rs_", case, 32), "encrypted_content": "gAAAAA" + seal,
                            "summary": [{"type": "summary_text", "text": block[1]}]})
            elif block[0] == "text":
                out.append({"type": "message", "id": self._id("msg_", case, 32), "status": "completed",
                            "role": "assistant",
                            "content": [{"type": "output_text", "text": block[1], "annotations": [], "logprobs": []}]})
            else:
                call_id = self._id("call_", case)
                with self.lock:
                    self.steps[call_id] = step
                if block[0] == "tool":
                    out.append({"type": "function_call", "id": self._id("fc_", case, 32), "status": "completed",
                                "call_id": call_id, "name": block[1], "arguments": json.dumps(block[2])})
                else:
                    out.append({"type": "custom_tool_call", "id": self._id("ctc_", case, 32), "status": "completed",
                                "call_id": call_id, "name": "apply_patch", "input": block[1]})
        return out

    def events(self, case: str, body: dict[str, Any], items: list[dict[str, Any]]) -> list[tuple[str, Any]]:
        """The SSE events of one streamed response; a ("hang", seconds) pseudo-event stops the stream there."""
        base = {"id": self._id("resp_", case, 32), "object": "response", "created_at": 0,
                "model": body.get("model", "fake"), "status": "in_progress", "output": []}
        out: list[tuple[str, Any]] = [("response.created", {"response": base}),
                                      ("response.in_progress", {"response": base})]
        done = []
        for index, item in enumerate(items):
            if item["type"] == "hang":
                out.append(("hang", item["seconds"]))
                return out
            if item["type"] == "reasoning":
                text = item["summary"][0]["text"]
                out += [("response.output_item.added", {"output_index": index, "item": {**item, "summary": []}}),
                        ("response.reasoning_summary_part.added", {
                            "item_id": item["id"], "output_index": index, "summary_index": 0,
                            "part": {"type": "summary_text", "text": ""}}),
                        ("response.reasoning_summary_text.delta", {
                            "item_id": item["id"], "output_index": index, "summary_index": 0, "delta": text}),
                        ("response.reasoning_summary_text.done", {
                            "item_id": item["id"], "output_index": index, "summary_index": 0, "text": text}),
                        ("response.reasoning_summary_part.done", {
                            "item_id": item["id"], "output_index": index, "summary_index": 0,
                            "part": {"type": "summary_text", "text": text}})]
            elif item["type"] == "message":
                text = item["content"][0]["text"]
                out += [("response.output_item.added", {
                            "output_index": index, "item": {**item, "status": "in_progress", "content": []}}),
                        ("response.content_part.added", {
                            "item_id": item["id"], "output_index": index, "content_index": 0,
                            "part": {"type": "output_text", "text": "", "annotations": []}}),
                        ("response.output_text.delta", {
                            "item_id": item["id"], "output_index": index, "content_index": 0, "delta": text}),
                        ("response.output_text.done", {
                            "item_id": item["id"], "output_index": index, "content_index": 0, "text": text}),
                        ("response.content_part.done", {
                            "item_id": item["id"], "output_index": index, "content_index": 0,
                            "part": item["content"][0]})]
            elif item["type"] == "function_call":
                out += [("response.output_item.added", {
                            "output_index": index, "item": {**item, "arguments": "", "status": "in_progress"}}),
                        ("response.function_call_arguments.done", {
                            "item_id": item["id"], "output_index": index, "arguments": item["arguments"]})]
            else:
                out += [("response.output_item.added", {
                            "output_index": index, "item": {**item, "input": "", "status": "in_progress"}}),
                        ("response.custom_tool_call_input.done", {
                            "item_id": item["id"], "output_index": index, "input": item["input"]})]
            out.append(("response.output_item.done", {"output_index": index, "item": item}))
            done.append(item)
        tokens = max(1, len(json.dumps(body)) // 4)
        out.append(("response.completed", {"response": {
            **base, "status": "completed", "output": done,
            "usage": {"input_tokens": tokens, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 20,
                      "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": tokens + 20}}}))
        return [(name, {"type": name, "sequence_number": number, **data}) if name != "hang" else (name, data)
                for number, (name, data) in enumerate(out)]


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
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.split("?")[0].rstrip("/").endswith("/models"):
                return self._json(200, {"object": "list", "data": [], "models": []})
            self._json(404, {"error": {"type": "not_found_error", "message": "no such route"}})

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            parts = self.path.split("?")[0].split("/")
            case = parts[2] if len(parts) > 2 and parts[1] == "c" else ""
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            if not isinstance(body, dict) or not self.path.split("?")[0].endswith("/responses"):
                return self._json(404, {"error": {"type": "not_found_error", "message": "no such route"}})
            with api.lock:
                api.requests.setdefault(case, []).append(body)
            blocks, step = api.decide(case, body)
            error = next((block for block in blocks if block[0] == "error"), None)
            if error is not None:
                return self._json(error[1], {"error": {"type": error[2], "code": error[2], "message": error[3]}})
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for name, data in api.events(case, body, api.output(case, blocks, step)):
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
