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
    python benchmarks/phases.py [--file PATH] --instructions

`--instructions` counts instead of timing: each phase runs once in a process of its own under
`valgrind --tool=callgrind` (Debian's `valgrind`), with the phases it needs before it, and a phase's figure is its
process's count less the count of the process that stops before it. A count does not change with the machine's load,
so two versions of the code compare on a shared machine where times of a few percent drift.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
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


COUNTED = {
    "start-up: the interpreter and these imports": (None, ()),
    "reading: stream, decode, split": ("start-up: the interpreter and these imports", ("read",)),
    "the typed decode (and its pre-check)": ("reading: stream, decode, split", ("read", "decode")),
    "line pass (decode included) + results": ("reading: stream, decode, split", ("read", "line-pass")),
    "link pass": ("line pass (decode included) + results", ("read", "line-pass", "link")),
    "streamed document + diagnostics": ("reading: stream, decode, split", ("read", "document")),
}
"""Each counted phase: the one whose process it adds to, and the steps its own process runs."""


def count(path: Path) -> None:
    """The instructions of each phase (see `--instructions`), and of a whole `check` of the file."""
    counts: dict[str, int] = {}
    for name, (_, steps) in COUNTED.items():
        counts[name] = _instructions([sys.executable, __file__, "--file", str(path), "--run", ",".join(steps)])
    whole = _instructions([*checker(), "check", str(path)])
    print(f"{path.name}: {path.stat().st_size / 1e6:.1f} MB; instructions (valgrind --tool=callgrind), one run each")
    for name, (before, _) in COUNTED.items():
        own = counts[name] - (counts[before] if before is not None else 0)
        print(f"{name:45} {own / 1e6:10,.0f} M")
    print(f"{'a whole `session-lsp check` of the file':45} {whole / 1e6:10,.0f} M")


def _instructions(command: list[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out", *command],
                              capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count: {done.stderr[-500:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--instructions", action="store_true", help="count instructions instead of timing")
    parser.add_argument("--run", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run is None:
        print(bytecode.state())
    if args.file is None:
        from pi_side_by_side import written_by_pi

        args.file = written_by_pi()
    path: Path = args.file
    if args.instructions:
        count(path)
        return
    steps = args.run.split(",") if args.run is not None else None
    if steps == [""]:  # the start-up's process: imports alone
        return
    with FileLines(str(path)) as streamed:
        lines = list(streamed.stream())
    options = Options()
    info = detect(lines[:50], str(path))
    decoder = msgspec.json.Decoder(schema.Line)

    def decode_all() -> None:
        decode = decoder.decode
        for text in lines:
            if not may_decode_too_deep(text):
                try:  # not contextlib.suppress: a context manager a line would cost as much as the decode
                    decode(text)
                except msgspec.DecodeError:
                    continue

    def line_pass() -> PlainResults:
        analyzer = analyzer_for(info, options)
        results = PlainResults(analyzer.fact_store())
        results.extend(analyzer.lines(lines))
        return results

    if steps is not None:
        if "decode" in steps:
            decode_all()
        if "line-pass" in steps:
            held = line_pass()
            if "link" in steps:
                analyzer_for(info, options).link(lines, held)
        if "document" in steps:
            Document.streamed(_Held(lines), options).diagnostics()
        return
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
