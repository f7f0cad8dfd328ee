"""Runs the real Claude Code on prepared cases, inside the network namespace claude_oracle.py made for it
(`unshare -n`: loopback is its one interface), against the fake API (claude_api.py) on 127.0.0.1.

Usage: python -m conformance.claude_run JOB.json OUT.json (from tests/). JOB: {"claude": binary, "parallel": n,
"cases": [{"id", "home", "args", "stdin", "timeout", "script", "env"}]}. Each case's folder `home` becomes
/home/dev in a mount namespace of its own (a tmpfs over /home, the folder bound on /home/dev), so every CLI sees
HOME=/home/dev and works in /home/dev/project, the paths the shared corpus was written with, and no two CLIs share
a ~/.claude. Never the user's ~/.claude. OUT: one result per case: exit status, stdout and stderr tails, the
request bodies, seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .claude_api import Api, serve

ENV = {"DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
       "DISABLE_BUG_COMMAND": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
       "ANTHROPIC_API_KEY": "sk-ant-fake-conformance", "HOME": "/home/dev", "TMPDIR": "/home/dev/.cache/temp",
       "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb"}
MOUNT = ('mount -t tmpfs tmpfs /home && mkdir -p /home/dev && mount --bind "$0" /home/dev && '
         'cd /home/dev/project && exec timeout -s KILL "$1" "${@:2}"')


def run_case(api: Api, port: int, claude: str, case: dict[str, Any]) -> dict[str, Any]:
    api.scripts[case["id"]] = [(phrase, steps) for phrase, steps in case.get("script") or []]
    env = {**ENV, "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}/c/{case['id']}", **(case.get("env") or {})}
    os.makedirs(os.path.join(case["home"], ".cache", "temp"), exist_ok=True)
    start = time.perf_counter()
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", "-c", MOUNT, case["home"],
                           str(case.get("timeout", 30)), claude, *case["args"]],
                          input=(case.get("stdin") or "").encode(), capture_output=True, env=env, check=False)
    return {"id": case["id"], "exit": done.returncode, "stdout": done.stdout.decode(errors="replace")[-4000:],
            "stderr": done.stderr.decode(errors="replace")[-4000:], "requests": api.requests.get(case["id"], []),
            "seconds": round(time.perf_counter() - start, 2)}


def main(job_path: str, out_path: str) -> int:
    with open(job_path) as handle:
        job = json.load(handle)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    api = Api()
    server = serve(api)
    port = server.server_address[1]
    with ThreadPoolExecutor(max_workers=job.get("parallel", 2)) as pool:
        results = list(pool.map(lambda case: run_case(api, port, job["claude"], case), job["cases"]))
    server.shutdown()
    with open(out_path, "w") as handle:
        json.dump(results, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
