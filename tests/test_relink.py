"""`relink`: after an edit it follows (Elyra: a parentId, a timestamp, a result's toolCallId or toolName; thndrs: a
call_id), the link model and the diagnostics are those of a fresh analysis of the same text, and the incremental
path is the one taken wherever it applies."""

from __future__ import annotations

import json
from typing import Any

import claude_records as cc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session_lsp.analysis import Document, Options, analyze
from session_lsp.analysis.claude import relink as claude_relink
from session_lsp.analysis.claude.model import ClaudeModel
from session_lsp.analysis.elyra import link_pass
from session_lsp.analysis.elyra.model import ElyraModel
from session_lsp.analysis.results import LinkModel
from session_lsp.analysis.thndrs import link_pass as thndrs_link_pass
from session_lsp.analysis.thndrs.model import ThndrsModel

HEADER = {"type": "session", "version": 3, "id": "01a237ba-3c31-7688-af90-27a41cba019b",
          "timestamp": "2026-03-01T09:15:00.000Z", "cwd": "/w"}
DANGLING = "dddddddd"


def stamp(second: int) -> str:
    return f"2026-03-01T09:{15 + second // 60:02d}:{second % 60:02d}.000Z"


def entry(number: int, parent: str | None, second: int, **fields: Any) -> dict[str, Any]:
    kind = fields.pop("type", "message")
    return {"type": kind, "id": f"{number:08x}", "parentId": parent, "timestamp": stamp(second), **fields}


def assistant(calls: list[str], stop: str = "toolUse") -> dict[str, Any]:
    blocks = [{"type": "toolCall", "id": call, "name": "bash", "arguments": {}} for call in calls]
    return {"role": "assistant", "content": blocks or [{"type": "text", "text": "done"}], "api": "a", "provider": "p",
            "model": "m", "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                                    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
            "stopReason": stop, "timestamp": 1}


def result(call: str) -> dict[str, Any]:
    return {"role": "toolResult", "toolCallId": call, "toolName": "bash", "content": [{"type": "text", "text": "ok"}],
            "isError": False, "timestamp": 1}


def text_of(values: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(value, separators=(",", ":")) for value in values) + "\n"


@st.composite
def tree_sessions(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A v3 session pi could have written: unique ids, branches, tool calls answered below them or left open,
    compactions and labels; timestamps that sometimes tie or run backwards, so siblings get re-sorted."""
    values: list[dict[str, Any]] = [HEADER]
    open_calls: dict[int, list[str]] = {}
    parents: dict[int, int | None] = {}
    for number in range(draw(st.integers(2, 24))):
        up = None if number == 0 else draw(st.sampled_from([number - 1] * 3 + list(range(number))))
        parents[number] = up
        above = open_calls.get(up, []) if up is not None else []
        parent_id = None if up is None else f"{up:08x}"
        second = draw(st.sampled_from((number, number, number, 3, 0)))
        kind = draw(st.sampled_from(("user", "call", "call", "result", "result", "stray", "compaction", "label",
                                     "stop")))
        if kind == "call":
            calls = [f"call_{number}_{block}" for block in range(draw(st.integers(1, 2)))]
            values.append(entry(number, parent_id, second, message=assistant(calls)))
            open_calls[number] = above + calls
        elif kind == "result" and above:
            call = draw(st.sampled_from(above))
            values.append(entry(number, parent_id, second, message=result(call)))
            open_calls[number] = [other for other in above if other != call]
        elif kind == "stray":  # a result for a call elsewhere, later, or nowhere: an orphan, or an early one
            call = f"call_{draw(st.integers(0, 30))}_0"
            values.append(entry(number, parent_id, second, message=result(call)))
            open_calls[number] = [other for other in above if other != call]
        elif kind == "compaction" and up is not None:
            kept = up
            while parents[kept] is not None and draw(st.booleans()):
                kept = parents[kept]  # type: ignore[assignment]
            values.append(entry(number, parent_id, second, type="compaction", summary="s",
                                firstKeptEntryId=f"{kept:08x}", tokensBefore=5))
            open_calls[number] = above
        elif kind == "label" and up is not None:
            values.append(entry(number, parent_id, second, type="label", targetId=f"{up:08x}", label="x"))
            open_calls[number] = above
        else:
            message = assistant([], "stop") if kind == "stop" else {"role": "user", "content": "hi", "timestamp": 1}
            values.append(entry(number, parent_id, second, message=message))
            open_calls[number] = above
    return values


def set_value(document: Document, line: int, key: str, value: str | None) -> None:
    """Replace the first value of `key` on `line` (a string or null), as typing over it would."""
    text = document.lines[line]
    marker = f'"{key}":'
    start = text.index(marker) + len(marker)
    end = start + (4 if text.startswith("null", start) else text.index('"', start + 1) + 1 - start)
    document.edit(line, start, line, end, json.dumps(value))


def set_parent(document: Document, line: int, parent: str | None) -> None:
    set_value(document, line, "parentId", parent)


def tree_of(model: LinkModel | None) -> dict[str, Any]:
    assert isinstance(model, ElyraModel)
    return {"order": list(model.order), "pre": list(model.pre), "end_at": list(model.end_at),
            "depth_at": list(model.depth_at), "chained": bytes(model.chained()),
            "depth": [model.depth(line) for line in range(model.size)],
            "parent": list(model.parent_of), "children": [model.children(line) for line in range(model.size)],
            "roots": model.roots, "branch_points": model.branch_points, "dangling": model.dangling,
            "null_roots": model.null_roots, "parent_below": model.parent_below,
            "older_than_parent": model.older_than_parent, "active_path": list(model.active_path),
            "result_calls": model.result_calls, "unanswered": sorted(model.unanswered)}


def assert_like_fresh(document: Document) -> None:
    fresh = analyze(document.text, Options())
    assert document.diagnostics() == fresh.diagnostics()
    assert tree_of(document.linked.model) == tree_of(fresh.linked.model)


class Spy:
    """Counts the relinks that took the incremental path."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: str = "elyra") -> None:
        self.fast = 0
        home = {"elyra": link_pass, "thndrs": thndrs_link_pass, "claude": claude_relink}[module]
        relink = home.relink

        def spy(*args: Any) -> Any:
            found = relink(*args)
            self.fast += found is not None
            return found

        monkeypatch.setattr(home, "relink", spy)  # what the format's face imports when it relinks


EDITS = st.lists(st.tuples(st.sampled_from(("parentId", "parentId", "timestamp", "toolCallId", "toolName")),
                           st.integers(1, 30), st.integers(-2, 30)), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree_sessions(), EDITS)
def test_link_edits_match_a_fresh_analysis(values: list[dict[str, Any]], edits: list[tuple[str, int, int]]) -> None:
    """parentIds (a known id, one that names nothing, null), timestamps (siblings re-sort), and the toolCallId or
    toolName of a result (another call's id, or one no call has)."""
    document = analyze(text_of(values), Options())
    document.diagnostics()
    entries = len(values) - 1
    for key, entry_number, choice in edits:
        line = 1 + entry_number % entries
        if key == "parentId":
            value = None if choice == -1 else DANGLING if choice == -2 else f"{choice % entries:08x}"
        elif key == "timestamp":
            value = stamp(choice % 40)
        elif f'"{key}":' not in document.lines[line]:
            continue
        elif key == "toolCallId":
            value = "call_none" if choice < 0 else f"call_{choice}_0"
        else:
            value = "read" if choice % 2 else "bash"
        set_value(document, line, key, value)
        assert_like_fresh(document)


def chain_with_calls(length: int) -> list[dict[str, Any]]:
    """user, then (assistant with a call, its result) pairs, each entry below the one before."""
    values: list[dict[str, Any]] = [HEADER, entry(0, None, 0, message={"role": "user", "content": "go",
                                                                        "timestamp": 1})]
    for number in range(1, length):
        message = assistant([f"call_{number}"]) if number % 2 else result(f"call_{number - 1}")
        values.append(entry(number, f"{number - 1:08x}", number, message=message))
    return values


def test_a_result_put_back_under_its_call_is_answered_again(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    document = analyze(text_of(chain_with_calls(30)), Options())
    before = document.diagnostics()
    set_parent(document, 11, DANGLING)
    added = {(d.code, d.span.line) for d in document.diagnostics()} - {(d.code, d.span.line) for d in before}
    assert added == {("ELY042", 11), ("ELY070", 11), ("ELY072", 10)}
    set_parent(document, 11, f"{9:08x}")
    assert_like_fresh(document)
    assert document.diagnostics() == before
    assert spy.fast == 2


def test_a_parent_typed_over_and_back_keeps_the_previous_result(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    document = analyze(text_of(chain_with_calls(30)), Options())
    linked = document.linked
    set_parent(document, 10, DANGLING)
    set_parent(document, 10, f"{8:08x}")
    assert document.linked is linked
    assert spy.fast == 1


def with_repeated_call_id(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    values[4]["message"]["content"][0]["id"] = "call_1"  # the call on line 4 reuses line 2's id
    return values


CHAIN = chain_with_calls(30)
"""Line 1 a user message, then an assistant with call_N on each even line N and its result on the line after."""


@pytest.mark.parametrize(("values", "line", "key", "value", "incremental", "why"), [
    (CHAIN, 10, "parentId", DANGLING, True, "the assistant on line 10 loses its parent; its call is answered below"),
    (CHAIN, 10, "parentId", None, True, "the same assistant made a root"),
    (CHAIN, 10, "parentId", f"{3:08x}", True, "the same assistant moved under an earlier one, beside its result"),
    (CHAIN, 11, "parentId", DANGLING, True, "the result on line 11 loses the call above it (line 10): an orphan"),
    (CHAIN, 11, "parentId", f"{7:08x}", True, "the same result moved under another call: an orphan too"),
    (CHAIN, 10, "timestamp", stamp(0), True, "older than its parent"),
    (CHAIN, 11, "toolCallId", "call_29", True, "now names the call on line 30, below it (ELY075)"),
    (CHAIN, 11, "toolCallId", "call_none", True, "no call has this id: an orphan"),
    (CHAIN, 11, "toolName", "read", True, "the call on line 10 is `bash`"),
    (CHAIN, 5, "parentId", f"{20:08x}", False, "the new parent is below the entry: a parentId loop"),
    (CHAIN, 5, "parentId", f"{4:08x}", False, "the entry names itself"),
    (CHAIN, 11, "toolCallId", "call_11", False, "line 13 answers call_11 already: pairs would not be one to one"),
    (with_repeated_call_id(chain_with_calls(30)), 10, "parentId", DANGLING, False,
     "two calls share an id: pairs need the full walk"),
])
def test_which_edits_take_the_incremental_path(monkeypatch: pytest.MonkeyPatch, values: list[dict[str, Any]],
                                               line: int, key: str, value: str | None, incremental: bool,
                                               why: str) -> None:
    spy = Spy(monkeypatch)
    document = analyze(text_of(values), Options())
    document.diagnostics()
    set_value(document, line, key, value)
    assert_like_fresh(document)
    assert spy.fast == incremental, why


def test_a_result_given_a_new_parent_and_a_new_tool_call_id_at_once_is_relinked_right() -> None:
    """One edit that moves a result (under no entry) and renames the call it answers: neither change alone."""
    document = analyze(text_of(CHAIN), Options())
    document.diagnostics()
    line = 11
    value = json.loads(document.lines[line])
    value["parentId"] = DANGLING
    value["message"]["toolCallId"] = "call_none"
    document.edit(line, 0, line, len(document.lines[line]), json.dumps(value, separators=(",", ":")))
    assert_like_fresh(document)


# --- thndrs ------------------------------------------------------------------------------------------------------

THNDRS_META: dict[str, Any] = {"type": "session_meta", "schema_version": 1, "seq": 0, "time": "2026-04-27T08:10:29Z",
               "session_id": "session-20260427-081029", "cwd": "/w", "title": "t", "provider": "p", "model": "m",
               "websearch": "off", "app_version": "0.1.0"}


@st.composite
def thndrs_sessions(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Turns with tool calls whose ids repeat across turns (and sometimes within one, or are "?"), finishes that
    come late, in another turn, or never."""
    values: list[dict[str, Any]] = [THNDRS_META]
    for turn in range(draw(st.integers(1, 5))):
        turn_id = f"turn_{turn}"
        records: list[dict[str, Any]] = [{"type": "user", "turn_id": turn_id, "text": "go"}]
        for _ in range(draw(st.integers(0, 5))):
            call = draw(st.sampled_from(("call_1", "call_2", "call_3", "?")))
            kind = draw(st.sampled_from(("tool_started", "tool_started", "tool_finished")))
            record: dict[str, Any] = {"type": kind,
                                      "turn_id": draw(st.sampled_from((turn_id, turn_id, turn_id, "turn_0"))),
                      "call_id": call}
            record.update({"name": "read", "arguments": "{}"} if kind == "tool_started"
                          else {"output": ["ok"], "status": "Ok"})
            records.append(record)
        if draw(st.booleans()):
            records.append({"type": "assistant_finished", "turn_id": turn_id, "text": "done"})
        values.extend(records)
    for seq, record in enumerate(values):
        record.setdefault("schema_version", 1)
        record["seq"] = seq
        record.setdefault("time", f"2026-04-27T08:{10 + seq // 60:02d}:{seq % 60:02d}Z")
    return values


def thndrs_model(model: LinkModel | None) -> dict[str, Any]:
    assert isinstance(model, ThndrsModel)
    return {"calls": [(c.turn_id, c.call_id, c.started, c.finished, c.other_turn_start, c.claimed_by)
                      for c in model.tool_calls],
            "duplicates": model.duplicate_starts,
            "starts": {line: model.start_of(line) for line in range(len(model.facts))},
            "references": [model.references_to(line) for line in range(len(model.facts))]}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(thndrs_sessions(), st.lists(st.tuples(st.integers(0, 40), st.sampled_from(("call_1", "call_2", "call_9", "?"))),
                                   min_size=1, max_size=6))
def test_thndrs_call_id_edits_match_a_fresh_analysis(values: list[dict[str, Any]],
                                                     edits: list[tuple[int, str]]) -> None:
    document = analyze(text_of(values), Options())
    document.diagnostics()
    tools = [number for number, value in enumerate(values) if "call_id" in value]
    for pick, call in edits:
        if not tools:
            break
        set_value(document, tools[pick % len(tools)], "call_id", call)
        fresh = analyze(document.text, Options())
        assert document.diagnostics() == fresh.diagnostics()
        assert thndrs_model(document.linked.model) == thndrs_model(fresh.linked.model)


def test_a_thndrs_call_id_edit_takes_the_incremental_path(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch, "thndrs")
    values: list[dict[str, Any]] = [THNDRS_META, {"type": "user", "turn_id": "t1", "text": "go"},
              {"type": "tool_started", "turn_id": "t1", "call_id": "call_1", "name": "read", "arguments": "{}"},
              {"type": "tool_finished", "turn_id": "t1", "call_id": "call_1", "output": ["ok"], "status": "Ok"},
              {"type": "assistant_finished", "turn_id": "t1", "text": "done"}]
    for seq, record in enumerate(values):
        record.update(schema_version=1, seq=seq, time=f"2026-04-27T08:10:{30 + seq}Z")
    document = analyze(text_of(values), Options())
    assert not document.diagnostics()
    set_value(document, 3, "call_id", "call_2")
    assert [d.code for d in document.diagnostics()] == ["THN041", "THN040"]
    set_value(document, 2, "time", "2026-04-27T08:10:00Z")  # not a call_id: the full pass
    assert document.diagnostics() == analyze(document.text, Options()).diagnostics()
    assert spy.fast == 1


# --- Claude Code -------------------------------------------------------------------------------------------------

CLAUDE_NAME = "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f.jsonl"


@st.composite
def claude_sessions(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A conversation as Claude Code writes one (a response in several records, each result below its own call,
    parallel calls), with what damaged files hold: parents naming nothing, null or an earlier record (a rewind),
    results of calls elsewhere or nowhere, a row re-appended as it was or with other content under its uuid."""
    values: list[dict[str, Any]] = []
    uuids: list[str] = []
    open_calls: list[str] = []
    message = 0
    for number in range(draw(st.integers(1, 20))):
        uuid = f"u{number}"
        parent = (None if not uuids else draw(st.sampled_from([uuids[-1]] * 4 + uuids + ["gone", None])))
        kind = draw(st.sampled_from(("prompt", "text", "call", "call", "result", "result", "stray", "meta", "copy",
                                     "twin")))
        if kind == "prompt" or not uuids:
            values.append(cc.prompt(uuid, parent, f"prompt {number}"))
        elif kind == "text":
            message += draw(st.sampled_from((0, 1)))
            values.append(cc.assistant(uuid, parent, f"msg_{message}", cc.text(f"said {number}")))
        elif kind == "call":
            message += draw(st.sampled_from((0, 1, 1)))
            values.append(cc.assistant(uuid, parent, f"msg_{message}", cc.call(f"t{number}")))
            open_calls.append(f"t{number}")
        elif kind in ("result", "stray"):
            answered = draw(st.sampled_from(open_calls)) if open_calls and kind == "result" else "t99"
            values.append(cc.result(uuid, parent, answered))
        elif kind == "meta":
            values.append(cc.bookkeeping())
            continue
        elif kind == "copy":
            values.append(dict(draw(st.sampled_from(values))))
            continue
        else:
            twin = dict(draw(st.sampled_from(values)))
            twin["timestamp"] = "2026-12-05T09:00:00.000Z"
            values.append(twin)
            continue
        uuids.append(uuid)
    return values


def claude_model(model: LinkModel | None) -> dict[str, Any]:
    assert isinstance(model, ClaudeModel)
    return {"records": [(r.line, r.part, r.facts) for r in model.records], "by_uuid": model.by_uuid,
            "duplicates": model.duplicates, "leaf": model.leaf, "chain": model.chain, "bridged": model.bridged,
            "cycle": model.cycle, "uses": model.uses, "at_line": {line: r.facts for line, r in model.at_line.items()},
            "references": [model.references_from(line) for line in model.at_line],
            "incoming": [model.references_to(line) for line in model.at_line]}


CLAUDE_EDITS = st.lists(st.tuples(st.sampled_from(("timestamp", "timestamp", "content", "parentUuid", "tool_use_id",
                                                   "uuid")), st.integers(0, 40), st.integers(-2, 40)),
                        min_size=1, max_size=6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claude_sessions(), CLAUDE_EDITS)
def test_claude_edits_match_a_fresh_analysis(values: list[dict[str, Any]], edits: list[tuple[str, int, int]]) -> None:
    """Typing in a record's text or timestamp (the relink's path, twins included), and in its links: parentUuid (a
    known uuid, one naming nothing, null), a result's tool_use_id, a uuid."""
    options = Options(path=CLAUDE_NAME)
    document = analyze(cc.text_of(values), options)
    document.diagnostics()
    for key, pick, choice in edits:
        line = pick % len(values)
        if f'"{key}":' not in document.lines[line]:
            continue
        if key == "parentUuid":
            value = None if choice == -1 else "gone" if choice == -2 else f"u{choice % len(values)}"
        elif key == "tool_use_id":
            value = "t99" if choice < 0 else f"t{choice}"
        elif key == "uuid":
            value = f"u{choice % len(values)}"
        elif key == "content" and '"content":"' not in document.lines[line]:
            continue
        else:
            value = f"typed {choice}" if key == "content" else f"2026-12-05T08:{choice % 60:02d}:00.000Z"
        set_value(document, line, key, value)
        fresh = analyze(document.text, options)
        assert document.diagnostics() == fresh.diagnostics()
        assert claude_model(document.linked.model) == claude_model(fresh.linked.model)


CLAUDE_CHAIN = [cc.prompt("u0", None), cc.assistant("u1", "u0", "msg_1", cc.call("t1")),
                cc.result("u2", "u1", "t1"), cc.assistant("u3", "u2", "msg_2", cc.text()), cc.prompt("u4", "u3"),
                cc.assistant("u5", "u4", "msg_3", cc.call("t5")), cc.result("u6", "u5", "t5"), cc.bookkeeping()]


@pytest.mark.parametrize(("values", "line", "key", "value", "incremental", "why"), [
    (CLAUDE_CHAIN, 0, "content", "another prompt", True, "a prompt's text: nothing it links changes"),
    (CLAUDE_CHAIN, 6, "timestamp", "2026-12-05T09:00:00.000Z", False,
     "a result's timestamp: Claude Code links a dangling parent to the record written last before it, so a "
     "timestamp is a link"),
    (CLAUDE_CHAIN, 7, "content", "another prompt", False, "a bookkeeping line: its facts do not change, no relink"),
    (CLAUDE_CHAIN, 5, "parentUuid", "gone", False, "a parent naming nothing: the chain is bridged"),
    (CLAUDE_CHAIN, 6, "tool_use_id", "t1", False, "a result now answers another call"),
    ([*CLAUDE_CHAIN, cc.result("u6", "u5", "t5")], 6, "timestamp", "2026-12-05T09:00:00.000Z", False,
     "a row re-appended below: the copy differs from it now, which changes what CCD024 says"),
])
def test_which_claude_edits_take_the_incremental_path(monkeypatch: pytest.MonkeyPatch, values: list[dict[str, Any]],
                                                      line: int, key: str, value: str | None, incremental: bool,
                                                      why: str) -> None:
    spy = Spy(monkeypatch, "claude")
    options = Options(path=CLAUDE_NAME)
    document = analyze(cc.text_of(values), options)
    document.diagnostics()
    set_value(document, line, key, value)
    fresh = analyze(document.text, options)
    assert document.diagnostics() == fresh.diagnostics()
    assert claude_model(document.linked.model) == claude_model(fresh.linked.model)
    assert spy.fast == incremental, why


def test_a_claude_text_edit_keeps_the_chain_and_shows_the_new_text() -> None:
    options = Options(path=CLAUDE_NAME)
    document = analyze(cc.text_of(CLAUDE_CHAIN), options)
    before = document.linked.model
    set_value(document, 4, "content", "what changed?")
    after = document.linked.model
    assert isinstance(before, ClaudeModel) and isinstance(after, ClaudeModel) and after is not before
    assert after.chain is before.chain and after.by_uuid is before.by_uuid  # shared, not derived again
    assert after.at_line[4].facts == document.results[4].facts != before.at_line[4].facts
    assert before.at_line[4].facts.digest != after.at_line[4].facts.digest  # the old model is left as it was
