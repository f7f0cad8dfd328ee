"""Quick fixes: each one's exact edits, and that applying them removes the diagnostic and keeps every line."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_lsp.analysis import Diagnostic, Document, Span, analyze
from session_lsp.analysis.elyra.model import ElyraModel
from session_lsp.analysis.features import CodeAction, TextEdit, code_actions

FIXTURES = Path(__file__).parent / "fixtures" / "features"

REPARENT_TITLE = ("Set parentId to 'dddd0001' (the entry on line 2; passing over line 3, whose id 'dddd0002' pi "
                  "resolves to line 6, which hangs below this entry and would close a loop)")
"""The title of elyra-broken.jsonl's ELY042 fix: the entry right above is passed over, and the title says why."""


def load(name: str) -> Document:
    return analyze((FIXTURES / name).read_text(encoding="utf-8"))


def span_of(doc: Document, line: int, needle: str) -> Span:
    start = doc.lines[line].index(needle)
    return Span(line, start, line, start + len(needle))


def apply(doc: Document, edits: tuple[TextEdit, ...]) -> None:
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.start), reverse=True):
        doc.edit(edit.span.line, edit.span.start, edit.span.end_line, edit.span.end, edit.new_text)


def fixes(doc: Document, code: str) -> tuple[list[Diagnostic], list[CodeAction]]:
    found = [d for d in doc.diagnostics() if d.code == code]
    assert found, code
    return found, code_actions(doc, found[0].span, found)


def test_split_glued_records() -> None:
    doc = load("elyra-broken.jsonl")
    before = doc.lines[3]
    _found, [action] = fixes(doc, "ELY002")
    cut = before.index('}{"type"') + 1
    assert action.title == "Split into 2 lines"
    assert action.is_preferred and action.diagnostic_codes == ("ELY002",) and action.kind == "quickfix"
    assert action.edits == (TextEdit(Span(3, 0, 3, len(before)), before[:cut] + "\n" + before[cut:]),)
    apply(doc, action.edits)
    assert doc.lines[3] + doc.lines[4] == before
    assert "ELY002" not in {d.code for d in doc.diagnostics()}


def test_point_a_dangling_parent_at_the_entry_above() -> None:
    doc = load("elyra-broken.jsonl")
    _found, [action] = fixes(doc, "ELY042")
    # The entry right above (line 2) has the id "dddd0002", which line 5 repeats: pi's index resolves that id to
    # line 5, whose parent is this very entry, so pointing at it would close a loop (pi hangs). The fix skips it.
    assert action.title == REPARENT_TITLE + " (unsafe fix)"
    assert action.edits == (TextEdit(span_of(doc, 4, '"ffff9999"'), '"dddd0001"'),)
    before = {d.code for d in doc.diagnostics()}
    apply(doc, action.edits)
    after = {d.code for d in doc.diagnostics()}
    assert "ELY042" not in after
    assert after <= before  # no new problem: in particular no ELY045 loop


def test_dangling_parent_fix_without_duplicates_takes_the_line_above() -> None:
    doc = load("elyra-branched.jsonl")
    line = doc.lines[6].replace('"parentId":"bbbb0001"', '"parentId":"ffff0000"')
    doc.edit(6, 0, 6, len(doc.lines[6]), line)
    _found, [action] = fixes(doc, "ELY042")
    assert action.edits == (TextEdit(span_of(doc, 6, '"ffff0000"'), '"bbbb0001"'),)


def test_give_a_duplicate_a_fresh_id_and_move_its_children() -> None:
    doc = load("elyra-broken.jsonl")
    found, [action] = fixes(doc, "ELY040")
    new = found[0].data["new_id"] if found[0].data else None
    assert isinstance(new, str) and len(new) == 8
    assert action.edits == (TextEdit(span_of(doc, 5, '"dddd0002"'), f'"{new}"'),
                            TextEdit(span_of(doc, 6, '"dddd0002"'), f'"{new}"'))
    assert action.title == f"Give this entry the fresh id {new!r} and update the 1 line written after it (unsafe fix)"
    lines = len(doc.lines)
    apply(doc, action.edits)
    assert len(doc.lines) == lines
    assert "ELY040" not in {d.code for d in doc.diagnostics()}
    assert f'"parentId":"{new}"' in doc.lines[6]
    assert '"parentId":"dddd0002"' in doc.lines[3]  # written before the duplicate: it meant the first


def test_rename_hook_message_role() -> None:
    doc = load("elyra-broken.jsonl")
    _found, [action] = fixes(doc, "ELY024")
    assert action.edits == (TextEdit(span_of(doc, 7, '"hookMessage"'), '"custom"'),)
    apply(doc, action.edits)
    assert "ELY024" not in {d.code for d in doc.diagnostics()}


def test_renumber_seq_in_line_order() -> None:
    doc = load("thndrs-seq.jsonl")
    seq_diagnostics = [d for d in doc.diagnostics() if d.code.startswith("THN03")]
    assert {d.code for d in seq_diagnostics} == {"THN030", "THN031", "THN032", "THN033"}
    [action] = code_actions(doc, Span(0, 0, 4, 0), seq_diagnostics)
    assert action.title == "Renumber seq 0..4 in line order (4 records change)"
    assert action.diagnostic_codes == ("THN030", "THN032", "THN031", "THN033")
    def seq(line: int, old: int) -> Span:
        start = doc.lines[line].index(f'"seq":{old},') + 6
        return Span(line, start, line, start + 1)

    assert action.edits == (TextEdit(seq(0, 2), "0"), TextEdit(seq(2, 1), "2"), TextEdit(seq(3, 5), "3"),
                            TextEdit(seq(4, 3), "4"))
    apply(doc, action.edits)
    assert not [d for d in doc.diagnostics() if d.code.startswith("THN03")]


def test_only_diagnostics_in_the_range_are_fixed() -> None:
    doc = load("elyra-broken.jsonl")
    everything = doc.diagnostics()
    assert code_actions(doc, Span(0, 0, 2, 0), everything) == []
    titles = [action.title for action in code_actions(doc, Span(4, 0, 7, 0), everything)]
    assert titles[0] == REPARENT_TITLE + " (unsafe fix)"
    assert titles[2] == 'Rename role "hookMessage" to "custom"'
    assert len(titles) == 3


def test_no_fix_without_a_repair() -> None:
    doc = load("elyra-branched.jsonl")
    assert code_actions(doc, Span(0, 0, 20, 0), doc.diagnostics()) == []


def _entry(entry_id: str, parent: str | None, second: int) -> str:
    parent_json = "null" if parent is None else f'"{parent}"'
    return (f'{{"type":"message","id":"{entry_id}","parentId":{parent_json},"timestamp":"2026-01-01T00:00:'
            f'{second:02}.000Z","message":{{"role":"user","content":"m{second}","timestamp":1767225600000}}}}')


HEADER = ('{"type":"session","version":3,"id":"0194a000-0000-7000-8000-000000000009",'
          '"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/work"}')


@pytest.mark.parametrize(("entries", "title"), [
    ([("aaaa0001", None), ("aaaa0002", "aaaa0001"), ("dddd0001", "ffff9999")],
     "Set parentId to 'aaaa0002' (the entry above)"),
    ([("aaaa0001", None), ("cccc0001", "dddd0001"), ("dddd0001", "ffff9999")],
     "Set parentId to 'aaaa0001' (the entry on line 2; passing over line 3, which hangs below this entry and would "
     "close a loop)"),
    ([("aaaa0001", None), ("bbbb0001", "aaaa0001"), ("dddd0001", "ffff9999"), ("bbbb0001", "aaaa0001")],
     "Set parentId to 'aaaa0001' (the entry on line 2; passing over line 3, whose id 'bbbb0001' pi resolves to "
     "line 5, written later)"),
    ([("cccc0001", "dddd0001"), ("dddd0001", "ffff9999")],
     "Set parentId to null (make this a root; passing over line 2, which hangs below this entry and would close a "
     "loop)"),
    ([("dddd0001", "ffff9999")], "Set parentId to null (no entry above: make this a root)"),
])
def test_the_reparent_title_says_which_entry_it_names(entries: list[tuple[str, str | None]], title: str) -> None:
    """When the suggested parent is not the entry right above, the title says which it is and what it passed over."""
    text = "\n".join([HEADER, *(_entry(i, p, n) for n, (i, p) in enumerate(entries, 1))]) + "\n"
    doc = analyze(text)
    found = [d for d in doc.diagnostics() if d.code == "ELY042"]
    [action] = code_actions(doc, found[0].span, found)
    assert action.title == f"{title} (unsafe fix)"
    apply(doc, action.edits)
    assert not {"ELY042", "ELY044", "ELY045"} & {d.code for d in doc.diagnostics()}


def test_an_entry_without_id_under_another_gets_that_entry_as_parent() -> None:
    """A file written without ids: the quick fix of one entry cannot name the entry above by an id it lacks, so it
    gives that entry its fresh id too (the one its own fix would give), instead of passing over it to a root."""
    doc = analyze((Path(__file__).parent / "cases" / "elyra" / "ELY021-no-ids-at-all.jsonl").read_text("utf-8"))
    found = [d for d in doc.diagnostics() if d.code == "ELY021" and d.span.line == 3]
    [action] = code_actions(doc, found[0].span, found)
    assert action.title == ("Give this entry a fresh id and the entry above as parent (and that entry the fresh id "
                            "it lacks) (unsafe fix)")
    above, own = action.edits
    assert (above.span.line, own.span.line) == (2, 3)
    given = above.new_text.removeprefix('"id":"')[:8]
    assert own.new_text.endswith(f'"parentId":"{given}",')
    apply(doc, action.edits)
    assert [(d.code, d.span.line) for d in doc.diagnostics() if d.span.line in (2, 3)] == [("ELY021", 2)]
    model = doc.linked.model
    assert isinstance(model, ElyraModel) and model.parent(3) == 2
