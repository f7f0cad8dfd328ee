"""The Makefile's promises to a newcomer: a stale .venv is rebuilt, and `make test` shows why tests were skipped."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAKEFILE = ROOT / "Makefile"

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(folder: Path, python_exit: int) -> str:
    """`make -n setup` in a copy of the Makefile whose installed .venv has a Python that exits `python_exit`
    for the version check (1: older than 3.11), and an install stamp newer than pyproject.toml."""
    shutil.copy(MAKEFILE, folder / "Makefile")
    (folder / "pyproject.toml").write_text("", encoding="utf-8")
    bin_dir = folder / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(f"#!/bin/sh\nexit {python_exit}\n", encoding="utf-8")
    python.chmod(0o755)
    stamp = folder / ".venv" / ".installed"
    stamp.touch()
    later = (folder / "pyproject.toml").stat().st_mtime + 10
    os.utime(stamp, (later, later))
    result = subprocess.run(["make", "-n", "setup"], cwd=folder, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_venv_of_a_too_old_python_is_rebuilt(tmp_path: Path) -> None:
    out = dry_run(tmp_path, python_exit=1)
    assert "older than 3.11" in out
    assert "rm -rf .venv" in out
    assert "-m venv .venv" in out


def test_a_current_venv_is_left_alone(tmp_path: Path) -> None:
    out = dry_run(tmp_path, python_exit=0)
    assert "rm -rf" not in out
    assert "-m venv" not in out


def test_make_test_shows_skip_reasons() -> None:
    recipe = MAKEFILE.read_text(encoding="utf-8").split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "pytest" in recipe and "-rs" in recipe.split()


def test_setup_keeps_pip_quiet_unless_it_fails(tmp_path: Path) -> None:
    shutil.copy(MAKEFILE, tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    result = subprocess.run(["make", "-n", "demo"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    commands = result.stdout.replace("\\\n", "").splitlines()
    pip = [line for line in commands if "pip install" in line]
    assert pip and all(">.venv/setup.log 2>&1" in line and "cat .venv/setup.log" in line for line in pip)
    assert "meant to have errors" in result.stdout


def test_the_license_is_an_spdx_string_with_a_license_file() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert project["project"]["license-files"] == ["LICENSE"]
    assert "setuptools>=77" in project["build-system"]["requires"]  # the first setuptools to accept the string
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Copyright (c) 2026 the session-lsp authors" in text


def test_make_check_runs_ruff_and_mypy_from_the_venv(tmp_path: Path) -> None:
    shutil.copy(MAKEFILE, tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    result = subprocess.run(["make", "-n", "check"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    commands = result.stdout.replace("\\\n", "").splitlines()
    assert ".venv/bin/ruff check ." in commands and ".venv/bin/mypy" in commands
    assert any("pip install -e '.[test,dev]'" in line for line in commands)  # setup installs the gate's tools


def test_ci_runs_the_gate_before_the_tests() -> None:
    steps = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if line.startswith("make ")]
    assert steps.index("make check") < steps.index("make test")


def test_the_gate_tools_are_pinned_and_the_hooks_run_the_pinned_ones() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dev = project["project"]["optional-dependencies"]["dev"]
    pins = dict(requirement.split("==") for requirement in dev)
    assert {"ruff", "mypy", "pre-commit"} <= set(pins) and len(pins) == len(dev)
    hooks = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "repo: local" in hooks and "entry: .venv/bin/ruff check" in hooks and "entry: .venv/bin/mypy" in hooks


def dry(target: str, folder: Path) -> list[str]:
    """The commands `make -n TARGET` would run in a copy of the Makefile, continuation lines joined."""
    shutil.copy(MAKEFILE, folder / "Makefile")
    (folder / "pyproject.toml").write_text("", encoding="utf-8")
    result = subprocess.run(["make", "-n", target], cwd=folder, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.replace("\\\n", "").splitlines()


def test_make_test_installs_what_the_tests_drive_first_one_quiet_line_each(tmp_path: Path) -> None:
    commands = dry("test", tmp_path)
    pytest_at = next(i for i, line in enumerate(commands) if "-m pytest" in line)
    for script, log in (("tests/conformance/install.sh", ".venv/install-pi.log"),
                        ("editors/install-test-editors.sh", ".venv/install-editors.log")):
        at, line = next((i, line) for i, line in enumerate(commands) if f"bash {script}" in line)
        assert at < pytest_at
        assert f"bash {script} >{log} 2>&1" in line and f"cat {log}" in line  # the log only when it fails
        assert line.count("echo ") == 3  # one status line; on failure, "failed" and where the log is


def test_setup_compiles_the_package_to_bytecode(tmp_path: Path) -> None:
    """With an editable install and PYTHONDONTWRITEBYTECODE=1 nothing else would ever compile it."""
    for target in ("setup", "demo"):  # demo on a fresh clone builds the .venv, and compiles with it
        assert ".venv/bin/python -m compileall -q session_lsp" in dry(target, tmp_path)


def test_ci_installs_with_the_make_target_that_make_test_uses() -> None:
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test-deps" in text.splitlines()
    assert "install.sh" not in text and "install-test-editors" not in text  # one place says how to install
