"""Hover cards: references resolve to a card of the entry they name, dangling ones say what the agent does,
`type`/`role` values describe their schema, and a hover reads only the lines involved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from session_lsp.analysis import Document, Options, Span, analyze
from session_lsp.analysis.features import hover

FIXTURES = Path(__file__).parent / "fixtures" / "features"


def load(name: str, options: Options | None = None) -> Document:
    return analyze((FIXTURES / name).read_text(encoding="utf-8"), options)


def col(doc: Document, line: int, needle: str, offset: int = 1) -> int:
    return doc.lines[line].index(needle) + offset


def test_parent_id_shows_the_card_of_its_parent() -> None:
    doc = load("elyra-branched.jsonl")
    found = hover(doc, 7, col(doc, 7, '"aaaa0004"'))
    assert found is not None
    start = doc.lines[7].index('"aaaa0004"')
    assert found.span == Span(7, start, 7, start + 10)
    assert found.markdown == (
        "`parentId` → line 5\n\n"
        "**message · assistant** (line 5)\n\n"
        "- id `aaaa0004`\n"
        "- time 2026-01-01T00:00:04.000Z\n"
        "- depth 3\n"
        "- 2 children (a branch point)\n"
        "- on the active path (an ancestor of the leaf)\n"
        "- label **checkpoint**\n\n"
        "> There is a.txt."
    )


def test_card_of_an_abandoned_branch_and_of_the_leaf() -> None:
    doc = load("elyra-branched.jsonl")
    abandoned = hover(doc, 6, col(doc, 6, '"bbbb0001"'))
    assert abandoned is not None
    assert "- not on the active path (pi does not send it as context)" in abandoned.markdown
    assert "> Branch one question" in abandoned.markdown
    leaf = hover(doc, 9, col(doc, 9, '"cccc0003"'))
    assert leaf is not None and "**the leaf**: the last entry, where pi resumes" in leaf.markdown
    assert "- referenced by 0 lines" in leaf.markdown


def test_text_shows_only_its_first_line() -> None:
    doc = load("elyra-branched.jsonl")
    found = hover(doc, 2, col(doc, 2, '"aaaa0001"'))
    assert found is not None
    assert found.markdown.endswith("> Hello there")


def test_declaration_counts_its_referrers() -> None:
    doc = load("elyra-branched.jsonl")
    found = hover(doc, 4, col(doc, 4, '"aaaa0004"'))
    assert found is not None
    assert "- referenced by 3 lines" in found.markdown  # two children and the label


def test_tool_call_id_and_tool_call_block() -> None:
    doc = load("elyra-branched.jsonl")
    result = hover(doc, 3, col(doc, 3, '"call_1"'))
    assert result is not None
    assert result.markdown == ("`toolCallId` → line 3\n\n**tool call `bash`** `call_1`\n\n"
                               "- in the assistant message on line 3, content block 1\n- answered by line 4")
    unanswered = hover(doc, 9, col(doc, 9, '"call_2"'))
    assert unanswered is not None
    assert 'pi inserts a synthetic "No result provided" error result' in unanswered.markdown


def test_type_and_role_values_list_their_fields() -> None:
    doc = load("elyra-branched.jsonl")
    role = hover(doc, 1, col(doc, 1, '"user"'))
    assert role is not None
    assert role.markdown == ("**role `user`**\n\n- `content`: string or array, required\n"
                             "- `timestamp`: number, required")
    entry = hover(doc, 8, col(doc, 8, '"label"'))
    assert entry is not None
    assert "- `targetId`: string, required" in entry.markdown
    assert "- `label`: string, optional" in entry.markdown


def test_dangling_parent_says_what_pi_does() -> None:
    doc = load("elyra-broken.jsonl")
    found = hover(doc, 4, col(doc, 4, '"ffff9999"'))
    assert found is not None
    assert found.markdown.startswith("`parentId` **`ffff9999`** resolves to nothing")
    assert "What pi does then: pi builds the context by following parentId up from the leaf and stops there" \
        in found.markdown and "ELY042" in found.markdown


def test_parent_session_is_a_file_link() -> None:
    missing = load("elyra-branched.jsonl", Options(exists=lambda path: False))
    found = hover(missing, 0, col(missing, 0, "/work/sessions"))
    assert found is not None
    assert found.markdown.startswith("`parentSession`: the session file this one was forked or branched from")
    assert "`/work/sessions/older.jsonl`" in found.markdown
    assert "does not exist" in found.markdown


def test_thndrs_references_and_dangling_call() -> None:
    doc = load("thndrs-session.jsonl")
    call = hover(doc, 4, col(doc, 4, '"call-1"'))
    assert call is not None
    assert call.markdown.startswith("`call_id` → line 3\n\n**tool_started** (line 3)")
    assert "- turn has 4 records, settled" in call.markdown
    dangling = hover(doc, 8, col(doc, 8, '"call-9"'))
    assert dangling is not None
    assert dangling.markdown.startswith("`call_id` **`call-9`** resolves to nothing")
    assert "THN040" in dangling.markdown
    status = hover(doc, 2, col(doc, 2, '"tool_started"'))
    assert status is not None and "- `call_id`: string, required" in status.markdown


def test_nothing_to_say_off_a_link() -> None:
    doc = load("elyra-branched.jsonl")
    assert hover(doc, 1, col(doc, 1, '"timestamp"')) is None
    assert hover(doc, 99, 0) is None
    assert hover(analyze("just text\n"), 0, 2) is None


def test_hover_reads_only_the_hovered_and_target_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = load("elyra-branched.jsonl")
    reads: list[int] = []

    class Spy(list[str]):
        def __getitem__(self, index: Any) -> Any:
            reads.append(index)
            return super().__getitem__(index)

    monkeypatch.setattr(doc, "lines", Spy(doc.lines))
    assert hover(doc, 7, col(doc, 7, '"aaaa0004"')) is not None
    assert set(reads) == {4, 7}


def test_a_dangling_context_edit_target_cites_its_own_rule() -> None:
    text = "\n".join([
        '{"type":"session","version":3,"id":"s1","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/"}',
        '{"type":"context_edit","id":"aaaa0002","parentId":null,"timestamp":"2026-03-01T09:00:02.000Z",'
        '"targetId":"ffff0000","replacement":null}',
    ]) + "\n"
    doc = analyze(text)
    found = hover(doc, 1, doc.lines[1].index('"ffff0000"') + 2)
    assert found is not None and "ELY058" in found.markdown and "ELY053" not in found.markdown
