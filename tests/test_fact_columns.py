"""A document keeps the facts of the plain messages pi writes as integer columns (`elyra.fact_columns.FactColumns`)
and looks ids up in them (`elyra.id_index.IdIndex`); the line pass alone makes facts objects, and a link pass of a
list of results reads those. Both must be the same file to every reader: the same facts line by line, the same link
model field by field, the same diagnostics. Compared here on generated sessions that mix plain messages with every
kind of line the columns cannot hold, and after edits, which replace lines on a copy of the columns."""

from __future__ import annotations

import json
import os
import re
import tempfile
from array import array
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp.analysis import Document, Options
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.elyra.fact_columns import FactColumns, stamp_key, stamp_text
from session_lsp.analysis.elyra.id_index import IdIndex
from session_lsp.analysis.elyra.line_pass import LineState, analyze_lines
from session_lsp.analysis.elyra.model import ElyraModel
from session_lsp.analysis.formats import detect
from session_lsp.analysis.result_store import PlainResults, facts_of
from session_lsp.analysis.results import LineResult
from session_lsp.files import FileLines

USAGE = {"input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 3,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
PLAIN = ("user", "assistant", "result")
"""The kinds of line the generator writes as pi writes them (so do some of the others)."""
MODEL_FIELDS = ("entry_lines", "headers", "parent_of", "roots", "null_roots", "dangling", "self_parents",
                "parent_below", "older_than_parent", "duplicates", "cycles", "order", "pre", "end_at", "depth_at",
                "branch_points", "first_child", "next_sibling", "tool_lines", "special_lines", "leaf", "resumed",
                "labels", "session_name", "result_calls", "first_results", "more_results", "repeated_calls",
                "repeated_results", "dropped", "misnamed", "early", "orphans", "unanswered", "unique_pairs", "loose",
                "pair_depth")


@st.composite
def mixed_sessions(draw: st.DrawFn) -> tuple[str, int]:
    """A v3 session: mostly plain messages each below the one before (a user's, an assistant's with tool calls, a
    result answering one), and among them parents to any entry, null or dangling, repeated ids, an id or a
    parent pi would not write, timestamps out of order or not in pi's form, special entries, broken lines and junk.
    With the number of plain messages written: the columns hold those whose id, parent and timestamp pi could have
    written (an ASCII timestamp: the columns give back ASCII digits), whose stop reason is not a failure."""
    lines = [json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"})]
    ids: list[str] = []
    calls: list[str] = []
    plain = 0
    for number in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from([*PLAIN * 4, "any", "null", "dangling", "repeat", "odd-id", "odd-parent",
                                     "odd-time", "wide-digit", "label", "compaction", "failed", "broken", "junk",
                                     "null-line", "many-calls", "odd-call"]))
        if kind in ("broken", "junk", "null-line"):
            lines.append({"broken": '{"type":', "junk": "[]", "null-line": "null"}[kind])
            continue
        entry_id = f"{number:08x}"
        parent: str | None = ids[-1] if ids else None
        if kind == "any" and ids:
            parent = draw(st.sampled_from(ids))
        elif kind == "null":
            parent = None
        elif kind == "dangling":
            parent = "dddddddd"
        elif kind == "repeat" and ids:
            entry_id = draw(st.sampled_from(ids))
        elif kind == "odd-id":
            entry_id = f"E{number:07X}"
        elif kind == "odd-parent" and ids:
            parent = f"p-{parent}"
        second = draw(st.integers(0, 3))
        stamp = {"odd-time": "2026-03-01 09:15:00", "wide-digit": f"2026-03-01T09:15:0{second}.00\u0663Z"}.get(
            kind, f"2026-03-01T09:15:0{second}.00{second}Z")  # an Arabic-Indic 3 is a digit to pi's pattern too
        entry: dict[str, Any] = {"id": entry_id, "parentId": parent, "timestamp": stamp}
        if kind == "label":
            entry |= {"type": "label", "targetId": draw(st.sampled_from(ids)) if ids else "x", "label": "l"}
        elif kind == "compaction":
            entry |= {"type": "compaction", "summary": "s", "firstKeptEntryId": draw(st.sampled_from(ids or ["x"])),
                      "tokensBefore": 1}
        elif kind in ("assistant", "failed", "many-calls", "odd-call") or (kind not in PLAIN and draw(st.booleans())):
            # more calls than a code counts (MAX_CALLS); ids beyond ASCII, a NUL (the records hold any), a lone
            # surrogate (its escape is not plain: msgspec refuses it, and the full line pass reads it)
            odd = draw(st.sampled_from(["é", "\ud800", "\0", "\xff"])) if kind == "odd-call" else ""
            made = [f"call-{odd}{number}-{index}"
                    for index in range(8 if kind == "many-calls" else draw(st.integers(1 if odd else 0, 2)))]
            calls.extend(made)
            content = [{"type": "toolCall", "id": call, "name": draw(st.sampled_from(["read", "bash"])),
                        "arguments": {}} for call in made]
            message = {"role": "assistant", "content": [{"type": "text", "text": "t"}, *content], "api": "a",
                       "provider": "p", "model": "m", "usage": USAGE, "timestamp": 1,
                       "stopReason": "error" if kind == "failed" else "toolUse" if made else "stop"}
            if kind == "failed":
                message["errorMessage"] = "e"
            entry |= {"type": "message", "message": message}
        elif kind == "result" or (kind not in PLAIN and draw(st.booleans())):
            answers = draw(st.integers(0, 4)) > 0  # else a result of no call
            call = draw(st.sampled_from(calls)) if calls and answers else "call-none"
            entry |= {"type": "message", "message": {"role": "toolResult", "toolCallId": call,
                                                     "toolName": draw(st.sampled_from(["read", "bash"])),
                                                     "content": [{"type": "text", "text": "r"}], "isError": False,
                                                     "timestamp": 1}}
        else:
            entry |= {"type": "message", "message": {"role": "user", "content": "hi", "timestamp": 1}}
        ids.append(entry_id)
        plain += entry["type"] == "message" and kind not in ("failed", "odd-time", "wide-digit", "many-calls") \
            and "\ud800" not in json.dumps(entry, ensure_ascii=False) and all(
            re.fullmatch("[0-9a-f]{8}", value) for value in (entry_id, parent or "00000000"))
        lines.append(json.dumps({"type": entry.pop("type"), **entry}, separators=(",", ":")))
    return "\n".join(lines) + "\n", plain


def _fields(model: ElyraModel) -> dict[str, Any]:
    found = {name: getattr(model, name) for name in MODEL_FIELDS}
    found = {name: list(value) if isinstance(value, array) else value for name, value in found.items()}
    found["result_calls"], found["first_results"] = dict(model.result_calls), dict(model.first_results)
    found["by_id"] = {entry_id: model.by_id[entry_id] for entry_id in model.by_id}
    found["facts"] = list(model.line_facts)
    return found


@settings(max_examples=400, deadline=None)
@given(mixed_sessions())
def test_check_s_columns_are_the_server_s_facts_objects(case: tuple[str, int]) -> None:
    text, plain = case
    columns = _same_to_every_reader(text.encode())
    assert len(columns) - columns.codes.count(0) == plain  # every plain line is in the columns


def _same_to_every_reader(data: bytes) -> FactColumns:
    """The columns of the file in `data`, streamed and in memory, against the line pass's objects: the same results,
    facts line by line, model and diagnostics."""
    whole = analyze_bytes(data, Options())
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "session.jsonl")
        with open(path, "wb") as file:
            file.write(data)
        with FileLines(path) as lines:
            streamed = Document.streamed(lines, Options())
            assert msgspec.json.encode(streamed.diagnostics()) == msgspec.json.encode(whole.diagnostics())
            assert list(streamed.results) == list(whole.results)
            new, old = streamed.linked.model, whole.linked.model
            assert isinstance(new, ElyraModel) and isinstance(old, ElyraModel)
            assert _fields(new) == _fields(old)
    return _same_as_objects(whole)


def _same_as_objects(document: Document) -> FactColumns:
    """A document's columns against the objects the line pass makes of its lines, read by a link pass as a list:
    the same results, facts line by line, model and link issues."""
    assert isinstance(document.results, PlainResults)
    columns = document.results.facts
    assert isinstance(columns, FactColumns)
    state = LineState(titles=False)
    objects = [document.analyzer.line(document.lines[0]),
               *analyze_lines(list(document.lines)[1:], document.format, state)]
    assert list(document.results) == objects
    facts = [result.facts for result in objects]
    assert [columns[-index] for index in range(1, len(facts) + 1)] == facts[::-1]
    linked, linked_objects = document.analyzer.link(document.lines, document.results), \
        document.analyzer.link(document.lines, objects)
    new, old = linked.model, linked_objects.model
    assert isinstance(new, ElyraModel) and isinstance(old, ElyraModel)
    assert type(old.line_facts.objects) is list and not old.line_facts.codes.count(1)
    assert _fields(new) == _fields(old)
    for entry_id in ("dddddddd", "00000000", "E0000001", "zzzzzzzz"):
        assert new.by_id.get(entry_id) == old.by_id.get(entry_id)
    assert linked.issues == linked_objects.issues
    # the document's own link model may be a relink of an earlier one, whose issues come in another order
    assert sorted(map(msgspec.json.encode, document.linked.issues)) == sorted(
        map(msgspec.json.encode, linked_objects.issues))
    return columns


EDITS = ("retype", "reparent", "insert", "delete")


@settings(max_examples=300, deadline=None)
@given(mixed_sessions(), st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 10**6), st.integers(0, 10**6),
                                            st.integers(0, 3)), min_size=1, max_size=4))
def test_edits_replace_lines_on_a_copy_and_leave_the_model_before_as_it_was(
        case: tuple[str, int], edits: list[tuple[str, int, int, int]]) -> None:
    """An edit that keeps the number of lines (a line typed over, a parentId changed: a relink), one that adds lines
    and one that removes them: the columns read as the line pass's objects of the new text, and the link model of
    the text before (which a relink starts from) still reads the facts it read."""
    document = Document(case[0])
    for edit, at, other, span in edits:
        model = document.linked.model
        assert isinstance(model, ElyraModel)
        before = list(model.line_facts)
        last = len(document.lines) - 1  # the header stays: the file stays a session, its facts in columns
        line, source = 1 + at % last, document.lines[other % (last + 1)]
        text = document.lines[line]
        if edit == "retype":
            document.edit(line, 0, line, len(text), text)
        elif edit == "reparent":
            found = re.search(r'"id": ?"([^"]*)"', source)
            parent = json.dumps(found.group(1) if found else "dddddddd")
            document.edit(line, 0, line, len(text), re.sub(r'("parentId": ?)(null|"[^"]*")', rf"\g<1>{parent}",
                                                           text, count=1))
        elif edit == "insert":
            document.edit(line, 0, line, 0, source + "\n")
        else:
            document.edit(line, 0, min(line + span, last), 0, "")
        assert list(model.line_facts) == before
        _same_as_objects(document)


def _passed(lines: list[str], info: Any) -> PlainResults:
    """A line pass over `lines` from a fresh state, its facts in columns (as `check`'s, or its second process's)."""
    state = LineState(titles=False)
    store = FactColumns()
    state.writer = store.writer()
    results = PlainResults(store)
    results.extend(analyze_lines(lines, info, state))
    return results


def _assert_joined_is_whole(lines: list[str], cut: int) -> PlainResults:
    """The passes over the lines before `cut` and from it, joined (`PlainResults.join`, `FactColumns.extend`), are
    the pass over all of them: the results, the facts line by line, the link model field by field."""
    info = detect(lines, None)
    whole, joined = _passed(lines, info), _passed(lines[:cut], info)
    joined.join(_passed(lines[cut:], info))
    assert list(joined) == list(whole)
    assert joined.with_issues() == whole.with_issues()
    assert isinstance(joined.facts, FactColumns) and isinstance(whole.facts, FactColumns)
    assert joined.facts.codes == whole.facts.codes  # the same lines in the columns
    assert _fields(ElyraModel(joined, True, 3)) == _fields(ElyraModel(whole, True, 3))
    return joined


@settings(max_examples=300, deadline=None)
@given(mixed_sessions(), st.integers(0, 10**6))
def test_a_file_s_two_parts_read_apart_and_joined_are_the_file(case: tuple[str, int], at: int) -> None:
    """What `check` of one file on two cores does: the second part's line pass starts from a fresh state, its
    records, tool names (numbered in another order) and object lines move after the first part's."""
    lines = case[0].split("\n")
    _assert_joined_is_whole(lines, at % (len(lines) + 1))


def _tool_per_turn(turns: int) -> list[str]:
    """A session whose every turn calls a tool of its own name (`tool-N`), with its result."""
    lines = [json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"})]
    parent = None
    for number in range(turns):
        entry_id = f"{2 * number:08x}"
        text = [{"type": "text", "text": "t"}] * (256 if number == 7 else 1)
        message = {"role": "assistant", "api": "a", "provider": "p", "model": "m", "usage": USAGE, "timestamp": 1,
                   "stopReason": "toolUse", "content": [*text, {"type": "toolCall", "id": f"c{number}",
                                                                "name": f"tool-{number}", "arguments": {}}]}
        result = {"role": "toolResult", "toolCallId": f"c{number}", "toolName": f"tool-{number}",
                  "content": [{"type": "text", "text": "r"}], "isError": False, "timestamp": 1}
        for line_id, body in ((entry_id, message), (f"{2 * number + 1:08x}", result)):
            lines.append(json.dumps({"type": "message", "id": line_id, "parentId": parent,
                                     "timestamp": "2026-03-01T09:15:00.000Z", "message": body}))
            parent = line_id
    return lines


def test_calls_past_what_a_record_marks_keep_their_facts_objects() -> None:
    """A record marks a call's tool name by its number among the file's first 256 names and its block by an index
    below 256: a call past either (a 257th name, a call after 256 other blocks) leaves its line an object, and its
    result too when it names that tool; the lines around stay in the columns."""
    columns = _same_to_every_reader(("\n".join(_tool_per_turn(300)) + "\n").encode())
    objects = [line for line in range(1, 601) if not columns.codes[line]]
    # the 8th call, after 256 blocks (its result is held: only the call's index is too large), and the lines of the
    # 257th name on
    assert objects == [15, *range(2 * 256 + 1, 601)]
    assert len(columns.names) == 256


@given(st.integers(0, 9999), st.integers(1, 12), st.integers(1, 28), st.integers(0, 23), st.integers(0, 59),
       st.integers(0, 59), st.integers(0, 999))
def test_a_timestamp_s_integer_gives_it_back_and_orders_as_it(year: int, month: int, day: int, hour: int, minute: int,
                                                           second: int, milli: int) -> None:
    stamp = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z"
    assert stamp_text(stamp_key(stamp)) == stamp
    later = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{milli:03d}Z".replace(
        f".{milli:03d}Z", f".{min(milli + 1, 999):03d}Z")
    assert (stamp_key(stamp) < stamp_key(later)) == (stamp < later)


def test_a_plain_line_replaced_by_its_facts_object_is_read_as_that_object(tmp_path: Path) -> None:
    """A line of the columns replaced in place (as a line found too long later is) leaves their tool lines too, and
    its call ids keep their keys: the pairs are the same."""
    message = {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}},
                                                {"type": "toolCall", "id": "c2", "name": "bash", "arguments": {}}],
               "api": "a", "provider": "p", "model": "m", "usage": USAGE, "stopReason": "toolUse", "timestamp": 1}
    lines = [{"type": "session", "version": 3, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"},
             {"type": "message", "id": "00000001", "parentId": None, "timestamp": "2026-03-01T09:15:00.000Z",
              "message": message}]
    for number, call in ((2, "c2"), (3, "c1"), (4, "c3")):
        lines.append({"type": "message", "id": f"{number:08x}", "parentId": f"{number - 1:08x}",
                      "timestamp": "2026-03-01T09:15:00.000Z",
                      "message": {"role": "toolResult", "toolCallId": call, "toolName": "read",
                                  "content": [{"type": "text", "text": "r"}], "isError": False, "timestamp": 1}})
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with FileLines(str(path)) as read:
        store = Document.streamed(read, Options()).results
        assert isinstance(store, PlainResults)
        columns = store.facts
        assert isinstance(columns, FactColumns) and columns.codes[1] and columns.tool_at[1]
        before = _fields(ElyraModel(store, True, 3))
        assert before["result_calls"] == {2: 1 << 20 | 1, 3: 1 << 20} and before["orphans"] == [4]
        assert before["misnamed"] == [2]
        for line in (1, 3, 4):
            facts = columns[line]
            columns[line] = facts
            assert not columns.codes[line] and columns[line] == facts and not columns.tool_at[line]
        assert _fields(ElyraModel(store, True, 3)) == before
        # ids the store has not seen, or has for another line, once it is filled: keys as the server's ids pair
        columns[4] = msgspec.structs.replace(columns[4], tool_call_id="c9")
        columns[2] = msgspec.structs.replace(columns[2], tool_call_id="c1")
        keyed = ElyraModel(store, True, 3)
        assert _fields(keyed) == _fields(ElyraModel([LineResult(result.kind, result.facts) for result in store],
                                                    True, 3))
        assert keyed.result_calls == {2: 1 << 20, 3: 1 << 20} and keyed.orphans == [4]


def test_parts_of_more_than_256_tool_names_together_are_joined_as_one_pass_holds_them() -> None:
    """Two parts of 150 tool names each: the second part's lines of its first 106 names join the columns, those of
    the names past the file's 256th are objects, as one pass over the file holds them."""
    for cut in (301, 401, 581):
        joined = _assert_joined_is_whole(_tool_per_turn(300), cut)
        columns = joined.facts
        assert isinstance(columns, FactColumns) and len(columns.names) == 256
        assert columns.codes[2 * 256] and not any(columns.codes[2 * 256 + 1:])


def test_a_store_whose_file_pass_stopped_early_is_read_all_the_same() -> None:
    """A link model seals the store it reads (`FactColumns.wrap`), and a reader of the records seals it too: a
    store is read all the same whatever was joined to it, or wherever its file pass stopped."""
    message = {"role": "assistant", "content": [{"type": "toolCall", "id": "a", "name": "read", "arguments": {}}],
               "api": "a", "provider": "p", "model": "m", "usage": USAGE, "stopReason": "toolUse", "timestamp": 1}
    result = {"role": "toolResult", "toolCallId": "a", "toolName": "read", "content": [], "isError": False,
              "timestamp": 1}
    lines = [json.dumps(line) for line in (
        {"type": "session", "version": 3, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"},
        {"type": "message", "id": "00000001", "parentId": None, "timestamp": "2026-03-01T09:15:00.000Z",
         "message": message},
        {"type": "message", "id": "00000002", "parentId": "00000001", "timestamp": "2026-03-01T09:15:00.000Z",
         "message": result},
        {"type": "message", "id": "00000003", "parentId": "00000002", "timestamp": "2026-03-01T09:15:00.000Z",
         "message": {"role": "user", "content": "hi", "timestamp": 1}})]
    state = LineState(titles=False)
    store = FactColumns()
    state.writer = store.writer()
    results = PlainResults(store)
    passing = analyze_lines(lines, detect(lines, None), state)
    results.extend(next(passing) for _ in range(3))
    assert not store.sealed and store.codes[1] and store.codes[2]
    whole = analyze_bytes(("\n".join(lines[:3])).encode(), Options())
    assert [store[line] for line in range(3)] == list(facts_of(whole.results))
    assert store.sealed and store.call_key_of(2) == store.call_keys[store.tool_at[1]]


def test_the_id_index_of_a_list_of_objects_reads_no_ids_for_its_pass_over_a_column() -> None:
    """A document whose lines are all objects (the server's) has no id column to pass over: `resolve` must not read
    the ids it is handed (an open of 100,000 entries made and dropped that many integers, 40 ms of its link model)."""
    read: list[int | None] = []

    def keys() -> Any:
        for key in (1, 2, None):
            read.append(key)
            yield key

    objects = IdIndex(FactColumns.wrap([None, None]), {"00000001": 1})
    objects.resolve(keys())
    assert read == [] and objects.get("00000001") == 1
    store = FactColumns()
    store.append(None)
    store.ids[0], store.codes[0] = 1, 1
    columns = IdIndex(store, {})
    columns.resolve(keys())
    assert read == [1, 2, None] and columns.get("00000001") == 0


def test_a_store_of_thousands_of_call_ids_numbers_each_once() -> None:
    """The seal numbers the distinct call ids and joins them 4,096 at a time: past two such parts, with ids used
    twice, every record keeps its id and equal ids share a key."""
    lines = [json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"})]
    parent = None
    for turn in range(3000):
        calls = [f"call-{turn}-{index}" if turn % 100 else "call-again" for index in range(3)]
        message = {"role": "assistant", "api": "a", "provider": "p", "model": "m", "usage": USAGE,
                   "stopReason": "toolUse", "timestamp": 1,
                   "content": [{"type": "toolCall", "id": call, "name": "read", "arguments": {}} for call in calls]}
        for role, content in (("assistant", message), *(("result", call) for call in calls)):
            entry_id = f"{len(lines):08x}"
            if role == "result":
                content = {"role": "toolResult", "toolCallId": content, "toolName": "read", "content": [],
                           "isError": False, "timestamp": 1}
            lines.append(json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                                     "timestamp": "2026-03-01T09:15:00.000Z", "message": content}))
            parent = entry_id
    columns = _same_to_every_reader(("\n".join(lines) + "\n").encode())
    distinct = bytes(columns.call_ids).split(b"\xff")[:-1]
    assert len(distinct) == len(set(distinct)) == 1 + 2970 * 3 + 1  # record 0's empty id, and "call-again"
    records = range(1, len(columns.call_keys))
    assert {columns.record_id(record) for record in records} == {found.decode() for found in distinct[1:]}
    again = [record for record in records if columns.record_id(record) == "call-again"]
    assert len(again) == 30 * 3 * 2 and len({columns.call_keys[record] for record in again}) == 1
