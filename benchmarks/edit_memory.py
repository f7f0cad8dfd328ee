"""The language server's resident memory over a long editing session: 50,000 didChange notifications (a character
typed into a message's text in the middle of the file, then deleted, as a person types and undoes) on a generated
Elyra session of about 5.6 MB, with the server's own debounce. Every 5,000 edits a hover waits for all of them to
be applied (it takes the document's lock behind them), and VmRSS is read from /proc.

After warm-up the curve must be flat: each edit replaces one line's result and frees the old one, and nothing the
server or pygls keeps grows with the number of notifications (pygls used to keep two futures per didChange, about
2.8 KB an edit: 66 MB -> 199 MB over 48,000 edits).

    python benchmarks/edit_memory.py [--edits N] [--every N] [--entries N] [--encoding utf-16|utf-8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import generate
from lsp_bench import line_with, start, units

MIB = 1024 * 1024


def run(edits: int, every: int, entries: int, encoding: str) -> list[tuple[int, float, int]]:
    """(edits applied, seconds since the open, VmRSS in bytes) after the open and every `every` edits."""
    with tempfile.TemporaryDirectory() as folder:
        session = generate.ElyraSession(generate.SEED)
        path = generate.write(Path(folder) / session.file_name(), session.lines(entries))
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        uri = path.as_uri()
        print(f"{path.name}: {len(text.encode()) / MIB:.1f} MiB, {len(lines) - 1:,} lines", flush=True)
        server = start(encoding, {})
        try:
            server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "jsonl", "version": 1,
                                                                    "text": text}})
            server.diagnostics(uri, 1)
            del text
            middle = line_with(lines, '"role":"user","content":"')
            at = lines[middle].index('"content":"') + len('"content":"') + 1
            col = units(lines[middle][:at], encoding)
            hover = {"textDocument": {"uri": uri}, "position": {"line": middle, "character": col}}
            server.request("textDocument/hover", hover)
            began = time.perf_counter()
            curve = [(0, 0.0, server.memory()["VmRSS"])]
            print(f"{0:>7,} edits  {0:6.1f} s  RSS {curve[0][2] / MIB:6.1f} MiB", flush=True)
            for number in range(1, edits + 1):
                typed = number % 2 == 1
                end = col if typed else col + 1
                server.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": number + 1},
                    "contentChanges": [{"text": "x" if typed else "", "range": {
                        "start": {"line": middle, "character": col}, "end": {"line": middle, "character": end}}}]})
                if number % every == 0:
                    server.request("textDocument/hover", hover)
                    curve.append((number, time.perf_counter() - began, server.memory()["VmRSS"]))
                    print(f"{number:>7,} edits  {curve[-1][1]:6.1f} s  RSS {curve[-1][2] / MIB:6.1f} MiB", flush=True)
            while not server.notifications.empty():  # the pushes the client has not looked at
                server.notifications.get()
            return curve
        finally:
            server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=50_000)
    parser.add_argument("--every", type=int, default=5_000)
    parser.add_argument("--entries", type=int, default=11_000, help="entries of the generated session (5.6 MB)")
    parser.add_argument("--encoding", choices=["utf-16", "utf-8"], default="utf-16")
    args = parser.parse_args()
    curve = run(args.edits, args.every, args.entries, args.encoding)
    warm = curve[min(2, len(curve) - 1)]
    last = curve[-1]
    if last[0] > warm[0]:
        growth = (last[2] - warm[2]) / (last[0] - warm[0])
        print(f"after {warm[0]:,} edits of warm-up: {(last[2] - warm[2]) / MIB:+.1f} MiB over "
              f"{last[0] - warm[0]:,} edits ({growth:+.0f} bytes an edit)")
    sys.exit(0)


if __name__ == "__main__":
    main()
