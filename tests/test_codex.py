"""Codex rollouts: detection, the history Codex sends on `codex exec resume` (the real 0.171.0 was seen to send every
response_item payload as written, in file order, after the last compaction's replacement_history; the conformance
suite compares every corpus file and mutant with its requests), and the editor features on files the real CLI
wrote."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp.analysis import Kind, Options, analyze, features
from session_lsp.analysis.codex import fixes as codex_fixes
from session_lsp.analysis.codex.model import CodexModel
from session_lsp.analysis.codex.schema import OUTPUT_OF, OUTPUTS
from session_lsp.analysis.document import Document, analyze_bytes
from session_lsp.analysis.formats import detect

TESTS = Path(__file__).parent
CASES = TESTS / "cases" / "codex"
CORPUS = TESTS / "corpus" / "codex-0.171.0-written"
TOOLS = CORPUS / "rollout-2026-12-05T08-14-24-01a24544-c378-7cc2-ae2e-a71a17407cd4.jsonl"
RESUMED = CORPUS / "rollout-2026-12-05T08-14-35-01a24544-ef77-76d2-ad46-9e07c57223d1.jsonl"
COMPACTED = CORPUS / "rollout-2026-12-05T08-14-59-01a24545-4d27-7bd0-beba-0fa477ba945e.jsonl"
KILLED = CORPUS / "rollout-2026-12-05T08-15-07-01a24545-6bd7-7072-aaa7-522298ef003e.jsonl"
NAME = "rollout-2026-12-05T08-14-24-01a24544-c378-7cc2-ae2e-a71a17407cd4.jsonl"


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _context(path: Path | str) -> dict:
    data = path.read_bytes() if isinstance(path, Path) else path.encode()
    return features.context(analyze_bytes(data, Options(path=NAME)), -1)


def _items(payload: dict) -> list[dict]:
    return [json.loads(bytes(m["item"])) if not isinstance(m["item"], dict) else m["item"]
            for m in payload["messages"]]


def _as_sent(item: dict) -> dict:
    """An item as the real Codex sends it: without its internal metadata, a reasoning item with its
    encrypted_content (null when the file has none)."""
    out = {key: value for key, value in item.items() if key != "internal_chat_message_metadata_passthrough"}
    if out["type"] == "reasoning":
        out.setdefault("encrypted_content", None)
    return out


def _sent_as_written(path: Path) -> list[dict]:
    return [_as_sent(row["payload"]) for row in _rows(path) if row["type"] == "response_item"]


# --- detection -------------------------------------------------------------------------------------------------

def test_a_rollout_is_codex_s_by_its_envelope_and_an_empty_one_by_its_name() -> None:
    first = TOOLS.read_text(encoding="utf-8").split("\n")[:3]
    assert detect(first).kind is Kind.CODEX
    thndrs_like = json.dumps({"type": "session_meta", "schema_version": 1, "seq": 0, "time": "t"})
    assert detect([thndrs_like]).kind is not Kind.CODEX
    assert detect([""], f"/x/sessions/2026/12/05/{NAME}").kind is Kind.CODEX
    assert detect([""], f"/x/{NAME}.zst").kind is Kind.CODEX
    document = analyze("", Options(path=NAME))
    assert [(d.code, d.span.line) for d in document.diagnostics()] == [("CDX010", 0)]
    assert _context("")["refused"] == f"rollout at {NAME} is empty"


# --- the history Codex sends -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [TOOLS, RESUMED, KILLED], ids=["tools", "resumed", "killed"])
def test_a_rollout_without_compaction_is_sent_as_written(path: Path) -> None:
    payload = _context(path)
    assert payload["refused"] is None
    assert _items(payload) == _sent_as_written(path)


def test_a_compacted_rollout_sends_the_last_replacement_history_then_what_follows() -> None:
    rows = _rows(COMPACTED)
    last = max(n for n, row in enumerate(rows) if row["type"] == "compacted")
    expected = [_as_sent(item) for item in rows[last]["payload"]["replacement_history"]] + [
        _as_sent(row["payload"]) for row in rows[last:] if row["type"] == "response_item"]
    assert _items(_context(COMPACTED)) == expected


def test_an_output_without_its_call_is_dropped() -> None:
    payload = _context(CASES / "CDX020-orphan-output.jsonl")
    assert [item["type"] for item in _items(payload)] == ["message", "message"]


def test_a_call_without_output_gets_a_synthetic_aborted_output_after_it() -> None:
    payload = _context(CASES / "CDX021-call-without-output.jsonl")
    items = _items(payload)
    assert [item["type"] for item in items] == ["message", "function_call", "function_call_output", "message"]
    namespace = uuid.UUID("90d38d3e-6a5b-4d52-bfe2-2f1e634bfac4")
    assert items[2] == {"type": "function_call_output", "id": f"fco_{uuid.uuid5(namespace, 'fco:fc_1')}",
                        "call_id": "call_1", "output": "aborted"}
    assert payload["messages"][2]["line"] == 4 and "synthetic" in payload["messages"][2]["note"]


def test_a_duplicate_is_sent_twice_and_a_glued_line_loses_both_records() -> None:
    items = _items(_context(CASES / "CDX022-duplicate-item.jsonl"))
    assert [i.get("id") for i in items][:2] == ["msg_u1", "msg_u1"]
    glued = _items(_context(CASES / "CDX002-glued-records.jsonl"))
    assert [(i["type"], i.get("output")) for i in glued] == [("message", None), ("function_call", None),
                                                            ("function_call_output", "aborted")]


def test_a_rollback_drops_the_last_user_turns() -> None:
    items = _items(_context(CASES / "CDX041-thread-rolled-back.jsonl"))
    assert [i.get("id") for i in items] == ["msg_u1", "fc_1", "fco_1", "msg_a1"]


def test_a_file_not_starting_with_session_meta_is_refused() -> None:
    assert _context(CASES / "CDX010-session-meta-not-first.jsonl")["refused"] == (
        f"rollout at {NAME} does not start with session metadata")


# --- editor features -----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tools() -> tuple[Document, list[str]]:
    text = TOOLS.read_text(encoding="utf-8")
    return analyze(text, Options(path=str(TOOLS))), text.split("\n")


def _at(lines: list[str], line: int, key: str) -> int:
    return lines[line].index(key) + len(key) + 2


def test_call_id_goes_to_the_call_and_finds_its_output(tools) -> None:
    document, lines = tools
    output = next(n for n, row in enumerate(lines) if '"function_call_output"' in row)
    call_id = json.loads(lines[output])["payload"]["call_id"]
    (target,) = features.definition(document, output, _at(lines, output, '"call_id":'))
    assert json.loads(lines[target.span.line])["payload"]["type"] == "function_call"
    assert lines[target.span.line][target.span.start:target.span.end] == json.dumps(call_id)
    references = features.references(document, target.span.line, target.span.start + 2)
    assert {location.span.line for location in references} == {target.span.line, output}
    card = features.hover(document, output, _at(lines, output, '"call_id":'))
    assert card is not None and "exec_command" in card.markdown


def test_a_turn_id_goes_to_the_turn_s_start(tools) -> None:
    document, lines = tools
    line = next(n for n, row in enumerate(lines) if '"task_complete"' in row)
    (target,) = features.definition(document, line, _at(lines, line, '"turn_id":'))
    assert '"task_started"' in lines[target.span.line]


def test_outline_and_tree_go_by_turn() -> None:
    document = analyze(RESUMED.read_text(encoding="utf-8"), Options(path=str(RESUMED)))
    turns = [s for s in features.document_symbols(document) if s.kind == "namespace"]
    assert [t.name for t in turns] == ["user: Give me a quick overview of this repository.",
                                       "user: Run the unit tests and fix whatever fails.",
                                       "user: Document the command-line usage in README.md."]
    assert all(t.detail == "complete" and t.children for t in turns)
    # A fold a turn, as far as its outline node: up to the line before the next turn's task_started.
    assert [(f.start_line, f.end_line) for f in features.folding_ranges(document)] == [
        (t.span.line, t.span.end_line) for t in turns] == [(1, 24), (25, 53), (54, 69)]
    tree = features.tree(document)
    assert [node["kind"] for node in tree["nodes"]] == ["record", "turn", "turn", "turn"]
    assert tree["session_id"] == "01a24544-ef77-76d2-ad46-9e07c57223d1"


# --- what the real Codex was seen to do with damaged rollouts (the conformance suite's findings) ----------------

def _compacted(history: list, metadata: int) -> str:
    rows = _rows(CASES / "clean-one-turn.jsonl")
    rows.append({"timestamp": "2026-12-05T08:14:24.008Z", "ordinal": 8, "type": "compacted",
                 "payload": {"message": "Summary.", "replacement_history": history,
                             "replacement_history_metadata": [{"history_sequence": n} for n in range(metadata)]}})
    rows.append({"timestamp": "2026-12-05T08:14:24.009Z", "ordinal": 9, "type": "response_item",
                 "payload": {"type": "message", "id": "msg_u2", "role": "user",
                             "content": [{"type": "input_text", "text": "Next."}]}})
    return "".join(json.dumps(row) + "\n" for row in rows)


def test_an_unknown_item_of_a_replacement_history_is_sent_as_other() -> None:
    prompt = {"type": "message", "id": "msg_u1", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]}
    items = _items(_context(_compacted([prompt, {"type": "mystery_item", "x": 1}], 2)))
    assert items == [prompt, {"type": "other"}, items[2]] and items[2]["id"] == "msg_u2"


def test_a_compaction_whose_metadata_differs_in_length_is_ignored() -> None:
    prompt = {"type": "message", "id": "msg_s", "role": "user", "content": [{"type": "input_text", "text": "S"}]}
    items = _items(_context(_compacted([prompt], 2)))
    assert [i.get("id") for i in items] == ["msg_u1", "fc_1", "fco_1", "msg_a1", "msg_u2"]


def test_an_output_with_a_null_call_id_is_sent_without_one() -> None:
    items = _items(_context(CASES / "CDX020-output-without-call-id.jsonl"))
    assert items[2]["output"] == "aborted" and items[3] == {"type": "function_call_output", "id": "fco_1",
                                                            "output": "notes.py\n"}


def test_a_last_record_without_ordinal_is_refused() -> None:
    assert _context(CASES / "CDX031-ordinal-missing-on-the-last-record.jsonl")["refused"] == (
        f"failed to resume local thread recorder: final paginated rollout record at {NAME} is missing an ordinal")
    assert _context(CASES / "CDX031-ordinal-missing.jsonl")["refused"] is None


def test_a_damaged_line_that_held_no_item_sent_or_was_compacted_away_is_a_warning() -> None:
    rows = COMPACTED.read_text(encoding="utf-8").split("\n")
    compaction = max(n for n, row in enumerate(rows) if '"type":"compacted"' in row)
    item = next(n for n, row in enumerate(rows) if '"type":"function_call_output"' in row)
    event = next(n for n, row in enumerate(rows) if n > compaction and '"type":"event_msg"' in row)
    assert item < compaction
    rows[item] = rows[item][: len(rows[item]) // 2]  # torn, above the last compaction
    rows[event] = rows[event].replace('"timestamp":"', '"timestamp":1,"x":"', 1)  # an event Codex cannot read
    document = analyze("\n".join(rows), Options(path=NAME))
    found = {(d.span.line, d.code): d for d in document.diagnostics()}
    assert found[(item, "CDX001")].severity.label == "warning" and "compacted away" in found[(item, "CDX001")].message
    assert found[(event, "CDX008")].severity.label == "warning"
    assert [d for d in document.diagnostics() if d.severity.label == "error"] == []


def test_a_torn_event_with_an_item_glued_after_it_loses_the_item() -> None:
    rows = (CASES / "clean-one-turn.jsonl").read_text(encoding="utf-8").split("\n")
    rows[1] = rows[1][:30] + rows[5]  # a torn task_started, the output's record glued after it
    del rows[5]
    document = analyze("\n".join(rows), Options(path=NAME))
    assert [(d.span.line, d.code, d.severity.label) for d in document.diagnostics()][:1] == [(1, "CDX001", "error")]


def test_forked_from_id_goes_to_the_parent_rollout(tmp_path: Path) -> None:
    parent = tmp_path / "sessions" / "2026" / "12" / "05" / TOOLS.name
    parent.parent.mkdir(parents=True)
    parent.write_bytes(TOOLS.read_bytes())
    child = (tmp_path / "sessions" / "2026" / "12" / "06"
             / "rollout-2026-12-06T09-00-00-01a24a00-0000-7000-8000-000000000001.jsonl")
    child.parent.mkdir(parents=True)
    rows = _rows(CASES / "clean-one-turn.jsonl")
    rows[0]["payload"]["forked_from_id"] = "01a24544-c378-7cc2-ae2e-a71a17407cd4"
    text = "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
    child.write_text(text, encoding="utf-8")
    document = analyze(text, Options(path=str(child), exists=os.path.exists))
    lines = text.split("\n")
    (target,) = features.definition(document, 0, _at(lines, 0, '"forked_from_id":'))
    assert target.path == str(parent)
    parent.unlink()
    assert features.definition(document, 0, _at(lines, 0, '"forked_from_id":')) == []


def test_glued_bookkeeping_is_a_warning_and_an_unknown_replacement_item_an_error() -> None:
    rows = (CASES / "clean-one-turn.jsonl").read_text(encoding="utf-8").split("\n")
    glued = rows[1] + rows[2]  # task_started and turn_context: nothing the model is sent
    document = analyze("\n".join([rows[0], glued, *rows[3:]]), Options(path=NAME))
    (found,) = [d for d in document.diagnostics() if d.code == "CDX002"]
    assert found.severity.label == "warning" and "resumed conversation is whole" in found.message
    prompt = {"type": "message", "id": "msg_u1", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]}
    document = analyze(_compacted([prompt, {"type": "mystery_item"}], 2), Options(path=NAME))
    (found,) = [d for d in document.diagnostics() if d.code == "CDX007"]
    assert found.severity.label == "error" and found.span.line == 8 and '{"type":"other"}' in found.message


def test_a_mismatched_compaction_a_later_one_replaces_is_a_warning() -> None:
    rows = _compacted([{"type": "message", "role": "user", "content": []}], 2).split("\n")
    later = json.loads(rows[8])
    later["ordinal"], later["payload"]["replacement_history_metadata"] = 10, [{"history_sequence": 1}]
    text = "\n".join([*rows[:10], json.dumps(later), ""])
    found = [d for d in analyze(text, Options(path=NAME)).diagnostics() if d.code == "CDX040"]
    assert [(d.span.line, d.severity.label) for d in found] == [(8, "warning")]
    assert "compacted away" in found[0].message


def test_thousands_of_ordinals_out_of_order_are_numbered_by_one_fix_made_once() -> None:
    """A renumbering is one fix for every record (CDX030-CDX033): the quick fixes of 2,000 repeated ordinals list it
    once, and `fix` applies it in one round. Made for each diagnostic, it read every line again for each of them."""
    rows = _rows(sorted(CORPUS.glob("*.jsonl"))[0])
    call = next(row for row in rows if row["type"] == "response_item" and row["payload"]["type"] == "function_call")
    output = next(row for row in rows if row["type"] == "response_item"
                  and row["payload"]["type"] == "function_call_output")
    lines = [json.dumps(row) for row in rows[:rows.index(call)]]
    for number in range(1000):
        for row in (call, output):
            lines.append(json.dumps({**row, "payload": {**row["payload"], "call_id": f"call_{number:05d}"}}))
    document = analyze("\n".join(lines) + "\n", Options())
    repeated = [d for d in document.diagnostics() if d.code == "CDX032"]
    assert len(repeated) > 1000
    offered = [fix for fix in features.fixes(document, repeated) if "CDX032" in fix.codes]
    assert len(offered) == 1
    repaired = features.fix_document(document)
    assert repaired.converged and len(repaired.applied) == 1
    assert not [d for d in analyze(repaired.text, Options()).diagnostics() if d.code.startswith("CDX03")]


def _plain_pairing(model: CodexModel) -> dict[int, int]:
    """The outputs whose call_id names no call, each with the nearest call above it, left without output and not
    taken by an output before it, that its kind answers: read again for each output."""
    open_calls = [model.records[index] for index in model.synthetic]
    taken: set[int] = set()
    out: dict[int, int] = {}
    for record in model.records:
        f = record.facts
        if f.tag != "response_item" or f.kind not in OUTPUTS or (f.call_id is not None and f.call_id in model.calls):
            continue
        above = [call for call in open_calls if call.line < record.line and call.line not in taken
                 and OUTPUT_OF.get(call.facts.kind or "") == f.kind]
        if above:
            out[record.line] = above[-1].line
            taken.add(above[-1].line)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["function_call", "custom_tool_call", "function_call_output",
                                           "custom_tool_call_output"]), st.sampled_from(["a", "b", "c", "lost"])),
                max_size=40))
def test_an_output_without_its_call_is_pointed_at_the_nearest_open_call_above_it(
        items: list[tuple[str, str]]) -> None:
    rows = _rows(TOOLS)
    call = next(row for row in rows if row["type"] == "response_item" and row["payload"]["type"] == "function_call")
    lines = [json.dumps(row) for row in rows[:rows.index(call)]]
    for kind, call_id in items:
        payload = {"type": kind, "call_id": call_id}
        payload |= {"function_call": {"name": "shell", "arguments": "{}"}, "custom_tool_call": {
            "name": "apply_patch", "input": "x", "status": "completed"}}.get(kind, {"output": "ok"})
        lines.append(json.dumps({**call, "payload": payload}))
    document = analyze("\n".join(lines) + "\n", Options(path=NAME))
    model = document.linked.model
    assert isinstance(model, CodexModel)
    assert codex_fixes._pairing(document) == _plain_pairing(model)
