"""The server analyses a newly opened file without titles and names its lines after the first diagnostics
(`Document.show_titles`); `check` never names them. Either way the results must be those of an analysis with titles,
title for title, and adding the titles must not touch the facts, the issues or the link pass."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from session_lsp.analysis import Document, Options
from session_lsp.analysis.document import analyze_bytes

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FILES = sorted([*(TESTS / "corpus").rglob("*.jsonl"), *(TESTS / "cases").rglob("*.jsonl"),
                *(ROOT / "examples").rglob("*.jsonl")])

sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402


def assert_titles_added_as_made(data: bytes) -> None:
    titled = analyze_bytes(data)
    later = analyze_bytes(data, Options(titles=False))
    assert not any(result.title for result in later.results)
    linked, diagnostics = later.linked, later.diagnostics()
    facts = [result.facts for result in later.results]
    later.show_titles()
    assert later.results == titled.results
    assert later.linked is linked and later.diagnostics() is diagnostics
    assert all(result.facts is fact for result, fact in zip(later.results, facts, strict=True))


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_titles_added_later_are_the_titles_made_at_once(path: Path) -> None:
    assert_titles_added_as_made(path.read_bytes())


def test_titles_added_later_on_generated_sessions(tmp_path: Path) -> None:
    elyra, thndrs = generate.generate(tmp_path, entries=3000, records=2000)
    assert_titles_added_as_made(elyra.read_bytes())
    assert_titles_added_as_made(thndrs.read_bytes())


def test_an_edit_before_the_titles_and_one_after_give_titled_lines() -> None:
    path = TESTS / "corpus" / "elyra-pi-written"
    text = next(iter(sorted(path.rglob("*.jsonl")))).read_text()
    document = Document(text, Options(titles=False))
    document.edit(1, 0, 1, 0, "")
    document.edit(2, 0, 2, len(document.lines[2]), document.lines[2])  # the line pass runs again, without a title
    assert not document.results[2].title
    document.show_titles()
    document.edit(3, 0, 3, len(document.lines[3]), document.lines[3])
    assert document.results == Document(text).results
    assert document.results[2].title and document.results[3].title


def test_naming_in_steps_changes_the_results_only_at_the_end() -> None:
    """The server names a newly opened file a step at a time between edits (`Document.naming`): until the last step
    the results are the untitled ones, and a document named meanwhile (a request came) is left as it is."""
    text = next(iter(sorted((TESTS / "corpus" / "elyra-pi-written").rglob("*.jsonl")))).read_text()
    titled = Document(text).results
    document = Document(text, Options(titles=False))
    untitled = document.results
    steps = document.naming(step=3)
    next(steps)
    next(steps)
    assert document.results is untitled and not document.options.titles
    assert list(steps) == [None] * ((len(untitled) - 1) // 3 - 2)
    assert document.results == titled and document.options.titles

    document = Document(text, Options(titles=False))
    steps = document.naming(step=3)
    next(steps)
    document.show_titles()
    named = document.results
    assert list(steps) == [] and document.results is named and named == titled


def test_naming_stops_when_the_document_changes_between_steps() -> None:
    """A retarget, a replace or an edit between two steps leaves the results the change made: the steps left do
    nothing, so no result from before the change comes back."""
    text = next(iter(sorted((TESTS / "corpus" / "elyra-pi-written").rglob("*.jsonl")))).read_text()
    for change in (lambda doc: doc.edit(2, 0, 2, 0, " "), lambda doc: doc.replace(text + "\n"),
                   lambda doc: doc.retarget(doc.options)):
        document = Document(text, Options(titles=False))
        steps = document.naming(step=3)
        next(steps)
        change(document)
        changed = list(document.results)
        assert list(steps) == []
        assert document.results == changed and not document.options.titles
