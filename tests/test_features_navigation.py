"""Definition, references and rename over Elyra and thndrs links, with exact spans and edits."""

from __future__ import annotations

from pathlib import Path

from session_lsp.analysis import Document, Options, Span, analyze
from session_lsp.analysis.features import (
    Location,
    PrepareRename,
    RenameError,
    TextEdit,
    definition,
    prepare_rename,
    references,
    rename,
)

FIXTURES = Path(__file__).parent / "fixtures" / "features"


def load(name: str, options: Options | None = None) -> Document:
    return analyze((FIXTURES / name).read_text(encoding="utf-8"), options)


def span_of(doc: Document, line: int, needle: str, nth: int = 0) -> Span:
    text = doc.lines[line]
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Span(line, start, line, start + len(needle))


def test_definition_of_parent_target_and_tool_call_id() -> None:
    doc = load("elyra-branched.jsonl")
    parent = span_of(doc, 7, '"aaaa0004"')
    assert definition(doc, 7, parent.start + 3) == [Location(span_of(doc, 4, '"aaaa0004"'))]
    target = span_of(doc, 8, '"aaaa0004"')
    assert definition(doc, 8, target.start + 1) == [Location(span_of(doc, 4, '"aaaa0004"'))]
    call = span_of(doc, 3, '"call_1"')
    assert definition(doc, 3, call.start + 2) == [Location(span_of(doc, 2, '"call_1"'))]


def test_definition_on_the_key_of_a_reference() -> None:
    doc = load("elyra-branched.jsonl")
    key = span_of(doc, 5, '"parentId"')
    assert definition(doc, 5, key.start + 2) == [Location(span_of(doc, 4, '"aaaa0004"'))]


def test_definition_of_nothing() -> None:
    doc = load("elyra-branched.jsonl")
    assert definition(doc, 4, span_of(doc, 4, '"aaaa0004"').start + 1) == []  # the declaration itself
    broken = load("elyra-broken.jsonl")
    assert definition(broken, 4, span_of(broken, 4, '"ffff9999"').start + 1) == []  # dangling


def test_parent_session_goes_to_the_file_when_it_exists() -> None:
    where = span_of(load("elyra-branched.jsonl"), 0, "/work/sessions/older.jsonl").start
    always = load("elyra-branched.jsonl")
    assert definition(always, 0, where) == [Location(Span(0, 0, 0, 0), "/work/sessions/older.jsonl")]
    seen: list[str] = []

    def exists(path: str) -> bool:
        seen.append(path)
        return False

    assert definition(always, 0, where, exists=exists) == []
    assert seen == ["/work/sessions/older.jsonl"]
    known = load("elyra-branched.jsonl", Options(exists=lambda path: path.endswith("older.jsonl")))
    assert definition(known, 0, where) == [Location(Span(0, 0, 0, 0), "/work/sessions/older.jsonl")]


def test_references_of_an_entry_id() -> None:
    doc = load("elyra-branched.jsonl")
    declaration = span_of(doc, 4, '"aaaa0004"')
    expected = [Location(declaration), Location(span_of(doc, 5, '"aaaa0004"')),
                Location(span_of(doc, 7, '"aaaa0004"')), Location(span_of(doc, 8, '"aaaa0004"'))]
    assert references(doc, 4, declaration.start + 1) == expected
    assert references(doc, 8, span_of(doc, 8, '"aaaa0004"').start + 1, include_declaration=False) == expected[1:]


def test_references_of_a_tool_call_exclude_child_links() -> None:
    doc = load("elyra-branched.jsonl")
    call = span_of(doc, 2, '"call_1"')
    assert references(doc, 2, call.start + 1) == [Location(call), Location(span_of(doc, 3, '"call_1"'))]


def test_thndrs_turn_and_call_references() -> None:
    doc = load("thndrs-session.jsonl")
    turn = span_of(doc, 1, '"turn-1"')
    assert references(doc, 1, turn.start + 1) == [
        Location(turn), Location(span_of(doc, 2, '"turn-1"')), Location(span_of(doc, 4, '"turn-1"')),
        Location(span_of(doc, 5, '"turn-1"')),
    ]
    finish = span_of(doc, 4, '"call-1"')
    assert definition(doc, 4, finish.start + 1) == [Location(span_of(doc, 2, '"call-1"'))]


def test_prepare_rename_on_id_and_reference() -> None:
    doc = load("elyra-branched.jsonl")
    on_id = span_of(doc, 4, '"aaaa0004"')
    inner = Span(4, on_id.start + 1, 4, on_id.end - 1)
    assert prepare_rename(doc, 4, on_id.start + 2) == PrepareRename(inner, "aaaa0004")
    on_ref = span_of(doc, 8, '"aaaa0004"')
    assert prepare_rename(doc, 8, on_ref.start + 2) == PrepareRename(
        Span(8, on_ref.start + 1, 8, on_ref.end - 1), "aaaa0004")
    assert prepare_rename(doc, 1, span_of(doc, 1, '"user"').start + 1) is None
    assert prepare_rename(load("thndrs-session.jsonl"), 1, 90) is None


def test_rename_updates_every_reference() -> None:
    doc = load("elyra-branched.jsonl")
    edits = rename(doc, 7, span_of(doc, 7, '"aaaa0004"').start + 1, "feed0004")
    assert edits == [TextEdit(span_of(doc, line, '"aaaa0004"'), '"feed0004"') for line in (4, 5, 7, 8)]
    for edit in reversed(edits):
        doc.edit(edit.span.line, edit.span.start, edit.span.end_line, edit.span.end, edit.new_text)
    assert "aaaa0004" not in doc.text
    assert [d.code for d in doc.diagnostics()] == ["ELY047", "ELY072"]


def test_rename_refuses_empty_and_taken_ids() -> None:
    doc = load("elyra-branched.jsonl")
    at = span_of(doc, 4, '"aaaa0004"').start + 1
    empty = rename(doc, 4, at, "")
    assert isinstance(empty, RenameError) and "cannot be empty" in empty.message
    taken = rename(doc, 4, at, "aaaa0001")
    assert isinstance(taken, RenameError) and "already used by line 2" in taken.message
    assert isinstance(rename(doc, 1, span_of(doc, 1, '"user"').start + 1, "x"), RenameError)


def test_a_rename_off_a_renamable_value_names_what_the_format_renames() -> None:
    elyra = load("elyra-branched.jsonl")
    off = rename(elyra, 1, span_of(elyra, 1, '"user"').start + 1, "x")
    assert off == RenameError("only an Elyra entry id (or a parentId, targetId, fromId or firstKeptEntryId naming "
                              "one) or a tool call id (or a toolCallId naming one) can be renamed here")
    assert isinstance(off, RenameError) and all(field in off.message for field in elyra.face.renamed_with_id)
    assert rename(load("thndrs-session.jsonl"), 1, 90, "x") == RenameError("nothing can be renamed in this file")


def test_rename_escapes_the_new_id() -> None:
    doc = load("elyra-branched.jsonl")
    edits = rename(doc, 9, span_of(doc, 9, '"cccc0003"').start + 1, 'a"b')
    assert edits == [TextEdit(span_of(doc, 9, '"cccc0003"'), '"a\\"b"')]


CONTEXT_EDIT = "\n".join([
    '{"type":"session","version":3,"id":"s1","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/"}',
    '{"type":"message","id":"aaaa0001","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z",'
    '"message":{"role":"user","content":"hi","timestamp":1772355600000}}',
    '{"type":"context_edit","id":"aaaa0002","parentId":"aaaa0001","timestamp":"2026-03-01T09:00:02.000Z",'
    '"targetId":"aaaa0001","replacement":{"content":"hello"}}',
    '{"type":"context_edit","id":"aaaa0003","parentId":"aaaa0002","timestamp":"2026-03-01T09:00:03.000Z",'
    '"targetId":"aaaa0001","replacement":null}',
]) + "\n"


def test_a_context_edit_target_is_a_reference() -> None:
    """pi 1.x's `context_edit.targetId` names the entry it edits, like a label's targetId."""
    doc = analyze(CONTEXT_EDIT)
    declaration = span_of(doc, 1, '"aaaa0001"')
    target = span_of(doc, 2, '"aaaa0001"', 1)
    assert definition(doc, 2, target.start + 2) == [Location(declaration)]
    found = references(doc, 1, declaration.start + 2)
    assert Location(target) in found and Location(span_of(doc, 3, '"aaaa0001"')) in found
    edits = rename(doc, 1, declaration.start + 1, "feed0001")
    assert isinstance(edits, list)
    assert {edit.span.line for edit in edits} == {1, 2, 3}
    for edit in reversed(edits):
        doc.edit(edit.span.line, edit.span.start, edit.span.end_line, edit.span.end, edit.new_text)
    assert "aaaa0001" not in doc.text
    assert "ELY058" not in {d.code for d in doc.diagnostics()}
