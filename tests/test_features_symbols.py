"""Document symbols: the Elyra tree nested only at branch points (active branch first), thndrs turns with their
records, an announced cap, and speed on a 100,000-entry file."""

from __future__ import annotations

import json
import time
from pathlib import Path

from session_lsp.analysis import Document, Span, analyze
from session_lsp.analysis.features import Symbol, document_symbols

FIXTURES = Path(__file__).parent / "fixtures" / "features"


def load(name: str) -> Document:
    return analyze((FIXTURES / name).read_text(encoding="utf-8"))


def outline(symbols: tuple[Symbol, ...] | list[Symbol], depth: int = 0) -> list[str]:
    out: list[str] = []
    for symbol in symbols:
        out.append("  " * depth + symbol.name)
        out.extend(outline(symbol.children, depth + 1))
    return out


def linear(entries: int) -> str:
    lines = [json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00.000Z",
                         "cwd": "/w"})]
    parent = None
    for index in range(entries):
        entry_id = f"{index:08x}"
        lines.append(json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                                 "timestamp": "2026-01-01T00:00:01.000Z",
                                 "message": {"role": "user", "content": f"question {index}", "timestamp": 1}}))
        parent = entry_id
    return "\n".join(lines) + "\n"


def test_elyra_tree_nests_only_at_the_branch_point() -> None:
    doc = load("elyra-branched.jsonl")
    symbols = document_symbols(doc)
    assert outline(symbols) == [
        "session",
        "user: Hello there second line",
        "assistant → bash",
        "toolResult bash",
        "assistant: There is a.txt.",
        "⎇ active branch 2/2: user: Branch two question",
        "  user: Branch two question",
        '  label "checkpoint"',
        "  assistant → read",
        "⎇ branch 1/2: user: Branch one question",
        "  user: Branch one question",
        "  assistant: Answer one.",
    ]
    point, active, other = symbols[4], symbols[5], symbols[6]
    assert point.detail == "line 5 · label checkpoint · 2 branches"
    assert active.kind == "namespace" and active.detail == "3 entries from line 8"
    assert active.span == Span(7, 0, 9, len(doc.lines[9]))
    assert active.selection_span == Span(7, 0, 7, len(doc.lines[7]))
    assert active.children[2].detail == "line 10 · leaf"
    assert other.span == Span(5, 0, 6, len(doc.lines[6]))
    assert symbols[0].kind == "file" and symbols[0].detail == "session v3 · 0194a000-0000-7000-8000-000000000001"


def test_thndrs_turns_hold_their_records() -> None:
    doc = load("thndrs-session.jsonl")
    symbols = document_symbols(doc)
    assert outline(symbols) == [
        "session_meta: demo",
        "turn-1 — user: List the files please",
        "  user: List the files please",
        "  tool_started bash #call-1",
        "  usage 10 in / 5 out",
        "  tool_finished Ok #call-1",
        "  assistant: There is a.txt",
        "turn-2 — user: Run it",
        "  user: Run it",
        "  tool_started bash #call-2",
        "  tool_finished Ok #call-9",
    ]
    assert symbols[1].detail == "4 records + 1 without a turn_id"  # the usage record has none, as in thndrs
    assert symbols[2].detail == "3 records, not settled"
    assert symbols[1].span == Span(1, 0, 5, len(doc.lines[5]))


def test_a_linear_run_is_one_level() -> None:
    doc = analyze(linear(10_000))
    symbols = document_symbols(doc, limit=20_000)
    assert len(symbols) == 10_001
    assert all(not symbol.children for symbol in symbols)
    assert symbols[-1].name == "user: question 9999" and symbols[-1].detail == "line 10001 · leaf"


def test_the_cap_is_announced() -> None:
    doc = analyze(linear(300))
    symbols = document_symbols(doc, limit=100)
    assert len(symbols) == 101
    assert symbols[-1].name == "… 201 more entries not shown"
    assert symbols[-1].kind == "null"
    thndrs = document_symbols(load("thndrs-session.jsonl"), limit=4)
    assert outline(thndrs) == ["session_meta: demo", "turn-1 — user: List the files please",
                               "  user: List the files please", "  tool_started bash #call-1",
                               "… 6 more records not shown"]


def test_other_files_have_no_symbols() -> None:
    assert document_symbols(analyze('{"a": 1}\n')) == []


def test_symbols_of_100k_entries_are_fast() -> None:
    doc = analyze(linear(100_000))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        symbols = document_symbols(doc)
        best = min(best, time.perf_counter() - start)
    assert symbols[-1].name == "… 95,001 more entries not shown"
    assert best < 0.3
