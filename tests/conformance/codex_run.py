"""Runs the real Codex CLI on prepared cases, inside the network namespace codex_oracle.py made for it (`unshare -n`:
loopback is its one interface), against the fake Responses API (codex_api.py) on 127.0.0.1.

Usage: python -m conformance.codex_run JOB.json OUT.json (from tests/). JOB: {"codex": binary, "parallel": n,
"cases": [{"id", "home", "args", "timeout", "script", "env"}]}. Each case's folder `home` becomes /home/dev in a
mount namespace of its own (claude_run.py's), so every CLI sees HOME=/home/dev, CODEX_HOME=/home/dev/.codex (a
config.toml written here, pointing at this case's URL) and works in /home/dev/project, the paths the shared corpus
was written with. Never the user's ~/.codex. Stdin is /dev/null (Codex waits for it otherwise). OUT: one result per
case: exit status, stdout and stderr tails, the request bodies, seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .claude_run import MOUNT
from .codex_api import Api, serve

ENV = {"HOME": "/home/dev", "CODEX_HOME": "/home/dev/.codex", "FAKE_API_KEY": "sk-fake-conformance",
       "TMPDIR": "/home/dev/.cache/temp", "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb",
       "RUST_BACKTRACE": "0", "NO_COLOR": "1"}
CONFIG = """# the fake Responses API on loopback (tests/conformance/codex_api.py)
model = "gpt-5.5"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "{url}"
env_key = "FAKE_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

# Without this, Codex's plugin sync looks up a GitHub host at start.
[features]
plugins = false
"""


def run_case(api: Api, port: int, codex: str, case: dict[str, Any]) -> dict[str, Any]:
    api.scripts[case["id"]] = [(phrase, steps) for phrase, steps in case.get("script") or []]
    home = case["home"]
    os.makedirs(os.path.join(home, ".cache", "temp"), exist_ok=True)
    os.makedirs(os.path.join(home, ".codex"), exist_ok=True)
    with open(os.path.join(home, ".codex", "config.toml"), "w") as handle:
        handle.write(CONFIG.format(url=f"http://127.0.0.1:{port}/c/{case['id']}/v1"))
    start = time.perf_counter()
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", "-c", MOUNT, home,
                           str(case.get("timeout", 30)), codex, *case["args"]],
                          stdin=subprocess.DEVNULL, capture_output=True, env={**ENV, **(case.get("env") or {})},
                          check=False)
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
        results = list(pool.map(lambda case: run_case(api, port, job["codex"], case), job["cases"]))
    server.shutdown()
    with open(out_path, "w") as handle:
        json.dump(results, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
