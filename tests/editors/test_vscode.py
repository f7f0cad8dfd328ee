"""VS Code: the extension's unit tests (node's test runner) and one end-to-end scenario in real VS Code.

The scenario builds the linux-x64 .vsix with its bundled server, installs it into a fresh code-server 4.100.3
(VS Code 1.100.3) profile, and opens the broken session in Chromium through playwright-core. Nothing is
configured: with no `session-lsp` on PATH the extension must find the bundled server and a Python 3.11+ by
itself. code-server runs in its own process group, killed at the end (it keeps extension hosts alive for hours).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CACHE, ROOT, line_of_id, position_of, require, which

EXTENSION = ROOT / "vscode-extension"
THNDRS = ROOT / "examples" / "clean" / "session-20260301-091500.jsonl"
OTHER = "notes.txt"
CODE_SERVER_VERSION = "4.100.3"
INSTALL_DIR = CACHE / f"vscode-{CODE_SERVER_VERSION}"
CODE_SERVER = INSTALL_DIR / "node_modules" / ".bin" / "code-server"
PLAYWRIGHT = INSTALL_DIR / "node_modules" / "playwright-core"
ARTIFACTS = ROOT / "test-artifacts"
DOCS_SCREENSHOT = ROOT / "docs" / "vscode.png"
INSTALL = "bash editors/install-test-editors.sh   (VS Code only: bash tests/editors/vscode/install.sh)"
BUDGET = 300
"""Seconds for the whole scenario, build included."""


def test_extension_unit_tests() -> None:
    require(EXTENSION / "node_modules" / ".package-lock.json", "the VS Code extension's build tools (npm ci)",
            INSTALL)
    completed = subprocess.run(["npm", "test", "--silent"], cwd=EXTENSION, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stdout[-4000:] + completed.stderr[-2000:]
    assert "# fail 0" in completed.stdout and "# pass " in completed.stdout


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"code-server exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"code-server did not listen on {port} within {seconds} s")


@pytest.fixture
def code_server(tmp_path: Path, session_file: Path) -> Iterator[dict[str, object]]:
    require(CODE_SERVER, f"code-server {CODE_SERVER_VERSION}", INSTALL)
    require(PLAYWRIGHT, "playwright-core", INSTALL)
    require(which("chromium"), "Chromium", INSTALL)
    require(EXTENSION / "node_modules" / ".package-lock.json", "the VS Code extension's build tools (npm ci)", INSTALL)
    started = time.monotonic()

    built = subprocess.run(["bash", "build.sh"], cwd=EXTENSION, capture_output=True, text=True, timeout=180)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    vsix = next(EXTENSION.glob("session-lsp-linux-x64-*.vsix"))

    home = tmp_path / "vscode-home"
    user_data, extensions = home / "user-data", home / "extensions"
    (user_data / "User").mkdir(parents=True)
    (user_data / "User" / "settings.json").write_text(json.dumps({
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.enableExperiments": False,
        "security.workspace.trust.enabled": False,
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "update.mode": "none",
        "editor.minimap.enabled": False,
        "chat.commandCenter.enabled": False,
        "workbench.colorTheme": "Default Light Modern",
    }))
    # Machine-scoped settings (sessionLsp.server.path) are read from the remote's own file in code-server.
    (user_data / "Machine").mkdir()
    (user_data / "Machine" / "settings.json").write_text("{}")
    config = home / "config.yaml"
    port = _free_port()
    config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")
    # No session-lsp on PATH: the extension has to use its bundled copy.
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and not (Path(p) / "session-lsp").exists())
    env = {key: value for key, value in os.environ.items() if not key.startswith(("VSCODE", "ELECTRON"))}
    env.update(HOME=str(home), PATH=path, XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local"))
    common = ["--config", str(config), "--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    installed = subprocess.run([str(CODE_SERVER), *common, "--install-extension", str(vsix)], env=env,
                               capture_output=True, text=True, timeout=60)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    (session_file.parent / THNDRS.name).write_bytes(THNDRS.read_bytes())
    (session_file.parent / OTHER).write_text("Notes on the parser run, not a session.\n")
    log = (tmp_path / "code-server.log").open("wb")
    process = subprocess.Popen([str(CODE_SERVER), *common, "--disable-telemetry", "--disable-update-check",
                                "--disable-workspace-trust", "--disable-getting-started-override",
                                str(session_file.parent)],
                               env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        _wait_for_port(port, process, 60)
        yield {"url": f"http://127.0.0.1:{port}/?folder={session_file.parent}", "pgid": process.pid,
               "settings": user_data / "Machine" / "settings.json", "extensions": extensions,
               "started": started, "log": tmp_path / "code-server.log"}
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        log.close()


def test_vscode_end_to_end(code_server: dict[str, object], session_file: Path, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    failed = [found.name for found in ARTIFACTS.glob("vscode-failed*.png")]
    for stale in ("vscode.png", "vscode-e2e.json", "code-server.log", *failed):
        (ARTIFACTS / stale).unlink(missing_ok=True)
    hover = position_of('"parentId":"a1000001"')
    hover = (hover[0], hover[1] + len('"parentId":"') + 2)
    out = tmp_path / "e2e.json"
    left = BUDGET - (time.monotonic() - float(code_server["started"]))  # type: ignore[arg-type]
    scenario = {"file": session_file.name, "hover": list(hover), "diagnostic": "ELY", "status": "Elyra",
                "tree": "Fix the failing parser test", "welcome": True, "thndrs": THNDRS.name, "other": OTHER,
                "screenshot": "vscode.png", "context": True, "no_server": True}
    env = {**os.environ, "E2E_URL": str(code_server["url"]), "E2E_CASE": json.dumps(scenario), "E2E_OUT": str(out),
           "E2E_SETTINGS": str(code_server["settings"]), "E2E_EXTENSIONS": str(code_server["extensions"]),
           "E2E_SCREENSHOTS": str(ARTIFACTS),
           "PLAYWRIGHT_CORE": str(PLAYWRIGHT), "CHROMIUM": str(which("chromium"))}
    completed = subprocess.run(["node", str(Path(__file__).parent / "vscode" / "e2e.js")], env=env,
                               capture_output=True, text=True, timeout=max(left, 30))
    shutil.copyfile(Path(str(code_server["log"])), ARTIFACTS / "code-server.log")
    log = Path(str(code_server["log"])).read_text(errors="replace")[-3000:]
    assert out.exists(), (f"e2e.js wrote nothing ({completed.returncode}):\n"
                          f"{completed.stdout}\n{completed.stderr}\n{log}")
    data = json.loads(out.read_text())
    shutil.copyfile(out, ARTIFACTS / "vscode-e2e.json")
    assert not data["errors"], f"{data['errors']}\n{json.dumps(data, indent=1)[:4000]}\n{completed.stderr[-2000:]}"
    assert (ARTIFACTS / "vscode.png").exists(), "e2e.js took no screenshot"

    # Out of the box: the bundled server, started by a Python found on PATH.
    assert len(data["server_processes"]) == 1, data["server_processes"]
    assert data["server_processes"][0].split()[0].endswith(("python3", "python")), data["server_processes"]
    assert "bundled/tool/server.py --stdio" in data["server_processes"][0], data["server_processes"]
    assert data["language"] == "JSON Lines"

    # Before a session file is open the Session Tree explains itself; right after one opens (no click in the
    # editor yet) it shows that file's tree, and the welcome text is gone.
    assert "No session file is active" in data["tree_welcome"], data["tree_welcome"]
    assert data["tree_rows_before_open"] == [], data["tree_rows_before_open"]
    on_open = " | ".join(data["tree_on_open"])
    assert "user: Fix the failing parser test" in on_open and "2 branches" in on_open, data["tree_on_open"]
    assert data["tree_welcome_on_open"] == "", data["tree_welcome_on_open"]
    thndrs = " | ".join(data["thndrs_tree_on_open"])
    assert "Fix day-first dates" in thndrs and "Fix the failing parser test" not in thndrs, data["thndrs_tree_on_open"]
    assert "user: Fix the failing parser test" in " | ".join(data["tree_back"]), data["tree_back"]
    # With no session file in any editor the view says so instead of keeping the last file's tree.
    assert "No session file is active" in data["tree_welcome_other"], data["tree_welcome_other"]
    assert data["tree_rows_other"] == [], data["tree_rows_other"]
    assert "user: Fix the failing parser test" in " | ".join(data["tree_back_again"]), data["tree_back_again"]

    problems = " | ".join(data["problems"])
    assert "ELY042" in problems and "ELY002" in problems, problems
    assert data["squiggles"] > 0
    assert "Elyra" in data["status"], data["status"]

    assert "Fix the failing parser test" in data["hover"], data["hover"]
    parent_line = line_of_id("a1000001")
    assert data["before_definition"].startswith(f"Ln {hover[0] + 1},")
    assert data["after_definition"].startswith(f"Ln {parent_line + 1},"), data["after_definition"]

    outline = " | ".join(data["outline"])
    assert "Fix the failing parser test" in outline, outline

    tree = " | ".join(data["tree"])
    assert "user: Fix the failing parser test" in tree, tree
    assert "2 branches" in tree, tree
    assert "active leaf" in tree, tree
    # "Ship it" has parentId 'deadbeef', which names no entry: an orphan root, marked with why.
    orphan = [row for row in data["tree"] if "Ship it" in row]
    assert orphan and "orphan: " in orphan[0] and "deadbeef" in orphan[0], data["tree"]
    assert all("orphan" not in row for row in data["tree"] if "Ship it" not in row), data["tree"]

    assert "context at line" in data["context_tab"]
    assert "Model context from line" in data["context_text"], data["context_text"]

    # No server can start: exactly one notification, and it names the setting to fix.
    toasts = [toast for toast in data["no_server_toasts"] if "Session LSP" in toast or "session-lsp" in toast]
    assert len(toasts) == 1, data["no_server_toasts"]
    assert "/nonexistent/session-lsp" in toasts[0] and "sessionLsp.server.path" in toasts[0], toasts[0]
    assert "no server" in data["no_server_status"]

    # Only a run that passed refreshes the README's screenshot.
    if os.environ.get("SESSION_LSP_UPDATE_SCREENSHOT"):
        DOCS_SCREENSHOT.parent.mkdir(exist_ok=True)
        shutil.copyfile(ARTIFACTS / "vscode.png", DOCS_SCREENSHOT)
