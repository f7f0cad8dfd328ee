"""The thndrs line pass: fast path, slow path, duplicate keys, columns, facts and titles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp.analysis import jsonscan, validate
from session_lsp.analysis.detect import FormatInfo, Kind
from session_lsp.analysis.lines import LineKind
from session_lsp.analysis.thndrs import duplicates, line_pass
from session_lsp.analysis.thndrs.facts import RecordFacts
from session_lsp.analysis.thndrs.schema import RECORD_TYPES

INFO = FormatInfo(Kind.THNDRS, 1, 0)
CLEAN = Path(__file__).parent / "cases" / "thndrs" / "clean-full-session.jsonl"
CLEAN_LINES = CLEAN.read_text(encoding="utf-8").splitlines()
ENVELOPE = '"schema_version":1,"seq":4,"time":"2026-04-27T08:10:29Z"'


def line(record_type: str, **fields: Any) -> str:
    return json.dumps({"type": record_type, "schema_version": 1, "seq": 4, "time": "2026-04-27T08:10:29Z", **fields},
                      separators=(",", ":"))


def codes(text: str) -> list[str]:
    return [issue.code for issue in line_pass.analyze_line(text, INFO).issues]


def spanned(text: str, code: str) -> list[str]:
    return [text[i.start : i.end] for i in line_pass.analyze_line(text, INFO).issues if i.code == code]


class _Forbidden:
    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{self.name} called on the fast path")


class _CountingDecoder:
    def __init__(self, decoder: msgspec.json.Decoder) -> None:
        self.decoder = decoder
        self.calls = 0

    def decode(self, text: str) -> Any:
        self.calls += 1
        return self.decoder.decode(text)


@pytest.fixture
def fast_only(monkeypatch: pytest.MonkeyPatch) -> _CountingDecoder:
    """Fail if anything beyond the one typed decode (and the re-encode) touches the line."""
    counter = _CountingDecoder(line_pass._DECODER)
    monkeypatch.setattr(line_pass, "_DECODER", counter)
    monkeypatch.setattr(line_pass, "decode", _Forbidden("lines.decode"))
    monkeypatch.setattr(jsonscan, "scan", _Forbidden("jsonscan.scan"))
    monkeypatch.setattr(validate, "check", _Forbidden("validate.check"))
    monkeypatch.setattr(duplicates, "has_duplicates", _Forbidden("has_duplicates"))
    return counter


# -- fast path ----------------------------------------------------------------------------------------------------


def test_clean_writer_lines_are_decoded_once_and_never_scanned(fast_only: _CountingDecoder) -> None:
    canonical = [text for text in CLEAN_LINES if '"exit_code":null' not in text]
    for text in canonical:
        result = line_pass.analyze_line(text, INFO)
        assert result.kind is LineKind.OBJECT and result.issues == ()
        assert isinstance(result.facts, RecordFacts) and result.facts.valid
    assert fast_only.calls == len(canonical)


def test_large_hashes_on_a_canonical_line_are_located_without_a_scan(fast_only: _CountingDecoder) -> None:
    big = 2**63 + 5
    source = {"path": "a.md", "scope": ".", "content_hash": big, "truncated": False, "byte_count": 1}
    text = line("context", sources=[source, dict(source, path="b.md")])
    issues = line_pass.analyze_line(text, INFO).issues
    assert [issue.code for issue in issues] == ["THN062", "THN062"]
    assert [text[i.start : i.end] for i in issues] == [str(big), str(big)]
    assert issues[0].start < issues[1].start
    assert "sources[1].content_hash" in issues[1].message


def test_a_crlf_line_is_still_canonical(fast_only: _CountingDecoder) -> None:
    text = line("user", turn_id="turn-1", text="hi")
    assert line_pass.analyze_line(text + "\r", INFO) == line_pass.analyze_line(text, INFO)


def test_integers_beyond_u64_are_caught_although_msgspec_accepts_them() -> None:
    text = line("usage", input_tokens=2**64, output_tokens=1)
    result = line_pass.analyze_line(text, INFO)
    assert [i.code for i in result.issues] == ["THN008"]
    assert spanned(text, "THN008") == [str(2**64)]
    assert result.facts.valid is False


def test_exactly_2_53_is_not_large_but_one_more_is() -> None:
    assert codes(line("usage", input_tokens=2**53, output_tokens=1)) == []
    assert codes(line("usage", input_tokens=2**53 + 1, output_tokens=1)) == ["THN062"]
    assert codes(line("user", turn_id="t", text="x").replace('"seq":4', f'"seq":{2**60}')) == ["THN062"]


# -- duplicate keys -----------------------------------------------------------------------------------------------


def test_a_repeated_top_level_key_is_found() -> None:
    text = line("user", turn_id="turn-1", text="first")[:-1] + ',"text":"second"}'
    result = line_pass.analyze_line(text, INFO)
    assert [i.code for i in result.issues] == ["THN010"]
    assert spanned(text, "THN010") == ['"text"']
    assert result.issues[0].start == text.rindex('"text"')
    assert result.facts.valid is False


def test_a_repeated_nested_key_is_found() -> None:
    source = '{"path":"a","scope":".","content_hash":1,"truncated":false,"truncated":true,"byte_count":1}'
    text = '{"type":"context",' + ENVELOPE + ',"sources":[' + source + "]}"
    assert codes(text) == ["THN010"]


def test_a_key_repeated_through_an_escape_is_found() -> None:
    text = line("user", turn_id="turn-1", text="first")[:-1] + ',"\\u0074ext":"second"}'
    assert codes(text) == ["THN010"]


def test_the_same_key_in_sibling_objects_is_not_a_duplicate() -> None:
    options = [{"id": "a", "name": "A", "kind": "allow once"}, {"id": "b", "name": "B", "kind": "reject once"}]
    assert codes(line("acp_permission_request", turn_id="t", tool_call_id="x", title="T", options=options)) == []


def test_a_non_canonical_line_without_duplicates_is_clean() -> None:
    text = json.dumps(json.loads(line("user", turn_id="turn-1", text="spaced out")), indent=None)
    assert " " in text and codes(text) == []
    reordered = '{"text":"x","turn_id":"t",' + ENVELOPE + ',"type":"user"}'
    assert codes(reordered) == []


def test_duplicates_are_reported_with_schema_errors() -> None:
    text = '{"type":"user",' + ENVELOPE + ',"turn_id":"t","turn_id":5}'
    assert sorted(codes(text)) == ["THN007", "THN008", "THN010"]


# -- slow path ----------------------------------------------------------------------------------------------------


def test_columns_point_at_the_offending_value_or_key() -> None:
    text = line("tool_finished", turn_id="t", call_id="c", status="ok", output=["x"], extra=1, seq2=2)
    result = line_pass.analyze_line(text, INFO)
    assert sorted(i.code for i in result.issues) == ["THN009", "THN011", "THN011"]
    assert spanned(text, "THN009") == ['"ok"']
    assert spanned(text, "THN011") == ['"extra"', '"seq2"']
    assert "thndrs writes 'Ok'" in result.issues[0].message


def test_a_missing_nested_key_points_at_its_object() -> None:
    source = '{"path":"a","scope":".","truncated":false,"byte_count":1}'
    text = '{"type":"context",' + ENVELOPE + ',"sources":[' + source + "]}"
    assert spanned(text, "THN007") == [source]


def test_unknown_keys_do_not_stop_thndrs_reading_the_record() -> None:
    text = line("tool_started", turn_id="turn-1", call_id="?", name="read", arguments="{}", note="x")
    result = line_pass.analyze_line(text, INFO)
    assert sorted(i.code for i in result.issues) == ["THN011", "THN044"]
    assert result.facts == RecordFacts("tool_started", True, 4, "2026-04-27T08:10:29Z", 1, "turn-1", "?")


def test_a_dropped_record_keeps_what_the_link_pass_can_use() -> None:
    text = line("tool_finished", turn_id="turn-2", call_id="call-3", status="ok", output=[])
    facts = line_pass.analyze_line(text, INFO).facts
    assert facts == RecordFacts("tool_finished", False, 4, "2026-04-27T08:10:29Z", 1, "turn-2", "call-3", "ok")


@pytest.mark.parametrize(("text", "kind", "code"), [
    ('{"type":"user","seq":', LineKind.INVALID, "THN001"),
    ("not json", LineKind.INVALID, "THN001"),
    ('{"type":"user"}{"type":"usage"}', LineKind.GLUED, "THN001"),
    ("[1,2]", LineKind.NON_OBJECT, "THN003"),
    ("null", LineKind.NON_OBJECT, "THN003"),
    ('{"seq":1}', LineKind.OBJECT, "THN004"),
    ('{"type":"session_fork","seq":1}', LineKind.OBJECT, "THN006"),
    ('{"type":"user_message","seq":1}', LineKind.OBJECT, "THN005"),
])
def test_unreadable_lines(text: str, kind: LineKind, code: str) -> None:
    result = line_pass.analyze_line(text, INFO)
    assert result.kind is kind
    assert [i.code for i in result.issues] == [code]


def test_a_glued_line_knows_where_each_record_starts() -> None:
    first, second = line("user", turn_id="t", text="a"), line("usage", input_tokens=1, output_tokens=2)
    result = line_pass.analyze_line(first + second, INFO)
    assert result.parts == (0, len(first)) and result.facts == 2


def test_blank_lines_are_left_to_the_link_pass() -> None:
    for text in ("", "   ", "\t\r"):
        result = line_pass.analyze_line(text, INFO)
        assert result.kind is LineKind.BLANK and result.issues == ()


# -- facts and titles ---------------------------------------------------------------------------------------------


def _by_type() -> dict[str, RecordFacts]:
    out: dict[str, RecordFacts] = {}
    for text in CLEAN_LINES:
        facts = line_pass.analyze_line(text, INFO).facts
        out.setdefault(facts.type, facts)
    return out


def test_facts_hold_the_link_fields_of_each_record() -> None:
    facts = _by_type()
    assert facts["session_meta"].session_id == "session-20260427-081029"
    assert facts["session_meta"].title == "Fix day-first dates" and facts["session_meta"].seq == 0
    assert facts["acp_session"].session_id == "session-20260427-081029"
    assert (facts["tool_finished"].turn_id, facts["tool_finished"].call_id, facts["tool_finished"].status) == (
        "turn-1", "call-1", "Ok")
    assert facts["acp_permission_outcome"].tool_call_id == "toolu_01"
    assert (facts["shell_exec"].process_id, facts["shell_exec"].process_status) == (None, "ok")
    assert facts["compaction"].covered == (5, 30)
    assert facts["compaction"].recovery_handles == ("recovery_turns_1_2",)
    assert facts["compaction_review"].recovery_handle == "recovery_turns_1_2"
    assert facts["request_accounting"].accounting_turn_id == "turn-1"
    assert facts["usage"].turn_id is None and facts["queued_input"].turn_id is None


def test_facts_keep_time_only_in_thndrs_form() -> None:
    assert line_pass.analyze_line(line("user", turn_id="t", text="x"), INFO).facts.time == "2026-04-27T08:10:29Z"
    odd = line("user", turn_id="t", text="x").replace("08:10:29Z", "08:10:29.5Z")
    result = line_pass.analyze_line(odd, INFO)
    assert result.facts.time is None and [i.code for i in result.issues] == ["THN036"]


def test_facts_ignore_free_text() -> None:
    one = line_pass.analyze_line(line("user", turn_id="t", text="first words"), INFO)
    two = line_pass.analyze_line(line("user", turn_id="t", text="other words"), INFO)
    assert one.facts == two.facts and one.title != two.title


@pytest.mark.parametrize(("text", "title"), [
    (line("user", turn_id="t", text="Fix   the\nparser please"), "user: Fix the parser please"),
    (line("tool_started", turn_id="t", call_id="call-1", name="bash", arguments="{}"), "tool_started bash #call-1"),
    (line("tool_finished", turn_id="t", call_id="call-1", status="Ok", output=[]), "tool_finished Ok #call-1"),
    (line("usage", input_tokens=5, output_tokens=6), "usage 5 in / 6 out"),
    (line("session_renamed", title="New name"), "session_renamed: New name"),
    (line("context", sources=[]), "context"),
    (line("tool_finished", turn_id="t", call_id="call-2", status="ok", output=[]), "tool_finished ok #call-2"),
])
def test_titles(text: str, title: str) -> None:
    assert line_pass.analyze_line(text, INFO).title == title


def test_long_titles_are_cut() -> None:
    title = line_pass.analyze_line(line("user", turn_id="t", text="word " * 40), INFO).title
    assert title.startswith("user: word word") and title.endswith("…") and len(title) < 60


# -- robustness ---------------------------------------------------------------------------------------------------


def _check_result(text: str) -> None:
    result = line_pass.analyze_line(text, INFO)
    for issue in result.issues:
        assert 0 <= issue.start <= issue.end <= max(len(text), 1), (text, issue)
    hash(result.facts)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_yields_a_result(text: str) -> None:
    _check_result(text.replace("\n", " "))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(CLEAN_LINES), st.integers(min_value=0), st.integers(min_value=0, max_value=8),
       st.text(alphabet='{}[]",:0123456789 -.\\nulltrue', max_size=6))
def test_damaged_clean_lines_yield_a_result(text: str, position: int, cut: int, insert: str) -> None:
    at = position % (len(text) + 1)
    _check_result(text[:at] + insert + text[at + cut :])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CLEAN_LINES), st.data())
def test_the_fast_path_agrees_with_the_schema_walker(text: str, data: st.DataObject) -> None:
    """Whatever a field is changed to, the line pass calls the record readable exactly when `validate` finds no
    error in it (an unknown key is not an error)."""
    value = json.loads(text)
    key = data.draw(st.sampled_from(sorted(k for k in value if k != "type")))
    value[key] = data.draw(st.sampled_from([None, "x", "", -1, 0, 1.5, 2**64, [], {}, True]))
    changed = json.dumps(value, separators=(",", ":"))
    result = line_pass.analyze_line(changed, INFO)
    errors = [issue for issue in validate.check(value, RECORD_TYPES[value["type"]])
              if issue.kind is not validate.IssueKind.UNKNOWN_FIELD]
    assert result.facts.valid is (not errors)
    if errors:
        assert {i.code for i in result.issues} & {"THN007", "THN008", "THN009"}
