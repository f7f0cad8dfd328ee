"""Claude Code's fixers (session_lsp/analysis/claude/fixes.py) on hostile input: every field of every record
of the cases the fixers act on, replaced by a value of every JSON kind, is fixed to a fixpoint with `--unsafe-fixes`
without raising, and the fixed text is analysed again without raising. What each fix writes is in tests/fix_cases/;
what Claude Code then sends is the repair proof's (tests/test_repair_claude.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from session_lsp.analysis import Options
from session_lsp.analysis.document import analyze
from session_lsp.analysis.features.fixes import fix_document

CASES = Path(__file__).parent / "cases" / "claude"
FILES = ("CCD030-result-id-edited.jsonl", "CCD020-dangling-parent-to-row-without-uuid.jsonl",
         "CCD001-torn-then-appended.jsonl", "CCD043-thinking-not-first.jsonl")
KINDS: tuple[Any, ...] = (None, True, 1.5, 2**70, "", "u1", [1, "a"], {"k": 1})

Path_ = tuple[str | int, ...]


def _paths(record: dict[str, Any]) -> Iterator[Path_]:
    """Each top-level field, each field of `message`, and each field of its first two content blocks."""
    yield from ((key,) for key in record)
    message = record.get("message")
    if isinstance(message, dict):
        yield from (("message", key) for key in message)
        content = message.get("content")
        for number, block in enumerate(content[:2] if isinstance(content, list) else []):
            if isinstance(block, dict):
                yield from (("message", "content", number, key) for key in block)


def _replaced(record: dict[str, Any], path: Path_, value: Any) -> str:
    copy = json.loads(json.dumps(record))
    inner = copy
    for step in path[:-1]:
        inner = inner[step]
    inner[path[-1]] = value
    return json.dumps(copy)


def _variants(name: str) -> Iterator[str]:
    lines = (CASES / name).read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            for path in _paths(record):
                for value in KINDS:
                    yield "\n".join([*lines[:number], _replaced(record, path, value), *lines[number + 1:]])


@pytest.mark.parametrize("name", FILES)
def test_the_fixers_take_any_value_in_any_field(name: str) -> None:
    count = 0
    for text in _variants(name):
        repaired = fix_document(analyze(text, Options(path=name)), unsafe=True)
        analyze(repaired.text, Options(path=name)).diagnostics()
        count += 1
    assert count > 300
