"""The hooks users add to their `.pre-commit-config.yaml` (`.pre-commit-hooks.yaml`), run by the real pre-commit
(the `dev` extra pins it) in a temporary git repository whose hook repository is a clone of this project at HEAD
(so a change to the hooks is tested once it is committed).

The hooks are `language: python`: pre-commit makes a virtual environment and pip-installs session-lsp from the
hook repository, which is what a user wants (nothing to install first). So that the test needs no network, pip is
given a folder of wheels and nothing else (`PIP_NO_INDEX`, no configuration file): session-lsp's dependencies,
packed from the distributions this test runs with, and the setuptools wheel that virtualenv (a dependency of
pre-commit) embeds, for the build. What pre-commit runs is then exactly what the hook file says.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
CLEAN = ROOT / "examples" / "clean" / "elyra-branched.jsonl"
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]


def _wheel(distribution: importlib.metadata.Distribution, folder: Path) -> None:
    """An installed distribution packed back into a wheel: the files its RECORD lists inside site-packages (no
    scripts, no bytecode, not the installer's own marks), with a RECORD of their hashes."""
    tags = [line.split(":", 1)[1].strip() for line in (distribution.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag:")]
    assert tags, f"{distribution.name} was not installed from a wheel"
    name = canonicalize_name(distribution.name).replace("-", "_")
    parts = [sorted({tag.split("-")[i] for tag in tags}) for i in range(3)]
    path = folder / f"{name}-{distribution.version}-{'-'.join('.'.join(part) for part in parts)}.whl"
    skipped = ("INSTALLER", "REQUESTED", "direct_url.json", "RECORD")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        record = []
        dist_info = None
        for file in distribution.files or ():
            text = file.as_posix()
            if text.startswith("..") or "__pycache__" in text or text.endswith(".pyc"):
                continue
            if ".dist-info/" in text:
                dist_info = text.split("/", 1)[0]
                if text.rsplit("/", 1)[1] in skipped:
                    continue
            data = Path(str(file.locate())).read_bytes()
            archive.writestr(text, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{text},sha256={digest},{len(data)}")
        assert dist_info is not None
        record.append(f"{dist_info}/RECORD,,")
        archive.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")


def _requirements(name: str) -> list[str]:
    found = []
    for raw in importlib.metadata.requires(name) or ():
        requirement = Requirement(raw)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            found.append(requirement.name)
    return found


def wheelhouse(folder: Path) -> Path:
    """Wheels of session-lsp's runtime dependencies (their closure) and of a setuptools that can build it."""
    folder.mkdir()
    seen: set[str] = set()
    todo = _requirements("session-lsp")
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        _wheel(importlib.metadata.distribution(name), folder)
        todo += _requirements(name)
    import virtualenv

    embedded = Path(virtualenv.__file__).parent / "seed" / "wheels" / "embed"
    newest = max(embedded.glob("setuptools-*.whl"), key=lambda p: [int(x) for x in p.name.split("-")[1].split(".")])
    assert int(newest.name.split("-")[1].split(".")[0]) >= 77, newest  # what pyproject.toml's build needs
    shutil.copy(newest, folder)
    return folder


def git(folder: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """git, with what a commit needs set here (the hooks it runs write to its standard error)."""
    return subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid",
                           "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                          cwd=folder, capture_output=True, text=True, timeout=600, check=False, env=env)


@pytest.fixture(scope="module")
def user_repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("pre-commit")
    hooks = base / "hooks"
    cloned = subprocess.run(["git", "clone", "--quiet", str(ROOT), str(hooks)], capture_output=True, text=True,
                            timeout=300)
    assert cloned.returncode == 0, cloned.stderr
    revision = git(hooks, "rev-parse", "HEAD").stdout.strip()
    user = base / "user"
    user.mkdir()
    assert git(user, "init", "--quiet").returncode == 0
    (user / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {revision}\n    hooks:\n"
        "      - id: session-lsp-check\n      - id: session-lsp-fix\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PIP_", "PRE_COMMIT", "GIT_"))}
    env |= {"PRE_COMMIT_HOME": str(base / "cache"), "PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull,
            "PIP_FIND_LINKS": str(wheelhouse(base / "wheels")), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "HOME": str(base), "NO_COLOR": "1"}
    return user, env


def glued() -> bytes:
    """The clean example with its lines 2 and 3 glued together (ELY002, safely fixed by a split)."""
    lines = CLEAN.read_bytes().split(b"\n")
    return b"\n".join([lines[0], lines[1] + lines[2], *lines[3:]])


def test_the_hooks_check_and_fix_session_files_in_a_real_commit(user_repository: tuple[Path, dict[str, str]]) -> None:
    user, env = user_repository
    (user / "session.jsonl").write_bytes(glued())
    (user / "clean.jsonl").write_bytes(CLEAN.read_bytes())
    (user / "notes.json").write_text("{not json, and no hook looks at it\n", encoding="utf-8")
    assert git(user, "add", "-A").returncode == 0

    def pre_commit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*PRE_COMMIT, *args], cwd=user, env=env, capture_output=True, text=True, timeout=600)

    checked = pre_commit("run", "session-lsp-check", "--all-files")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "session.jsonl:2:" in checked.stdout and " ELY002 [error] " in checked.stdout
    assert "clean.jsonl:" not in checked.stdout and "notes.json" not in checked.stdout
    assert "2 files checked: " in checked.stdout  # only the *.jsonl files were handed to it

    installed = pre_commit("install")
    assert installed.returncode == 0, installed.stderr
    refused = git(user, "commit", "-m", "a glued session", env=env)
    said = refused.stdout + refused.stderr
    assert refused.returncode != 0, said
    assert "session-lsp check" in said and "Failed" in said and "ELY002" in said
    # the fix hook ran in the same commit attempt: it split the line (pre-commit fails a hook that changes files)
    assert (user / "session.jsonl").read_bytes() == CLEAN.read_bytes()
    assert "fixed ELY002 (concatenated-records)" in said
    assert "files were modified by this hook" in said
    assert git(user, "log").returncode != 0  # nothing was committed

    assert git(user, "add", "-A").returncode == 0
    committed = git(user, "commit", "-m", "the session, repaired", env=env)
    said = committed.stdout + committed.stderr
    assert committed.returncode == 0, said
    assert said.count("Passed") == 2 and "session-lsp check" in said and "session-lsp fix" in said
    assert git(user, "show", "HEAD:session.jsonl").stdout.encode() == CLEAN.read_bytes()
