"""Claude Code files: detection, the context Claude Code sends on `--resume` (what the real 2.1.332 was seen to send:
tests/conformance compares every corpus file and mutant with its requests), and the editor features on a file the
real CLI wrote."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from session_lsp import cli
from session_lsp.analysis import Kind, Options, analyze, features
from session_lsp.analysis.claude import context
from session_lsp.analysis.document import Document, analyze_bytes
from session_lsp.analysis.formats import detect

TESTS = Path(__file__).parent
CASES = TESTS / "cases" / "claude"
CORPUS = TESTS / "corpus" / "claude-code-2.1.332-written"
LINEAR = CORPUS / "d4e1977c-4507-4cf2-8923-34a626a3b3be.jsonl"
SUBAGENT = CORPUS / "55eeea85-f327-48fb-9202-1c370ec15cd0.jsonl"
SESSION = "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f"


def _context(path: Path, name: str | None = None) -> dict:
    document = analyze_bytes(path.read_bytes(), Options(path=name or f"{SESSION}.jsonl"))
    return features.context(document, -1)


def _contents(payload: dict) -> list[tuple[str, object]]:
    return [(m["role"], m["content"]) for m in payload["messages"]]


# --- detection -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("first", [
    {"type": "queue-operation", "operation": "enqueue", "sessionId": SESSION, "timestamp": "2026-12-05T08:00:00Z"},
    {"type": "user", "parentUuid": None, "uuid": "u1", "sessionId": SESSION, "message": {"role": "user",
                                                                                         "content": "hi"}},
    {"type": "summary", "summary": "Listing files", "leafUuid": "u1"},
    {"type": "file-history-snapshot", "messageId": "u1", "snapshot": {}, "isSnapshotUpdate": False},
])
def test_a_first_record_claude_code_writes_makes_a_claude_file(first: dict) -> None:
    assert detect([json.dumps(first)]).kind is Kind.CLAUDE


@pytest.mark.parametrize("first", [
    {"type": "session", "id": "a", "version": 3, "timestamp": "2026-01-01T00:00:00Z", "cwd": "/"},
    {"type": "session_meta", "schema_version": 1, "seq": 0, "time": "2026-03-01T09:15:00Z", "session_id": "s"},
    {"type": "session_meta", "payload": {"id": SESSION}, "timestamp": "2026-03-01T09:15:00Z"},
    {"type": "user", "text": "no session id, no uuid"},
])
def test_other_formats_first_records_are_not_claude_code(first: dict) -> None:
    assert detect([json.dumps(first)]).kind is not Kind.CLAUDE


def test_a_file_without_a_record_is_claude_code_s_by_its_name_and_refused() -> None:
    name = f"/home/u/.claude/projects/-home-u-p/{SESSION}.jsonl"
    assert detect(["", "not json"], name).kind is Kind.CLAUDE
    assert detect(["", "not json"], "/tmp/notes.jsonl").kind is Kind.UNKNOWN
    document = analyze_bytes(b"", Options(path=name))
    assert [d.code for d in document.diagnostics()] == ["CCD050"]
    assert features.context(document, -1)["refused"] == f"No conversation found with session ID: {SESSION}"


def test_a_subagent_transcript_is_resumed_along_its_own_sidechain() -> None:
    path = CORPUS / SUBAGENT.stem / "subagents" / "agent-a2e180325bc055689.jsonl"
    payload = _context(path, str(path))
    assert payload["refused"] is None and payload["messages"][0]["role"] == "user"
    assert "edge cases in count_words" in json.dumps(payload["messages"][0]["content"])


# --- the context Claude Code sends -------------------------------------------------------------------------------

def test_a_clean_session_is_sent_as_claude_code_merges_it() -> None:
    payload = _context(CASES / "clean-tool-call.jsonl")
    assert payload["refused"] is None and payload["leaf"] == 5
    roles = [m["role"] for m in payload["messages"]]
    assert roles == ["user", "system", "assistant", "user", "assistant"]
    assert payload["messages"][0]["content"] == "List the files."
    assert payload["messages"][1]["content"] == []  # the first turn has no system attachments in the file
    assert [block["type"] for block in payload["messages"][2]["content"]] == ["thinking", "tool_use"]
    assert payload["messages"][3]["content"][0]["tool_use_id"] == "toolu_1"


def test_a_tool_result_without_its_call_is_dropped() -> None:
    clean = _contents(_context(CASES / "clean-tool-call.jsonl"))
    assert _contents(_context(CASES / "CCD030-orphan-tool-result.jsonl")) == clean


def test_a_call_without_result_mid_history_is_dropped() -> None:
    payload = _context(CASES / "CCD031-unanswered-tool-use.jsonl")
    calls = [block["id"] for m in payload["messages"] if m["role"] == "assistant" for block in m["content"]
             if block.get("type") == "tool_use"]
    assert calls == ["toolu_1"]


def test_a_null_parent_cuts_the_history_and_a_placeholder_replaces_the_cut_off_result() -> None:
    payload = _context(CASES / "CCD021-null-parent-mid-chain.jsonl")
    first = payload["messages"][0]
    placeholder = [{"type": "text", "text": "[Orphaned tool result removed due to conversation resume]"}]
    assert first["role"] == "user" and first["content"] == placeholder
    assert "List the files." not in json.dumps(_contents(payload))


def test_a_dangling_parent_is_linked_to_the_record_written_last_before_it() -> None:
    """Both seen with the real CLI: within 5 s the chain goes on from the record written last before (here the
    whole history is sent, as for the clean file); later than that the history starts at the record."""
    clean = _contents(_context(CASES / "clean-tool-call.jsonl"))
    assert _contents(_context(CASES / "CCD020-dangling-parent.jsonl")) == clean
    assert _contents(_context(CASES / "CCD020-dangling-parent-cut.jsonl")) == [
        ("assistant", [{"type": "text", "text": "There is one file: notes.py."}])]


def test_tool_results_that_follow_no_assistant_message_are_dropped() -> None:
    """The call's records deleted and its results' record relinked to the prompt: Claude Code drops the results
    and sends the prompt as a list of blocks (seen with the real CLI)."""
    lines = (CASES / "clean-tool-call.jsonl").read_text(encoding="utf-8").splitlines()
    results = json.loads(lines[4])
    results["parentUuid"] = "u1"
    document = analyze("\n".join([lines[0], lines[1], json.dumps(results), *lines[5:]]) + "\n",
                       Options(path=f"{SESSION}.jsonl"))
    assert _contents(features.context(document, -1)) == [
        ("user", [{"type": "text", "text": "List the files."}]), ("system", []),
        ("assistant", [{"type": "text", "text": "There is one file: notes.py."}])]


def test_a_broken_link_after_a_compaction_does_not_reach_above_it() -> None:
    """The /compact corpus file with the record under the summary deleted (line 36): its child is linked by time,
    but never to a record the compaction left behind, so the history still starts at the summary and the kept
    segment (as the real CLI sent for this mutant)."""
    path = CORPUS / "a8aa60fe-e3e8-4e39-b73e-3c7ed531adea.jsonl"
    lines = path.read_text(encoding="utf-8").split("\n")
    assert '"<local-command-caveat>' in lines[35]
    document = analyze("\n".join(lines[:35] + lines[36:]), Options(path=path.name))
    roles = [(m["role"], m["line"]) for m in features.context(document, -1)["messages"]]
    clean = [(m["role"], m["line"]) for m in _context(path, path.name)["messages"]]
    assert roles[:3] == clean[:3] and clean[0] == ("user", 34) and clean[2] == ("assistant", 24)


def test_a_queued_prompt_that_starts_the_history_is_the_first_user_message() -> None:
    """The queued_command attachment of the corpus file with its parent set to null: the history starts at it and
    Claude Code sends its text, out of its reminder wrapper, as the first user message (seen with the real CLI)."""
    path = CORPUS / "bcd393fe-5729-435f-bd0a-a5b91b291277.jsonl"
    lines = path.read_text(encoding="utf-8").split("\n")
    record = json.loads(lines[27])
    assert record["attachment"]["type"] == "queued_command"
    record["parentUuid"] = None
    document = analyze("\n".join([*lines[:27], json.dumps(record), *lines[28:]]), Options(path=path.name))
    first, second = features.context(document, -1)["messages"][:2]
    assert first["role"] == "user" and first["content"].startswith(
        "The user sent a new message while you were working:\nMake the greeting a bit friendlier")
    assert (second["role"], second["content"]) == ("system", [])


def test_a_record_after_nul_bytes_is_lost() -> None:
    """16 NUL bytes before the last response's record: the real CLI does not read the line, so the history ends with
    the tool result and it answers "No response requested."."""
    lines = (CASES / "clean-tool-call.jsonl").read_text(encoding="utf-8").split("\n")
    lines[5] = "\x00" * 16 + lines[5]
    document = analyze("\n".join(lines), Options(path=f"{SESSION}.jsonl"))
    messages = _contents(features.context(document, -1))
    assert messages[-2][0] == "user" and messages[-1] == (
        "assistant", [{"type": "text", "text": "No response requested."}])
    assert [(d.code, d.severity.name) for d in document.diagnostics() if d.code == "CCD006"] == [("CCD006", "ERROR")]


def test_a_history_ending_on_the_user_s_side_gets_no_response_requested() -> None:
    lines = (CASES / "clean-tool-call.jsonl").read_text(encoding="utf-8").splitlines()
    cut = "\n".join(lines[:5]) + "\n"  # up to the tool result
    document = analyze(cut, Options(path=f"{SESSION}.jsonl"))
    last = features.context(document, -1)["messages"][-1]
    assert last["role"] == "assistant" and last["content"] == [{"type": "text", "text": "No response requested."}]


def test_the_real_cli_s_parallel_calls_are_one_response_and_one_user_message() -> None:
    payload = _context(LINEAR, LINEAR.name)
    fourth = payload["messages"][4]
    assert [block["type"] for block in fourth["content"]] == ["thinking", "tool_use", "tool_use"]
    assert [block["type"] for block in payload["messages"][5]["content"]] == ["tool_result", "tool_result"]
    assert payload["messages"][1]["role"] == "system" and isinstance(payload["messages"][1]["content"], str)


def test_a_compaction_sends_the_summary_then_the_preserved_segment() -> None:
    path = CORPUS / "a8aa60fe-e3e8-4e39-b73e-3c7ed531adea.jsonl"
    messages = _context(path, path.name)["messages"]
    assert messages[0]["content"].startswith("This session is being continued")
    assert (messages[1]["role"], messages[1]["content"]) == ("system", [])
    assert messages[2]["role"] == "assistant" and "51 lines" in messages[2]["content"][0]["text"]


def test_a_background_agent_never_reported_gets_claude_code_s_stopped_notification_with_the_prompt() -> None:
    """Claude Code finds no completion record on the chain for the agent launched there: it queues a notification
    that goes, wrapped as a background event, in the new prompt's message (with the output file the launch named)."""
    payload = _context(CASES / "clean-background-agent-never-reported.jsonl")
    last = payload["messages"][-1]
    assert last["role"] == "user" and len(last["content"]) == 1
    text = last["content"][0]["text"]
    assert text.startswith("<system-reminder>\n[SYSTEM NOTIFICATION - NOT USER INPUT]") and text.endswith(
        "</task-notification>\n</system-reminder>\n")
    assert "<task-id>a2e180325bc055689</task-id>\n<output-file>/home/dev/.cache/temp/claude-0/" in text
    assert "<status>stopped</status>\n<summary>Background agent \"Review notes.py\" didn't finish" in text
    assert "either way its transcript is saved" in text
    assert payload["messages"][-2]["role"] == "assistant"


def test_a_background_agent_whose_transcript_is_gone_is_reported_failed() -> None:
    path = CASES / "clean-background-agent-never-reported.jsonl"
    document = analyze_bytes(path.read_bytes(), Options(path=f"/p/{SESSION}.jsonl", exists=lambda _: False))
    text = features.context(document, -1)["messages"][-1]["content"][0]["text"]
    assert "<status>failed</status>" in text and "Its in-process state was lost." in text


def test_a_reported_background_agent_gets_no_notification() -> None:
    payload = _context(SUBAGENT, SUBAGENT.name)
    assert not any("[SYSTEM NOTIFICATION" in json.dumps(m["content"]) and "didn't finish" in json.dumps(m["content"])
                   for m in payload["messages"])


def test_a_turn_ended_by_an_api_error_after_an_open_call_depends_on_the_error_s_age() -> None:
    """Under 6 hours after the error, Claude Code answers the call with its interrupted-call result; from 6 hours on
    (and when the time of the resume is not given) it leaves the response out, and the new prompt joins the results
    of the response before it (seen with the real CLI: tests/conformance, and a turn of two responses by hand)."""
    data = (CASES / "CCD031-api-error-after-open-call.jsonl").read_bytes()
    error = datetime(2026, 12, 5, 8, 0, 3, tzinfo=UTC).timestamp() * 1000

    def sent(now: float | None) -> list[tuple[str, Any]]:
        return _contents(features.context(analyze_bytes(data, Options(path=f"{SESSION}.jsonl", now=now)), -1))

    left_out = sent(None)
    assert left_out == sent(error + 6 * 3600 * 1000)
    assert [role for role, _ in left_out] == ["user", "system", "assistant", "user"]
    assert left_out[2][1][0]["id"] == "toolu_1" and left_out[3][1] == [
        {"tool_use_id": "toolu_1", "type": "tool_result", "content": "1\timport sys"}]
    fresh = sent(error + 6 * 3600 * 1000 - 1)
    assert [role for role, _ in fresh] == ["user", "system", "assistant", "user", "assistant", "user", "assistant"]
    assert fresh[4][1][0]["id"] == "toolu_2" and fresh[5][1][0]["content"].startswith("[Tool call interrupted")
    assert fresh[6][1] == [{"type": "text", "text": "No response requested."}]


def test_the_cli_s_context_is_for_a_resume_now(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`session-lsp context` predicts the resume as it would happen now: the same turn, its API error a minute old,
    gets the interrupted-call result; the case's error (written long ago) has its response left out."""
    old = CASES / "CCD031-api-error-after-open-call.jsonl"
    recent = datetime.now(UTC) - timedelta(minutes=1)
    text = old.read_text(encoding="utf-8").replace("2026-12-05T08:00:0", recent.strftime("%Y-%m-%dT%H:%M:0"))
    path = tmp_path / f"{SESSION}.jsonl"
    for data, interrupted in ((old.read_text(encoding="utf-8"), False), (text, True)):
        path.write_text(data, encoding="utf-8")
        assert cli.main(["context", str(path), "--format", "json"]) == cli.EXIT_CLEAN
        sent = json.loads(capsys.readouterr().out)["messages"]
        assert ("[Tool call interrupted" in json.dumps(sent)) is interrupted
        assert len(sent) == (7 if interrupted else 4)


def test_a_response_of_many_records_with_their_results_between_is_one_message_each_side() -> None:
    """Each record of one response (one message id) carries a call, and the call's result follows it: Claude Code
    sends one assistant message with every call, then one user message with every result, however many there are."""
    records: list[dict[str, Any]] = [{"parentUuid": None, "type": "user", "uuid": "u0",
                                      "message": {"role": "user", "content": "Go."}}]
    for n in range(300):
        call: dict[str, Any] = {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": "ls"}}
        records.append({"parentUuid": records[-1]["uuid"], "type": "assistant", "uuid": f"a{n}", "requestId": "req_1",
                        "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
                                    "content": [call], "stop_reason": "tool_use", "stop_sequence": None,
                                    "usage": {"input_tokens": 10, "output_tokens": 5}}})
        records.append({"parentUuid": f"a{n}", "type": "user", "uuid": f"r{n}", "sourceToolAssistantUUID": f"a{n}",
                        "message": {"role": "user", "content": [{"tool_use_id": f"toolu_{n}", "type": "tool_result",
                                                                 "content": "x", "is_error": False}]}})
    text = "".join(json.dumps({"isSidechain": False, "timestamp": "2026-12-05T08:00:01.000Z", "sessionId": SESSION,
                               "version": "2.1.332", **record}) + "\n" for record in records)
    messages: list[tuple[str, Any]] = _contents(features.context(analyze(text, Options(path=f"{SESSION}.jsonl")), -1))
    assert [role for role, _ in messages] == ["user", "system", "assistant", "user", "assistant"]
    assert [block["id"] for block in messages[2][1]] == [f"toolu_{n}" for n in range(300)]
    assert [block["tool_use_id"] for block in messages[3][1]] == [f"toolu_{n}" for n in range(300)]


def test_results_read_once_are_read_again_when_a_text_comes_before_them() -> None:
    """The check that a user message holds only results (so the response above it goes on) remembers the parts it
    read; a text put in front of them afterwards, or a new list of parts, is still seen."""
    message = context._Message("user", 1)
    message.parts.append([{"type": "tool_result", "tool_use_id": "toolu_1"}])
    assert context._all_results(message)
    message.parts.append([{"type": "tool_result", "tool_use_id": "toolu_2"}])
    assert context._all_results(message)
    message.parts.insert(0, context._Front("<system-reminder>\nhi\n</system-reminder>"))
    assert not context._all_results(message)
    message.parts = [[{"type": "tool_result", "tool_use_id": "toolu_1"}], []]
    assert not context._all_results(message)
    message.parts = [[{"type": "tool_result", "tool_use_id": "toolu_1"}]]
    assert context._all_results(message)
    message.parts.append("typed text")
    assert not context._all_results(message)


def test_an_attachment_rendered_as_two_texts_sends_the_first_alone() -> None:
    """A `file` attachment: "Called the Read tool" is a user message of its own; the result opens the turn's
    message, without the "\\n" the texts before the last get."""
    messages: list[tuple[str, Any]] = _contents(_context(CASES / "clean-attachment-rendered-twice.jsonl"))
    assert messages[3][0] == "user" and isinstance(messages[3][1], str)
    assert messages[3][1].startswith("<system-reminder>\nCalled the Read tool")
    assert messages[4][0] == "user" and [block["text"] for block in messages[4][1]] == [
        "<system-reminder>\nResult of calling the Read tool:\n1\timport sys\n</system-reminder>",
        "Which file has the word counter?"]


# --- editor features ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def linear() -> tuple[Document, list[str]]:
    text = LINEAR.read_text(encoding="utf-8")
    return analyze(text, Options(path=str(LINEAR), exists=os.path.exists)), text.split("\n")


def _at(lines: list[str], line: int, needle: str) -> int:
    return lines[line].index(needle) + len(needle) + 2


def test_parent_uuid_goes_to_its_record_and_uuid_finds_its_references(linear) -> None:
    document, lines = linear
    (target,) = features.definition(document, 21, _at(lines, 21, '"parentUuid":'))
    assert target.span.line == 20
    references = features.references(document, 21, _at(lines, 21, '"uuid":'))
    assert {location.span.line for location in references} == {21, 22}


def test_tool_use_id_goes_to_the_call_and_hover_shows_its_record(linear) -> None:
    document, lines = linear
    col = _at(lines, 23, '"tool_use_id":')
    (target,) = features.definition(document, 23, col)
    assert target.span.line == 22
    assert lines[22][target.span.start : target.span.end] == '"toolu_01hsrHoaZk91KMwFLSGDPTTU"'  # the call's id
    card = features.hover(document, 23, col)
    assert card is not None and "`Write`" in card.markdown and "on the resumed chain" in card.markdown


def test_renaming_a_uuid_changes_its_record_and_every_link_to_it(linear) -> None:
    document, lines = linear
    edits = features.rename(document, 21, _at(lines, 21, '"uuid":'), "renamed-uuid")
    assert isinstance(edits, list) and {edit.span.line for edit in edits} == {21, 22}
    refused = features.rename(document, 21, _at(lines, 21, '"uuid":'), "8e3ed826-aa15-43f4-96b1-8db39d86f041")
    assert isinstance(refused, features.RenameError) and "already used by line 3" in refused.message


def test_the_subagent_s_agent_id_goes_to_its_transcript() -> None:
    text = SUBAGENT.read_text(encoding="utf-8")
    document = analyze(text, Options(path=str(SUBAGENT), exists=os.path.exists))
    line = next(n for n, row in enumerate(text.split("\n")) if '"toolUseResult"' in row and '"agentId"' in row)
    col = text.split("\n")[line].rindex('"agentId":') + len('"agentId":') + 2
    (target,) = features.definition(document, line, col)
    assert target.path == str(SUBAGENT.parent / SUBAGENT.stem / "subagents" / "agent-a2e180325bc055689.jsonl")


def test_outline_tree_and_lens_mark_the_resume_leaf(linear) -> None:
    document, _ = linear
    symbols = features.document_symbols(document)
    assert [s.kind for s in symbols] == ["namespace", "namespace"]  # the two prompts, their records inside
    assert symbols[0].children and symbols[1].children[-1].detail == "resume leaf"
    tree = features.tree(document)
    assert tree["leaf"] == 57 and tree["active_path"][-1] == 57 and tree["roots"] == [2]
    assert any("leaf" in lens.title for lens in features.code_lenses(document) if lens.span.line == 57)


def test_a_new_record_is_linked_to_the_last_one(linear) -> None:
    document, lines = linear
    items = features.completions(document, len(lines) - 1, 0, "2026-12-05T09:00:00Z")
    prompt = next(item for item in items if item.label == "Claude Code user prompt")
    assert '"parentUuid": "45b150b7-4f24-4fd8-98f4-9d4c7f5a2029"' in (prompt.insert_text or "").replace('":"', '": "')


def test_a_glued_line_is_split_by_the_quick_fix_every_format_has() -> None:
    document = analyze((CASES / "CCD002-glued-records.jsonl").read_text(encoding="utf-8"),
                       Options(path=f"{SESSION}.jsonl"))
    glued = next(d for d in document.diagnostics() if d.code == "CCD002")
    (action,) = features.code_actions(document, glued.span, document.diagnostics())
    assert action.title == "Split into 2 lines" and action.diagnostic_codes == ("CCD002",)
    fixed = action.edits[0].new_text.split("\n")
    assert [json.loads(piece)["uuid"] for piece in fixed] == ["u2", "a3"]


def test_a_compaction_that_preserves_thousands_of_records_sends_them_all_in_order() -> None:
    """The records of a preserved segment are walked and set apart once each (a segment of 30,000 took 10 s: each
    record was looked for in the list of those walked)."""
    records: list[dict[str, Any]] = [{"parentUuid": f"u{n - 1}" if n else None, "type": "user", "uuid": f"u{n}",
                                      "message": {"role": "user", "content": f"prompt {n}"}} for n in range(3000)]
    records += [{"parentUuid": None, "logicalParentUuid": "u2999", "type": "system", "subtype": "compact_boundary",
                 "content": "Conversation compacted", "isMeta": False, "uuid": "b", "level": "info",
                 "compactMetadata": {"trigger": "manual", "preTokens": 1,
                                     "preservedSegment": {"headUuid": "u0", "anchorUuid": "s", "tailUuid": "u2999"}}},
                {"parentUuid": "b", "type": "user", "uuid": "s", "isCompactSummary": True,
                 "message": {"role": "user", "content": "the summary"}},
                {"parentUuid": "s", "type": "user", "uuid": "n", "message": {"role": "user", "content": "next"}}]
    text = "".join(json.dumps({"isSidechain": False, "timestamp": "2026-12-05T08:00:01.000Z", "sessionId": SESSION,
                               "version": "2.1.332", **record}) + "\n" for record in records)
    sent = json.dumps(features.context(analyze(text, Options(path=f"{SESSION}.jsonl")), -1)["messages"])
    places = [sent.index(f"prompt {n}\\n") if n < 2999 else sent.index("prompt 2999") for n in range(3000)]
    assert places == sorted(places) and places[-1] < sent.index("next")
