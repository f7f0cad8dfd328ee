"""The resident memory of a streamed `check` of a gigabyte-class Elyra session, phase by phase: for each step of
the link model (and the store's seal, when the link model first reads it), the memory resident when it starts, its
peak while it runs and what is resident when it ends. The peak of a whole `check` is the highest of these peaks; this
says which step makes it, and by how much each would have to shrink for the whole to fit a target (README, issue 24:
0.3x the file).

One `check` in this process, as `session-lsp check FILE` runs it; before each step the kernel's high-water mark is
reset (`/proc/self/clear_refs`, Linux), so a step's peak is its own. The file is big_file.py's generated session of
`--entries` entries (2,000,000 by default, about 1 GB, written once into benchmarks/out/), or `--file`.

    python benchmarks/phase_memory.py [--entries N | --file PATH]
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bytecode
from big_file import big_file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from session_lsp import cli
from session_lsp.analysis.elyra.fact_columns import FactColumns
from session_lsp.analysis.elyra.model import ElyraModel

STEPS: tuple[tuple[type, str], ...] = (
    (FactColumns, "seal"), (ElyraModel, "_scan"), (ElyraModel, "_siblings"), (ElyraModel, "_walk"),
    (ElyraModel, "_pair_calls"))
"""The steps whose peaks are read, in the order a `check` runs them (the line pass before the seal)."""
MIB = 1024


def status(field: str) -> int:
    """A line of /proc/self/status, in MiB."""
    with open("/proc/self/status") as lines:
        for line in lines:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // MIB
    raise SystemExit(f"no {field} in /proc/self/status: this needs Linux")


def reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")


def timed_step(rows: list[tuple[str, int, int, int, int, float]], name: str,
               step: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(step)
    def run(*args: Any, **kwargs: Any) -> Any:
        if isinstance(args[0], FactColumns) and args[0].sealed:  # its readers seal it again: nothing to do
            return step(*args, **kwargs)
        before_peak = status("VmHWM")
        reset_peak()
        resident, start = status("VmRSS"), time.perf_counter()
        try:
            return step(*args, **kwargs)
        finally:
            rows.append((name, before_peak, resident, status("VmHWM"), status("VmRSS"), time.perf_counter() - start))
            reset_peak()
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2_000_000)
    parser.add_argument("--file", type=Path, default=None)
    args = parser.parse_args()
    print(bytecode.state())
    path = args.file or big_file(args.entries)
    size = path.stat().st_size
    rows: list[tuple[str, int, int, int, int, float]] = []
    for owner, name in STEPS:
        setattr(owner, name, timed_step(rows, f"{owner.__name__}.{name}", getattr(owner, name)))
    reset_peak()
    start = time.perf_counter()
    cli.main(["check", str(path)])
    took = time.perf_counter() - start
    print(f"{path.name}: {size / 1e6:,.0f} MB; 0.3x is {0.3 * size / MIB / MIB:,.0f} MiB; the check took {took:.1f} s")
    print(f"{'step':24} {'peak before':>11} {'at start':>9} {'peak':>6} {'at end':>7}  (MiB)  time")
    for name, before_peak, resident, peak, after, seconds in rows:
        print(f"{name:24} {before_peak:11,} {resident:9,} {peak:6,} {after:7,}         {seconds:5.2f} s")
    print(f"{'after the last step':24} {'':11} {'':9} {status('VmHWM'):6,} {status('VmRSS'):7,}  (the link rules, "
          "the report)")
    print("'peak before' is the highest mark since the step before ended: the first row's is the line pass's")


if __name__ == "__main__":
    main()
