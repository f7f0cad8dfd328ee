"""Times `session-lsp check` on a folder of 2,000 generated pi sessions at -j 1 and at -j N (whole process, wall
clock), alternating the two so that load from elsewhere falls on both, and prints best and median and the speed-up.
The outputs of both are compared byte for byte first.

    python benchmarks/folder_bench.py [--repeat N] [--jobs N] [--files N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time

import bytecode
import generate
from run import checker


def run_check(root: str, jobs: int) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run([*checker(), "check", "-j", str(jobs), "--format", "json", "--min-severity", "hint", root],
                          capture_output=True)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"check -j {jobs} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return took, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument("--jobs", type=int, default=2, help="the parallel run's -j (default 2)")
    parser.add_argument("--files", type=int, default=generate.FOLDER_FILES)
    args = parser.parse_args()
    print(bytecode.state())
    start = time.perf_counter()
    root = generate.generate_folder(args.files)
    sizes = [os.path.getsize(path) for path in root.rglob("*.jsonl")]
    print(f"{root}: {len(sizes)} files, {sum(sizes) / 1e6:.1f} MB, median {statistics.median(sizes) / 1e3:.0f} KB, "
          f"largest {max(sizes) / 1e6:.1f} MB (ready in {time.perf_counter() - start:.1f} s)")
    _, one = run_check(str(root), 1)
    _, many = run_check(str(root), args.jobs)
    if one != many:
        raise SystemExit(f"-j 1 and -j {args.jobs} printed different output")
    times: dict[int, list[float]] = {1: [], args.jobs: []}
    loads = []
    for _ in range(args.repeat):
        for jobs in times:
            loads.append(os.getloadavg()[0])
            times[jobs].append(run_check(str(root), jobs)[0])
    print(f"{os.cpu_count()} CPUs, load average {min(loads):.2f}-{max(loads):.2f} during the runs; "
          f"best and median of {args.repeat}")
    for jobs, runs in times.items():
        print(f"check -j {jobs}: best {min(runs):.2f} s, median {statistics.median(runs):.2f} s")
    best = min(times[1]) / min(times[args.jobs])
    median = statistics.median(times[1]) / statistics.median(times[args.jobs])
    print(f"speed-up of -j {args.jobs}: {best:.2f}x (best), {median:.2f}x (median)")


if __name__ == "__main__":
    main()
