"""Properties that hold for every input: the core never raises or hangs, every diagnostic lies inside the document
and carries a registered code, and a document kept up to date through `Document.edit` (which re-runs only what
an edit can have changed) reports exactly what a fresh `analyze` of the same text reports."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import tempfile
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from typing import Any

import claude_records
import pytest
from forks import Here
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from session_lsp.analysis import RULES, Diagnostic, Document, Options, Severity, Span, analyze, features
from session_lsp.analysis import text as text_module
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.features import fix_document, fixes
from session_lsp.analysis.features.fixes import _Rows, apply_edits
from session_lsp.analysis.fixing import TextEdit
from session_lsp.analysis.lines import LineKind, decode, split_glued
from session_lsp.analysis.result_store import facts_of, lines_of_kind
from session_lsp.analysis.text import decode_bytes
from session_lsp.files import FileLines

LIMIT_SECONDS = 10
"""Wall-clock limit per example: a hang (e.g. a parentId cycle walked forever) fails instead of blocking."""

COMMON = settings(max_examples=120, deadline=timedelta(seconds=3), derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@contextlib.contextmanager
def time_limit(seconds: int = LIMIT_SECONDS) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"analysis took longer than {seconds} s (a hang?)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- invariants ------------------------------------------------------------------------------------------------


def assert_span_inside(span: Span, lines: list[str]) -> None:
    assert 0 <= span.line <= span.end_line < len(lines), span
    assert 0 <= span.start <= len(lines[span.line]), (span, len(lines[span.line]))
    assert 0 <= span.end <= len(lines[span.end_line]), (span, len(lines[span.end_line]))
    assert (span.line, span.start) <= (span.end_line, span.end), span


def assert_well_formed(diagnostics: list[Diagnostic], text: str) -> None:
    lines = text.split("\n")
    for diagnostic in diagnostics:
        assert diagnostic.code in RULES, diagnostic.code
        assert isinstance(diagnostic.severity, Severity)
        assert diagnostic.message
        assert_span_inside(diagnostic.span, lines)
        for related in diagnostic.related:
            assert_span_inside(related.span, lines)


def analyze_checked(text: str, invalid: list[Span] | None = None) -> Document:
    with time_limit():
        document = analyze(text, Options(), invalid or ())
        diagnostics = document.diagnostics()
    assert_well_formed(diagnostics, text)
    return document


# --- strategies ------------------------------------------------------------------------------------------------

IDS = ("a1b2c3d4", "0badf00d", "deadbeef", "5e55104e", "01a237ba-3c31-7688-af90-27a41cba019b", "x", "")
CALLS = ("toolu_1", "toolu_2", "call_1", "?")
TURNS = ("turn_1", "turn_2", "turn-3")
TEXTS = ("hi", "", "é", "\U0001f600 emoji", "tab\there", "quote \" and \\ backslash", "a" * 40, "\u2028")
STAMPS = ("2026-03-01T09:15:00.000Z", "2026-03-01T09:15:01.500Z", "2026-03-01T09:15:00Z", "yesterday", "")

json_leaf = st.none() | st.booleans() | st.integers(-2**64, 2**64) | st.floats(allow_nan=False) | \
    st.sampled_from(TEXTS + IDS) | st.text(max_size=6)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(("type", "id", "parentId", "role", "content", "seq", "text")) | st.text(max_size=5),
        inner, max_size=4),
    max_leaves=10)

ref = st.sampled_from(IDS)
parent = st.none() | ref
text = st.sampled_from(TEXTS)


def usage() -> dict[str, Any]:
    cost = {"input": 0.1, "output": 0.2, "cacheRead": 0, "cacheWrite": 0, "total": 0.3}
    return {"input": 10, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 30, "cost": cost}


@st.composite
def elyra_message(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(("user", "assistant", "toolResult", "bashExecution", "custom", "hookMessage")))
    stamp = draw(st.integers(0, 2_000_000_000_000))
    if role == "user":
        return {"role": role, "content": draw(text), "timestamp": stamp}
    if role == "assistant":
        call = {"type": "toolCall", "id": draw(st.sampled_from(CALLS)), "name": "bash", "arguments": {"c": 1}}
        blocks = draw(st.lists(st.sampled_from((call, {"type": "text", "text": "ok"},
                                                {"type": "thinking", "thinking": "hm"})), max_size=3))
        stop = draw(st.sampled_from(("stop", "toolUse", "error", "aborted", "length")))
        return {"role": role, "content": blocks, "api": "anthropic-messages", "provider": "anthropic", "model": "m",
                "usage": usage(), "stopReason": stop, "timestamp": stamp}
    if role == "toolResult":
        return {"role": role, "toolCallId": draw(st.sampled_from(CALLS)),
                "toolName": draw(st.sampled_from(("bash", "read"))),
                "content": [{"type": "text", "text": draw(text)}], "isError": draw(st.booleans()), "timestamp": stamp}
    if role == "bashExecution":
        return {"role": role, "command": "ls", "output": draw(text), "exitCode": 0, "cancelled": False,
                "truncated": False, "timestamp": stamp}
    return {"role": role, "customType": "ext", "content": draw(text), "display": True, "timestamp": stamp}


@st.composite
def elyra_entry(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(("message", "message", "message", "compaction", "branch_summary", "label",
                                 "session_info", "model_change", "thinking_level_change", "custom",
                                 "custom_message", "session", "mode_change")))
    if kind == "session":
        return {"type": "session", "version": 3, "id": draw(ref), "timestamp": draw(st.sampled_from(STAMPS)),
                "cwd": "/w"}
    makers: dict[str, Callable[[], dict[str, Any]]] = {
        "message": lambda: {"message": draw(elyra_message())},
        "compaction": lambda: draw(st.sampled_from(({"summary": "s", "firstKeptEntryId": draw(ref), "tokensBefore": 5},
                                                    {"summary": "s", "firstKeptEntryIndex": draw(st.integers(-1, 20)),
                                                     "tokensBefore": 5}))),
        "branch_summary": lambda: {"fromId": draw(ref | st.just("root")), "summary": draw(text)},
        "label": lambda: {"targetId": draw(ref), "label": draw(text)},
        "session_info": lambda: {"name": draw(text)},
        "model_change": lambda: {"provider": "openai", "modelId": "gpt-5"},
        "thinking_level_change": lambda: {"thinkingLevel": "high"},
        "custom": lambda: {"customType": "ext", "data": draw(json_value)},
        "custom_message": lambda: {"customType": "ext", "content": draw(text), "display": draw(st.booleans())},
        "mode_change": lambda: {"mode": "plan"},
    }
    fields = makers[kind]()
    entry: dict[str, Any] = {"type": kind, "timestamp": draw(st.sampled_from(STAMPS)), **fields}
    if draw(st.integers(0, 9)):  # v1 entries have no id/parentId
        entry = {"type": kind, "id": draw(ref), "parentId": draw(parent),
                 **{k: v for k, v in entry.items() if k != "type"}}
    return entry


def elyra_header(version: Any) -> dict[str, Any]:
    header: dict[str, Any] = {"type": "session", "id": "01a237ba-3c31-7688-af90-27a41cba019b",
                              "timestamp": "2026-03-01T09:15:00.000Z", "cwd": "/w"}
    if version is not None:
        header["version"] = version
    return header


@st.composite
def thndrs_record(draw: st.DrawFn) -> dict[str, Any]:
    turn = draw(st.sampled_from(TURNS))
    call = draw(st.sampled_from(CALLS))
    choices: tuple[tuple[str, dict[str, Any]], ...] = (
        ("user", {"turn_id": turn, "text": draw(text)}),
        ("assistant_finished", {"turn_id": turn, "text": draw(text)}),
        ("reasoning_finished", {"turn_id": turn, "text": draw(text)}),
        ("tool_started", {"turn_id": turn, "call_id": call, "name": "bash", "arguments": "{}"}),
        ("tool_finished", {"turn_id": turn, "call_id": call, "output": ["ok"],
                           "status": draw(st.sampled_from(("Ok", "Failed", "Running", "ok")))}),
        ("usage", {"input_tokens": draw(st.integers(-1, 2**65)), "output_tokens": 3}),
        ("cancelled", {"turn_id": turn, "reason": "user"}),
        ("session_renamed", {"title": draw(text)}),
        ("queued_input", {"kind": draw(st.sampled_from(("steering", "follow-up", "later"))), "text": "x"}),
        ("acp_permission_request", {"turn_id": turn, "tool_call_id": call, "title": "t", "options": []}),
        ("acp_permission_outcome", {"turn_id": turn, "tool_call_id": call, "outcome": "allowed"}),
        ("file_write", {"turn_id": turn, "op": "edit", "path": "a", "before_hash": None, "before_bytes": 1,
                        "after_hash": 2**63, "after_bytes": 2, "status": "Ok"}),
        ("shell_exec", {"turn_id": turn, "command": "ls", "cwd": "/w", "process_status": "running", "exit_code": None,
                        "elapsed_ms": 1, "kind": "background", "process_id": draw(st.integers(0, 3))}),
        ("compaction", {"audit": {"summary": "s", "covered_start_seq": draw(st.integers(0, 9)),
                                  "covered_end_seq": draw(st.integers(0, 9)), "trigger": "manual", "risk": "low",
                                  "model": "m", "recovery_handles": ["h1"]}}),
        ("compaction_review", {"recovery_handle": draw(st.sampled_from(("h1", "h2"))), "review": "approved"}),
        ("session_meta", {"session_id": "session-20260301-091500", "cwd": "/w", "title": "t", "provider": "p",
                          "model": "m", "websearch": "off", "app_version": "0.1.0"}),
        ("memory_write", {"memory": {}}),
        ("bogus", {}),
    )
    kind, fields = draw(st.sampled_from(choices))
    return {"type": kind, "schema_version": 1, "time": draw(st.sampled_from((*STAMPS[2:], "2026-03-01T09:15:07Z"))),
            **fields}


@st.composite
def claude_record(draw: st.DrawFn) -> dict[str, Any]:
    """A record Claude Code writes, linked to a few uuids (some named by nothing), tool ids shared across records."""
    uuid, up = draw(ref), draw(parent)
    message_id = draw(st.sampled_from(("msg_1", "msg_2")))
    choices: tuple[dict[str, Any], ...] = (
        claude_records.prompt(uuid, up, draw(text)),
        claude_records.assistant(uuid, up, message_id, claude_records.text(draw(text))),
        claude_records.assistant(uuid, up, message_id, claude_records.call(draw(st.sampled_from(CALLS)))),
        claude_records.assistant(uuid, up, message_id, {"type": "thinking", "thinking": "t", "signature": "s"}),
        claude_records.result(uuid, up, draw(st.sampled_from(CALLS)), draw(st.none() | ref)),
        {"parentUuid": up, "logicalParentUuid": draw(ref), "isSidechain": False, "type": "system",
         "subtype": "compact_boundary", "content": "Conversation compacted", "uuid": uuid, "isMeta": False,
         "timestamp": STAMPS[0], "sessionId": claude_records.SESSION, "level": "info",
         "compactMetadata": {"trigger": "manual", "preTokens": 10}},
        {"parentUuid": up, "isSidechain": draw(st.booleans()), "type": "attachment", "uuid": uuid,
         "attachment": {"type": "date", "date": "2026-12-05"}, "timestamp": STAMPS[0],
         "sessionId": claude_records.SESSION},
        claude_records.bookkeeping(draw(text)),
        {"type": "last-prompt", "lastPrompt": "go", "leafUuid": draw(ref), "sessionId": claude_records.SESSION},
        {"type": "summary", "summary": "s", "leafUuid": draw(ref)},
        {"type": "file-history-snapshot", "messageId": draw(ref), "isSnapshotUpdate": draw(st.booleans()),
         "snapshot": {"messageId": draw(ref), "trackedFileBackups": {}, "timestamp": STAMPS[0]}},
    )
    return draw(st.sampled_from(choices))


def mutate(draw: st.DrawFn, value: dict[str, Any]) -> dict[str, Any]:
    """Sometimes break one thing: drop a key, retype a value, or add a stray key (also inside `message`)."""
    choice = draw(st.integers(0, 9))
    target = value["message"] if "message" in value and isinstance(value["message"], dict) and choice % 2 else value
    keys = sorted(target)
    if choice == 0 and keys:
        target.pop(draw(st.sampled_from(keys)))
    elif choice in (1, 2) and keys:
        target[draw(st.sampled_from(keys))] = draw(json_value)
    elif choice == 3:
        target[draw(st.text(max_size=6))] = draw(json_value)
    return value


def serialize(draw: st.DrawFn, value: Any) -> str:
    style = draw(st.integers(0, 3))
    if style == 0:
        return json.dumps(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=style != 1)


def damage(draw: st.DrawFn, line: str) -> str:
    """Sometimes damage the text of a line the way real files are damaged."""
    choice = draw(st.integers(0, 14))
    if choice == 0 and line:
        return line[: draw(st.integers(0, len(line) - 1))]  # truncated write
    if choice == 1:
        position = draw(st.integers(0, len(line)))
        return line[:position] + draw(st.sampled_from(("}", "{", '"', ",", "\\", "\x00", " ", "]"))) + line[position:]
    if choice == 2:
        return line + "\r"
    if choice == 3:
        return draw(st.sampled_from(("", "   ", "null", "42", "[]", '"x"', "{}", "{}{}", "\ufeff{}")))
    return line


@st.composite
def codex_item(draw: st.DrawFn) -> dict[str, Any]:
    """A Codex response item: a message, a call or an output paired (or not) by call_id, or an unknown kind."""
    call = draw(st.sampled_from(CALLS))
    return draw(st.sampled_from((
        {"type": "message", "role": draw(st.sampled_from(("user", "assistant", "developer", "system"))),
         "content": [{"type": draw(st.sampled_from(("input_text", "output_text"))), "text": draw(st.sampled_from(
             (*TEXTS, "<environment_context>x")))}]},
        {"type": "function_call", "id": "fc_1", "name": "exec_command", "arguments": "{}", "call_id": call},
        {"type": "function_call_output", "call_id": call, "output": "ok"},
        {"type": "custom_tool_call", "call_id": call, "name": "apply_patch", "input": "x"},
        {"type": "custom_tool_call_output", "call_id": call, "output": "done"},
        {"type": "reasoning", "summary": [], "content": None, "encrypted_content": "gAAA"},
        {"type": "mystery_item"},
    )))


@st.composite
def codex_line(draw: st.DrawFn, ordinal: int) -> dict[str, Any]:
    """A Codex rollout line in its envelope: session_meta, a response item, a turn event, a rollback, a compaction
    whose replacement history and metadata may differ in length."""
    payload: Any = draw(st.sampled_from(("item", "event", "compacted", "meta", "other")))
    tag = {"item": "response_item", "event": "event_msg", "compacted": "compacted", "meta": "session_meta",
           "other": draw(st.sampled_from(("turn_context", "world_state", "token_usage_record", "future")))}[payload]
    if payload == "item":
        payload = draw(codex_item())
    elif payload == "event":
        payload = {"type": draw(st.sampled_from(("task_started", "task_complete", "thread_rolled_back", "new_event"))),
                   "turn_id": draw(st.sampled_from(TURNS)), "num_turns": draw(st.integers(-1, 3))}
    elif payload == "compacted":
        history = draw(st.lists(codex_item(), max_size=4))
        payload = {"message": "summary", "replacement_history": history,
                   "replacement_history_metadata": [{}] * draw(st.integers(0, 4))}
    elif payload == "meta":
        payload = {"id": draw(st.sampled_from(IDS)), "timestamp": STAMPS[0], "cwd": "/w", "originator": "codex_exec",
                   "cli_version": "0.171.0", "forked_from_id": draw(st.sampled_from(IDS))}
    else:
        payload = {"model": "gpt-5.5", "turn_id": draw(st.sampled_from(TURNS))}
    return {"timestamp": draw(st.sampled_from(STAMPS)), "ordinal": draw(st.sampled_from((ordinal, ordinal, 0, None))),
            "type": tag, "payload": payload}


@st.composite
def codex_text(draw: st.DrawFn) -> str:
    """A Codex rollout (its session_meta first, mostly), with mutated, damaged and glued lines."""
    values: list[Any] = [draw(codex_line(number)) for number in range(draw(st.integers(1, 10)))]
    if draw(st.integers(0, 4)):
        values[0] = {"timestamp": STAMPS[0], "ordinal": 0, "type": "session_meta",
                     "payload": {"id": IDS[4], "timestamp": STAMPS[0], "cwd": "/w", "originator": "codex_exec",
                                 "cli_version": "0.171.0"}}
    lines = []
    for value in values:
        if draw(st.integers(0, 3)) == 0:
            value = mutate(draw, value)
        lines.append(damage(draw, serialize(draw, value)))
    if len(lines) > 2 and draw(st.integers(0, 5)) == 0:
        at = draw(st.integers(1, len(lines) - 1))
        lines[at - 1 : at + 1] = [lines[at - 1] + lines[at]]
    return "\n".join(lines) + "\n"


@st.composite
def session_text(draw: st.DrawFn) -> str:
    """A file that starts like an Elyra, thndrs or Claude Code session (or none), with mutated, damaged and glued
    lines."""
    kind = draw(st.sampled_from(("elyra", "thndrs", "claude", "plain")))
    count = draw(st.integers(0, 10))
    values: list[Any] = []
    if kind == "elyra":
        if draw(st.integers(0, 9)):
            values.append(elyra_header(draw(st.sampled_from((3, 3, 2, None, 1, 4, 0, "3", 2.5)))))
        values += [draw(elyra_entry()) for _ in range(count)]
    elif kind == "thndrs":
        values += [draw(thndrs_record()) for _ in range(count + 1)]
        if draw(st.integers(0, 4)):
            values[0] = {"type": "session_meta", "schema_version": 1, "time": "2026-03-01T09:15:00Z",
                         "session_id": "session-20260301-091500", "cwd": "/w", "title": "t", "provider": "p",
                         "model": "m", "websearch": "off", "app_version": "0.1.0"}
        seqs = draw(st.lists(st.integers(0, len(values) + 2), min_size=len(values), max_size=len(values)))
        ordered = draw(st.booleans())
        for number, record in enumerate(values):
            record["seq"] = number if ordered else seqs[number]
    elif kind == "claude":
        values += [draw(claude_record()) for _ in range(count + 1)]
    else:
        values += [draw(json_value) for _ in range(count)]
    lines = []
    for value in values:
        if isinstance(value, dict) and draw(st.integers(0, 3)) == 0:
            value = mutate(draw, value)
        lines.append(damage(draw, serialize(draw, value)))
    if len(lines) > 2 and draw(st.integers(0, 5)) == 0:  # two records glued on one line
        at = draw(st.integers(1, len(lines) - 1))
        lines[at - 1 : at + 1] = [lines[at - 1] + lines[at]]
    return "\n".join(lines) + draw(st.sampled_from(("\n", "\n", "", "\n\n", "\n  ")))


FRAGMENTS = ('"', "{", "}", ",", ":", "\n", "\\", " ", "null", '"parentId":', '"id":"a1b2c3d4"', '"type":"session"',
             '"parentUuid":', '"uuid":"deadbeef"', '"tool_use_id":"toolu_1"',
             '"seq":3', '"toolCallId":"toolu_1"', '"turn_id":"turn_2"', "a1b2c3d4", "deadbeef", "toolu_1", "é",
             "\U0001f600")


@st.composite
def insertion(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(
        st.sampled_from(FRAGMENTS) | st.text(max_size=4) | session_text().map(lambda t: t.split("\n")[0] + "\n"),
        max_size=3))
    return "".join(pieces)


# --- properties ------------------------------------------------------------------------------------------------


@COMMON
@given(st.binary(max_size=600))
def test_arbitrary_bytes(data: bytes) -> None:
    text, bad = decode_bytes(data)
    analyze_checked(text, [Span(line, start, line, end) for line, start, end in bad])


@COMMON
@given(st.lists(st.sampled_from([f.encode() for f in FRAGMENTS] + [b"\xff", b"\xc3", b"\xe2\x82", b"\n", b"{}"])
                | st.binary(max_size=4), max_size=60).map(b"".join))
def test_byte_soup_of_json_pieces(data: bytes) -> None:
    text, bad = decode_bytes(data)
    analyze_checked(text, [Span(line, start, line, end) for line, start, end in bad])


@COMMON
@given(st.lists(json_value.map(lambda v: json.dumps(v, ensure_ascii=False)), max_size=12))
def test_arbitrary_json_lines(lines: list[str]) -> None:
    analyze_checked("\n".join(lines) + "\n")


@COMMON
@given(session_text())
def test_session_shaped_lines_with_mutations(text: str) -> None:
    analyze_checked(text)


@COMMON
@given(codex_text())
def test_codex_rollouts_with_mutations(text: str) -> None:
    """Every payload a feature builds from a damaged rollout, too: the history Codex sends, the tree, the outline."""
    document = analyze_checked(text)
    assert document.face.agent in ("Codex", "")
    context = features.context(document, -1)
    assert context.get("refused") is not None or isinstance(context["messages"], list)
    features.tree(document)
    features.document_symbols(document)


@COMMON
@given(codex_text())
def test_codex_fixes_never_raise_and_safe_fixes_keep_every_record(text: str) -> None:
    """The Codex fixers on damaged rollouts (named as Codex names them, so a session_meta can be rebuilt): every
    edit lies inside the document, a safe run changes no record but its ordinal, and an unsafe run ends."""
    name = "rollout-2026-12-05T08-14-24-01a24544-c378-7cc2-ae2e-a71a17407cd4.jsonl"
    with time_limit():
        document = analyze(text, Options(path=name))
        lines = text.split("\n")
        for fix in fixes(document, document.diagnostics()):
            for edit in fix.edits:
                assert_span_inside(edit.span, lines)
            apply_edits(lines, fix.edits)
        safe = fix_document(document)
        unsafe = fix_document(document, unsafe=True)
    assert all(fix.safe for fix in safe.applied)

    def unnumbered(found: list[Any]) -> list[Any]:
        return [{k: v for k, v in obj.items() if k != "ordinal"} if isinstance(obj, dict) else obj for obj in found]

    after = unnumbered(_objects(safe.text))
    assert [obj for obj in unnumbered(_objects(text)) if obj not in after] == []
    assert isinstance(unsafe.text, str)


@COMMON
@given(session_text())
def test_the_structure_an_editor_shows_lies_inside_the_document(text: str) -> None:
    """Folds, hints, lenses and the outline of any file (Claude Code's damaged ones too): lines that exist, folds
    that nest or stand apart."""
    document = analyze_checked(text)
    last = len(document.lines) - 1
    with time_limit():
        folds = [(fold.start_line, fold.end_line) for fold in features.folding_ranges(document)]
        hints = features.inlay_hints(document, 0, last)
        lenses = features.code_lenses(document)
        features.document_symbols(document)
    for number, (first, end) in enumerate(folds):
        assert 0 <= first < end <= last
        assert all(b[0] > end or b[1] <= end for b in folds[number + 1:] if b[0] > first)
    assert all(0 <= hint.line <= last for hint in hints)
    assert all(0 <= lens.span.line <= last for lens in lenses)


@COMMON
@given(st.sampled_from([elyra_header(3)]), st.lists(st.sampled_from(IDS[:4]), min_size=1, max_size=6))
def test_parent_cycles_do_not_hang(header: dict[str, Any], chain: list[str]) -> None:
    """Entries whose parents loop back (self-parent included): pi hangs on them, the checker must not."""
    entries = [{"type": "message", "id": entry_id, "parentId": chain[(number + 1) % len(chain)],
                "timestamp": "2026-03-01T09:15:00.000Z", "message": {"role": "user", "content": "x", "timestamp": 1}}
               for number, entry_id in enumerate(chain)]
    analyze_checked("\n".join(json.dumps(v) for v in [header, *entries]) + "\n")


def position(lines: Sequence[str], line: int, col: int) -> int:
    """Offset in the joined text of (line, col), a column past the end meaning the end, as LSP has it."""
    return sum(len(text) + 1 for text in lines[:line]) + min(col, len(lines[line]))


@settings(COMMON, max_examples=150)
@given(session_text(), st.data())
def test_incremental_edits_match_a_fresh_analysis(text: str, data: st.DataObject) -> None:
    with time_limit():
        document = analyze(text, Options())
        document.diagnostics()
    for _ in range(data.draw(st.integers(1, 6), label="edits")):
        lines = document.lines
        last = len(lines) - 1
        start_line = data.draw(st.integers(0, last) | st.just(last), label="start line")  # the end is special
        if data.draw(st.booleans(), label="whole line"):
            start_col, end_line, end_col = 0, start_line, len(lines[start_line])
        else:
            start_col = data.draw(st.integers(0, len(lines[start_line]) + 1), label="start col")
            end_line = data.draw(st.integers(start_line, min(start_line + 3, last)), label="end line")
            low = start_col if end_line == start_line else 0
            end_col = data.draw(st.integers(low, max(low, len(lines[end_line]) + 1)), label="end col")
        new_text = data.draw(st.just("") | insertion(), label="new text")
        before = "\n".join(lines)
        wanted = (before[: position(lines, start_line, start_col)] + new_text
                  + before[position(lines, end_line, end_col):])
        with time_limit():
            document.edit(start_line, start_col, end_line, end_col, new_text)
            incremental = document.diagnostics()
            fresh = analyze(wanted, Options())
            expected = fresh.diagnostics()
        assert document.text == wanted
        assert document.format == fresh.format
        assert incremental == expected
        assert_well_formed(incremental, wanted)


@COMMON
@given(session_text(), st.lists(st.sampled_from((b"\xff", b"\xc3", b"\xe2\x82", b"\r", b"\xef\xbb\xbf", "é".encode())),
                                max_size=3), st.integers(0, 10**6), st.integers(1, 64))
def test_a_streamed_file_is_analysed_as_its_bytes_are(text: str, bad: list[bytes], at: int, chunk: int) -> None:
    """`check` streams a file in chunks (`FileLines`, `Document.streamed`); it must report exactly what the
    in-memory analysis of the same bytes reports, whatever the chunk size and wherever a multi-byte sequence,
    invalid UTF-8 or a "\\r" falls, and name every line as it does (`sessionLsp/analyzeFile`)."""
    data = text.encode("utf-8", "surrogatepass")
    for piece in bad:
        where = at % (len(data) + 1)
        data = data[:where] + piece + data[where:]
    options = Options()
    whole = analyze_bytes(data, options)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "session.jsonl")
        with open(path, "wb") as handle:
            handle.write(data)
        with time_limit(), FileLines(path, chunk=chunk) as lines:
            streamed = Document.streamed(lines, options)
            assert list(streamed.lines) == list(whole.lines)
            assert streamed.invalid_utf8 == whole.invalid_utf8
            assert list(streamed.results) == list(whole.results)
            assert list(facts_of(streamed.results)) == list(facts_of(whole.results))
            for kind in LineKind:
                assert lines_of_kind(streamed.results, kind) == lines_of_kind(whole.results, kind)
            assert streamed.diagnostics() == whole.diagnostics()
            assert list(streamed.titled) == list(whole.titled)


@COMMON
@given(session_text(), st.data())
def test_a_text_split_at_its_middle_is_analysed_as_one_pass_analyses_it(text: str, data: st.DataObject) -> None:
    """The server opens a large text on two cores (`Document(elsewhere=...)`): the lines from the first that starts
    past the middle are read by a line pass of their own (here in this process) and joined after the others. It
    must report, name and relink every line as one pass does, before and after an edit on either side."""
    with time_limit():
        split, whole = Document(text, Options(), elsewhere=Here), Document(text, Options())
        assert list(split.results) == list(whole.results)
        assert split.diagnostics() == whole.diagnostics()
        assert list(split.titled) == list(whole.titled)
    line = data.draw(st.integers(0, len(whole.lines) - 1), label="line")
    new_text = data.draw(st.just("") | insertion(), label="new text")
    with time_limit():
        for document in (split, whole):
            document.edit(line, 0, line, len(document.lines[line]), new_text)
        assert list(split.results) == list(whole.results)
        assert split.diagnostics() == whole.diagnostics()


# --- fixes -----------------------------------------------------------------------------------------------------


def _objects(text: str) -> list[Any]:
    """The JSON objects a file's lines hold (a glued line counts as its records, a BOM and CRs aside; a torn last
    piece of a glued line, `{...}{`, holds none)."""
    out: list[Any] = []
    for line in text.removeprefix("\ufeff").split("\n"):
        decoded = decode(line)
        if decoded.kind is LineKind.OBJECT:
            out.append(decoded.value)
        elif decoded.kind is LineKind.GLUED:
            for piece in split_glued(line, decoded.parts):
                with contextlib.suppress(json.JSONDecodeError):
                    out.append(json.loads(piece))
    return out


@COMMON
@given(session_text())
def test_fixes_never_raise_and_safe_fixes_keep_every_record(text: str) -> None:
    """Every fix's edits lie inside the document; applying all safe fixes to a fixpoint keeps every JSON object the
    file held (safe fixes split, move and rename, never drop a record), and converges within its bound."""
    with time_limit():
        document = analyze(text, Options())
        lines = text.split("\n")
        for fix in fixes(document, document.diagnostics()):
            for edit in fix.edits:
                assert_span_inside(edit.span, lines)
            apply_edits(lines, fix.edits)
        safe = fix_document(document)
        unsafe = fix_document(document, unsafe=True)
    assert all(fix.safe for fix in safe.applied)
    before, after = _objects(text), _objects(safe.text)
    renamed = [obj for obj in before if obj not in after]
    assert all((isinstance(obj, dict) and isinstance(obj.get("message"), dict)
               and obj["message"].get("role") == "hookMessage") or "seq" in obj for obj in renamed), renamed
    assert isinstance(unsafe.text, str)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("a\u00e9\u2713\U0001f600\ud800\udfff\ufffd\n"), max_size=40),
       st.integers(1, 7))
def test_lone_surrogates_become_replacement_characters_and_nothing_else_changes(value: str, part: int) -> None:
    """`without_surrogates` looks for surrogates by encoding the text a part at a time: parts of any size give what
    replacing every surrogate gives, and a text without one comes back as the same object."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(text_module, "_ENCODED_AT_ONCE", part)
        cleaned = text_module.without_surrogates(value)
    assert cleaned == "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in value)
    assert (cleaned is value) == (not any("\ud800" <= char <= "\udfff" for char in value))


@st.composite
def edits_apart(draw: st.DrawFn) -> tuple[list[str], list[TextEdit]]:
    """Lines, and edits of them that do not overlap (they may touch, and several may insert at one place)."""
    lines = draw(st.lists(st.text(alphabet="ab😀", max_size=5), min_size=1, max_size=6))
    places = sorted({(line, col) for line, text in enumerate(lines) for col in range(len(text) + 1)})
    cuts = sorted(draw(st.lists(st.sampled_from(places), max_size=8)))
    edits = [TextEdit(Span(*start, *end), draw(st.text(alphabet="xy\n", max_size=3)))
             for start, end in zip(cuts[::2], cuts[1::2], strict=False)]
    return lines, draw(st.permutations(edits))


@settings(max_examples=300, deadline=None)
@given(edits_apart())
def test_edits_are_applied_as_one_at_a_time_from_the_last(case: tuple[list[str], list[TextEdit]]) -> None:
    """`apply_edits` joins the pieces between the edits at once; applying each edit to the whole text in turn, the
    last first, gives the same text."""
    lines, edits = case
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    text = "\n".join(lines)
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.start, e.span.end_line, e.span.end), reverse=True):
        start, end = starts[edit.span.line] + edit.span.start, starts[edit.span.end_line] + edit.span.end
        text = text[:start] + edit.new_text + text[end:]
    assert apply_edits(lines, edits) == text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 4)), max_size=40))
def test_a_round_takes_each_fix_whose_lines_meet_none_taken_before(ranges: list[tuple[int, int]]) -> None:
    rows = _Rows()
    taken: list[tuple[int, int]] = []
    for low, length in ranges:
        high = low + length
        expected = not any(low <= end and start <= high for start, end in taken)
        assert rows.take(low, high) == expected
        if expected:
            taken.append((low, high))


def test_one_fix_run_deletes_thousands_of_junk_lines_in_a_row() -> None:
    """Each `[]` line's fix deletes it with its line break, which leaves the next line as it was: every one of them
    goes in the first round (12 rounds, each taking every other line, left 5,000 / 2**12 of them)."""
    header = json.dumps(elyra_header(3), separators=(",", ":"))
    document = analyze(header + "\n" + "[]\n" * 5000)
    repaired = fix_document(document, unsafe=True)
    assert repaired.converged and len(repaired.applied) == 5000
    assert repaired.text == header + "\n"
