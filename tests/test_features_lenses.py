"""Code lenses and inlay hints at branch points, on the leaf, and on thndrs turns."""

from __future__ import annotations

from pathlib import Path

from session_lsp.analysis import Document, Span, analyze
from session_lsp.analysis.features import CodeLens, InlayHint, code_lenses, inlay_hints

FIXTURES = Path(__file__).parent / "fixtures" / "features"
LEAF = "● leaf: pi resumes from this entry (the last line, not the deepest or newest)"


def load(name: str) -> Document:
    return analyze((FIXTURES / name).read_text(encoding="utf-8"))


def whole(doc: Document, line: int) -> Span:
    return Span(line, 0, line, len(doc.lines[line]))


def test_branch_point_and_leaf_lenses() -> None:
    doc = load("elyra-branched.jsonl")
    assert code_lenses(doc) == [
        CodeLens(whole(doc, 4), "⎇ 2 branches · active: branch 2 (line 8)", "sessionLsp.revealLine", (7,)),
        CodeLens(whole(doc, 9), LEAF),
    ]


def test_inlay_hints_in_a_range() -> None:
    doc = load("elyra-branched.jsonl")
    assert inlay_hints(doc, 0, 9) == [
        InlayHint(4, len(doc.lines[4]), "⎇ 2 branches · active: branch 2 (line 8)"),
        InlayHint(9, len(doc.lines[9]), "● leaf", tooltip=LEAF),
    ]
    assert inlay_hints(doc, 5, 8) == []


def test_branch_point_off_the_active_path() -> None:
    doc = load("elyra-branched.jsonl")
    line = doc.lines[9].replace('"parentId":"cccc0002"', '"parentId":"bbbb0002"')
    doc.edit(9, 0, 9, len(doc.lines[9]), line)
    lenses = code_lenses(doc)
    assert lenses[0].title == "⎇ 2 branches · active: branch 1 (line 6)"
    doc.edit(9, 0, 9, len(doc.lines[9]), line.replace('"bbbb0002"', "null"))
    assert code_lenses(doc)[0] == CodeLens(whole(doc, 4), "⎇ 2 branches (none leads to the leaf)")


def test_thndrs_turn_lenses() -> None:
    doc = load("thndrs-session.jsonl")
    assert code_lenses(doc) == [
        CodeLens(whole(doc, 1), "turn-1: 4 records, settled", "sessionLsp.revealLine", (5,)),
        CodeLens(whole(doc, 6), "turn-2: 3 records, not settled (cannot be forked)"),
    ]
    assert inlay_hints(doc, 0, 10) == []
