"""The real Claude Code as an oracle: prepares each case's throwaway home, runs claude_run.py inside a new network
namespace whose one interface is loopback (`unshare -n`, under `timeout -s KILL`), and caches each case's result
on (CLI version, oracle revision, the case's bytes) so a rerun only starts the CLI for what changed.

Two caches, both keyed so: `.cache/claude-<version>/` (local, one file per case, whole) and RECORD, committed: every
case of the conformance suite and of the repair proof, xz-compressed, so a clone judges session-lsp without starting
Claude Code. The record keeps what the suite reads of a run: its exit, output, the `messages` of each request (the
system prompt and the tool list come from the CLI, not from the file) and the session files after it, a file the
CLI appended to kept as what it appended. Only a case missing from both runs the CLI.
`python -m tests.conformance.claude_report --record` rewrites RECORD."""

from __future__ import annotations

import hashlib
import json
import lzma
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
RECORD = HERE / f"claude-oracle-{VERSION}.jsonl.xz"
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


def key(case: Case) -> str:
    digest = hashlib.sha256(f"{VERSION}/{REVISION}".encode())
    digest.update(msgspec.json.encode(msgspec.structs.replace(case, name="", files={})))
    for path in sorted(case.files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(case.files[path]).digest())
    return digest.hexdigest()[:32]


def _collect(home: Path) -> dict[str, bytes]:
    folder = home / PROJECTS
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*.jsonl"))} \
        if folder.exists() else {}


class NotRecorded(RuntimeError):
    """A run asked for record only (the test that the record is whole) met cases RECORD lacks."""


class _Recorded(msgspec.Struct):
    exit: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    seconds: float
    files: dict[str, str] = {}
    """Session files the run wrote whole (bytes as latin-1 text)."""
    appended: dict[str, str] = {}
    """Session files the case held, as what the run appended to each (latin-1)."""


def _input(case: Case, path: str) -> bytes | None:
    return case.files.get(f"{PROJECTS}/{path}")


def _to_record(key_: str, case: Case, result: Result) -> bytes:
    files: dict[str, str] = {}
    appended: dict[str, str] = {}
    for path, data in result.files.items():
        before = _input(case, path)
        if before is not None and data.startswith(before):
            appended[path] = data[len(before):].decode("latin-1")
        else:
            files[path] = data.decode("latin-1")
    kept = _Recorded(result.exit, result.stdout, result.stderr,
                     [{"messages": request.get("messages", [])} for request in result.requests],
                     result.seconds, files, appended)
    return msgspec.json.encode({"key": key_, **msgspec.to_builtins(kept)}) + b"\n"


def recorded() -> dict[str, _Recorded]:
    """The committed runs, by case key."""
    global _RECORDED
    if _RECORDED is None:
        _RECORDED = {}
        if RECORD.exists():
            for line in lzma.decompress(RECORD.read_bytes()).splitlines():
                value = msgspec.json.decode(line)
                _RECORDED[value.pop("key")] = msgspec.convert(value, _Recorded)
    return _RECORDED


def _from_record(case: Case, kept: _Recorded) -> Result:
    files = {path: text.encode("latin-1") for path, text in kept.files.items()}
    for path, text in kept.appended.items():
        files[path] = (_input(case, path) or b"") + text.encode("latin-1")
    return Result("", kept.exit, kept.stdout, kept.stderr, kept.requests, kept.seconds, dict(sorted(files.items())))


_RECORDED: dict[str, _Recorded] | None = None
_USED: dict[str, tuple[Case, Result]] = {}
"""Every case this process's runs answered, by key, with its result: what `record` writes."""


def record() -> int:
    """Rewrites RECORD with exactly the runs this process used (sorted by key, so a rerun that changes nothing writes
    the same bytes); returns how many."""
    raw = b"".join(_to_record(k, *_USED[k]) for k in sorted(_USED))
    RECORD.write_bytes(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME))
    return len(_USED)


def run(cases: Sequence[Case], parallel: int = PARALLEL, cache: bool = True, record_only: bool = False) -> list[Result]:
    """Each case's result, from RECORD, the local cache or the CLI (all uncached cases in one namespace, `parallel`
    CLIs at a time). `record_only`: from RECORD alone, raising NotRecorded for what it lacks."""
    keys = [key(case) for case in cases]
    results: dict[str, Result] = {}
    if cache or record_only:
        kept = recorded()
        for k, case in zip(keys, cases, strict=True):
            if k in kept:
                results[k] = _from_record(case, kept[k])
            elif not record_only and (CACHE / f"{k}.json").exists():
                results[k] = msgspec.json.decode((CACHE / f"{k}.json").read_bytes(), type=Result)
    todo = [(k, case) for k, case in zip(keys, cases, strict=True) if k not in results]
    todo = list({k: (k, case) for k, case in todo}.values())
    if todo and record_only:
        raise NotRecorded(f"{len(todo)} Claude Code cases are not in {RECORD.name}: "
                          f"{', '.join(case.name for _, case in todo[:20])}")
    if todo:
        problem = install_problem()
        if problem is not None:
            raise RuntimeError(f"{len(todo)} Claude Code cases are neither recorded nor cached, and {problem}")
        with tempfile.TemporaryDirectory(prefix="claude-oracle-") as folder:
            root = Path(folder)
            job: dict[str, Any] = {"claude": str(CLAUDE), "parallel": parallel, "cases": []}
            for k, case in todo:
                home = root / k
                (home / "project").mkdir(parents=True)
                for relative, data in case.files.items():
                    (home / relative).parent.mkdir(parents=True, exist_ok=True)
                    (home / relative).write_bytes(data)
                job["cases"].append({"id": k, "home": str(home), "args": case.args, "stdin": case.stdin,
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
                k = raw["id"]
                result = Result(name="", exit=raw["exit"], stdout=raw["stdout"], stderr=raw["stderr"],
                                requests=raw["requests"], seconds=raw["seconds"], files=_collect(root / k))
                results[k] = result
                if cache:
                    CACHE.mkdir(parents=True, exist_ok=True)
                    (CACHE / f"{k}.json").write_bytes(msgspec.json.encode(result))
    _USED.update((k, (case, results[k])) for k, case in zip(keys, cases, strict=True))
    return [msgspec.structs.replace(results[k], name=case.name) for k, case in zip(keys, cases, strict=True)]
