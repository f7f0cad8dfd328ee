"""Gigabyte-class sessions: `session-lsp check` streams a file (the text is never held, only the per-line results),
and `sessionLsp/analyzeFile` reads one the same way. Prints, for one generated Elyra session (benchmarks/generate.py,
1,000,000 entries by default, about 506 MB): wall time and peak memory (VmHWM) of `check FILE` (streamed), of
`check - < FILE` (standard input, read whole: the in-memory path, for comparison), and of a server answering
`sessionLsp/analyzeFile` for it, each against the file's size. `--scale K` makes every message and tool output K
times longer (generate.Text): `--scale 3 --entries 200000` is a 300 MB file whose lines average about 1.5 KB, the
size of the real pi sessions in tests/corpus/ (the default lines average 506 bytes).

    python benchmarks/big_file.py [--entries N] [--scale K] [--skip-stdin] [--skip-server]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bytecode
import generate
from lsp_bench import start

ROOT = Path(__file__).resolve().parent.parent


def big_file(entries: int, scale: int = 1) -> Path:
    """The generated session of `entries` entries, written once into benchmarks/out/ and reused."""
    session = generate.ElyraSession(generate.SEED, scale)
    path = generate.OUT / f"big-{entries}{f'-x{scale}' if scale != 1 else ''}-{session.file_name()}"
    if not path.exists():
        partial = path.with_suffix(".partial")
        generate.write(partial, session.lines(entries))
        partial.rename(path)
    return path


def check(path: Path, stdin: bool) -> tuple[float, int, int, int]:
    """`session-lsp check` as a whole process: (seconds, peak bytes, the peak bytes of the process it forks to read
    the file's second half (0: none), exit status). Their sum bounds the memory both held at once: their peaks are
    at different times, and the forked one's counts the pages it shares with the first."""
    with tempfile.NamedTemporaryFile("r") as peak, open(path, "rb") as source:
        start_time = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "tests.attack.peak", "check", "--format", "json",
                               "--min-severity", "hint", "-" if stdin else str(path)],
                              stdin=source if stdin else subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
                              env={**os.environ, "SESSION_LSP_PEAK_FILE": peak.name})
        took = time.perf_counter() - start_time
        if done.returncode not in (0, 1):
            raise SystemExit(f"check failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
        own, forked = map(int, peak.read().split())
        return took, own * 1024, forked * 1024, done.returncode


def analyze_file(path: Path) -> tuple[float, int, int, int]:
    """A server answering `sessionLsp/analyzeFile`: (seconds, peak bytes, diagnostics, tree nodes)."""
    server = start("utf-16", {})
    try:
        before = time.perf_counter()
        result = server.request("sessionLsp/analyzeFile", {"path": str(path)})
        took = time.perf_counter() - before
        peak = server.memory()["VmHWM"]
    finally:
        server.close()
    return took, peak, len(result["diagnostics"]), len(result["tree"]["nodes"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--scale", type=int, default=1, help="text sizes times K (default 1: 506 bytes a line)")
    parser.add_argument("--skip-stdin", action="store_true", help="do not time the in-memory path")
    parser.add_argument("--skip-server", action="store_true", help="do not time sessionLsp/analyzeFile")
    args = parser.parse_args()
    print(bytecode.state())
    begun = time.perf_counter()
    path = big_file(args.entries, args.scale)
    size = path.stat().st_size
    print(f"{path}: {size / 1e6:.0f} MB, {args.entries + 1} lines (ready in {time.perf_counter() - begun:.0f} s); "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    runs = [("check FILE (streamed)", False)] + ([] if args.skip_stdin else [("check - < FILE (whole)", True)])
    for what, stdin in runs:
        took, peak, forked, status = check(path, stdin)
        both = f" + {forked / 2**20:.0f} MiB forked = {(peak + forked) / size:.2f}x at most" if forked else ""
        print(f"{what:<26} {took:7.1f} s   peak {peak / 2**20:6.0f} MiB = {peak / size:.2f}x the file{both}   "
              f"(exit {status})")
    if not args.skip_server:
        took, peak, found, nodes = analyze_file(path)
        print(f"{'sessionLsp/analyzeFile':<26} {took:7.1f} s   peak {peak / 2**20:6.0f} MiB = {peak / size:.2f}x the "
              f"file   ({found} diagnostics, {nodes} tree nodes)")


if __name__ == "__main__":
    main()
