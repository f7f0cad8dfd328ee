"""The Elyra line pass on its own: kinds, facts and titles as the link pass and outlines read them, the columns
issues cover, that the raw-dict path (after a failed typed decode) reads a line exactly as the typed path does,
and that real files written by pi raise nothing from the line rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp.analysis.detect import FormatInfo, Kind
from session_lsp.analysis.diagnostics import Severity
from session_lsp.analysis.elyra import line_pass
from session_lsp.analysis.elyra.facts import EntryFacts, HeaderFacts, SpecialFacts, ToolCallFact
from session_lsp.analysis.elyra.line_pass import JUNK_FACTS, NULL_FACTS, LineState, analyze_line, analyze_lines
from session_lsp.analysis.elyra.releases import RELEASES
from session_lsp.analysis.lines import MAX_DEPTH, LineKind, decode
from session_lsp.analysis.registry import rule
from session_lsp.analysis.text import split_lines

V1 = FormatInfo(Kind.ELYRA, 1, 0)
V2 = FormatInfo(Kind.ELYRA, 2, 0)
V3 = FormatInfo(Kind.ELYRA, 3, 0)
CORPUS = Path(__file__).resolve().parent / "corpus"
"""Real files copied byte for byte from the shared corpus (see corpus/SOURCES.md), so a clone tests alone."""
LINE_CODES = frozenset({
    "ELY001", "ELY002", "ELY003", "ELY004", "ELY012", "ELY014", "ELY015", "ELY016", "ELY017", "ELY021", "ELY022",
    "ELY023", "ELY024", "ELY030", "ELY031", "ELY032", "ELY033", "ELY034", "ELY035", "ELY041", "ELY048", "ELY054",
    "ELY055", "ELY057", "ELY060", "ELY061", "ELY062", "ELY063", "ELY064", "ELY065", "ELY066", "ELY067", "ELY080",
})
GLUED = {"pi-mono__session__v1__has-concatenated-line.jsonl": 440,
         "pi-mono__compact__v1__has-concatenated-line.jsonl": 1013}
TS = "2026-03-01T09:00:00.000Z"


def line(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def entry(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "id": "a1b2c3d4", "parentId": "0f0f0f0f", "timestamp": TS, **fields}


def usage(**extra: Any) -> dict[str, Any]:
    return {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15,
            "cost": {"input": 0.1, "output": 0.2, "cacheRead": 0, "cacheWrite": 0, "total": 0.3}, **extra}


def assistant(content: list[dict[str, Any]], stop: str = "stop", **extra: Any) -> dict[str, Any]:
    return entry("message", message={"role": "assistant", "content": content, "api": "anthropic-messages",
                                     "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage(),
                                     "stopReason": stop, "timestamp": 1772355600000, **extra})


def codes(text: str, info: FormatInfo = V3) -> list[str]:
    return [issue.code for issue in analyze_line(text, info).issues]


def marked(text: str, code: str, info: FormatInfo = V3) -> str:
    """The text an issue's columns cover."""
    found = [issue for issue in analyze_line(text, info).issues if issue.code == code]
    assert len(found) == 1, analyze_line(text, info).issues
    return text[found[0].start : found[0].end]


# -- kinds and facts --------------------------------------------------------------------------------------------


def test_header_facts() -> None:
    text = line({"type": "session", "version": 3, "id": "019dcd91-86ff-737d-86b6-08c8e5ec7284", "timestamp": TS,
                 "cwd": "/p", "parentSession": "/s/a.jsonl"})
    result = analyze_line(text, V3)
    assert result.kind is LineKind.OBJECT and not result.issues
    assert result.facts == HeaderFacts(id="019dcd91-86ff-737d-86b6-08c8e5ec7284", version=3, has_version=True,
                                       timestamp=TS, parent_session="/s/a.jsonl", parent_session_key="parentSession",
                                       header_bytes=len(text))
    assert result.title == "session v3"


def test_v1_header_facts_fall_back_to_branched_from_and_count_utf8_bytes() -> None:
    text = line({"type": "session", "id": "x", "timestamp": TS, "cwd": "/home/zoë", "branchedFrom": "/s/b.jsonl"})
    facts = analyze_line(text, V1).facts
    assert isinstance(facts, HeaderFacts)
    assert (facts.version, facts.has_version) == (None, False)
    assert (facts.parent_session, facts.parent_session_key) == ("/s/b.jsonl", "branchedFrom")
    assert facts.header_bytes == len(text) + 1  # ë is two bytes


def test_assistant_facts_list_tool_calls_with_their_block_index() -> None:
    text = line(assistant([{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "Running."},
                           {"type": "toolCall", "id": "toolu_1", "name": "bash", "arguments": {}},
                           {"type": "toolCall", "id": "toolu_2", "name": "read", "arguments": {"path": "a"}}],
                          stop="toolUse"))
    result = analyze_line(text, V3)
    assert not result.issues
    assert result.facts == EntryFacts(type="message", id="a1b2c3d4", has_id=True, parent_id="0f0f0f0f",
                                      has_parent=True, timestamp=TS, role="assistant", stop_reason="toolUse",
                                      tool_calls=(ToolCallFact("toolu_1", "bash", 2),
                                                  ToolCallFact("toolu_2", "read", 3)))
    assert result.title == "assistant → bash, read"


@pytest.mark.parametrize(("value", "expected"), [
    (entry("message", message={"role": "toolResult", "toolCallId": "toolu_1", "toolName": "bash",
                               "content": [{"type": "text", "text": "boom"}], "isError": True, "timestamp": 1}),
     {"role": "toolResult", "tool_call_id": "toolu_1", "tool_name": "bash"}),
    (entry("compaction", summary="s", firstKeptEntryId="0f0f0f0f", tokensBefore=12345),
     {"special": SpecialFacts(first_kept_id="0f0f0f0f")}),
    (entry("branch_summary", fromId="root", summary="went back"), {"special": SpecialFacts(from_id="root")}),
    (entry("label", targetId="0f0f0f0f", label="checkpoint"),
     {"special": SpecialFacts(target_id="0f0f0f0f", label="checkpoint")}),
    (entry("session_info", name="Refactor"), {"special": SpecialFacts(name="Refactor")}),
])
def test_type_specific_facts(value: dict[str, Any], expected: dict[str, Any]) -> None:
    facts = analyze_line(line(value), V3).facts
    base = {"type": value["type"], "id": "a1b2c3d4", "has_id": True, "parent_id": "0f0f0f0f", "has_parent": True,
            "timestamp": TS}
    assert facts == EntryFacts(**base, **expected)


def test_v1_entries_have_no_ids_and_compactions_carry_their_index() -> None:
    value = {"type": "compaction", "timestamp": TS, "summary": "s", "firstKeptEntryIndex": 7, "tokensBefore": 1}
    result = analyze_line(line(value), V1)
    assert not result.issues
    assert result.facts == EntryFacts(type="compaction", id=None, has_id=False, parent_id=None, has_parent=False,
                                      timestamp=TS, special=SpecialFacts(first_kept_index=7, has_first_kept_index=True))
    assert (result.facts.first_kept_index, result.facts.first_kept_id) == (7, None)


def test_null_parent_is_a_root_and_a_missing_parent_is_not() -> None:
    root = analyze_line(line(entry("custom", customType="x", parentId=None)), V3).facts
    assert (root.parent_id, root.has_parent) == (None, True)
    value = entry("custom", customType="x")
    del value["parentId"]
    orphan = analyze_line(line(value), V3).facts
    assert (orphan.parent_id, orphan.has_parent) == (None, False)


def test_timestamp_fact_only_in_pi_form() -> None:
    assert analyze_line(line(entry("custom", customType="x")), V3).facts.timestamp == TS
    other = analyze_line(line(entry("custom", customType="x", timestamp="2026-03-01T09:00:00Z")), V3)
    assert other.facts.timestamp is None and not other.issues  # ISO-8601, just not toISOString's form


@pytest.mark.parametrize(("text", "kind", "facts"), [
    ("", LineKind.BLANK, None),
    ("  \r", LineKind.BLANK, None),
    ('{"type":"message"', LineKind.INVALID, None),
    ('{"a":1}{"b":2}', LineKind.GLUED, None),
    ("null", LineKind.NON_OBJECT, None),  # pi 1.6 skips a falsy value like a blank line
    ("0", LineKind.NON_OBJECT, None),
    ("[1, 2]", LineKind.NON_OBJECT, JUNK_FACTS),
])
def test_lines_that_are_not_objects(text: str, kind: LineKind, facts: object) -> None:
    result = analyze_line(text, V3)
    assert (result.kind, result.facts) == (kind, facts)
    assert len(result.issues) == 1


@pytest.mark.parametrize(("text", "facts"), [("null", NULL_FACTS), ("0", JUNK_FACTS), ('""', JUNK_FACTS)])
def test_pi_073_keeps_falsy_lines_as_entries(text: str, facts: object) -> None:
    result = analyze_line(text, V3, release=RELEASES["0.73"])
    assert type(result.facts) is type(facts) and result.facts == facts


def test_unknown_type_keeps_the_entry_base_facts() -> None:
    result = analyze_line(line(entry("mode_change", mode="plan")), V3)
    assert codes(line(entry("mode_change", mode="plan"))) == ["ELY030"]
    assert result.facts == EntryFacts(type="mode_change", id="a1b2c3d4", has_id=True, parent_id="0f0f0f0f",
                                      has_parent=True, timestamp=TS)
    assert result.title == "mode_change"


def test_wrong_types_read_as_none_in_facts() -> None:
    result = analyze_line(line(entry("label", targetId=5, parentId=["x"], label="l")), V3)
    assert result.facts.target_id is None and result.facts.parent_id is None and not result.facts.has_parent
    assert sorted(codes(line(entry("label", targetId=5, parentId=["x"], label="l")))) == ["ELY033", "ELY033"]


# -- titles -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "title"), [
    (entry("message", message={"role": "user", "content": "Fix the failing test\nin parse.ts", "timestamp": 1}),
     "user: Fix the failing test in parse.ts"),
    (entry("message", message={"role": "toolResult", "toolCallId": "t", "toolName": "bash", "content": [],
                               "isError": True, "timestamp": 1}), "toolResult bash ✗"),
    (entry("compaction", summary="s", firstKeptEntryId="x", tokensBefore=12345), "compaction (12,345 tokens)"),
    (entry("label", targetId="x", label="checkpoint"), 'label "checkpoint"'),
    (entry("model_change", provider="anthropic", modelId="claude-sonnet-4-5"), "model anthropic/claude-sonnet-4-5"),
    (entry("session_info", name="Parser work"), 'session "Parser work"'),
    (entry("thinking_level_change", thinkingLevel="high"), "thinking high"),
    (entry("custom", customType="todo"), "custom todo"),
])
def test_titles(value: dict[str, Any], title: str) -> None:
    assert analyze_line(line(value), V3).title == title


def test_long_titles_are_clipped_to_one_short_line() -> None:
    text = line(entry("message", message={"role": "user", "content": "word " * 200, "timestamp": 1}))
    title = analyze_line(text, V3).title
    assert len(title) == 60 and title.endswith("…") and "\n" not in title


def test_assistant_without_tools_is_named_by_its_text_and_failure() -> None:
    text = line(assistant([{"type": "text", "text": "Request failed"}], stop="error", errorMessage="overloaded"))
    assert analyze_line(text, V3).title == "assistant [error]: Request failed"


# -- columns ----------------------------------------------------------------------------------------------------


def test_invalid_json_is_marked_where_the_decoder_stopped() -> None:
    text = '{"type":"message","id":"a1b2c3d4",,"parentId":null}'
    [issue] = analyze_line(text, V3).issues
    assert issue.code == "ELY001" and issue.start == text.index(",,") + 1


def test_glued_records_carry_the_split_points() -> None:
    first = line(entry("custom", customType="a"))
    second = line(entry("custom", customType="b"))
    text = first + second
    result = analyze_line(text, V3)
    [issue] = result.issues
    assert issue.code == "ELY002"
    assert issue.data == {"parts": [0, len(first)]} and result.parts == (0, len(first))


def test_unknown_field_marks_its_key() -> None:
    assert marked(line(entry("custom", customType="a", extra=1)), "ELY034") == '"extra"'


def test_missing_field_marks_the_key_of_the_enclosing_object() -> None:
    value = assistant([{"type": "text", "text": "x"}])
    del value["message"]["usage"]["totalTokens"]
    del value["message"]["usage"]["cacheRead"]
    assert marked(line(value), "ELY032") == '"usage"'


def test_missing_field_of_the_line_marks_its_first_key() -> None:
    value = entry("custom", customType="a")
    del value["id"]
    assert marked(line(value), "ELY021") == '"type"'


def test_wrong_type_marks_the_value() -> None:
    assert marked(line(entry("custom_message", customType="a", content="x", display="yes")), "ELY033") == '"yes"'


def test_block_problems_mark_inside_the_block() -> None:
    text = line(assistant([{"type": "text", "text": "ok"}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}]))
    assert marked(text, "ELY066") == '"image"'


def test_columns_count_code_points() -> None:
    text = line(entry("custom", customType="zoë 🙂", extra=1))
    assert marked(text, "ELY034") == '"extra"'


# -- version-dependent rules ------------------------------------------------------------------------------------


def test_ids_are_required_from_v2_on_only() -> None:
    value = {"type": "custom", "timestamp": TS, "customType": "x"}
    assert codes(line(value), V1) == []
    assert codes(line(value), V2) == ["ELY021", "ELY021"]
    assert codes(line(value), V3) == ["ELY021", "ELY021"]


def test_hook_message_severity_depends_on_the_version() -> None:
    text = line(entry("message", message={"role": "hookMessage", "customType": "x", "content": "c", "display": True,
                                          "timestamp": 1}))
    [in_v3] = analyze_line(text, V3).issues
    [in_v2] = analyze_line(text, V2).issues
    assert in_v3.code == in_v2.code == "ELY024"
    assert in_v3.severity is None and rule("ELY024").severity is Severity.WARNING
    assert in_v2.severity is Severity.INFORMATION and "will be renamed to custom on load" in in_v2.message


def test_which_compaction_reference_is_required_depends_on_the_version() -> None:
    by_id = {"type": "compaction", "timestamp": TS, "summary": "s", "tokensBefore": 1, "firstKeptEntryId": "x"}
    by_index = {"type": "compaction", "timestamp": TS, "summary": "s", "tokensBefore": 1, "firstKeptEntryIndex": 3}
    assert codes(line(by_index), V1) == []
    assert codes(line(by_id), V1) == ["ELY032"]
    assert codes(line({**by_id, "id": "a1b2c3d4", "parentId": None}), V3) == []
    assert codes(line({**by_index, "id": "a1b2c3d4", "parentId": None}), V3) == ["ELY032", "ELY023"]


def test_an_unknown_version_is_treated_as_current() -> None:
    value = {"type": "custom", "timestamp": TS, "customType": "x"}
    assert codes(line(value), FormatInfo(Kind.ELYRA, None, 0)) == ["ELY021", "ELY021"]


# -- known fields are accepted silently -------------------------------------------------------------------------


def test_newer_optional_fields_raise_nothing() -> None:
    value = assistant([{"type": "text", "text": "x", "textSignature": "s"},
                       {"type": "thinking", "thinking": "", "thinkingSignature": "s", "redacted": True},
                       {"type": "toolCall", "id": "c", "name": "n", "arguments": {}, "thoughtSignature": "s",
                        "namespace": "ns", "partialJson": "{}"}],
                      stop="toolUse", responseId="r", responseModel="m", providerThinkingLevel="high",
                      diagnostics=[], rawStopReason="tool_use", endTurn=False)
    value["message"]["usage"].update(cacheWrite1h=0, reasoning=3)
    value["message"]["usage"]["cost"]["cacheWrite1h"] = 0
    assert codes(line(value)) == []


# -- the raw-dict path reads lines as the typed path does -------------------------------------------------------


def corpus_lines() -> list[tuple[str, FormatInfo]]:
    found = []
    for path in sorted((CORPUS / "elyra").glob("*.jsonl")) + sorted((CORPUS / "elyra-pi-written").glob("*.jsonl")):
        lines = split_lines(path.read_text(encoding="utf-8"))
        info = V1 if '"version"' not in lines[0] else V3
        found += [(text, info) for text in lines if text.startswith("{")]
    return found


def test_a_line_forced_onto_the_slow_path_has_the_same_facts_and_title() -> None:
    for text, info in corpus_lines():
        fast = analyze_line(text, info)
        if fast.kind is not LineKind.OBJECT:
            continue
        longer = text[:-1] + ',"zzUnknown":1}'
        slow = analyze_line(longer, info)
        expected = fast.facts
        if isinstance(expected, HeaderFacts):
            expected = msgspec.structs.replace(expected, header_bytes=len(longer.encode()))
        assert (slow.facts, slow.title) == (expected, fast.title), text[:200]
        unknown = [] if isinstance(expected, HeaderFacts) else ["ELY034"]
        # pi 1.x allows custom metadata keys in the header, so only entries report an unknown key.
        assert [issue.code for issue in slow.issues] == unknown + [issue.code for issue in fast.issues]


# -- real files -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((CORPUS / "elyra").glob("*.jsonl")) + sorted(
    (CORPUS / "elyra-pi-written").glob("*.jsonl")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_files_raise_no_error_or_warning_from_line_rules(path: Path) -> None:
    lines = split_lines(path.read_text(encoding="utf-8"))
    info = FormatInfo(Kind.ELYRA, 3 if '"version":3' in lines[0] else 1, 0)
    problems = []
    for number, text in enumerate(lines[:-1], start=1):
        for issue in analyze_line(text, info).issues:
            assert issue.code in LINE_CODES
            severity = issue.severity or rule(issue.code).severity
            if severity <= Severity.WARNING:
                problems.append((number, issue.code))
    expected = [(GLUED[path.name], "ELY002")] if path.name in GLUED else []
    assert problems == expected
    if path.parent.name == "elyra-pi-written":
        assert all(not analyze_line(text, info).issues for text in lines[:-1])


# -- never raises -----------------------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=12)
FIELDS = st.sampled_from(["type", "id", "parentId", "timestamp", "message", "role", "content", "usage", "stopReason",
                          "firstKeptEntryIndex", "firstKeptEntryId", "label", "name", "exitCode", "cancelled",
                          "version", "mimeType", "data", "text", "toolCallId", "customType"])
TYPES = st.sampled_from(["session", "message", "compaction", "label", "session_info", "custom_message",
                         "branch_summary", "model_change", "custom", "other"])
ROLES = st.sampled_from(["user", "assistant", "toolResult", "bashExecution", "custom", "hookMessage",
                         "branchSummary", "system"])


@st.composite
def entry_like(draw: st.DrawFn) -> dict[str, Any]:
    value = draw(st.dictionaries(FIELDS, JSON, max_size=6))
    value["type"] = draw(TYPES | JSON)
    if draw(st.booleans()):
        message = draw(st.dictionaries(FIELDS, JSON, max_size=5))
        message["role"] = draw(ROLES)
        if draw(st.booleans()):
            message["content"] = draw(st.lists(st.dictionaries(FIELDS, JSON, max_size=3).map(
                lambda block: {**block, "type": "image"} if "data" in block else block), max_size=3))
        value["message"] = message
    return value


@settings(max_examples=150, deadline=None, derandomize=True)
@given(entry_like(), st.sampled_from([V1, V2, V3, FormatInfo(Kind.ELYRA, None, 0)]))
def test_any_entry_shaped_object_is_analysed_without_raising(value: dict[str, Any], info: FormatInfo) -> None:
    text = json.dumps(value)
    result = analyze_line(text, info)
    assert result.kind is LineKind.OBJECT, (text, result.issues)
    assert isinstance(result.facts, HeaderFacts if value["type"] == "session" else EntryFacts)
    if isinstance(result.facts, EntryFacts):
        assert result.facts.type == (value["type"] if isinstance(value["type"], str) else None)
    for issue in result.issues:
        assert issue.code in LINE_CODES
        assert 0 <= issue.start <= issue.end <= len(text)


def test_lone_surrogates_from_an_editor_do_not_break_the_line() -> None:
    text = line(entry("custom", customType="x", extra="\ud800"))
    text = text.replace("\\ud800", "\ud800")  # the raw code point, as a client could send it
    assert "\ud800" in text
    result = analyze_line(text, V3)
    assert result.kind is LineKind.OBJECT and marked(text, "ELY034") == '"extra"'


def test_lone_surrogate_escapes_are_read_as_json_parse_reads_them() -> None:
    text = line(entry("custom", customType="x")).replace('"x"', '"cut \\ud83d here, pair \\ud83d\\ude00, \\\\ud800"')
    result = analyze_line(text, V3)
    assert result.kind is LineKind.OBJECT and not result.issues
    assert result.title == "custom cut \ufffd here, pair 😀, \\ud800"


def _elyra_lines() -> list[str]:
    files = [*sorted(CORPUS.glob("elyra*/**/*.jsonl")), *sorted((CORPUS.parent / "cases" / "elyra").rglob("*.jsonl"))]
    return [text for path in files for text in split_lines(path.read_bytes().decode("utf-8", "replace")) if text]


@pytest.mark.parametrize("release", sorted(RELEASES))
def test_plain_message_guard_reads_lines_as_the_full_pass(release: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`_plain_message` only skips rules that cannot fire: every line of the corpus and the rule cases gives the same
    result, facts and the state it leaves for the next line, with the guard as without it."""
    from session_lsp.analysis.elyra import line_pass

    lines = _elyra_lines()
    assert len(lines) > 1000
    pi = RELEASES[release]
    for info in (V1, V2, V3, FormatInfo(Kind.ELYRA, None, 0)):
        guarded_state, full_state = line_pass.LineState(titles=False), line_pass.LineState(titles=False)
        guarded = [analyze_line(text, info, guarded_state, pi) for text in lines]
        with monkeypatch.context() as patch:
            patch.setattr(line_pass, "_plain_message", lambda *args: None)
            full = [analyze_line(text, info, full_state, pi) for text in lines]
        assert guarded == full
        taken = sum(1 for text, result in zip(lines, guarded, strict=True)
                    if '"type":"message"' in text and not result.issues)
        assert taken > 500  # the guard is exercised, not only its fallback


DEEP_BUT_SHORT = [
    "[" * 600,  # nests past MAX_DEPTH, never closes
    '{"type":"custom","x":' + "[" * 1000,  # past msgspec's own recursion limit: a RecursionError, not a crash
    "[" * 513 + "1" + "]" * 511,  # one bracket short of valid
    '{"a":[' * 10 + "[" * 500 + "1",  # 520 levels of objects and arrays, cut off
]


@pytest.mark.parametrize("text", DEEP_BUT_SHORT, ids=lambda text: f"{len(text)}-chars")
def test_a_line_too_short_to_be_valid_json_that_deep_is_decoded_before_it_is_measured(text: str) -> None:
    """Only a line longer than 2 * MAX_DEPTH + 1 can be valid JSON nested past MAX_DEPTH, so only such a line is
    measured before the decoder reads it: a shorter one that nests that deep is invalid, the decoder refuses it,
    and the slow path reads it exactly as it did when every line was measured first (`lines.decode`)."""
    assert len(text) <= 2 * MAX_DEPTH + 1
    expected = decode(text)
    assert expected.kind is LineKind.INVALID
    alone = analyze_line(text, V3)
    assert alone.kind is LineKind.INVALID and [issue.code for issue in alone.issues] == ["ELY001"]
    assert expected.error in alone.issues[0].message
    assert list(analyze_lines([text], V3, LineState())) == [analyze_line(text, V3, line_end=True)]


@pytest.mark.parametrize("titles", [False, True])
def test_a_file_s_line_pass_decodes_each_line_once(titles: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The typed decode is most of a line's cost: the file's loop (`analyze_lines`) hands a decoded line on
    instead of decoding it again, with titles or without, whatever its type."""
    text = (CORPUS / "elyra-pi-written" / "compacted.jsonl").read_text(encoding="utf-8")
    lines = split_lines(text)
    decoded: list[str] = []

    class Counting:
        def decode(self, line: str) -> Any:
            decoded.append(line)
            return decoder.decode(line)

    decoder = line_pass._DECODER
    monkeypatch.setattr(line_pass, "_DECODER", Counting())
    results = list(analyze_lines(lines, V3, LineState(titles=titles)))
    assert lines[-1] == "" and len(results) == len(lines) and any(result.title for result in results) == titles
    assert decoded == [*lines[:-1], "", ""]  # the empty line after the last "\n" is refused, then read again
