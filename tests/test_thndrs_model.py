"""The thndrs link model: turns, seq index, pairs, title and the references navigation uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from session_lsp.analysis import Options, analyze
from session_lsp.analysis.results import Reference
from session_lsp.analysis.thndrs.model import ThndrsModel

CLEAN = Path(__file__).parent / "cases" / "thndrs" / "clean-full-session.jsonl"
TEXT = CLEAN.read_text(encoding="utf-8")
RECORDS = [json.loads(line) for line in TEXT.splitlines()]


def model(text: str = TEXT, path: str | None = None) -> ThndrsModel:
    found = analyze(text, Options(path=path)).linked.model
    assert isinstance(found, ThndrsModel)
    return found


def record_at(line: int | None) -> dict[str, Any]:
    assert line is not None
    return RECORDS[line]


def lines_of(record_type: str, **match: object) -> list[int]:
    return [n for n, r in enumerate(RECORDS)
            if r["type"] == record_type and all(r.get(k) == v for k, v in match.items())]


def test_turns() -> None:
    turns = model().turns
    assert list(turns) == ["turn-1", "turn-2", "turn-3", "turn-4"]
    for turn_id, turn in turns.items():
        assert turn.user == lines_of("user", turn_id=turn_id)[0]
        assert turn.lines == [n for n, r in enumerate(RECORDS) if r.get("turn_id") == turn_id]
    assert record_at(turns["turn-1"].closing)["type"] == "assistant_finished"
    assert record_at(turns["turn-3"].closing)["type"] == "cancelled"
    assert record_at(turns["turn-4"].closing)["type"] == "failed"


def test_covered_lines_are_the_first_lines_with_the_seqs_compactions_name() -> None:
    covered = {seq for r in RECORDS if r["type"] == "compaction"
               for seq in (r["audit"]["covered_start_seq"], r["audit"]["covered_end_seq"])}
    first: dict[int, int] = {}
    for number, record in enumerate(RECORDS):
        first.setdefault(record["seq"], number)
    assert covered and model().covered_lines == {seq: first[seq] for seq in covered if seq in first}


def test_pairs() -> None:
    m = model()
    assert len(m.tool_calls) == 6
    for call in m.tool_calls:
        assert record_at(call.started)["type"] == "tool_started" and record_at(call.finished)["type"] == "tool_finished"
        assert record_at(call.started)["call_id"] == record_at(call.finished)["call_id"] == call.call_id
        assert record_at(call.started)["turn_id"] == record_at(call.finished)["turn_id"] == call.turn_id
    (permission,) = m.permissions
    assert (permission.request, permission.outcome) == (lines_of("acp_permission_request")[0],
                                                         lines_of("acp_permission_outcome")[0])
    (process,) = m.processes
    assert (process.running, process.terminal) == tuple(lines_of("shell_exec", process_id=7))


def test_title_is_the_latest_rename_else_the_meta_title_else_the_stem() -> None:
    assert model().title == "Day-first dates in parse_date"
    without_rename = "\n".join(line for line in TEXT.splitlines() if '"session_renamed"' not in line)
    assert model(without_rename).title == "Fix day-first dates"
    without_meta = "\n".join(TEXT.splitlines()[1:])
    assert model(without_meta, "/w/.thndrs/sessions/session-20260427-081029.jsonl").title == \
        "Day-first dates in parse_date"
    bare = "\n".join(line for line in TEXT.splitlines()[1:] if '"session_renamed"' not in line)
    assert model(bare, "/w/.thndrs/sessions/session-20260427-081029.jsonl").title == "session-20260427-081029"


def _targets(m: ThndrsModel, line: int) -> dict[str, int | None]:
    return {reference.field: reference.target for reference in m.references_from(line)}


def test_references_from_each_kind_of_link() -> None:
    m = model()
    user_1 = lines_of("user", turn_id="turn-1")[0]
    finish = lines_of("tool_finished", call_id="call-2")[0]
    start = lines_of("tool_started", call_id="call-2")[0]
    assert _targets(m, finish) == {"turn_id": user_1, "call_id": start}
    assert _targets(m, start) == {"turn_id": user_1}
    assert _targets(m, lines_of("acp_permission_outcome")[0]) == {
        "turn_id": lines_of("user", turn_id="turn-2")[0], "tool_call_id": lines_of("acp_permission_request")[0]}
    running, terminal = lines_of("shell_exec", process_id=7)
    assert _targets(m, terminal)["process_id"] == running
    assert "process_id" not in _targets(m, running)
    compaction = lines_of("compaction")[0]
    assert _targets(m, lines_of("compaction_review")[0]) == {"recovery_handle": compaction}
    assert _targets(m, compaction) == {"covered_start_seq": m.covered_lines[5], "covered_end_seq": m.covered_lines[30]}
    assert _targets(m, lines_of("acp_session")[0]) == {"local_session_id": 0}
    accounting = lines_of("request_accounting")[0]
    assert [(r.path, r.target) for r in m.references_from(accounting)] == [
        (("turn_id",), user_1), (("accounting", "turn_id"), user_1)]


def test_a_reference_carries_its_path_and_value() -> None:
    m = model()
    finish = lines_of("tool_finished", call_id="call-1", turn_id="turn-2")[0]
    assert Reference(finish, ("call_id",), "call_id", "call-1", lines_of("tool_started", turn_id="turn-2")[0]) in \
        m.references_from(finish)


def test_references_to_is_the_inverse() -> None:
    m = model()
    user_1 = lines_of("user", turn_id="turn-1")[0]
    incoming = m.references_to(user_1)
    expected = {n for n, r in enumerate(RECORDS) if r.get("turn_id") == "turn-1" and n != user_1}
    assert {r.line for r in incoming if r.field == "turn_id" and r.path == ("turn_id",)} == expected
    for line in range(len(RECORDS)):
        for reference in m.references_from(line):
            if reference.target is not None:
                assert reference in m.references_to(reference.target)


def test_identity() -> None:
    m = model()
    assert m.identity(lines_of("user", turn_id="turn-2")[0]) == (("turn_id",), "turn-2")
    assert m.identity(lines_of("tool_started", call_id="call-4")[0]) == (("call_id",), "call-4")
    assert m.identity(lines_of("acp_permission_request")[0]) == (("tool_call_id",), "toolu_01")
    assert m.identity(lines_of("shell_exec", process_id=7)[0]) == (("process_id",), "7")
    assert m.identity(0) == (("session_id",), "session-20260427-081029")
    assert m.identity(lines_of("compaction")[0]) == (("audit", "recovery_handles", 0), "recovery_turns_1_2")
    usage = lines_of("usage")[0]
    assert m.identity(usage) == (("seq",), str(RECORDS[usage]["seq"]))
    assert m.identity(len(RECORDS) + 5) is None


def test_dangling_references_have_no_target() -> None:
    lines = TEXT.splitlines()
    finish = lines_of("tool_finished", call_id="call-1", turn_id="turn-1")[0]
    lines[finish] = lines[finish].replace('"call_id":"call-1"', '"call_id":"call-9"')
    m = model("\n".join(lines))
    assert _targets(m, finish)["call_id"] is None
    assert m.references_from(-1) == [] and m.references_to(10_000) == []
