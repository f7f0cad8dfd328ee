"""Whether the package's bytecode is cached, which every benchmark prints first: without it (an editable install
under PYTHONDONTWRITEBYTECODE=1, and no `make setup`) every `session-lsp` process compiles its modules again,
about a third of a second a run, and a timing of `check` says more about the compiler than about the checker."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

_HEADER = 16
"""A .pyc starts with the magic number, the flags, and (timestamp-checked) the source's mtime and size: PEP 552."""


def _current(source: Path) -> bool:
    """Whether the import system would use `source`'s cached bytecode instead of compiling it."""
    cached = Path(importlib.util.cache_from_source(str(source)))
    try:
        header = cached.read_bytes()[:_HEADER]
    except OSError:
        return False
    if len(header) < _HEADER or header[:4] != importlib.util.MAGIC_NUMBER:
        return False
    if int.from_bytes(header[4:8], "little") & 1:  # hash-based: validated against the source, or unchecked
        return True
    stat = source.stat()
    return (int.from_bytes(header[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
            and int.from_bytes(header[12:16], "little") == stat.st_size & 0xFFFFFFFF)


def state(package: str = "session_lsp") -> str:
    """One line: how many of the package's modules have current bytecode, and PYTHONDONTWRITEBYTECODE."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return f"bytecode: {package} is not importable"
    sources = sorted(Path(spec.origin).parent.rglob("*.py"))
    stale = [source for source in sources if not _current(source)]
    flag = os.environ.get("PYTHONDONTWRITEBYTECODE")
    setting = f"PYTHONDONTWRITEBYTECODE={flag}" if flag else "PYTHONDONTWRITEBYTECODE unset"
    if not stale:
        return f"bytecode: cached for all {len(sources)} modules of {package} ({setting})"
    fix = "; every process compiles them again: run `make setup`" if flag else \
        "; the first process compiles and caches them"
    return f"bytecode: NOT cached for {len(stale)} of {len(sources)} modules of {package} ({setting}){fix}"
