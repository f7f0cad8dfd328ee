"""Where `check` spends its time, phase by phase, on one file (by default the 50.6 MB session pi 1.6 wrote itself,
benchmarks/pi_side_by_side.py's, made first if it is not there): the figures a decision about moving a phase into
native code needs. Each phase runs alone over all lines, best of N, in one process (interpreter start-up and imports
are timed apart, as a whole `check` of a three-line file):

* reading: the file streamed in chunks, decoded to text and split into lines (`FileLines`)
* the bracket-depth pre-check (`lines.may_decode_too_deep`) and the typed msgspec decode of every line, which the
  line pass does first; together the floor of a line pass written in Python around msgspec
* the line pass as `check` runs it (no titles), the decode included, and keeping its results (`PlainResults`)
* the link pass (the model and the cross-line rules)
* the streamed document end to end, diagnostics assembled, as `check` builds it

    python benchmarks/phases.py [--file PATH] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from pathlib import Path

import bytecode
import msgspec
from run import checker

from session_lsp.analysis import Document, Options, Span
from session_lsp.analysis.document import StreamedLines, analyzer_for
from session_lsp.analysis.elyra import schema
from session_lsp.analysis.formats import detect
from session_lsp.analysis.lines import may_decode_too_deep
from session_lsp.analysis.result_store import PlainResults
from session_lsp.files import FileLines


class _Held(StreamedLines):
    """Lines already read, streamed again, so the end-to-end figure leaves the reading out."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines

    def stream(self) -> Iterator[str]:
        return iter(self._lines)

    @property
    def invalid_utf8(self) -> Sequence[Span]:
        return ()

    def __len__(self) -> int:
        return len(self._lines)

    def _read(self, index: int) -> str:
        return self._lines[index]


def best(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The best wall time and the best CPU time of `repeat` runs: on a shared machine the CPU time is the figure
    that holds (the wall time grows with the load)."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        action()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - start)
    return min(walls), min(cpus)


def best_child(command: list[str], repeat: int) -> tuple[float, float]:
    """`best` of a child process: its wall time and its own CPU time (user + system, from the kernel)."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = os.times()
        start = time.perf_counter()
        subprocess.run(command, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append(after.children_user - before.children_user + after.children_system - before.children_system)
    return min(walls), min(cpus)


def read(path: Path) -> int:
    count = 0
    with FileLines(str(path)) as lines:
        for _ in lines.stream():
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(bytecode.state())
    if args.file is None:
        from pi_side_by_side import written_by_pi

        args.file = written_by_pi()
    path: Path = args.file
    with FileLines(str(path)) as streamed:
        lines = list(streamed.stream())
    options = Options(titles=False)
    info = detect(lines[:50], str(path))
    decoder = msgspec.json.Decoder(schema.Line)

    def decode_all() -> None:
        for text in lines:
            if not may_decode_too_deep(text):
                with suppress(msgspec.DecodeError):
                    decoder.decode(text)

    def line_pass() -> PlainResults:
        analyzer = analyzer_for(info, options)
        results = PlainResults()
        results.extend(analyzer.lines(lines))
        return results

    results = line_pass()
    analyzer = analyzer_for(info, options)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as tiny:
        tiny.write("\n".join(lines[:3]) + "\n")
        tiny.flush()
        start_up = best_child([*checker(), "check", tiny.name], args.repeat)
    rows = [
        ("start-up and imports (check of 3 lines)", start_up),
        ("reading: stream, decode, split", best(lambda: read(path), args.repeat)),
        ("  bracket-depth pre-check", best(lambda: [may_decode_too_deep(text) for text in lines], args.repeat)),
        ("  pre-check + typed decode", best(decode_all, args.repeat)),
        ("line pass (decode included) + results", best(line_pass, args.repeat)),
        ("link pass", best(lambda: analyzer.link(lines, results), args.repeat)),
        ("streamed document + diagnostics", best(lambda: Document.streamed(_Held(lines), options).diagnostics(),
                                                 args.repeat)),
    ]
    size = path.stat().st_size
    print(f"{path.name}: {size / 1e6:.1f} MB, {len(lines)} lines; best of {args.repeat}, in one process; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'':45} {'wall':>8}    {'CPU':>8}")
    for name, (wall, cpu) in rows:
        print(f"{name:45} {wall * 1000:8.1f} ms {cpu * 1000:8.1f} ms")
    print("indented rows are parts of the line pass; a whole check is about start-up + reading + the last row")


if __name__ == "__main__":
    main()
