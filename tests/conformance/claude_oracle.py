"""The real Claude Code as an oracle: prepares each case's throwaway home, runs claude_run.py inside a new network
namespace whose one interface is loopback (`unshare -n`, under `timeout -s KILL`), and caches each case's result
on (CLI version, the case's bytes) so a rerun only starts the CLI for what changed."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

HERE = Path(__file__).resolve().parent
VERSION = "2.1.332"
CLAUDE = HERE / "node_modules" / "@anthropic-ai" / "claude-code" / "bin" / "claude.exe"
CACHE = HERE / ".cache" / f"claude-{VERSION}"
PROJECT = "/home/dev/project"
PROJECTS = ".claude/projects/" + PROJECT.replace("/", "-")
"""Where Claude Code keeps the sessions of PROJECT, relative to HOME (/home/dev in the namespace)."""
RESUME_PROMPT = "Reply with the single word OK."
PARALLEL = 2
REVISION = 2
"""Part of every cache key: raise it when the fake API's answers or the runner change what a run produces."""


class Case(msgspec.Struct, frozen=True):
    """One run of the CLI: the files of its home (paths relative to /home/dev), its arguments, what the fake API
    answers (claude_api.py's script) and extra environment."""
    name: str
    files: dict[str, bytes]
    args: list[str]
    stdin: str = ""
    script: list[Any] = []
    env: dict[str, str] = {}
    timeout: int = 30


class Result(msgspec.Struct):
    name: str
    exit: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    """Every Messages API request body the CLI sent, in order."""
    seconds: float
    files: dict[str, bytes] = {}
    """The session files under PROJECTS after the run (what the CLI wrote or appended)."""


def install_problem() -> str | None:
    """Why the oracle cannot run here, with what fixes it; None when it can."""
    if not CLAUDE.exists():
        return f"Claude Code {VERSION} is not installed ({CLAUDE} is missing): run `bash tests/conformance/install.sh`"
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "the Claude Code oracle needs unshare (util-linux) and ip (iproute2)"
    if os.geteuid() != 0:
        return "the Claude Code oracle runs the CLI in a new network namespace (loopback only): run it as root"
    return None


def resume_case(name: str, session_id: str, files: dict[str, bytes], prompt: str = RESUME_PROMPT) -> Case:
    """Claude Code resuming `session_id` (`claude -p PROMPT --resume ID`), with `files` (relative to the project's
    session folder: `<id>.jsonl`, `<id>/subagents/...`) in place."""
    return Case(name, {f"{PROJECTS}/{path}": data for path, data in files.items()},
                ["-p", prompt, "--resume", session_id, "--output-format", "json"])


def _key(case: Case) -> str:
    digest = hashlib.sha256(f"{VERSION}/{REVISION}".encode())
    digest.update(msgspec.json.encode(msgspec.structs.replace(case, name="", files={})))
    for path in sorted(case.files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(case.files[path]).digest())
    return digest.hexdigest()[:32]


def _collect(home: Path) -> dict[str, bytes]:
    folder = home / PROJECTS
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*.jsonl"))} \
        if folder.exists() else {}


def run(cases: Sequence[Case], parallel: int = PARALLEL, cache: bool = True) -> list[Result]:
    """Each case's result, from the cache or from the CLI (all uncached cases in one namespace, `parallel` CLIs
    at a time)."""
    keys = [_key(case) for case in cases]
    results: dict[str, Result] = {}
    if cache:
        for key in keys:
            path = CACHE / f"{key}.json"
            if path.exists():
                results[key] = msgspec.json.decode(path.read_bytes(), type=Result)
    todo = [(key, case) for key, case in zip(keys, cases, strict=True) if key not in results]
    todo = list({key: (key, case) for key, case in todo}.values())
    if todo:
        with tempfile.TemporaryDirectory(prefix="claude-oracle-") as folder:
            root = Path(folder)
            job: dict[str, Any] = {"claude": str(CLAUDE), "parallel": parallel, "cases": []}
            for key, case in todo:
                home = root / key
                (home / "project").mkdir(parents=True)
                for relative, data in case.files.items():
                    (home / relative).parent.mkdir(parents=True, exist_ok=True)
                    (home / relative).write_bytes(data)
                job["cases"].append({"id": key, "home": str(home), "args": case.args, "stdin": case.stdin,
                                     "script": case.script, "env": case.env, "timeout": case.timeout})
            (root / "job.json").write_text(json.dumps(job))
            bound = 60 + sum(case.timeout for _, case in todo) // parallel
            done = subprocess.run(["timeout", "-s", "KILL", str(bound), "unshare", "-n", sys.executable, "-m",
                                   f"{HERE.name}.claude_run", str(root / "job.json"), str(root / "out.json")],
                                  cwd=HERE.parent, capture_output=True, check=False)
            if not (root / "out.json").exists():
                raise RuntimeError(f"the Claude Code runner failed (exit {done.returncode}): "
                                   f"{done.stderr.decode(errors='replace')[-2000:]}")
            for raw in json.loads((root / "out.json").read_text()):
                key = raw["id"]
                result = Result(name="", exit=raw["exit"], stdout=raw["stdout"], stderr=raw["stderr"],
                                requests=raw["requests"], seconds=raw["seconds"], files=_collect(root / key))
                results[key] = result
                if cache:
                    CACHE.mkdir(parents=True, exist_ok=True)
                    (CACHE / f"{key}.json").write_bytes(msgspec.json.encode(result))
    return [msgspec.structs.replace(results[key], name=case.name) for key, case in zip(keys, cases, strict=True)]
