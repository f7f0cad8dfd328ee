"""`session-lsp check FILE` beside the real Claude Code 2.1.332 resuming the same file (`claude -p PROMPT --resume
ID`: it reads the file, rebuilds the conversation and sends it to the API), both as whole processes, paired and
alternating, on a session of about 100 MB made of what the real CLI wrote: the corpus's linear session
(tests/corpus/claude-code-2.1.332-written/d4e1977c…, two prompts, parallel calls, a failed tool, the request blobs)
written again and again with fresh uuids, tool ids and message ids, each copy's first prompt chained below the
previous copy's last record, so the whole file is one conversation. Cached in benchmarks/out/.

Claude Code runs as the conformance suite runs it (tests/conformance/claude_run.py): in a network namespace whose one
interface is loopback (`unshare -n`), a throwaway HOME bound on /home/dev in a mount namespace of its own, against the
fake Messages API on 127.0.0.1, under `timeout -s KILL`; each run resumes a fresh copy of the file (a resume appends
to it). Its time is the CLI process's, from start to exit, the fake API's answer included. Needs root and the CLI:
`bash tests/conformance/install.sh`.

    python benchmarks/claude_side_by_side.py [--repeat N] [--megabytes M]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bytecode
import generate
from run import checker

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # where pytest finds `conformance` too
from conformance.claude_oracle import CLAUDE, PROJECTS, RESUME_PROMPT, VERSION, install_problem

TESTS = Path(__file__).resolve().parent.parent / "tests"
SOURCE = TESTS / "corpus" / "claude-code-2.1.332-written" / "d4e1977c-4507-4cf2-8923-34a626a3b3be.jsonl"
SESSION = "c1a0dec0-0b5e-4c1e-9a1e-000000100000"
KILL_AFTER = 300
IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:toolu|msg|req)_[0-9A-Za-z]+")


def _fresh(copy: int, old: str) -> str:
    """The id `old` has in copy number `copy`: the same shape, new and deterministic."""
    if old == SOURCE.stem:
        return SESSION
    digest = hashlib.sha256(f"{copy}/{old}".encode()).hexdigest()
    if "_" in old:
        return old.split("_", 1)[0] + "_01" + digest[:22]
    return f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-a{digest[17:20]}-{digest[20:32]}"


def written(megabytes: int) -> Path:
    """The generated session (cached): copies of the source until the file holds `megabytes` MB."""
    path = generate.OUT / f"{SESSION}.jsonl"
    marker = generate.OUT / f"{SESSION}.jsonl.megabytes"
    if path.exists() and marker.exists() and marker.read_text() == str(megabytes):
        return path
    lines = SOURCE.read_text(encoding="utf-8").rstrip("\n").split("\n")
    first = next(n for n, line in enumerate(lines) if json.loads(line).get("parentUuid", "") is None)
    last = max(n for n, line in enumerate(lines) if json.loads(line).get("type") in ("user", "assistant"))
    last_uuid = json.loads(lines[last])["uuid"]
    generate.OUT.mkdir(parents=True, exist_ok=True)
    size, copy = 0, 0
    with path.open("w", encoding="utf-8") as out:
        while size < megabytes * 1_000_000:
            names: dict[str, str] = {}

            def rename(found: re.Match[str], names: dict[str, str] = names, copy: int = copy) -> str:
                return names.setdefault(found.group(), _fresh(copy, found.group()))

            for number, line in enumerate(lines):
                text = IDS.sub(rename, line)
                if number == first and copy:
                    text = text.replace('"parentUuid":null', f'"parentUuid":"{_fresh(copy - 1, last_uuid)}"', 1)
                size += out.write(text + "\n")
            copy += 1
    marker.write_text(str(megabytes))
    return path


def session_lsp(path: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run([*checker(), "check", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"session-lsp check failed or found problems ({done.returncode}): {done.stderr.decode()}")
    return took


def claude(path: Path) -> tuple[float, dict[str, int]]:
    """One `claude -p ... --resume` of a fresh copy, in its own loopback-only namespace: the CLI's seconds and what it
    sent."""
    with tempfile.TemporaryDirectory(prefix="claude-bench-") as folder:
        root = Path(folder)
        home = root / "home"
        (home / "project").mkdir(parents=True)
        (home / PROJECTS).mkdir(parents=True)
        shutil.copyfile(path, home / PROJECTS / path.name)
        job = {"claude": str(CLAUDE), "parallel": 1, "cases": [{
            "id": "bench", "home": str(home), "timeout": KILL_AFTER,
            "args": ["-p", RESUME_PROMPT, "--resume", SESSION, "--output-format", "json"]}]}
        (root / "job.json").write_text(json.dumps(job))
        done = subprocess.run(["timeout", "-s", "KILL", str(KILL_AFTER + 60), "unshare", "-n", sys.executable, "-m",
                               "conformance.claude_run", str(root / "job.json"), str(root / "out.json")],
                              cwd=TESTS, capture_output=True, check=False)
        if not (root / "out.json").exists():
            raise SystemExit(f"the runner failed ({done.returncode}): {done.stderr.decode(errors='replace')[-2000:]}")
        (result,) = json.loads((root / "out.json").read_text())
    if result["exit"] != 0 or not result["requests"]:
        raise SystemExit(f"Claude Code {VERSION} did not resume the file (exit {result['exit']}, -9 is the "
                         f"{KILL_AFTER} s timeout): {result['stderr'][-2000:]} {result['stdout'][-1000:]}")
    sent = result["requests"][-1]
    seen = {"requests": len(result["requests"]), "messages": len(sent.get("messages") or []),
            "bytes": len(json.dumps(sent))}
    return float(result["seconds"]), seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="pairs of runs (default 5)")
    parser.add_argument("--megabytes", type=int, default=100, help="size of the session (default 100)")
    args = parser.parse_args()
    print(bytecode.state())
    problem = install_problem()
    if problem:
        raise SystemExit(problem)
    path = written(args.megabytes)
    data = path.read_bytes()
    lines = data.count(b"\n")
    print(f"{path}: {len(data) / 1e6:.1f} MB, {lines} lines, the turns Claude Code {VERSION} wrote")
    digest = hashlib.sha256(data).hexdigest()
    del data
    ours: list[float] = []
    theirs: list[float] = []
    loads: list[float] = []
    seen: dict[str, int] = {}
    for turn in range(args.repeat):
        loads.append(os.getloadavg()[0])
        if turn % 2:  # alternate which goes first, so neither always meets a warm or a cold cache
            ours.append(session_lsp(path))
            took, seen = claude(path)
            theirs.append(took)
        else:
            took, seen = claude(path)
            theirs.append(took)
            ours.append(session_lsp(path))
    if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
        raise SystemExit(f"{path} changed during the runs")
    print(f"Claude Code sent {seen['requests']} request(s), the last with {seen['messages']} messages "
          f"({seen['bytes'] / 1e6:.1f} MB of JSON); load average {min(loads):.2f}-{max(loads):.2f}; "
          f"best and median of {args.repeat}")
    context = subprocess.run([*checker(), "context", "--format", "json", str(path)], capture_output=True, check=True)
    predicted = len(json.loads(context.stdout)["messages"])
    print(f"session-lsp context predicts {predicted} messages before the new prompt: "
          f"{'agrees' if predicted + 1 == seen['messages'] else 'DISAGREES'} with what Claude Code sent")
    print(f"session-lsp check:                     best {min(ours):.2f} s, median {statistics.median(ours):.2f} s")
    print(f"claude -p ... --resume (Claude Code {VERSION}): best {min(theirs):.2f} s, "
          f"median {statistics.median(theirs):.2f} s")
    print(f"ratio session-lsp / Claude Code: {min(ours) / min(theirs):.2f} (best), "
          f"{statistics.median(ours) / statistics.median(theirs):.2f} (median)")


if __name__ == "__main__":
    main()
