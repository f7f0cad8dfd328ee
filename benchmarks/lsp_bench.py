"""Times the language server as an editor sees it, on a 100,000-entry benchmark session (Elyra by default, thndrs
with `--format thndrs`).

Speaks plain JSON-RPC to a real server process over its stdio (no pytest, no pygls client) and measures:

* didOpen -> the first publishDiagnostics for that version, sent to a settled server (initialize, initialized and
  its workspace/configuration round trip done, and one more request answered, so nothing of its start-up is left
  to race the open), in three parts: the client's JSON encoding of the message (the benchmark's own Python, not the
  server's work), the pipe (writing the 50 MB message until the server has read all but the pipe's buffer), and
  from then to the diagnostics' arrival, which is the server's: decoding the message, the analysis, publishing
* a one-character edit in the middle of the file -> fresh diagnostics for the new version, median of N; once
  typing inside a message's text (the link pass is reused) and once changing a link (Elyra: a tool result's
  parentId, thndrs: a call_id); then, with the server's own debounce, six keystrokes typed into that link field ->
  the diagnostics of the last. The server's debounce is set to 0 (`initializationOptions.diagnosticsDelayMs`)
  for the rest, so the figure is the real work.
* hover and definition on the link, median of N
* the server's resident memory against the file's size: right after the open (VmRSS; VmHWM is the peak), once one
  more request has gone through, and after the edits and requests. Right after the open, memory the allocator has
  not handed back yet still counts (the message, the lines' scratch values); once one more request has gone
  through, the server has settled and the figure is its own

    python benchmarks/lsp_bench.py [--repeat N] [--format elyra|thndrs] [--file PATH] [--encoding utf-16|utf-8]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import bytecode
import generate

TARGETS = {"open": 1.5, "edit": 0.050, "hover": 0.020, "definition": 0.020}
TIMEOUT = 120.0


class Connection:
    """A minimal LSP client: Content-Length framing, request ids, and answers to the server's own requests."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._next_id = 0
        self._responses: dict[int, queue.Queue[dict[str, Any]]] = {}
        self.notifications: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self._lock = threading.Lock()
        self.configured = threading.Event()
        """Set once this client has answered the server's workspace/configuration request."""
        threading.Thread(target=self._read, daemon=True).start()

    def _send(self, message: dict[str, Any]) -> None:
        self._write(self._encode(message))

    @staticmethod
    def _encode(message: dict[str, Any]) -> bytes:
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def _write(self, frame: bytes) -> None:
        assert self.process.stdin is not None
        with self._lock:
            self.process.stdin.write(frame)
            self.process.stdin.flush()

    def notify_timed(self, method: str, params: Any) -> tuple[float, float, float]:
        """A notification, with the times it started being encoded, was encoded, and was written to the pipe."""
        begun = time.perf_counter()
        frame = self._encode({"jsonrpc": "2.0", "method": method, "params": params})
        encoded = time.perf_counter()
        self._write(frame)
        return begun, encoded, time.perf_counter()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            arrived = time.perf_counter()
            if "method" in message and "id" in message:
                self._answer(message)
            elif "method" in message:
                self.notifications.put((arrived, message))
            else:
                self._responses.setdefault(message["id"], queue.Queue()).put(message)

    def _answer(self, message: dict[str, Any]) -> None:
        method = message["method"]
        result: Any = None
        if method == "workspace/configuration":
            result = [{} for _ in message["params"]["items"]]
        self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        if method == "workspace/configuration":
            self.configured.set()

    def request(self, method: str, params: Any) -> Any:
        self._next_id += 1
        number = self._next_id
        box = self._responses.setdefault(number, queue.Queue())
        self._send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        response = box.get(timeout=TIMEOUT)
        del self._responses[number]
        if "error" in response:
            raise RuntimeError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri: str, version: int) -> tuple[float, list[Any]]:
        """Wait for the push of `version` of `uri`; (arrival time, diagnostics)."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            arrived, message = self.notifications.get(timeout=max(0.0, deadline - time.monotonic()))
            params = message.get("params") or {}
            if (message["method"] == "textDocument/publishDiagnostics" and params.get("uri") == uri
                    and params.get("version") == version):
                return arrived, params["diagnostics"]

    def memory(self) -> dict[str, int]:
        """VmRSS / VmHWM of the server process, in bytes."""
        out: dict[str, int] = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) * 1024
        return out

    def cpu(self) -> float:
        """The server process's CPU time so far (user + system, all its threads), in seconds: on a shared machine
        the figure that holds when wall times grow with the load."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()


def units(text: str, encoding: str) -> int:
    return len(text.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(text.encode("utf-8"))


LINK = {"elyra": "parentId", "thndrs": "call_id"}
"""The link field each format's edits type into."""


def benchmark_file(kind: str) -> Path:
    """The generated 100,000-entry Elyra session or 100,000-record thndrs session, written first if it is not there
    yet."""
    if kind == "elyra":
        session: Any = generate.ElyraSession(generate.SEED)
        count = generate.ELYRA_ENTRIES
    else:
        session, count = generate.ThndrsSession(generate.SEED), generate.THNDRS_RECORDS
    path = generate.OUT / session.file_name()
    if not path.exists():
        generate.write(path, session.lines(count))
    return path


def line_with(lines: list[str], *needles: str) -> int:
    """The first line from the middle of the file on that contains every needle."""
    number = len(lines) // 2
    while not all(needle in lines[number] for needle in needles):
        number += 1
    return number


def start(encoding: str, options: dict[str, Any]) -> Connection:
    """A server process, initialized as an editor that takes pushed diagnostics."""
    server = Connection([sys.executable, "-m", "session_lsp.server", "--stdio"])
    server.request("initialize", {
        "processId": None, "rootUri": None, "initializationOptions": options,
        "capabilities": {"general": {"positionEncodings": [encoding]},
                         "textDocument": {"publishDiagnostics": {"relatedInformation": True, "versionSupport": True}},
                         "workspace": {"configuration": True}},
    })
    server.notify("initialized", {})
    settle(server)
    return server


def settle(server: Connection) -> None:
    """Wait until the server's start-up is over: it has asked for its settings and had the answer, and a request
    sent after that has been answered (the server handles messages in order, so by then it has applied them)."""
    if not server.configured.wait(TIMEOUT):
        raise SystemExit("the server never asked for its settings (workspace/configuration)")
    server.request("textDocument/foldingRange", {"textDocument": {"uri": "file:///nothing-open.jsonl"}})
    time.sleep(0.2)


def typing_burst(path: Path, repeat: int, encoding: str, key: str) -> tuple[str, float, float | None, str]:
    """Six keystrokes 30 ms apart inside a link field (`key`), as a person types, with the server's own debounce:
    the time from the last keystroke to the diagnostics of that version. Each keystroke changes a link; the link
    pass runs once, when the debounce ends, not once per keystroke."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    needle = f'"{key}":"'
    uri = path.resolve().as_uri()
    server = start(encoding, {})
    try:
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "jsonl", "version": 1,
                                                                "text": text}})
        server.diagnostics(uri, 1)
        del text
        middle = line_with(lines, needle)
        col = units(lines[middle][:lines[middle].index(needle) + len(needle)], encoding)
        version, waits = 1, []
        for _ in range(max(repeat // 4, 1)):
            for letter in "abcdef":
                version += 1
                server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [{"text": letter, "range": {
                                                             "start": {"line": middle, "character": col},
                                                             "end": {"line": middle, "character": col + 1}}}]})
                last = time.perf_counter()
                time.sleep(0.03)
            arrived, _ = server.diagnostics(uri, version)
            waits.append(arrived - last)
    finally:
        server.close()
    return (f"6 keystrokes in a {key}, 30 ms apart", statistics.median(waits), None,
            f"n={len(waits)}, last keystroke -> its diagnostics, with the default debounce")


def opened(server: Connection, uri: str, text: str) -> tuple[float, float, float, float, list[Any]]:
    """didOpen sent to a settled server: when the client began encoding it, had encoded it, had written it to the
    pipe, when the diagnostics arrived, and those diagnostics."""
    begun, encoded, written = server.notify_timed("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "jsonl", "version": 1, "text": text}})
    arrived, found = server.diagnostics(uri, 1)
    return begun, encoded, written, arrived, found


def open_once(path: Path, encoding: str = "utf-16") -> float:
    """One didOpen of `path` sent to a fresh server once it has settled: from the message written to the pipe to
    its diagnostics' arrival (`run`'s first figure), for pi_side_by_side.py to time beside pi's own load."""
    text = path.read_text(encoding="utf-8")
    server = start(encoding, {"diagnosticsDelayMs": 0})
    try:
        _, _, written, arrived, _ = opened(server, path.resolve().as_uri(), text)
    finally:
        server.close()
    return arrived - written


def run(path: Path, repeat: int, encoding: str, key: str) -> list[tuple[str, float, float | None, str]]:
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = path.resolve().as_uri()
    server = start(encoding, {"diagnosticsDelayMs": 0})
    rows: list[tuple[str, float, float | None, str]] = []
    try:
        cpu = server.cpu()
        begun, encoded, written, arrived, found = opened(server, uri, text)
        open_cpu = server.cpu() - cpu
        rows.append(("didOpen: text in -> diagnostics", arrived - written, TARGETS["open"],
                     f"{len(found)} diagnostics; from the message written to the pipe to the diagnostics' arrival"))
        rows.append(("didOpen: the server's CPU", open_cpu, None, "reading the message, the analysis, publishing "
                     f"(clock ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms; load average "
                     f"{os.getloadavg()[0]:.2f})"))
        rows.append(("didOpen: client's JSON encoding", encoded - begun, None, "json.dumps of the message"))
        rows.append(("didOpen: the pipe", written - encoded, None, "writing the message until the server has read it"))
        rows.append(("didOpen in all", arrived - begun, None, "the three above: from the client's encoding on"))
        memory = server.memory()
        # Once one more request has gone through, the server has settled (its lines compressed, memory handed back).
        server.request("textDocument/foldingRange", {"textDocument": {"uri": uri}})
        time.sleep(0.5)
        settled = server.memory()
        size = path.stat().st_size
        del text

        needle = f'"{key}":"'
        # Elyra: one line with both (a tool result's text and its parentId); thndrs has no text in tool records.
        text_line = line_with(lines, needle, '"text":"') if key == "parentId" else line_with(lines, '"text":"')
        link_line = text_line if key == "parentId" else line_with(lines, needle)
        current = {text_line: lines[text_line], link_line: lines[link_line]}
        version = 1

        def edit_cpu(number: int, col: int, end: int, new_text: str) -> tuple[float, float]:
            nonlocal version
            version += 1
            line = current[number]
            rng = {"start": {"line": number, "character": units(line[:col], encoding)},
                   "end": {"line": number, "character": units(line[:end], encoding)}}
            cpu = server.cpu()
            sent = time.perf_counter()
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"range": rng, "text": new_text}]})
            done, _ = server.diagnostics(uri, version)
            current[number] = line[:col] + new_text + line[end:]
            return done - sent, server.cpu() - cpu

        inside = current[text_line].index('"text":"') + len('"text":"') + 1
        typing, typing_cpu = [], []
        for step in range(repeat):
            took, used = edit_cpu(text_line, inside, inside, "x") if step % 2 == 0 \
                else edit_cpu(text_line, inside, inside + 1, "")
            typing.append(took)
            typing_cpu.append(used)
        rows.append(("edit inside a text (median)", statistics.median(typing), TARGETS["edit"],
                     f"n={repeat}, max {max(typing) * 1000:.1f} ms"))
        rows.append(("edit inside a text: the server's CPU (mean)", statistics.fmean(typing_cpu), None,
                     f"n={repeat}, in clock ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms, so the mean"))

        link = current[link_line].index(needle) + len(needle)
        relink, relink_cpu = [], []
        original = current[link_line][link]
        for step in range(repeat):
            took, used = edit_cpu(link_line, link, link + 1, "z" if step % 2 == 0 else original)
            relink.append(took)
            relink_cpu.append(used)
        rows.append((f"edit to a {key} (median)", statistics.median(relink), TARGETS["edit"],
                     f"n={repeat}, relinks, max {max(relink) * 1000:.1f} ms"))
        rows.append((f"edit to a {key}: the server's CPU (mean)", statistics.fmean(relink_cpu), None,
                     f"n={repeat}, in clock ticks of {1000 / os.sysconf('SC_CLK_TCK'):.0f} ms, so the mean"))

        position = {"line": link_line, "character": units(current[link_line][:link + 2], encoding)}
        for method, label in (("textDocument/hover", "hover"), ("textDocument/definition", "definition")):
            times = []
            for _ in range(repeat):
                sent = time.perf_counter()
                server.request(method, {"textDocument": {"uri": uri}, "position": position})
                times.append(time.perf_counter() - sent)
            rows.append((f"{label} on a {key} (median)", statistics.median(times), TARGETS[label],
                         f"n={repeat}, max {max(times) * 1000:.1f} ms"))

        rss = memory["VmRSS"]
        rows.append(("server RSS right after open", rss / size, None,
                     f"{rss / 1e6:.0f} MB for a {size / 1e6:.1f} MB file (peak {memory['VmHWM'] / 1e6:.0f} MB)"))
        rows.append(("server RSS once the open settled", settled["VmRSS"] / size, 3.0,
                     f"{settled['VmRSS'] / 1e6:.0f} MB, after one more request"))
        after = server.memory()["VmRSS"]
        rows.append(("server RSS after the edits", after / size, None, f"{after / 1e6:.0f} MB"))
    finally:
        server.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description="Time the session-lsp language server on a large session.")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--format", choices=tuple(LINK), default="elyra",
                        help="which generated session (default elyra)")
    parser.add_argument("--file", type=Path, default=None, help="a session of that format instead of the generated one")
    parser.add_argument("--encoding", choices=("utf-16", "utf-8"), default="utf-16")
    args = parser.parse_args()
    print(bytecode.state())
    path = args.file or benchmark_file(args.format)
    key = LINK[args.format]
    print(f"{path.name}: {path.stat().st_size / 1e6:.1f} MB, encoding {args.encoding}")
    rows = run(path, args.repeat, args.encoding, key)
    hover = next(number for number, row in enumerate(rows) if row[0].startswith("hover"))
    rows.insert(hover, typing_burst(path, args.repeat, args.encoding, key))
    print(f"{'measure':34} {'value':>10} {'target':>10}  ok   notes")
    for name, value, target, notes in rows:
        ratio = name.startswith("server RSS")
        shown = f"{value:.2f}x" if ratio else f"{value * 1000:.1f} ms"
        goal = "" if target is None else (f"< {target:.1f}x" if ratio else f"< {target * 1000:.0f} ms")
        ok = "" if target is None else ("yes" if value < target else "NO")
        print(f"{name:34} {shown:>10} {goal:>10}  {ok:4} {notes}")


if __name__ == "__main__":
    main()
