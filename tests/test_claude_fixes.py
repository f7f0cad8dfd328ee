"""Claude Code's fixers (session_lsp/analysis/claude/fixes.py) on hostile input: every field of every record
of the cases the fixers act on, replaced by a value of every JSON kind, is fixed to a fixpoint with `--unsafe-fixes`
without raising, and the fixed text is analysed again without raising. What each fix writes is in tests/fix_cases/;
what Claude Code then sends is the repair proof's (tests/test_repair_claude.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp.analysis import Options
from session_lsp.analysis.claude import fixes as claude_fixes
from session_lsp.analysis.claude import rename
from session_lsp.analysis.claude.model import ClaudeModel
from session_lsp.analysis.document import analyze
from session_lsp.analysis.features.fixes import fix_document

CASES = Path(__file__).parent / "cases" / "claude"
FILES = ("CCD030-result-id-edited.jsonl", "CCD020-dangling-parent-to-row-without-uuid.jsonl",
         "CCD001-torn-then-appended.jsonl", "CCD043-thinking-not-first.jsonl")
KINDS: tuple[Any, ...] = (None, True, 1.5, 2**70, "", "u1", [1, "a"], {"k": 1})

Path_ = tuple[str | int, ...]


def _paths(record: dict[str, Any]) -> Iterator[Path_]:
    """Each top-level field, each field of `message`, and each field of its first two content blocks."""
    yield from ((key,) for key in record)
    message = record.get("message")
    if isinstance(message, dict):
        yield from (("message", key) for key in message)
        content = message.get("content")
        for number, block in enumerate(content[:2] if isinstance(content, list) else []):
            if isinstance(block, dict):
                yield from (("message", "content", number, key) for key in block)


def _replaced(record: dict[str, Any], path: Path_, value: Any) -> str:
    copy = json.loads(json.dumps(record))
    inner = copy
    for step in path[:-1]:
        inner = inner[step]
    inner[path[-1]] = value
    return json.dumps(copy)


def _variants(name: str) -> Iterator[str]:
    lines = (CASES / name).read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            for path in _paths(record):
                for value in KINDS:
                    yield "\n".join([*lines[:number], _replaced(record, path, value), *lines[number + 1:]])


@pytest.mark.parametrize("name", FILES)
def test_the_fixers_take_any_value_in_any_field(name: str) -> None:
    count = 0
    for text in _variants(name):
        repaired = fix_document(analyze(text, Options(path=name)), unsafe=True)
        analyze(repaired.text, Options(path=name)).diagnostics()
        count += 1
    assert count > 300


def test_hundreds_of_results_cut_off_from_their_calls_are_each_repaired() -> None:
    """A session whose calls and results all hang from its first prompt, so each result is a sibling of its call
    (CCD030) and the last call is left open (CCD031): every one is repaired in one run, each fix reading the chain
    through the indexes the fixes share (`_chain`), made once for the file."""
    records = [json.loads(line) for line in (CASES.parent.parent / "corpus" / "claude-code-2.1.332-written" /
                                             "a2f284f7-af07-4a92-87e0-9091f13bf9fd.jsonl").read_text().splitlines()]
    by_uuid = {record.get("uuid", "")[:8]: record for record in records}
    prompt, call, result = by_uuid["13dfb9d1"], by_uuid["371ad631"], by_uuid["6e7e95a5"]
    lines = [json.dumps({**prompt, "uuid": f"00000000-0000-4000-8000-{0:012d}", "parentUuid": None})]
    for number in range(1, 300):
        record = json.loads(json.dumps(call if number % 2 else result))
        record |= {"uuid": f"00000000-0000-4000-8000-{number:012d}",
                   "parentUuid": f"00000000-0000-4000-8000-{0:012d}"}
        for block in record["message"]["content"]:
            block["id" if block["type"] == "tool_use" else "tool_use_id"] = f"toolu_{(number + 1) // 2:04d}"
        if "sourceToolAssistantUUID" in record:
            record["sourceToolAssistantUUID"] = f"00000000-0000-4000-8000-{number - 1:012d}"
        lines.append(json.dumps(record))
    document = analyze("\n".join(lines) + "\n", Options())
    codes = [diagnostic.code for diagnostic in document.diagnostics()]
    assert codes.count("CCD030") == 149 and codes.count("CCD031") == 1
    repaired = fix_document(document, unsafe=True)
    assert repaired.converged and len(repaired.applied) == 150 + 149
    assert analyze(repaired.text, Options()).diagnostics() == []


@st.composite
def repeated_uuids(draw: st.DrawFn) -> str:
    """A transcript whose records repeat a few uuids and name them in every field a new uuid follows."""
    pool = [f"u{n}" for n in range(4)]
    lines = [json.dumps({"type": "user", "uuid": "first", "parentUuid": None, "isSidechain": False,
                         "sessionId": "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f", "version": "2.1.332",
                         "timestamp": "2026-12-05T08:00:00.000Z", "message": {"role": "user", "content": "hi"}})]
    for _ in range(draw(st.integers(1, 30))):
        kind = draw(st.sampled_from(["user", "result", "boundary", "summary", "junk"]))
        named = draw(st.sampled_from(pool))
        if kind == "junk":
            lines.append(draw(st.sampled_from(["[]", "{}", '{"type":"user"}{"type":"user"}'])))
            continue
        if kind == "summary":
            lines.append(json.dumps({"type": "summary", "summary": "s", "leafUuid": named}))
            continue
        record: dict[str, Any] = {"type": "user", "uuid": draw(st.sampled_from(pool)),
                                  "parentUuid": draw(st.sampled_from([None, *pool])), "isSidechain": False,
                                  "sessionId": "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f", "version": "2.1.332",
                                  "timestamp": "2026-12-05T08:00:00.000Z",
                                  "message": {"role": "user", "content": "hi"}}
        if kind == "result":
            record["sourceToolAssistantUUID"] = named
        elif kind == "boundary":
            record |= {"type": "system", "subtype": "compact_boundary", "logicalParentUuid": named,
                       "content": "Conversation compacted"}
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"


def _plain_reid(model: ClaudeModel, line: int) -> tuple[tuple[int, tuple[str, ...]], ...] | None:
    """The places a duplicate uuid's fix renames, read record by record."""
    record = model.at_line.get(line)
    if record is None or record.facts.uuid is None or record.part:
        return None
    old = record.facts.uuid
    places: list[tuple[int, tuple[str, ...]]] = [(line, ("uuid",))]
    for other in model.records:
        if other.line <= line or other.part:
            continue
        found = other.facts
        if found.uuid == old:
            break
        places += [(other.line, (field,)) for field, value in (
            ("parentUuid", found.parent), ("logicalParentUuid", found.logical_parent),
            ("sourceToolAssistantUUID", found.source_tool), ("leafUuid", found.leaf)) if value == old]
    return tuple(places)


@settings(max_examples=300, deadline=None)
@given(repeated_uuids())
def test_a_new_uuid_follows_the_names_of_the_uuid_up_to_its_next_declaration(text: str) -> None:
    model = analyze(text, Options(path="5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f.jsonl")).linked.model
    assert isinstance(model, ClaudeModel)
    for line in range(len(text.split("\n"))):
        target = rename.reid(model, line)
        assert (target.places if target is not None else None) == _plain_reid(model, line)


def _at(seconds: int) -> str:
    return f"2026-12-05T08:{seconds // 60:02d}:{seconds % 60:02d}.000Z"


LINKS = ("above", "above", "above", "above", "null", "missing", "earlier")
"""How `cut_conversations` links a record: to the one above, none (a cut), or to any record above it."""
BROKEN = (*LINKS, "later", "nothing")
"""Also to a record below it (which may close a loop), or to none of the file (linked by time, or not)."""


@st.composite
def cut_conversations(draw: st.DrawFn, links: tuple[str, ...] = LINKS) -> str:
    """A transcript whose records may be cut from the one above (a null or missing `parentUuid`), hang from another,
    sit on a sidechain, answer a call (`sourceToolAssistantUUID`) or go on the response above them (its message id),
    with timestamps 9 s apart give or take 8, so that Claude Code links some broken links by time and not others."""
    count = draw(st.integers(2, 24))
    uuids = [f"r{number}" for number in range(count)]
    lines: list[str] = []
    calls: list[tuple[str, str]] = []
    """(tool_use id, the uuid of its record) not answered yet."""
    for number, uuid_ in enumerate(uuids):
        role = "user" if number % 2 == 0 else "assistant"
        record: dict[str, Any] = {"parentUuid": uuids[number - 1] if number else None,
                                  "isSidechain": draw(st.sampled_from([False] * 6 + [True])), "type": role,
                                  "uuid": uuid_, "sessionId": "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f",
                                  "version": "2.1.332", "timestamp": _at(number * 9 + draw(st.integers(0, 8)))}
        if role == "assistant" and draw(st.booleans()):
            call = f"toolu_{number}"
            calls.append((call, uuid_))
            content: Any = [{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "ls"}}]
            record["message"] = {"id": f"msg_{number}", "type": "message", "role": "assistant",
                                 "model": "claude-opus-5-5", "content": content, "stop_reason": "tool_use",
                                 "usage": {"input_tokens": 1, "output_tokens": 1}}
        elif role == "assistant":
            record["message"] = {"id": f"msg_{number - draw(st.sampled_from([0, 0, 0, 2]))}", "type": "message",
                                 "role": "assistant", "model": "claude-opus-5-5",
                                 "content": [{"type": "text", "text": "ok"}],
                                 "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 1}}
        elif draw(st.booleans()) and calls:
            call, source = calls.pop()
            record["message"] = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                                                              "content": "a.py"}]}
            record["sourceToolAssistantUUID"] = source
        else:
            record["message"] = {"role": "user", "content": f"prompt {number}"}
        link = draw(st.sampled_from(links))
        if link == "null":
            record["parentUuid"] = None
        elif link == "missing":
            del record["parentUuid"]
        elif link == "earlier" and number:
            record["parentUuid"] = draw(st.sampled_from(uuids[:number]))
        elif link == "later":
            record["parentUuid"] = draw(st.sampled_from(uuids[number:]))
        elif link == "nothing":
            record["parentUuid"] = "gone"
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"


OPTIONS = Options(path="5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f.jsonl")


def _one_cut_a_run(text: str) -> str:
    """`fix --unsafe-fixes` as it was when a fix mended one cut and each cut above waited for the next run."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(claude_fixes, "_cuts", lambda model: {})
        repaired = fix_document(analyze(text, OPTIONS), unsafe=True, rounds=200)
    assert repaired.converged
    return repaired.text


def _sent(text: str, options: Options = OPTIONS) -> set[str | None]:
    """The uuids of the records on the chain Claude Code resumes."""
    model = analyze(text, options).linked.model
    assert isinstance(model, ClaudeModel)
    return {model.records[index].facts.uuid for index in model.chain}


@settings(max_examples=400, deadline=None)
@given(cut_conversations())
def test_one_run_mends_the_cuts_that_runs_mending_one_cut_each_would(text: str) -> None:
    """The fix of the cut on the resumed chain mends the cuts the chain then meets above it, each as the fix of a
    later run would once the one below was mended: the text is the one those runs end with."""
    repaired = fix_document(analyze(text, OPTIONS), unsafe=True)
    assert repaired.converged
    assert repaired.text == _one_cut_a_run(text)


@settings(max_examples=400, deadline=None)
@given(cut_conversations(BROKEN))
def test_one_run_among_other_broken_links_sends_what_those_runs_send(text: str) -> None:
    """With loops and links to nothing beside the cuts, the fixes of one run can take another order than those of
    runs mending one cut each (a fix whose lines meet another's waits for the next round, and is made again on the
    text as mended): the text may differ, but nothing those runs have Claude Code send is missing from it. (Links to
    nothing are mended one a round, as before: a file of many may need more rounds than one run has.)"""
    repaired = fix_document(analyze(text, OPTIONS), unsafe=True, rounds=200)
    assert repaired.converged
    assert _sent(repaired.text) >= _sent(_one_cut_a_run(text))


@pytest.mark.parametrize("every", [2, 3])
def test_one_round_mends_the_cuts_of_a_written_session(every: int) -> None:
    """A session Claude Code wrote, with every `every`-th record of the conversation cut from its parent: one round
    of fixes (one `fix` run needed one round a cut) has Claude Code send every record it sent before."""
    path = CASES.parent.parent / "corpus" / "claude-code-2.1.332-written" / "4e719454-7e2b-47f1-9af5-2a0e2efce310.jsonl"
    options = Options(path=path.name)
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    cut = [number for number, record in enumerate(records)
           if record.get("parentUuid") and record.get("type") in ("user", "assistant") and number % every == 0]
    for number in cut:
        records[number]["parentUuid"] = None
    damaged = "\n".join(json.dumps(record) if number in cut else lines[number]
                        for number, record in enumerate(records)) + "\n"
    before = _sent(path.read_text(encoding="utf-8"), options)
    assert len(cut) > 12 if every == 2 else len(cut) > 8
    assert len(_sent(damaged, options)) * 8 < len(before)
    repaired = fix_document(analyze(damaged, options), unsafe=True, rounds=1)
    assert _sent(repaired.text, options) == before


@pytest.mark.parametrize("name", ["CCD021-null-parents-one-above-another.jsonl",
                                  "CCD021-null-parent-of-a-response-above.jsonl"])
def test_one_round_mends_every_cut(name: str) -> None:
    """The cuts above the one on the chain (one a line above another; one in a response the chain comes to) are
    mended in the round that mends it, as the rounds after it would."""
    text = (CASES / name).read_text(encoding="utf-8")
    assert sum(d.code == "CCD021" for d in analyze(text, OPTIONS).diagnostics()) > 1
    repaired = fix_document(analyze(text, OPTIONS), unsafe=True, rounds=1)
    assert [d.code for d in analyze(repaired.text, OPTIONS).diagnostics() if d.code == "CCD021"] == []
