"""Times the checker on the large generated sessions and prints a table (`make bench`).

For each file: `session-lsp check FILE` as a subprocess (wall time, from process start to exit, so interpreter
start-up and imports are included), the line pass alone over every line (what an analysis thread spends most of a
full analysis on), the in-process `analyze` + `diagnostics()` on the decoded text, and two
single-line edits through `Document.edit`: one inside a message's text (early cutoff: the link pass is reused) and
one that changes a link (the link pass runs again). Best and median of N runs (default 5).

    python benchmarks/run.py [--repeat N] [--regenerate]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import bytecode
import generate

from session_lsp.analysis import Document, Options, Span, analyze
from session_lsp.analysis.detect import FormatInfo
from session_lsp.analysis.document import analyzer_for
from session_lsp.analysis.formats import detect
from session_lsp.analysis.text import decode_bytes, split_lines


def checker() -> list[str]:
    """The installed `session-lsp` next to this interpreter, else `python -m session_lsp`."""
    script = Path(sys.executable).with_name("session-lsp")
    if script.exists():
        return [str(script)]
    found = shutil.which("session-lsp")
    return [found] if found else [sys.executable, "-m", "session_lsp"]


def timed(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        runs.append(time.perf_counter() - start)
    return min(runs), statistics.median(runs)


def run_check(path: Path) -> None:
    result = subprocess.run([*checker(), "check", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode not in (0, 1):
        raise SystemExit(f"session-lsp check {path} failed ({result.returncode}): {result.stderr.decode()}")


def analyze_and_diagnose(text: str, options: Options, invalid: list[Span]) -> None:
    analyze(text, options, invalid).diagnostics()


def line_pass(lines: list[str], info: FormatInfo, options: Options) -> None:
    """Every line through one fresh analyzer's line pass, as `analyze` runs it."""
    line = analyzer_for(info, options).line
    for text in lines:
        line(text)


def load(path: Path) -> tuple[str, list[Span]]:
    text, bad = decode_bytes(path.read_bytes())
    return text, [Span(line, start, line, end) for line, start, end in bad]


def middle_line(document: Document, needle: str) -> int:
    """A line near the middle of the file that contains `needle`."""
    lines = document.lines
    for number in range(len(lines) // 2, len(lines)):
        if needle in lines[number]:
            return number
    raise SystemExit(f"no line with {needle!r} after the middle of the file")


def edit_rows(document: Document, text_needle: str, link_needle: str, repeat: int) -> list[tuple[str, float, float]]:
    """Type one character inside a text field, then change one character of a link field (and undo each)."""
    rows = []
    for what, needle in (("edit in message text (cutoff)", text_needle), ("edit of a link (re-link)", link_needle)):
        number = middle_line(document, needle)
        col = document.lines[number].index(needle) + len(needle)

        def change(number: int = number, col: int = col) -> None:
            original = document.lines[number][col]
            document.edit(number, col, number, col + 1, "Z" if original != "Z" else "Y")
            document.diagnostics()
            document.edit(number, col, number, col + 1, original)
            document.diagnostics()

        best, median = timed(change, repeat)
        rows.append((what, best / 2, median / 2))
    return rows


NEEDLES = {"elyra": ('"text":"', '"parentId":"'), "thndrs": ('"text":"', '"call_id":"call_')}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (default 5)")
    parser.add_argument("--regenerate", action="store_true", help="write the input files again first")
    args = parser.parse_args()
    print(bytecode.state())
    elyra = generate.OUT / generate.ElyraSession(generate.SEED).file_name()
    thndrs = generate.OUT / generate.ThndrsSession(generate.SEED).file_name()
    if args.regenerate or not (elyra.exists() and thndrs.exists()):
        print("generating benchmark sessions ...", flush=True)
        generate.generate()

    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; best and median of {args.repeat} runs\n")
    header = f"{'file':<9} {'size':>8} {'lines':>8}  {'measurement':<34} {'best':>9} {'median':>9}"
    print(header)
    print("-" * len(header))
    for kind, path in (("elyra", elyra), ("thndrs", thndrs)):
        size = f"{path.stat().st_size / 1e6:.1f} MB"
        rows: list[tuple[str, float, float]] = []
        rows.append(("session-lsp check (subprocess, wall)", *timed(partial(run_check, path), args.repeat)))
        text, invalid = load(path)
        options = Options(path=str(path), exists=os.path.exists)
        split = split_lines(text)
        rows.append(("line pass alone (in process)",
                     *timed(partial(line_pass, split, detect(split), options), args.repeat)))
        rows.append(("analyze + diagnostics (in process)",
                     *timed(partial(analyze_and_diagnose, text, options, invalid), args.repeat)))
        document = analyze(text, options, invalid)
        found = len(document.diagnostics())
        rows.extend(edit_rows(document, *NEEDLES[kind], args.repeat))
        lines = len(document.lines) - (document.lines[-1] == "")
        for what, best, median in rows:
            print(f"{kind:<9} {size:>8} {lines:>8}  {what:<34} {best:>8.3f}s {median:>8.3f}s")
        print(f"{'':<9} {'':>8} {'':>8}  ({found} diagnostics, format {document.format.label})")


if __name__ == "__main__":
    main()
