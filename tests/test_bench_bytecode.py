"""The line every benchmark prints first: whether the package's modules have bytecode the import system would use,
so a timing that includes compiling them (an editable install under PYTHONDONTWRITEBYTECODE=1) says so."""

from __future__ import annotations

import compileall
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bytecode


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "bench_bytecode_pkg"
    (root / "sub").mkdir(parents=True)
    for name in ("__init__.py", "sub/__init__.py", "sub/mod.py"):
        (root / name).write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    yield root


def test_uncompiled_then_compiled_then_edited(package: Path) -> None:
    name = package.name
    assert bytecode.state(name) == (f"bytecode: NOT cached for 3 of 3 modules of {name} (PYTHONDONTWRITEBYTECODE=1); "
                                    "every process compiles them again: run `make setup`")
    assert compileall.compile_dir(str(package), quiet=1)
    assert bytecode.state(name) == f"bytecode: cached for all 3 modules of {name} (PYTHONDONTWRITEBYTECODE=1)"
    edited = package / "sub" / "mod.py"
    edited.write_text("VALUE = 22\n", encoding="utf-8")  # another size: the cached header no longer matches
    later = edited.stat().st_mtime + 5
    os.utime(edited, (later, later))
    assert bytecode.state(name).startswith(f"bytecode: NOT cached for 1 of 3 modules of {name}")


def test_without_the_variable_the_first_process_caches_them(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE")
    assert bytecode.state(package.name).endswith("(PYTHONDONTWRITEBYTECODE unset); the first process compiles and "
                                                 "caches them")
