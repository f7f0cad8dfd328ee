"""Where the wall time of one `session-lsp check FILE` goes, as a timeline: when the imports are done, when the format
is known (and, with two jobs, the second process is forked), when this process has read its half, when the other
half's results are in, when the link pass starts and ends, and when the command returns. The run is `cli.main` in
this process, exactly as the command runs it, with a clock read at the start of each of those steps; the default
file is the 50.6 MB pi-written session (benchmarks/out/, made by pi_side_by_side.py).

    python benchmarks/timeline.py [--file PATH] [--repeat N] [-j N]
"""

from __future__ import annotations

import argparse
import functools
import time

START = time.perf_counter()

import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import bytecode  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from session_lsp import cli, files  # noqa: E402
from session_lsp.analysis import formats  # noqa: E402

WRITTEN = Path(__file__).resolve().parent / "out" / "pi1.6-written-100000.jsonl"
Marks = list[tuple[str, float]]


def marked(marks: Marks, name: str, step: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(step)
    def run(*args: Any, **kwargs: Any) -> Any:
        marks.append((name, time.perf_counter()))
        return step(*args, **kwargs)
    return run


def watch(marks: Marks) -> None:
    """Clocks at the split, at either end of the wait for the second half, and at the link pass of every format."""
    split = files.FileLines.split

    def timed_split(self: files.FileLines, later: Callable[..., Any]) -> Any:
        marks.append(("the format known (the split)", time.perf_counter()))
        result = split(self, later)
        if result is None:
            return None

        def joined() -> Any:
            marks.append(("this process's half read", time.perf_counter()))
            value = result()
            marks.append(("the other half's results in", time.perf_counter()))
            return value
        return joined

    files.FileLines.split = timed_split  # type: ignore[method-assign]
    for face in formats.FORMATS.values():
        link = type(face).link
        linked = marked(marks, "link pass", link)

        def ended(*args: Any, _linked: Callable[..., Any] = linked, **kwargs: Any) -> Any:
            value = _linked(*args, **kwargs)
            marks.append(("link pass ended", time.perf_counter()))
            return value
        type(face).link = ended  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=WRITTEN)
    parser.add_argument("--repeat", type=int, default=1, help="runs after the first (each in this process)")
    parser.add_argument("-j", "--jobs", default="2")
    args = parser.parse_args()
    print(bytecode.state())
    imported = time.perf_counter() - START
    marks: Marks = []
    watch(marks)
    for run in range(args.repeat):
        marks.clear()
        begun = time.perf_counter()
        cli.main(["check", "-j", args.jobs, "--output-format", "json", "--min-severity", "hint", str(args.file)])
        marks.append(("the command returned", time.perf_counter()))
        print(f"run {run + 1}: the imports {1000 * imported:.0f} ms (the first run's; the interpreter's start apart)",
              file=sys.stderr)
        last = begun
        for name, at in marks:
            print(f"  {name:<32} {1000 * (at - begun):7.0f} ms   (+{1000 * (at - last):.0f})", file=sys.stderr)
            last = at


if __name__ == "__main__":
    main()
