"""The real Codex CLI as an oracle: prepares each case's throwaway home, runs codex_run.py inside a new network
namespace whose one interface is loopback (`unshare -n`, under `timeout -s KILL`), and caches each case's result on
(CLI version, oracle revision, the case's bytes).

Two caches, both keyed so: `.cache/codex-<version>/` (local, one file per case, as the Claude Code oracle's) and
RECORD, committed: every case of the suite with the input of each request Codex sent and the rollouts after the run,
xz-compressed (the cases share most of their bytes), so a clone runs the comparison without starting Codex; only a
case missing from both runs the CLI. `python -m tests.conformance.codex_report --record` rewrites RECORD."""

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
VERSION = "0.171.0"
INSTALL = HERE / "codex-cli"
CODEX = INSTALL / "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
CACHE = HERE / ".cache" / f"codex-{VERSION}"
RECORD = HERE / f"codex-oracle-{VERSION}.jsonl.xz"
SESSIONS = ".codex/sessions"
"""Where Codex keeps its rollouts, relative to HOME (/home/dev in the namespace)."""
PROJECT = "/home/dev/project"
RESUME_PROMPT = "Reply with the single word OK."
EXEC = ["exec", "--skip-git-repo-check"]
PARALLEL = 2
REVISION = 1
"""Part of every cache key: raise it when the fake API's answers or the runner change what a run produces."""


class Case(msgspec.Struct, frozen=True):
    """One run of the CLI: the files of its home (paths relative to /home/dev), its arguments (after `codex`), what
    the fake API answers (codex_api.py's script) and extra environment."""
    name: str
    files: dict[str, bytes]
    args: list[str]
    script: list[Any] = []
    env: dict[str, str] = {}
    timeout: int = 30


class Result(msgspec.Struct):
    name: str
    exit: int
    stdout: str
    stderr: str
    inputs: list[list[Any]]
    """The `input` of every Responses API request the CLI sent, in order."""
    seconds: float
    files: dict[str, bytes] = {}
    """The rollouts under SESSIONS after the run (what the CLI wrote or appended), relative to it."""


def install_problem() -> str | None:
    """Why the oracle cannot run here, with what fixes it; None when it can."""
    if not CODEX.exists():
        return (f"Codex {VERSION} is not installed ({CODEX} is missing): "
                "run `bash tests/conformance/install.sh codex-cli`")
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "the Codex oracle needs unshare (util-linux) and ip (iproute2)"
    if os.geteuid() != 0:
        return "the Codex oracle runs the CLI in a new network namespace (loopback only): run it as root"
    return None


def resume_case(name: str, rollout: str, data: bytes, prompt: str = RESUME_PROMPT) -> Case:
    """Codex resuming the rollout at `rollout` (relative to SESSIONS, `YYYY/MM/DD/rollout-<time>-<id>.jsonl`) holding
    `data`: `codex exec --skip-git-repo-check resume <id> PROMPT`."""
    return Case(name, {f"{SESSIONS}/{rollout}": data}, [*EXEC, "resume", thread_id(rollout), prompt])


def thread_id(rollout: str) -> str:
    """The thread id in a rollout's file name (the uuid after the time)."""
    return Path(rollout).name.removesuffix(".jsonl")[-36:]


def key(case: Case) -> str:
    digest = hashlib.sha256(f"{VERSION}/{REVISION}".encode())
    digest.update(msgspec.json.encode(msgspec.structs.replace(case, name="", files={})))
    for path in sorted(case.files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(case.files[path]).digest())
    return digest.hexdigest()[:32]


def _collect(home: Path) -> dict[str, bytes]:
    folder = home / SESSIONS
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*.jsonl"))} \
        if folder.exists() else {}


def _to_record(key_: str, result: Result) -> bytes:
    value = msgspec.to_builtins(result)
    value["files"] = {path: data.decode("latin-1") for path, data in result.files.items()}
    value["key"] = key_
    value.pop("name")
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _from_record(line: bytes) -> tuple[str, Result]:
    value = json.loads(line)
    files = {path: text.encode("latin-1") for path, text in value.pop("files").items()}
    return value.pop("key"), Result(name="", files=files, **value)


def recorded() -> dict[str, Result]:
    """The committed results, by case key."""
    if not RECORD.exists():
        return {}
    return dict(_from_record(line) for line in lzma.decompress(RECORD.read_bytes()).splitlines() if line)


_RECORDED: dict[str, Result] | None = None
_USED: dict[str, Result] = {}
"""Every result this process's runs returned, by key: what `record` writes."""


def record() -> int:
    """Rewrites RECORD with exactly the results this process used (sorted by key, so a rerun that changes nothing
    writes the same bytes); returns how many."""
    raw = b"".join(_to_record(k, _USED[k]) for k in sorted(_USED))
    RECORD.write_bytes(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME))
    return len(_USED)


def run(cases: Sequence[Case], parallel: int = PARALLEL, cache: bool = True) -> list[Result]:
    """Each case's result, from RECORD, the local cache or the CLI (all uncached cases in one namespace, `parallel`
    CLIs at a time)."""
    global _RECORDED
    keys = [key(case) for case in cases]
    results: dict[str, Result] = {}
    if cache:
        if _RECORDED is None:
            _RECORDED = recorded()
        for k in keys:
            path = CACHE / f"{k}.json"
            if k in _RECORDED:
                results[k] = _RECORDED[k]
            elif path.exists():
                results[k] = msgspec.json.decode(path.read_bytes(), type=Result)
    todo = list({k: (k, case) for k, case in zip(keys, cases, strict=True) if k not in results}.values())
    if todo:
        problem = install_problem()
        if problem is not None:
            raise RuntimeError(f"{len(todo)} Codex cases are neither recorded nor cached, and {problem}")
        with tempfile.TemporaryDirectory(prefix="codex-oracle-") as folder:
            root = Path(folder)
            job: dict[str, Any] = {"codex": str(CODEX), "parallel": parallel, "cases": []}
            for k, case in todo:
                home = root / k
                (home / "project").mkdir(parents=True)
                for relative, data in case.files.items():
                    (home / relative).parent.mkdir(parents=True, exist_ok=True)
                    (home / relative).write_bytes(data)
                job["cases"].append({"id": k, "home": str(home), "args": case.args, "script": case.script,
                                     "env": case.env, "timeout": case.timeout})
            (root / "job.json").write_text(json.dumps(job))
            bound = 60 + sum(case.timeout for _, case in todo) // parallel
            done = subprocess.run(["timeout", "-s", "KILL", str(bound), "unshare", "-n", sys.executable, "-m",
                                   f"{HERE.name}.codex_run", str(root / "job.json"), str(root / "out.json")],
                                  cwd=HERE.parent, capture_output=True, check=False)
            if not (root / "out.json").exists():
                raise RuntimeError(f"the Codex runner failed (exit {done.returncode}): "
                                   f"{done.stderr.decode(errors='replace')[-2000:]}")
            for raw in json.loads((root / "out.json").read_text()):
                k = raw["id"]
                result = Result(name="", exit=raw["exit"], stdout=raw["stdout"], stderr=raw["stderr"],
                                inputs=[request.get("input") or [] for request in raw["requests"]],
                                seconds=raw["seconds"], files=_collect(root / k))
                results[k] = result
                if cache:
                    CACHE.mkdir(parents=True, exist_ok=True)
                    (CACHE / f"{k}.json").write_bytes(msgspec.json.encode(result))
    _USED.update((k, results[k]) for k in keys)
    return [msgspec.structs.replace(results[k], name=case.name) for k, case in zip(keys, cases, strict=True)]
