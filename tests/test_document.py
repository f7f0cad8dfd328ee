"""`Document.edit`: the text it keeps after LSP-style range replacements, and that its diagnostics are those of a
fresh analysis of that text, including when an edit changes the detected format or the link pass is skipped."""

from __future__ import annotations

import gc
import json
import weakref
from collections.abc import Collection, Iterator, Sequence
from typing import Any

import pytest

from session_lsp.analysis import Document, Kind, Options, Span, analyze
from session_lsp.analysis.detect import FormatInfo
from session_lsp.analysis.results import LineResult, Linked

HEADER = json.dumps({"type": "session", "version": 3, "id": "01a237ba-3c31-7688-af90-27a41cba019b",
                     "timestamp": "2026-03-01T09:15:00.000Z", "cwd": "/w"}, separators=(",", ":"))


def message(entry_id: str, parent: str | None, content: str, second: int) -> str:
    return json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                       "timestamp": f"2026-03-01T09:15:{second:02d}.000Z",
                       "message": {"role": "user", "content": content, "timestamp": 1772356500000 + second * 1000}},
                      separators=(",", ":"))


LINES = [HEADER, message("a1b2c3d4", None, "first question", 1), message("b2c3d4e5", "a1b2c3d4", "second", 2),
         message("c3d4e5f6", "b2c3d4e5", "third", 3)]
TEXT = "\n".join(LINES) + "\n"
META = json.dumps({"type": "session_meta", "schema_version": 1, "seq": 0, "time": "2026-03-01T09:15:00Z",
                   "session_id": "session-20260301-091500", "cwd": "/w", "title": "t", "provider": "p", "model": "m",
                   "websearch": "off", "app_version": "0.1.0"}, separators=(",", ":"))


@pytest.fixture
def document() -> Document:
    return analyze(TEXT, Options())


def assert_matches_fresh(document: Document, text: str) -> None:
    assert document.text == text
    assert document.lines == text.split("\n")
    fresh = analyze(text, Options())
    assert document.format == fresh.format
    assert document.diagnostics() == fresh.diagnostics()


def test_insert_a_line(document: Document) -> None:
    new = message("d4e5f6a7", "a1b2c3d4", "inserted", 4)
    document.edit(2, 0, 2, 0, new + "\n")
    assert document.lines[2] == new
    assert_matches_fresh(document, "\n".join([*LINES[:2], new, *LINES[2:]]) + "\n")


def test_insert_several_lines_inside_a_line(document: Document) -> None:
    col = LINES[1].index("first") + len("first")
    document.edit(1, col, 1, col, '"}}\n{"a":1}\n{"b":"')
    assert len(document.lines) == len(TEXT.split("\n")) + 2
    text = TEXT.replace("first question", 'first"}}\n{"a":1}\n{"b":" question')
    assert_matches_fresh(document, text)


def test_delete_a_line(document: Document) -> None:
    document.edit(2, 0, 3, 0, "")
    assert_matches_fresh(document, "\n".join([LINES[0], LINES[1], LINES[3]]) + "\n")
    assert any(d.code == "ELY042" and d.span.line == 2 for d in document.diagnostics())


def test_delete_everything(document: Document) -> None:
    document.edit(0, 0, len(document.lines) - 1, 0, "")
    assert document.lines == [""]
    assert_matches_fresh(document, "")


def test_multi_line_replacement(document: Document) -> None:
    start = LINES[1].index('"parentId"')
    end = LINES[3].index('"parentId"')
    document.edit(1, start, 3, end, '"parentId":null,"x":1}\n{"type":"message","id":"e5f6a7b8",')
    text = (LINES[0] + "\n" + LINES[1][:start] + '"parentId":null,"x":1}\n{"type":"message","id":"e5f6a7b8",'
            + LINES[3][end:] + "\n")
    assert_matches_fresh(document, text)


def test_append_at_end_of_file(document: Document) -> None:
    last = len(document.lines) - 1
    assert document.lines[last] == ""
    new = message("d4e5f6a7", "c3d4e5f6", "fourth", 4)
    document.edit(last, 0, last, 0, new + "\n")
    assert_matches_fresh(document, TEXT + new + "\n")


def test_remove_the_final_newline(document: Document) -> None:
    last = len(document.lines) - 1
    document.edit(last - 1, len(document.lines[last - 1]), last, 0, "")
    assert_matches_fresh(document, TEXT[:-1])
    assert any(d.code == "ELY005" for d in document.diagnostics())
    document.edit(last - 1, len(document.lines[last - 1]), last - 1, len(document.lines[last - 1]), "\n")
    assert_matches_fresh(document, TEXT)
    assert not any(d.code == "ELY005" for d in document.diagnostics())


@pytest.mark.parametrize(("before", "after"), [("  ", '"  '), ('"  ', "  ")])
def test_a_last_line_turning_blank_or_not_is_seen(before: str, after: str) -> None:
    """A whitespace-only last line is the file's end, not a line without its newline (ELY005): the edit changes
    no entry's facts, yet the link pass must run again."""
    document = analyze(TEXT + before, Options())
    document.diagnostics()
    last = len(document.lines) - 1
    document.edit(last, 0, last, len(before), after)
    assert_matches_fresh(document, TEXT + after)
    assert any(d.code == "ELY005" for d in document.diagnostics()) == (after != "  ")


def test_type_at_the_end_of_an_unterminated_last_line() -> None:
    document = analyze(TEXT + '{"type":"mess', Options())
    last = len(document.lines) - 1
    document.edit(last, 13, last, 13, 'age"')
    assert_matches_fresh(document, TEXT + '{"type":"message"')


def test_columns_past_the_end_of_a_line_mean_its_end(document: Document) -> None:
    document.edit(1, 10_000, 2, 0, "")
    assert_matches_fresh(document, "\n".join([LINES[0], LINES[1] + LINES[2], LINES[3]]) + "\n")


def test_a_reversed_range_is_the_same_range(document: Document) -> None:
    document.edit(3, 0, 2, 0, "")
    assert_matches_fresh(document, "\n".join([LINES[0], LINES[1], LINES[3]]) + "\n")


def test_editing_the_header_changes_the_format(document: Document) -> None:
    assert document.format == FormatInfo(Kind.ELYRA, 3, 0)
    col = LINES[0].index('"version":3') + len('"version":')
    document.edit(0, col, 0, col + 1, "2")
    assert document.format == FormatInfo(Kind.ELYRA, 2, 0)
    assert_matches_fresh(document, TEXT.replace('"version":3', '"version":2', 1))

    # another format's first line over pi's entries: the entries decide (pi refuses the file: ELY010)
    document.edit(0, 0, 0, len(document.lines[0]), META)
    assert document.format.kind is Kind.ELYRA
    assert "ELY010" in {d.code for d in document.diagnostics()}
    assert_matches_fresh(document, "\n".join([META, *LINES[1:]]) + "\n")

    # a foreign first line over pi's entries: still a pi session, one whose header is missing (pi refuses it)
    document.edit(0, 0, 0, len(document.lines[0]), '{"just": "data"}')
    assert document.format == FormatInfo(Kind.ELYRA, None, 1)
    assert "ELY010" in [d.code for d in document.diagnostics()]
    assert_matches_fresh(document, "\n".join(['{"just": "data"}', *LINES[1:]]) + "\n")

    document.edit(0, 0, 0, len(document.lines[0]), HEADER)
    assert_matches_fresh(document, TEXT)


def test_a_file_of_foreign_lines_is_no_session() -> None:
    document = analyze('{"just": "data"}\n{"more": "data"}\n{"type": "message", "id": "a", "parentId": null}\n',
                       Options())
    assert document.format.kind is Kind.UNKNOWN
    assert [d.code for d in document.diagnostics()] == ["SLS001"]


def test_a_header_typed_into_an_empty_file_is_detected() -> None:
    document = analyze("", Options())
    assert document.format.kind is Kind.UNKNOWN
    document.edit(0, 0, 0, 0, META + "\n")
    assert document.format.kind is Kind.THNDRS
    assert_matches_fresh(document, META + "\n")


def test_typing_inside_message_text_reuses_the_link_pass(document: Document) -> None:
    linked = document.linked
    col = LINES[2].index("second")
    document.edit(2, col, 2, col, "the ")
    assert document.linked is linked
    assert_matches_fresh(document, TEXT.replace('"content":"second"', '"content":"the second"'))


def test_changing_a_parent_runs_the_link_pass_again(document: Document) -> None:
    linked = document.linked
    col = LINES[3].index('"parentId":"b2c3d4e5"') + len('"parentId":"')
    document.edit(3, col, 3, col + 1, "f")
    assert document.linked is not linked
    assert any(d.code == "ELY042" and d.span.line == 3 for d in document.diagnostics())
    assert_matches_fresh(document, TEXT.replace('"parentId":"b2c3d4e5"', '"parentId":"f2c3d4e5"'))


def test_a_burst_of_link_edits_runs_the_link_pass_once_when_asked(document: Document,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Here the one run is the incremental relink, with the three keystrokes' line as the only one changed."""
    document.diagnostics()
    runs: list[tuple[str, object]] = []
    link, relink = document.analyzer.link, document.analyzer.relink

    def counted_link(*args: Any) -> Linked:
        runs.append(("link", None))
        return link(*args)

    def counted_relink(previous: Linked, lines: Sequence[str], results: Sequence[LineResult],
                       changed: Collection[int]) -> Linked | None:
        runs.append(("relink", set(changed)))
        return relink(previous, lines, results, changed)

    monkeypatch.setattr(document.analyzer, "link", counted_link)
    monkeypatch.setattr(document.analyzer, "relink", counted_relink)
    col = LINES[3].index('"parentId":"b2c3d4e5"') + len('"parentId":"')
    for letter in "fed":
        document.edit(3, col, 3, col + 1, letter)
    assert runs == []
    assert any(d.code == "ELY042" and d.span.line == 3 for d in document.diagnostics())
    assert runs == [("relink", {3})]
    assert_matches_fresh(document, TEXT.replace('"parentId":"b2c3d4e5"', '"parentId":"d2c3d4e5"'))


def test_edits_that_add_lines_since_the_last_link_pass_get_a_full_one(document: Document,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    document.diagnostics()
    runs: list[str] = []
    link, relink = document.analyzer.link, document.analyzer.relink

    def counted_link(*args: Any) -> Linked:
        runs.append("link")
        return link(*args)

    def counted_relink(*args: Any) -> Linked | None:
        runs.append("relink")
        return relink(*args)

    monkeypatch.setattr(document.analyzer, "link", counted_link)
    monkeypatch.setattr(document.analyzer, "relink", counted_relink)
    col = LINES[3].index('"parentId":"b2c3d4e5"') + len('"parentId":"')
    document.edit(3, col, 3, col + 1, "f")
    document.edit(4, 0, 4, 0, LINES[1] + "\n")
    document.diagnostics()
    assert runs == ["link"]
    assert_matches_fresh(document, TEXT.replace('"parentId":"b2c3d4e5"', '"parentId":"f2c3d4e5"') + LINES[1] + "\n")


def test_an_edit_drops_the_invalid_utf8_report() -> None:
    """The bytes on disk were not UTF-8; once edited, the document is the editor's text, which is."""
    document = Document(TEXT, Options(), [Span(1, 5, 1, 6)])
    assert [d.code for d in document.diagnostics()].count("ELY006") == 1
    document.edit(2, 0, 2, 0, "")
    assert_matches_fresh(document, TEXT)


def test_lines_read_from_invalid_utf8_are_followed_through_edits() -> None:
    """An editor's document knows the lines of the disk it decoded with U+FFFD (`replaced`): after every edit,
    undone or not, its diagnostics are those of a fresh document of the same text and the same disk."""
    shown = LINES[1].replace("first question", "first \ufffd question")
    replaced = {shown: (shown.index("\ufffd"),)}
    lines = [LINES[0], shown, *LINES[2:]]
    document = Document("\n".join(lines) + "\n", Options(), replaced=replaced)
    at = shown.index("\ufffd")
    for start, end, new, marked in [((3, 0), (3, 0), "x", [1]), ((3, 0), (3, 1), "", [1]),
                                    ((1, at), (1, at), "y", []), ((1, at), (1, at + 1), "", [1]),
                                    ((0, 0), (0, 0), LINES[2] + "\n", [2]), ((0, 0), (1, 0), "", [1])]:
        document.edit(*start, *end, new)
        fresh = Document(document.text, Options(), replaced=replaced)
        assert document.diagnostics() == fresh.diagnostics()
        assert [span.line for span in document.invalid_utf8] == marked
        assert [d.span.line for d in document.diagnostics() if d.code == "ELY006"] == marked
    assert document.text == "\n".join(lines) + "\n"


def test_replace_is_a_fresh_start(document: Document) -> None:
    document.replace(META + "\n")
    assert_matches_fresh(document, META + "\n")


@pytest.fixture
def no_cycle_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("text", [TEXT, "\n".join([META, META.replace('"seq":0', '"seq":1')]) + "\n"],
                         ids=["elyra", "thndrs"])
def test_a_replaced_link_model_is_freed_at_once(text: str, no_cycle_collector: None) -> None:
    """Every relink replaces the model; a reference cycle inside it would keep each old one (tens of MB on a large
    file) alive until Python's rare full collection, and the server's memory would grow with every edit."""
    document = analyze(text, Options())
    document.diagnostics()
    old = weakref.ref(document.linked.model)
    document.edit(1, 0, 1, 0, "\n")
    assert document.linked.model is not old()
    assert old() is None


def test_a_lone_surrogate_in_the_text_is_read_as_an_editor_saves_it() -> None:
    """The core never raises: a str can hold a lone UTF-16 surrogate (an API caller's, a JSON escape decoded), which
    no file can; it is analysed as the U+FFFD an editor writes for it, in the text given and in an edit."""
    header = '{"type":"session","version":3,"id":"x\ud800"}'
    entry = '{"type":"message","id":"a\udfff","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z",' \
            '"message":{"role":"user","content":"hi\ud83d","timestamp":1}}'
    text = f"\ud800{header}\n{entry}\n"
    document = analyze(text)
    assert document.diagnostics() == analyze(text.replace("\ud800", "\ufffd").replace("\udfff", "\ufffd")
                                              .replace("\ud83d", "\ufffd")).diagnostics()
    clean = analyze(f"{header.replace(chr(0xd800), 'y')}\n")
    clean.edit(0, 5, 0, 5, "\udc00")
    assert clean.lines[0][5] == "\ufffd"
    assert_matches_fresh(clean, clean.text)
