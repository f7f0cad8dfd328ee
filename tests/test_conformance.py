"""The conformance suite: session-lsp's predictions against the real pi 0.73.1 and 1.6.0 (tests/conformance/).
Without the install these tests fail with the command that installs it; they never skip."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest
from conformance import mutants, suite
from conformance.known import KNOWN, explained

from session_lsp.analysis import Options
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.elyra.context import build_context
from session_lsp.analysis.elyra.model import ElyraModel


@cache
def verdicts(release: str) -> tuple[suite.Verdict, ...]:
    problem = suite.install_problem()
    if problem is not None:
        pytest.fail(problem)
    return tuple(suite.run(release))


RELEASES = tuple(suite.RUNTIMES)


@pytest.mark.parametrize("release", RELEASES)
def test_every_kind_is_judged_on_enough_files(release: str) -> None:
    kinds = Counter(verdict.kind for verdict in verdicts(release))
    assert sum(count for kind, count in kinds.items() if kind != "corpus") >= 300
    assert set(kinds) == {*mutants.KINDS, "corpus"}
    assert kinds["corpus"] == len(mutants.corpus())


@pytest.mark.parametrize("release", RELEASES)
def test_agrees_with_the_real_release_except_known_disagreements(release: str) -> None:
    unexplained = sorted({(verdict.kind, check, verdict.name) for verdict in verdicts(release)
                          for check in verdict.failed if explained(release, verdict.kind, check) is None})
    assert unexplained == []


@pytest.mark.parametrize("release", RELEASES)
def test_context_and_path_agree_everywhere_they_apply(release: str) -> None:
    judged = [verdict for verdict in verdicts(release) if "context" in verdict.applied]
    assert len(judged) > 250
    assert [(verdict.name, check) for verdict in judged for check in {"context", "path"} & set(verdict.failed)
            if explained(release, verdict.kind, check) is None] == []


def test_every_known_disagreement_still_happens() -> None:
    """A disagreement fixed elsewhere (issue 13) must leave the table, or the table would hide a regression."""
    seen = {(verdict.release, verdict.kind, check) for release in RELEASES for verdict in verdicts(release)
            for check in verdict.failed}
    stale = [known for known in KNOWN
             if not any((release, known.kind, known.check) in seen
                        for release in (RELEASES if known.release == "*" else (known.release,)))]
    assert stale == []


def _texts(content: object) -> list[str]:
    """The text a message's content carries: a string, or its text blocks'."""
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [block["text"] for block in content if isinstance(block, dict) and block.get("type") == "text"]
    return []


@pytest.mark.parametrize("release", RELEASES)
def test_the_context_carries_the_text_pi_sends_on_pi_1x_files(release: str) -> None:
    """Beyond roles: on the files pi 1.6 wrote (context edits, system messages), every text pi sends is in our
    context's message at the same place; 1.6 sends the edited texts and 0.73 the written ones."""
    problem = suite.install_problem()
    if problem is not None:
        pytest.fail(problem)
    files = sorted((mutants.CORPUS / "elyra-pi-1.6-written").glob("*.jsonl"))
    for path, real in zip(files, suite.run_oracle(release, files), strict=True):
        sent = json.loads(real["sent_json"])
        document = analyze_bytes(path.read_bytes(), Options(path=str(path), pi_version=release))
        model = document.linked.model
        assert isinstance(model, ElyraModel)
        ours = build_context(document.lines, model, None, release)
        assert [message.role for message in ours] == [message["role"] for message in sent], path.name
        for mine, theirs in zip(ours, sent, strict=True):
            for piece in _texts(theirs.get("content")):
                assert piece in mine.text, (path.name, mine.line, piece)
