"""Folding: contiguous stretches of one Elyra run or one thndrs turn."""

from __future__ import annotations

import json
from pathlib import Path

from session_lsp.analysis import Document, analyze
from session_lsp.analysis.features import FoldingRange, folding_ranges

FIXTURES = Path(__file__).parent / "fixtures" / "features"


def load(name: str) -> Document:
    return analyze((FIXTURES / name).read_text(encoding="utf-8"))


def entry(entry_id: str, parent: str | None, text: str) -> str:
    return json.dumps({"type": "message", "id": entry_id, "parentId": parent, "timestamp": "2026-01-01T00:00:01.000Z",
                       "message": {"role": "user", "content": text, "timestamp": 1}})


HEADER = json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/"})


def test_elyra_runs_fold_where_contiguous() -> None:
    assert folding_ranges(load("elyra-branched.jsonl")) == [
        FoldingRange(1, 4), FoldingRange(5, 6), FoldingRange(7, 9)]


def test_interleaved_branches_do_not_fold() -> None:
    lines = [HEADER, entry("a0000001", None, "root"), entry("b0000001", "a0000001", "b1"),
             entry("c0000001", "a0000001", "c1"), entry("b0000002", "b0000001", "b2"),
             entry("c0000002", "c0000001", "c2")]
    assert folding_ranges(analyze("\n".join(lines) + "\n")) == []


def test_a_blank_line_does_not_break_a_run() -> None:
    lines = [HEADER, entry("a0000001", None, "one"), "", entry("a0000002", "a0000001", "two")]
    assert folding_ranges(analyze("\n".join(lines) + "\n")) == [FoldingRange(1, 3)]


def test_thndrs_turns_fold() -> None:
    assert folding_ranges(load("thndrs-session.jsonl")) == [FoldingRange(1, 5), FoldingRange(6, 8)]


def test_no_folds_for_other_files() -> None:
    assert folding_ranges(analyze('{"a": 1}\n{"b": 2}\n')) == []
