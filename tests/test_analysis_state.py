"""The core keeps no state between analyses: what the line pass carries from line to line and what the features
derive from a model belong to one document, so the server's analysis threads never share them."""

from __future__ import annotations

import importlib
import pkgutil
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import session_lsp.analysis
from session_lsp.analysis import Document, Options, analyze
from session_lsp.analysis.elyra.line_pass import LineState as ElyraLineState
from session_lsp.analysis.elyra.model import ElyraModel
from session_lsp.analysis.elyra.tree import layout
from session_lsp.analysis.text import LastSeen, Vocabulary
from session_lsp.analysis.thndrs.facts import LineState as ThndrsLineState

FIXTURES = Path(__file__).parent / "fixtures" / "features"
ELYRA = (FIXTURES / "elyra-branched.jsonl").read_text(encoding="utf-8")
THNDRS = (FIXTURES / "thndrs-session.jsonl").read_text(encoding="utf-8")


def test_no_module_of_the_core_holds_line_state_or_a_cache_of_models() -> None:
    found = []
    for module_info in pkgutil.walk_packages(session_lsp.analysis.__path__, "session_lsp.analysis."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if isinstance(value, (LastSeen, Vocabulary, ElyraLineState, ThndrsLineState,
                                  weakref.WeakKeyDictionary, weakref.WeakValueDictionary, weakref.WeakSet)):
                found.append(f"{module_info.name}.{name}")
    assert found == []


def test_a_document_shares_equal_strings_within_itself_only() -> None:
    first, second = analyze(ELYRA, Options()), analyze(ELYRA, Options())
    def tool_names(document: Document) -> list[str]:
        """The tool names of the calls and of the results answering them, in line order."""
        return [name for result in document.results for name in (
            *(call.name for call in getattr(result.facts, "tool_calls", ())), getattr(result.facts, "tool_name", None))
            if name == "bash"]

    (name, again), (other, _) = tool_names(first), tool_names(second)
    assert name is again  # one object per value within the document
    assert other == name and other is not name  # but each document has its own


def test_thndrs_documents_keep_their_own_last_turn_and_call_ids() -> None:
    first, second = analyze(THNDRS, Options()), analyze(THNDRS, Options())
    turns = [(number, result.facts.turn_id) for number, result in enumerate(first.results)
             if getattr(result.facts, "turn_id", None) == "turn-1"]
    (line, turn), (_, again) = turns[:2]
    assert turn is again
    assert second.results[line].facts.turn_id == turn and second.results[line].facts.turn_id is not turn
    calls = [result.facts.call_id for result in first.results if getattr(result.facts, "call_id", None) == "call-1"]
    assert len(calls) == 2 and calls[0] is calls[1]


def test_the_layout_lives_on_its_model_and_a_relinked_model_builds_its_own() -> None:
    document = analyze(ELYRA, Options())
    model = document.linked.model
    assert isinstance(model, ElyraModel) and "layout" not in model.views
    built = layout(model)
    assert layout(model) is built and model.views["layout"] is built
    line = 9
    col = document.lines[line].index('"parentId":"') + len('"parentId":"')
    document.edit(line, col, line, col + 8, "aaaa0001")  # the last entry moves under the root
    moved = document.linked.model
    assert isinstance(moved, ElyraModel) and moved is not model and "layout" not in moved.views
    assert layout(moved) is not built and layout(moved) != built


def test_documents_analysed_on_two_threads_match_one_thread() -> None:
    texts = [ELYRA, THNDRS] * 8

    def diagnostics(document: Document) -> list[tuple[str, int, int, str]]:
        return [(d.code, d.span.line, d.span.start, d.message) for d in document.diagnostics()]

    alone = [diagnostics(analyze(text, Options())) for text in texts]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda text: diagnostics(analyze(text, Options())), texts))
    assert together == alone
