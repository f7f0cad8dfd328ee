"""Measures each hostile file of the CLI attack suite (tests/attack/test_check_attacks.py): wall time and peak
memory of `session-lsp check` on it, beside the bound the test holds it to. The suite asserts the bounds; this
prints the figures the README quotes.

    python benchmarks/hostile.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import bytecode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # where pytest finds `attack` too
from attack.test_check_attacks import CASES, check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each case (default 3)")
    args = parser.parse_args()
    print(bytecode.state())
    print(f"median of {args.repeat} runs")
    print("| file | exit | seconds | peak MiB | bound (s / MiB) |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:
        path = Path(folder) / "hostile.jsonl"
        for name, (content, _, _, seconds, mib) in CASES.items():
            path.write_bytes(content())
            runs = [check(str(path), timeout=seconds * 2) for _ in range(args.repeat)]
            took = statistics.median(run.seconds for run in runs)
            peak = statistics.median(run.peak_mib for run in runs)
            print(f"| {name} | {runs[0].status} | {took:.2f} | {peak:.0f} | {seconds:g} / {mib:g} |")


if __name__ == "__main__":
    main()
