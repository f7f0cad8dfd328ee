"""The thndrs link pass: what the rule cases cannot show (related ends, fix data, severities, file names, edits)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from session_lsp.analysis import Document, Options, Severity, analyze
from session_lsp.analysis.thndrs.checks import file_parts

SID = "session-20260427-081029"


class Session:
    """Records with seq 0, 1, 2, ... and 7-second steps, as thndrs's fixture generator writes them."""

    def __init__(self, meta: bool = True, session_id: str = SID) -> None:
        self.lines: list[str] = []
        if meta:
            self.add("session_meta", session_id=session_id, cwd="/w", title="Title", provider="p", model="m",
                     websearch="off", app_version="0.1.0")

    def add(self, record_type: str, seq: int | None = None, **fields: Any) -> Session:
        n = len(self.lines)
        seconds = 29 + 7 * n
        time = f"2026-04-27T08:{10 + seconds // 60:02d}:{seconds % 60:02d}Z"
        record = {"type": record_type, "schema_version": 1, "seq": n if seq is None else seq, "time": time, **fields}
        self.lines.append(json.dumps(record, separators=(",", ":")))
        return self

    def user(self, turn: str, text: str = "do it") -> Session:
        return self.add("user", turn_id=turn, text=text)

    def done(self, turn: str) -> Session:
        return self.add("assistant_finished", turn_id=turn, text="done")

    def start(self, turn: str, call: str) -> Session:
        return self.add("tool_started", turn_id=turn, call_id=call, name="read", arguments="{}")

    def finish(self, turn: str, call: str, status: str = "Ok") -> Session:
        return self.add("tool_finished", turn_id=turn, call_id=call, status=status, output=[])

    def text(self, final_newline: bool = True) -> str:
        return "\n".join(self.lines) + ("\n" if final_newline else "")

    def document(self, path: str | None = None, final_newline: bool = True) -> Document:
        return analyze(self.text(final_newline), Options(path=path))


def found(document: Document) -> list[tuple[int, str]]:
    return [(d.span.line + 1, d.code) for d in document.diagnostics()]


def test_a_healthy_session_has_nothing_to_report() -> None:
    s = Session().user("turn-1").start("turn-1", "call-1").finish("turn-1", "call-1").done("turn-1")
    assert found(s.document(f"/w/.thndrs/sessions/{SID}.jsonl")) == []


@pytest.mark.parametrize(("path", "reported"), [
    (f"/w/.thndrs/sessions/{SID}.jsonl", False),
    ("/w/.thndrs/sessions/session-20260427-081029-2.jsonl", True),
    ("/w/.thndrs/sessions/renamed.jsonl", True),
    ("C:\\w\\.thndrs\\sessions\\session-20260101-000000.jsonl", True),
    ("/tmp/backup-session-20260101-000000.jsonl", True),
    ("/tmp/exported.jsonl", False),
    (None, False),
])
def test_session_id_against_file_name(path: str | None, reported: bool) -> None:
    s = Session().user("turn-1").done("turn-1")
    assert (("THN022" in {d.code for d in s.document(path).diagnostics()}) is reported)


def test_file_parts() -> None:
    assert file_parts("/a/sessions/x.jsonl") == ("x", "sessions")
    assert file_parts("C:\\a\\b.json") == ("b", "a")
    assert file_parts("plain") == ("plain", None)
    assert file_parts("") == (None, None)


def test_seq_problems_carry_the_renumber_fix() -> None:
    s = Session()
    s.lines.clear()
    s.add("session_meta", seq=3, session_id=SID, cwd="/w", title="T", provider="p", model="m", websearch="off",
          app_version="0.1.0")
    s.add("user", seq=3, turn_id="t", text="x")        # duplicate
    s.add("reasoning_finished", seq=9, turn_id="t", text="x")   # gap
    s.add("assistant_finished", seq=5, turn_id="t", text="x")   # decrease
    diagnostics = s.document().diagnostics()
    assert [(d.span.line, d.code) for d in diagnostics] == [(0, "THN030"), (1, "THN031"), (2, "THN033"),
                                                            (3, "THN032")]
    assert all(d.data == {"renumber": True} for d in diagnostics)
    duplicate = diagnostics[1]
    assert [r.span.line for r in duplicate.related] == [0]
    assert s.lines[1][duplicate.span.start : duplicate.span.end] == "3"


def test_other_rules_carry_no_fix_data() -> None:
    s = Session().user("turn-1").finish("turn-1", "call-9").done("turn-1")
    (diagnostic,) = s.document().diagnostics()
    assert diagnostic.code == "THN040" and diagnostic.data is None


def test_an_unfinished_tool_is_a_warning_only_when_a_later_turn_exists() -> None:
    s = Session().user("turn-1").start("turn-1", "call-1").done("turn-1")
    (only,) = s.document().diagnostics()
    assert (only.code, only.severity) == ("THN041", Severity.INFORMATION)
    s.user("turn-2").done("turn-2")
    (later,) = s.document().diagnostics()
    assert (later.code, later.severity) == ("THN041", Severity.WARNING)


def test_a_later_user_record_of_the_same_turn_is_not_a_later_turn() -> None:
    s = Session().user("turn-1").start("turn-1", "call-1").user("turn-1", "again").done("turn-1")
    (diagnostic,) = s.document().diagnostics()
    assert (diagnostic.code, diagnostic.severity) == ("THN041", Severity.INFORMATION)


def test_a_cross_turn_finish_points_at_the_start() -> None:
    s = Session().user("turn-1").start("turn-1", "call-1").done("turn-1").user("turn-2")
    s.finish("turn-2", "call-1").done("turn-2")
    (diagnostic,) = s.document().diagnostics()
    assert diagnostic.code == "THN042" and [r.span.line for r in diagnostic.related] == [2]


def test_call_ids_restart_in_every_turn() -> None:
    s = Session()
    for turn in ("turn_1", "turn_2", "turn_3"):
        s.user(turn).start(turn, "call_1").finish(turn, "call_1").done(turn)
    assert found(s.document()) == []


def test_problems_are_not_reported_on_records_thndrs_drops() -> None:
    s = Session().user("turn-1")
    s.add("tool_started", turn_id="turn-1", call_id="call-1", name="read", arguments={"path": "x"})  # dropped
    s.add("tool_started", turn_id="turn-1", call_id="call-2", name="read", arguments="{}")
    s.finish("turn-1", "call-2", status="ok")  # dropped, but it still answers call-2
    s.done("turn-1")
    assert found(s.document()) == [(3, "THN008"), (5, "THN009")]


def test_a_truncated_last_line_is_reported_only_without_the_final_newline() -> None:
    s = Session().user("turn-1").done("turn-1")
    s.lines.append(s.lines.pop()[:40])
    assert sorted(found(s.document(final_newline=False))) == [(2, "THN049"), (3, "THN001"), (3, "THN071")]
    assert found(s.document(final_newline=True)) == [(2, "THN049"), (3, "THN001")]


def test_the_end_of_a_file_is_not_a_blank_line() -> None:
    s = Session().user("turn-1").done("turn-1")
    assert found(analyze(s.text() + "\n")) == [(4, "THN070")]
    assert found(analyze(s.text())) == []


def test_a_gap_explained_by_visible_corrupt_lines_is_not_reported() -> None:
    s = Session().user("turn-1")
    s.lines.append('{"type":"reasoning_finished","schema_version":1,"seq":2,"ti')
    s.add("assistant_finished", seq=3, turn_id="turn-1", text="x")
    assert found(s.document()) == [(3, "THN001")]
    s.lines[-1] = s.lines[-1].replace('"seq":3', '"seq":5')
    assert found(s.document()) == [(3, "THN001"), (4, "THN033")]


def test_the_most_common_schema_version_wins() -> None:
    s = Session().user("turn-1").done("turn-1")
    s.lines[1] = s.lines[1].replace('"schema_version":1', '"schema_version":3')
    diagnostics = s.document().diagnostics()
    assert [(d.span.line, d.code) for d in diagnostics] == [(1, "THN034"), (1, "THN035")]
    assert [r.span.line for r in diagnostics[1].related] == [0]


# -- incremental edits ------------------------------------------------------------------------------------------


def test_typing_in_a_text_does_not_rerun_the_link_pass() -> None:
    s = Session().user("turn-1", "hello").done("turn-1")
    document = s.document()
    linked = document.linked
    col = s.lines[1].index("hello")
    document.edit(1, col, 1, col + 5, "goodbye")
    assert document.linked is linked
    assert document.title(1) == "user: goodbye"


@pytest.mark.parametrize("key", ["call_id", "turn_id"])
def test_a_tool_record_losing_its_call_id_is_paired_by_the_whole_link_pass(key: str) -> None:
    """A record already invalid (no `time`) whose call_id (or turn_id) an edit then removes: its facts change only
    there, and such a record is paired by nothing (the relink of a call_id asserted it had one)."""
    s = Session().user("turn-1").start("turn-1", "call-1").finish("turn-1", "call-1").done("turn-1")
    document = s.document()
    document.diagnostics()
    for old, new in (('"time"', '"t1me"'), (f'"{key}"', '"other"')):
        line = document.lines[2]
        document.edit(2, 0, 2, len(line), line.replace(old, new, 1))
        assert document.diagnostics() == Document(document.text).diagnostics()


def test_editing_a_seq_reruns_the_link_pass() -> None:
    s = Session().user("turn-1").done("turn-1")
    document = s.document()
    col = s.lines[2].index('"seq":2') + len('"seq":')
    document.edit(2, col, 2, col + 1, "1")
    assert found(document) == [(3, "THN031")]
    document.edit(2, col, 2, col + 1, "2")
    assert found(document) == []


def test_splitting_a_glued_line_reruns_the_link_pass() -> None:
    s = Session().user("turn-1").add("reasoning_finished", turn_id="turn-1", text="x").done("turn-1")
    glued = s.lines[1] + s.lines[2]
    text = "\n".join([s.lines[0], glued, s.lines[3]]) + "\n"
    document = analyze(text)
    assert found(document) == [(2, "THN001"), (3, "THN048")]  # the user record is lost with the glued line
    document.edit(1, len(s.lines[1]), 1, len(s.lines[1]), "\n")
    assert found(document) == []
