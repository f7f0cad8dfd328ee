"""Diagnostics through the server: on open, after incremental and full edits, per version, on close."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from lsp_harness import CORPUS, Editor, codes, problems, shape
from lsp_sessions import BROKEN, SESSIONS, elyra_entries, elyra_lines
from lsprotocol import types

from session_lsp.analysis import rule
from session_lsp.forked import SPLIT_SIZES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import generate

ELYRA = "file:///work/sessions/2026-03-01T09-00-00-000Z_0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"
THNDRS = "file:///work/.thndrs/sessions/session-20260301-091500.jsonl"
URIS = {"elyra": ELYRA, "thndrs": THNDRS}


@pytest.mark.parametrize("kind", ["elyra", "thndrs"])
async def test_open_reports_the_broken_line_with_code_severity_and_range(editor: Editor, kind: str) -> None:
    make, code = BROKEN[kind]
    uri = URIS[kind]
    found = await editor.open(uri, make())
    broken = [d for d in found if d.code == code]
    assert len(broken) == 1
    (d,) = broken
    assert d.range.start.line == 2 and d.range.end.line == 2
    assert d.severity == int(rule(code).severity)
    assert d.source == "session-lsp"
    assert d.data is not None and d.data["code"] == code
    assert d.message
    assert shape(found) == editor.expected(uri)


async def test_related_information_points_into_the_same_file(editor: Editor) -> None:
    lines = elyra_lines()
    lines.append(lines[4])  # the same id twice: ELY040 names the first as related
    found = await editor.open(ELYRA, "\n".join(lines) + "\n")
    duplicate = [d for d in found if d.code == "ELY040"]
    assert duplicate, codes(found)
    related = [info for d in duplicate for info in d.related_information or []]
    assert related and all(info.location.uri == ELYRA for info in related)
    assert {info.location.range.start.line for info in related} & {4, 5}


async def test_clean_sessions_have_no_problems(editor: Editor) -> None:
    elyra = await editor.open(ELYRA, SESSIONS["elyra"]())
    # Only the note on the leaf pi resumes from (the last entry).
    assert [(d.code, d.severity, d.range.start.line) for d in elyra] == [
        ("ELY047", types.DiagnosticSeverity.Information, 4)]
    assert await editor.open(THNDRS, SESSIONS["thndrs"]()) == []


@pytest.mark.parametrize("text", [
    '{"name": "not a session", "n": 1}\n{"name": "still not", "n": 2}\n',
    "this is not json at all\n",
    (CORPUS / "confusables" / "thndrs-headless__tool.jsonl").read_text(encoding="utf-8"),
])
async def test_files_that_are_not_sessions_stay_quiet(editor: Editor, text: str) -> None:
    assert await editor.open("file:///tmp/other.jsonl", text) == []


@pytest.mark.parametrize("kind", ["elyra", "thndrs"])
async def test_incremental_edits_match_a_fresh_analysis(editor: Editor, kind: str) -> None:
    uri = URIS[kind]
    await editor.open(uri, SESSIONS[kind]())
    line = editor.texts[uri][1]
    # Break line 1 by deleting its closing brace, then repair it.
    broken = await editor.edit(uri, 1, len(line) - 1, 1, len(line), "")
    assert shape(broken) == editor.expected(uri) and broken
    repaired = await editor.edit(uri, 1, len(line) - 1, 1, len(line) - 1, "}")
    assert problems(repaired) == [] and shape(repaired) == editor.expected(uri)
    # Insert a whole line of garbage between lines 2 and 3, then a blank line, then join two lines.
    inserted = await editor.edit(uri, 3, 0, 3, 0, "garbage\n")
    assert shape(inserted) == editor.expected(uri)
    assert any(d.range.start.line == 3 for d in inserted)
    after_blank = await editor.edit(uri, 5, 0, 5, 0, "\n")
    assert shape(after_blank) == editor.expected(uri)
    joined = await editor.edit(uri, 1, len(editor.texts[uri][1]), 2, 0, "")
    assert shape(joined) == editor.expected(uri)
    # Remove the lines added above (a multi-line deletion) and the join: back to a clean file.
    fresh = await editor.replace_all(uri, SESSIONS[kind]())
    assert problems(fresh) == [] and shape(fresh) == editor.expected(uri)


async def test_several_changes_in_one_notification_apply_in_order(editor: Editor) -> None:
    await editor.open(ELYRA, SESSIONS["elyra"]())
    lines = editor.texts[ELYRA]
    # First event inserts a new line above line 1; the second event's line 2 is the old line 1.
    first = types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(1, 0), types.Position(1, 0)), text="not json\n")
    old = lines[1]
    second = types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(2, len(old) - 1), types.Position(2, len(old))), text="")
    lines[1:2] = ["not json", old[:-1]]
    editor.versions[ELYRA] += 1
    editor.client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=ELYRA, version=editor.versions[ELYRA]), [first, second]))
    found = await editor.diagnostics(ELYRA)
    assert shape(found) == editor.expected(ELYRA)
    assert {d.range.start.line for d in found if d.code == "ELY001"} == {1, 2}


async def test_a_burst_of_edits_never_publishes_an_older_version(editor: Editor) -> None:
    await editor.open(ELYRA, SESSIONS["elyra"]())
    texts: dict[int, str] = {}
    for step in range(12):
        line = editor.texts[ELYRA][1]
        # Alternately break and repair the end of line 1, without waiting in between.
        if step % 2 == 0:
            version = editor.send_edit(ELYRA, 1, len(line) - 1, 1, len(line), "")
        else:
            version = editor.send_edit(ELYRA, 1, len(line), 1, len(line), "}")
        texts[version] = editor.text(ELYRA)
        if step == 5:
            await asyncio.sleep(0.05)  # let one debounce expire mid-burst
    final = await editor.diagnostics(ELYRA)
    assert shape(final) == editor.expected(ELYRA)
    await editor.settle()
    if editor.pull:
        assert editor.pushes(ELYRA) == []
        return
    pushes = editor.pushes(ELYRA)
    versions = [p.version for p in pushes if p.version is not None]
    assert len(versions) == len(pushes) and versions == sorted(versions), versions
    assert versions[-1] == editor.versions[ELYRA]
    assert len(pushes) < 12, "edits within the debounce must coalesce"
    for push in pushes[1:]:
        assert push.version is not None
        editor.texts[ELYRA] = texts[push.version].split("\n")
        assert shape(push.diagnostics) == editor.expected(ELYRA), push.version


async def test_pull_only_for_clients_that_declare_it_with_unchanged_reports(editor: Editor) -> None:
    capabilities = editor.client.capabilities
    assert capabilities is not None and capabilities.text_document is not None
    assert editor.pull == (capabilities.text_document.diagnostic is not None)
    found = await editor.open(ELYRA, BROKEN["elyra"][0]())
    assert found
    if not editor.pull:
        assert editor.pushes(ELYRA)
        return
    assert editor.pushes(ELYRA) == []
    again = await editor.pull_report(ELYRA)
    assert again.kind == "unchanged"
    editor.send_edit(ELYRA, 0, 0, 0, 0, " ")
    changed = await editor.pull_report(ELYRA)
    assert changed.kind == "full"


async def test_close_clears_pushed_diagnostics(editor: Editor) -> None:
    found = await editor.open(ELYRA, BROKEN["elyra"][0]())
    assert found
    before = len(editor.pushes(ELYRA))
    editor.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(ELYRA)))
    if editor.pull:
        await editor.settle()
        assert editor.pushes(ELYRA) == []
        return
    cleared = await editor.next_push(ELYRA, before)
    assert list(cleared.diagnostics) == []


def long_elyra(pairs: int) -> str:
    """A header, a question, then `pairs` tool calls each answered on the next line: hundreds of lines, so the
    server's line store holds several compressed blocks once it has settled."""
    entries = elyra_entries()
    header, user, call, result, _ = entries
    out = [header, user]
    for n in range(pairs):
        parent = out[-1]["id"]
        asked = {**call, "id": f"{2 * n:08x}", "parentId": parent, "message": {
            **call["message"], "content": [{"type": "text", "text": f"Étape {n} 😀"},
                                           {**call["message"]["content"][1], "id": f"toolu_{n:03d}"}]}}
        answered = {**result, "id": f"{2 * n + 1:08x}", "parentId": asked["id"],
                    "message": {**result["message"], "toolCallId": f"toolu_{n:03d}"}}
        out += [asked, answered]
    return "".join(json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n" for entry in out)


async def test_link_edits_in_a_long_file_after_the_server_compressed_it(editor: Editor) -> None:
    await editor.open(ELYRA, long_elyra(200))
    await editor.settle()  # the first diagnostics are out: the server has compressed the lines
    line = 201  # a tool result in the middle (line 200 holds its call); the parentId names that call
    at = editor.find(ELYRA, '"parentId":"', line)[1] + len('"parentId":"')
    original = editor.texts[ELYRA][line][at]
    detached = await editor.edit(ELYRA, line, at, line, at + 1, "f")
    assert {"ELY042", "ELY070", "ELY072"} <= codes(detached)
    assert shape(detached) == editor.expected(ELYRA)
    restored = await editor.edit(ELYRA, line, at, line, at + 1, original)
    assert shape(restored) == editor.expected(ELYRA) and not {"ELY042", "ELY070"} & codes(restored)
    text_at = editor.find(ELYRA, "Étape 20 ", 42)[1] + len("Étape 20 ")
    typed = await editor.edit(ELYRA, 42, text_at, 42, text_at, "ü")
    assert shape(typed) == editor.expected(ELYRA)
    inserted = await editor.edit(ELYRA, 300, 0, 300, 0, '{"type":"label"}\n')
    assert shape(inserted) == editor.expected(ELYRA) and any(d.range.start.line == 300 for d in inserted)


@pytest.mark.parametrize(("deep", "codes"), [
    ("[" * 100_000, {"ELY001"}),  # unclosed: pi skips the line
    ("[" * 100_000 + "]" * 100_000, {"ELY003", "ELY007"}),  # an array: pi keeps an id-less entry
    ('{"a":' * 100_000 + "1" + "}" * 100_000, {"ELY007", "ELY021", "ELY031", "ELY032"}),  # an object without type
])
async def test_a_line_nested_100000_deep_typed_into_a_document_is_reported_and_the_server_lives(
        editor: Editor, deep: str, codes: set[str]) -> None:
    await editor.open(ELYRA, SESSIONS["elyra"]())
    found = await editor.edit(ELYRA, 1, 0, 1, 0, deep + "\n")
    assert {d.code for d in found if d.range.start.line == 1} == codes
    for col in (0, 50_000):
        await editor.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(ELYRA), editor.position(ELYRA, 1, col)))
        await editor.client.text_document_selection_range_async(types.SelectionRangeParams(
            types.TextDocumentIdentifier(ELYRA), [editor.position(ELYRA, 1, col)]))
    repaired = await editor.edit(ELYRA, 1, 0, 2, 0, "")
    assert problems(repaired) == []


async def test_a_large_file_opened_on_two_cores_reports_what_one_pass_reports(editor: Editor, tmp_path: Path) -> None:
    """A text of a size in `SPLIT_SIZES`: the line pass of its second half runs in a process the server forks while
    its own threads (the event loop, the reader of its input) go on. Torn lines on both sides of the middle, calls
    answered across it, and edits on both sides afterwards: what the server publishes is a fresh analysis's."""
    elyra, _ = generate.generate(tmp_path, entries=12_000, records=10)
    lines = elyra.read_text(encoding="utf-8").split("\n")
    middle = len(lines) // 2
    for at in (40, middle - 1, middle + 1, len(lines) - 5):
        lines[at] = lines[at][: len(lines[at]) // 2]
    text = "\n".join(lines)
    assert len(text) in SPLIT_SIZES
    opened = await editor.open(ELYRA, text)
    assert shape(opened) == editor.expected(ELYRA) and [d.range.start.line for d in opened if d.code == "ELY001"] == [
        40, middle - 1, middle + 1, len(lines) - 5]
    at = editor.find(ELYRA, '"parentId":"', middle + 3)[1] + len('"parentId":"')
    relinked = await editor.edit(ELYRA, middle + 3, at, middle + 3, at + 1, "z")
    assert shape(relinked) == editor.expected(ELYRA) and "ELY042" in codes(relinked)
    deleted = await editor.edit(ELYRA, 10, 0, 12, 0, "")
    assert shape(deleted) == editor.expected(ELYRA)
