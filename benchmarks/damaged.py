"""Large sessions damaged everywhere: each kind of damage the conformance suites make (tests/conformance's mutants),
applied at 2,000 random places of a 20,000-line session, then `check`, `fix --unsafe-fixes --diff` and `context`
timed as whole processes. A rule, fix or context that reads the whole file again for each damaged place shows as a
time far above the others (a hang, from a user's seat); this is how the quadratic paths of 2026-12-06 and -07 were
found.

The sessions: Elyra the generated one (benchmarks/generate.py), Claude Code and Codex the ones their side-by-side
benchmarks make from a real file. A place is a window of 30 lines given to the mutant as the whole file, so each
mutation reads 30 lines, not 20,000.

    python benchmarks/damaged.py [--format elyra|claude|codex] [--kind KIND ...] [--timeout S] [--keep DIR]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bytecode
from lsp_bench import benchmark_file
from run import checker

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # where pytest finds `conformance` too
from conformance import claude_mutants, codex_mutants, mutants

LINES = 20_000
PLACES = 2_000
WINDOW = 30
COMMANDS = (("check",), ("fix", "--unsafe-fixes", "--diff"), ("context",))

Mutation = Callable[[random.Random, list[bytes]], list[bytes] | None]


def source(kind: str) -> tuple[list[bytes], dict[str, Mutation]]:
    """The first LINES lines of the format's large session, and the format's mutants."""
    if kind == "elyra":
        path, kinds = benchmark_file("elyra"), mutants.KINDS
    elif kind == "claude":
        import claude_side_by_side

        path, kinds = claude_side_by_side.written(60), claude_mutants.KINDS
    else:
        import codex_side_by_side

        path, kinds = codex_side_by_side.rollout(30), codex_mutants.KINDS
    return path.read_bytes().split(b"\n")[:LINES + 1], dict(kinds)


def damaged(lines: list[bytes], mutation: Mutation) -> tuple[bytes, int]:
    """`lines` with `mutation` applied at PLACES random windows (seeded), and how many it changed."""
    rng = random.Random(7)
    out = list(lines)
    applied = 0
    for _ in range(PLACES):
        if len(out) < 4 * WINDOW:
            break
        at = rng.randrange(1, len(out) - WINDOW - 1)
        try:
            changed = mutation(rng, out[at:at + WINDOW])
        except (ValueError, IndexError, KeyError, TypeError):  # a window without what this damage needs
            changed = None
        if changed is not None:
            out[at:at + WINDOW] = changed
            applied += 1
    return b"\n".join(out), applied


def timed(command: tuple[str, ...], path: Path, timeout: float) -> str:
    start = time.perf_counter()
    try:
        subprocess.run([*checker(), *command, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f}"
    return f"{time.perf_counter() - start:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description="Time check, fix and context on sessions damaged everywhere.")
    parser.add_argument("--format", choices=("elyra", "claude", "codex"), default="elyra")
    parser.add_argument("--kind", nargs="*", help="only these kinds of damage")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds a command may take")
    parser.add_argument("--keep", type=Path, help="write the damaged sessions to this folder")
    args = parser.parse_args()
    print(bytecode.state())
    lines, kinds = source(args.format)
    print(f"{args.format}: {len(lines)} lines, each damage at {PLACES} places; seconds, whole process")
    print(f"{'damage':28} {'places':>6} {'check':>7} {'fix':>7} {'context':>7}")
    with tempfile.TemporaryDirectory(prefix="damaged-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for name, mutation in kinds.items():
            if args.kind and name not in args.kind:
                continue
            data, applied = damaged(lines, mutation)
            path = folder / f"{args.format}-{name}.jsonl"
            path.write_bytes(data)
            times = [timed(command, path, args.timeout) for command in COMMANDS]
            print(f"{name:28} {applied:>6} {times[0]:>7} {times[1]:>7} {times[2]:>7}", flush=True)


if __name__ == "__main__":
    main()
