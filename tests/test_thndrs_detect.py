"""thndrs detection: look-alikes stay unknown, session files with a damaged start are still thndrs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_lsp.analysis import Kind, Options, analyze

CONFUSABLES = Path(__file__).resolve().parent / "corpus" / "confusables"
CASES = Path(__file__).parent / "cases" / "thndrs"


def _confusables() -> list[Path]:
    return sorted(CONFUSABLES.glob("*.jsonl"))


def test_the_corpus_has_the_headless_streams() -> None:
    assert len(_confusables()) == 4


@pytest.mark.parametrize("path", _confusables(), ids=lambda p: p.name)
def test_headless_event_stream_is_not_a_session(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    document = analyze(text, Options(path=path.name))
    assert document.format.kind is Kind.UNKNOWN
    diagnostics = document.diagnostics()
    assert [(d.code, d.severity.label, d.span.line) for d in diagnostics] == [("SLS001", "information", 0)]


def _record(kind: str, seq: int, **fields: object) -> str:
    return json.dumps({"type": kind, "schema_version": 1, "seq": seq, "time": "2026-04-27T08:10:29Z", **fields},
                      separators=(",", ":"))


def test_a_file_starting_with_another_record_is_thndrs_and_says_so() -> None:
    text = _record("user", 0, turn_id="turn-1", text="hi") + "\n" + _record(
        "assistant_finished", 1, turn_id="turn-1", text="hello") + "\n"
    document = analyze(text)
    assert document.format.kind is Kind.THNDRS
    assert [(d.code, d.span.line) for d in document.diagnostics()] == [("THN020", 0)]


def test_a_file_starting_with_another_builds_record_is_thndrs() -> None:
    text = _record("session_fork", 0, parent_session_id="session-20260426-170000", parent_turn_id="turn-2",
                   lineage=[]) + "\n"
    document = analyze(text)
    assert document.format.kind is Kind.THNDRS
    assert [d.code for d in document.diagnostics()] == ["THN006"]


def test_every_thndrs_case_is_detected_as_thndrs() -> None:
    for case in sorted(CASES.glob("*.jsonl")):
        text = case.read_bytes().decode("utf-8", errors="replace")
        assert analyze(text).format.kind is Kind.THNDRS, case.name
