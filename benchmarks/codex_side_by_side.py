"""`session-lsp check FILE` beside the real Codex 0.171.0 resuming the same rollout (`codex exec
--skip-git-repo-check resume ID PROMPT`, run by the conformance suite's oracle: a loopback-only network namespace,
the fake Responses API, a throwaway CODEX_HOME), both as whole processes, paired and alternating, on a rollout of
about 100 MB: the three-turn rollout the real Codex wrote (tests/corpus/codex-0.171.0-written) with its turns
repeated, each copy's call ids made its own and every line's ordinal renumbered, cached in benchmarks/out/.

Codex's time is its process alone, from start to exit: it reads the rollout, rebuilds the history and sends it to the
fake API, which answers "OK." at once. Needs the pinned CLI (`bash tests/conformance/install.sh codex-cli`) and root.

    python benchmarks/codex_side_by_side.py [--repeat N] [--megabytes M]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import bytecode
import generate
from run import checker

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # where pytest finds `conformance` too
from conformance import codex_mutants, codex_oracle

SOURCE = "rollout-2026-12-05T08-14-35-01a24544-ef77-76d2-ad46-9e07c57223d1.jsonl"
"""Three turns, resumed twice by the real Codex: parallel calls, a failing test run, apply_patch edits."""
_CALL = re.compile(rb'"call_([A-Za-z0-9]+)"(?!:)')
"""A call id, not the key `"call_id"` (which the pattern once matched too: every copy lost its call ids, so Codex
skipped its calls and outputs, and the ratio of 2026-12-05 was measured on a damaged rollout)."""


def rollout(megabytes: int) -> Path:
    """The cached big rollout, made on first use: the source's header lines, then its turns repeated."""
    path = generate.OUT / f"codex-{megabytes}mb-calls-{SOURCE}"
    if path.exists():
        return path
    lines = (codex_mutants.corpus()[0].parent / SOURCE).read_bytes().rstrip(b"\n").split(b"\n")
    start = next(i for i, line in enumerate(lines) if b'"type":"task_started"' in line)
    head, turns = lines[:start], lines[start:]
    out: list[bytes] = []
    size = sum(map(len, head))
    copy = 0
    while size < megabytes * 1_000_000:
        for line in turns:
            changed = _CALL.sub(rb'"call_\1_%d"' % copy, line)
            out.append(changed)
            size += len(changed) + 1
        copy += 1
    records = [json.loads(line) for line in [*head, *out]]
    for ordinal, record in enumerate(records):
        record["ordinal"] = ordinal
    generate.OUT.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_bytes(b"".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
                                 for r in records))
    partial.rename(path)
    print(f"wrote {path}: {copy} copies of the turns")
    return path


def codex(path: Path, data: bytes) -> tuple[float, int, int]:
    """One Codex resume (uncached): its process's seconds, exit status and the items of its first request."""
    case = codex_oracle.resume_case("bench", codex_mutants.rollout_path(SOURCE), data)
    case = codex_oracle.Case(case.name, case.files, case.args, timeout=300)
    result = codex_oracle.run([case], parallel=1, cache=False)[0]
    return result.seconds, result.exit, len(result.inputs[0]) if result.inputs else 0


def session_lsp(path: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run([*checker(), "check", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"session-lsp check failed ({done.returncode}): {done.stderr.decode()}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--megabytes", type=int, default=100, help="size of the rollout (default 100)")
    args = parser.parse_args()
    print(bytecode.state())
    problem = codex_oracle.install_problem()
    if problem:
        raise SystemExit(problem)
    path = rollout(args.megabytes)
    data = path.read_bytes()
    lines = data.count(b"\n")
    print(f"{path}: {len(data) / 1e6:.1f} MB, {lines} lines")
    ours: list[float] = []
    theirs: list[float] = []
    loads: list[float] = []
    outcome = ""
    for turn in range(args.repeat):
        loads.append(os.getloadavg()[0])
        if turn % 2:  # alternate which goes first, so neither always meets a warm or a cold cache
            ours.append(session_lsp(path))
            took, status, items = codex(path, data)
        else:
            took, status, items = codex(path, data)
            ours.append(session_lsp(path))
        theirs.append(took)
        outcome = f"exit {status}, first request of {items} input items"
    print(f"Codex: {outcome}; load average {min(loads):.2f}-{max(loads):.2f}; best and median of {args.repeat}")
    print(f"session-lsp check:            best {min(ours):.2f} s, median {statistics.median(ours):.2f} s")
    print(f"Codex {codex_oracle.VERSION} exec resume: best {min(theirs):.2f} s, "
          f"median {statistics.median(theirs):.2f} s")
    print(f"ratio session-lsp / Codex: {min(ours) / min(theirs):.2f} (best), "
          f"{statistics.median(ours) / statistics.median(theirs):.2f} (median)")


if __name__ == "__main__":
    main()
