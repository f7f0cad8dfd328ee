"""Whole real files: the shared corpus (program output, see its SOURCES.md), the examples, and the benchmark
generator's sessions, each checked end to end through `analyze`."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

from session_lsp.analysis import RULES, Diagnostic, Kind, Options, Severity
from session_lsp.analysis.document import analyze_bytes

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"
"""Real files copied byte for byte from the shared corpus (see corpus/SOURCES.md), so a clone tests alone."""
EXAMPLES = ROOT / "examples"
GLUED = {
    # SOURCES.md: "Line 440 (1-based) holds two records with no newline between them".
    "elyra/pi-mono__session__v1__has-concatenated-line.jsonl": {440},
    # SOURCES.md: "Line 1013 (the last line) holds an assistant message followed directly by a second compaction".
    "elyra/pi-mono__compact__v1__has-concatenated-line.jsonl": {1013},
}
PROBLEMS = (Severity.ERROR, Severity.WARNING)

sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402


def check(path: Path) -> tuple[Kind, list[Diagnostic]]:
    document = analyze_bytes(path.read_bytes(), Options(path=str(path), exists=os.path.exists))
    return document.format.kind, document.diagnostics()


def problems(diagnostics: list[Diagnostic]) -> list[str]:
    return [f"{d.span.line + 1}:{d.span.start + 1} {d.code} {d.message}" for d in diagnostics if d.severity in PROBLEMS]


def corpus(folder: str) -> list[Path]:
    return sorted((CORPUS / folder).glob("*.jsonl"))


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_the_corpus_is_there() -> None:
    assert len(corpus("elyra")) == 5 and len(corpus("elyra-pi-written")) == 5 and len(corpus("confusables")) == 4


@pytest.mark.parametrize("path", corpus("elyra") + corpus("elyra-pi-written") + corpus("confusables"), ids=name)
def test_every_corpus_file_is_analysed(path: Path) -> None:
    kind, diagnostics = check(path)
    lines = path.read_bytes().split(b"\n")
    for diagnostic in diagnostics:
        assert diagnostic.code in RULES
        assert 0 <= diagnostic.span.line <= diagnostic.span.end_line < len(lines)
    assert kind is (Kind.UNKNOWN if path.parent.name == "confusables" else Kind.ELYRA)


@pytest.mark.parametrize("path", corpus("elyra-pi-written") + corpus("elyra-pi-1.6-written"), ids=name)
def test_files_written_by_pi_have_no_error_or_warning(path: Path) -> None:
    assert problems(check(path)[1]) == []


CLAUDE = sorted((CORPUS / "claude-code-2.1.332-written").rglob("*.jsonl"))
"""Sessions the real Claude Code 2.1.332 wrote, the subagent transcript among them."""


def test_the_claude_code_corpus_is_there() -> None:
    assert len(CLAUDE) == 9 and any(path.parent.name == "subagents" for path in CLAUDE)


@pytest.mark.parametrize("path", CLAUDE, ids=name)
def test_files_written_by_claude_code_are_claude_sessions_with_no_error_or_warning(path: Path) -> None:
    kind, diagnostics = check(path)
    assert kind is Kind.CLAUDE
    assert problems(diagnostics) == []


CODEX = sorted((CORPUS / "codex-0.171.0-written").glob("*.jsonl"))
"""Rollouts the real Codex 0.171.0 wrote: several tools, resumed twice, compacted twice, killed mid-stream."""


def test_the_codex_corpus_is_there() -> None:
    assert len(CODEX) == 4


@pytest.mark.parametrize("path", CODEX, ids=name)
def test_files_written_by_codex_are_codex_rollouts_with_no_error_or_warning(path: Path) -> None:
    kind, diagnostics = check(path)
    assert kind is Kind.CODEX
    assert problems(diagnostics) == []


@pytest.mark.parametrize("relative", sorted(GLUED))
def test_glued_records_are_found_on_the_lines_sources_md_names(relative: str) -> None:
    _, diagnostics = check(CORPUS / relative)
    assert {d.span.line + 1 for d in diagnostics if d.code == "ELY002"} == GLUED[relative]
    assert sum(d.code == "ELY002" for d in diagnostics) == 1


@pytest.mark.parametrize("path", corpus("confusables"), ids=name)
def test_look_alike_files_get_one_not_a_session_notice_and_nothing_else(path: Path) -> None:
    _, diagnostics = check(path)
    assert [(d.code, d.severity) for d in diagnostics] == [("SLS001", Severity.INFORMATION)]


# --- examples --------------------------------------------------------------------------------------------------


def test_examples_cover_both_formats_clean_and_broken() -> None:
    found = {(path.parent.name, check(path)[0]) for path in EXAMPLES.glob("*/*.jsonl")}
    assert found == {(state, kind) for state in ("clean", "broken") for kind in (Kind.ELYRA, Kind.THNDRS)}


@pytest.mark.parametrize("path", sorted((EXAMPLES / "clean").glob("*.jsonl")), ids=name)
def test_clean_examples_have_no_error_or_warning(path: Path) -> None:
    assert problems(check(path)[1]) == []


BROKEN = {
    # What each hand-made corruption must at least produce (1-based line, code).
    "elyra-corrupted.jsonl": {(5, "ELY002"), (7, "ELY070"), (8, "ELY042"), (9, "ELY040"), (10, "ELY004"),
                              (11, "ELY053"), (12, "ELY032"), (13, "ELY001"), (13, "ELY005")},
    "session-20260302-143000.jsonl": {(4, "THN009"), (5, "THN033"), (5, "THN040"), (6, "THN007"), (7, "THN001"),
                                      (9, "THN031"), (10, "THN071")},
}


@pytest.mark.parametrize("file", sorted(BROKEN))
def test_broken_examples_show_their_corruption(file: str) -> None:
    _, diagnostics = check(EXAMPLES / "broken" / file)
    assert BROKEN[file] <= {(d.span.line + 1, d.code) for d in diagnostics}


# --- generated benchmark sessions ------------------------------------------------------------------------------


def test_generated_sessions_are_clean_and_deterministic(tmp_path: Path) -> None:
    first = generate.generate(tmp_path / "a", entries=6000, records=3000)
    second = generate.generate(tmp_path / "b", entries=6000, records=3000)
    for one, two in zip(first, second, strict=True):
        assert one.read_bytes() == two.read_bytes()
    elyra, thndrs = first
    for path, kind in ((elyra, Kind.ELYRA), (thndrs, Kind.THNDRS)):
        found, diagnostics = check(path)
        assert found is kind
        assert problems(diagnostics) == []
    text = elyra.read_text(encoding="utf-8")
    kinds = Counter(line.split('"type":"', 2)[1].split('"', 1)[0] for line in text.splitlines())
    assert {"session", "message", "branch_summary", "compaction", "label", "model_change"} <= set(kinds)


def test_the_copied_corpus_is_byte_for_byte_what_its_manifest_records() -> None:
    """The copies must stay program output: SHA256SUMS was taken from the shared corpus when they were copied."""
    recorded = {}
    for row in (CORPUS / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, relative = row.split(maxsplit=1)
        recorded[relative.removeprefix("./")] = digest
    present = {str(path.relative_to(CORPUS)): hashlib.sha256(path.read_bytes()).hexdigest()
               for path in sorted(CORPUS.rglob("*.jsonl"))}
    assert present == recorded


def test_check_of_the_corpus_with_defaults_prints_only_what_needs_attention(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The glued lines SOURCES.md names are all that `check` prints by default; the information and hints (a
    usage count missing, a run resumed after it stopped mid-tool, the leaf) are only counted in the summary."""
    from session_lsp import cli

    status = cli.main(["check", "-j", "1", "--output-format", "json", str(CORPUS)])
    items = json.loads(capsys.readouterr().out)
    assert status == cli.EXIT_FOUND
    assert sorted((item["path"], item["line"], item["code"]) for item in items) == sorted(
        (str(CORPUS / relative), line, "ELY002") for relative, lines in GLUED.items() for line in lines)
    cli.main(["check", "-j", "1", str(CORPUS)])
    summary = capsys.readouterr().out.splitlines()[-1]
    glued = sum(len(lines) for lines in GLUED.values())
    assert f": {glued} errors, 0 warnings, " in summary and "below --min-severity warning not shown" in summary
