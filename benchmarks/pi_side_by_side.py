"""`session-lsp check FILE` beside the real pi 1.6 resuming the same file (SessionManager.open, then
buildSessionContext) and beside the floor of a Python line pass (decode_floor.py), as whole processes, alternating,
on a 100,000-entry file that pi 1.6 wrote itself: benchmarks/generate.py's Elyra session replayed through pi's own
append API (pi_session.mjs), cached in benchmarks/out/. With `--open`, the language server's didOpen of the same
file takes its turn too (lsp_bench.py's first figure: a fresh server, settled, from the message written to the pipe
to the diagnostics' arrival), so its figure stands beside pi's load of the same run.
pi runs under `timeout -s KILL`: it spins forever on some inputs.

Needs the releases of the conformance suite: `bash tests/conformance/install.sh`.

    python benchmarks/pi_side_by_side.py [--repeat N] [--open]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bytecode
import generate
import lsp_bench
from run import checker

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # where pytest finds `conformance` too
from conformance.suite import HERE as CONFORMANCE
from conformance.suite import RUNTIMES, install_problem

SCRIPT = Path(__file__).resolve().parent / "pi_session.mjs"
RELEASE = "1.6"
WRITTEN = generate.OUT / f"pi{RELEASE}-written-{generate.ELYRA_ENTRIES}.jsonl"
KILL_AFTER = 120


def pi(mode: str, *paths: Path) -> tuple[float, str]:
    """One node process of pi_session.mjs on the release: wall time and its one line of output."""
    node, package = RUNTIMES[RELEASE]
    with tempfile.TemporaryDirectory(prefix="pi-home-") as home:
        start = time.perf_counter()
        done = subprocess.run(["timeout", "-s", "KILL", str(KILL_AFTER), node, str(SCRIPT), mode,
                               str(CONFORMANCE / "node_modules" / package), *map(str, paths)],
                              capture_output=True, env={**os.environ, "HOME": home})
        took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"pi {RELEASE} {mode} failed ({done.returncode}; -9 is the {KILL_AFTER} s timeout): "
                         f"{done.stderr.decode()[-2000:]}")
    return took, done.stdout.decode().strip()


def written_by_pi() -> Path:
    """The cached pi-written file, made on first use."""
    if WRITTEN.exists():
        return WRITTEN
    source = generate.OUT / generate.ElyraSession(generate.SEED).file_name()
    if not source.exists():
        generate.generate()
    partial = WRITTEN.with_suffix(".partial")
    took, counts = pi("write", source, partial)
    partial.rename(WRITTEN)
    print(f"pi {RELEASE} wrote {WRITTEN} in {took:.1f} s: {counts}")
    return WRITTEN


def session_lsp(path: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run([*checker(), "check", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"session-lsp check failed ({done.returncode}): {done.stderr.decode()}")
    return took


FLOOR = Path(__file__).resolve().parent / "decode_floor.py"


def floor(path: Path) -> float:
    """decode_floor.py on the file: the least a line pass in Python around msgspec costs, as a whole process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, str(FLOOR), str(path)], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="pairs of runs (default 5)")
    parser.add_argument("--open", action="store_true", help="the language server's didOpen of the file too")
    args = parser.parse_args()
    print(bytecode.state())
    problem = install_problem()
    if problem:
        raise SystemExit(problem)
    path = written_by_pi()
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    lines = data.count(b"\n")
    print(f"{path}: {len(data) / 1e6:.1f} MB, {lines} lines, written by pi {RELEASE}")
    ours: list[float] = []
    theirs: list[float] = []
    floors: list[float] = []
    opens: list[float] = []
    loads: list[float] = []
    loaded = ""

    def pi_load() -> None:
        nonlocal loaded
        took, loaded = pi("load", path)
        theirs.append(took)

    runs = [lambda: ours.append(session_lsp(path)), pi_load, lambda: floors.append(floor(path))]
    if args.open:
        runs.append(lambda: opens.append(lsp_bench.open_once(path)))
    for turn in range(args.repeat):
        loads.append(os.getloadavg()[0])
        first = turn % len(runs)
        for run in runs[first:] + runs[:first]:  # each goes first in turn: none always meets a warm cache
            run()
    if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
        raise SystemExit(f"pi {RELEASE} changed {path} while loading it")
    print(f"pi loaded {loaded}; load average {min(loads):.2f}-{max(loads):.2f}; best and median of {args.repeat}")
    print(f"session-lsp check:                      best {min(ours):.2f} s, median {statistics.median(ours):.2f} s")
    print(f"pi {RELEASE} open + buildSessionContext: best {min(theirs):.2f} s, "
          f"median {statistics.median(theirs):.2f} s")
    print(f"ratio session-lsp / pi: {min(ours) / min(theirs):.2f} (best), "
          f"{statistics.median(ours) / statistics.median(theirs):.2f} (median)")
    print(f"the floor (decode_floor.py: start-up, reading, one typed decode a line, nothing else): "
          f"best {min(floors):.2f} s, median {statistics.median(floors):.2f} s; "
          f"/ pi: {min(floors) / min(theirs):.2f} (best), {statistics.median(floors) / statistics.median(theirs):.2f} "
          "(median)")
    if opens:
        print(f"session-lsp serve, didOpen -> diagnostics: best {min(opens):.2f} s, median "
              f"{statistics.median(opens):.2f} s; / pi: {min(opens) / min(theirs):.2f} (best), "
              f"{statistics.median(opens) / statistics.median(theirs):.2f} (median)")


if __name__ == "__main__":
    main()
