"""The conformance suite against the real Claude Code 2.1.332 (tests/conformance/claude_*.py): what it sends when
it resumes each corpus file, each session the suite has it write, and each seeded mutant, against session-lsp's
`context` and `check`. Claude Code's answers come from the committed record (claude_oracle.RECORD); a case missing
from it runs the CLI, which then must be installed, with root for the network namespace (else these tests fail with
what fixes it; they never skip)."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest
from conformance import claude_mutants, claude_oracle, claude_repair, claude_suite
from conformance.claude_known import KNOWN, explained
from conformance.suite import Verdict

SEED_KINDS = {"tools", "resume", "fork", "compact", "subagent", "api-error", "killed"}


@cache
def verdicts() -> tuple[Verdict, ...]:
    return tuple(claude_suite.run())


def _recorded(cases: list[claude_oracle.Case]) -> list[claude_oracle.Result]:
    return claude_oracle.run(cases, record_only=True)


def test_the_record_holds_every_case_so_ci_does_not_start_claude_code() -> None:
    """Every run of the suite (the seeds' included) and of the repair proof is in the committed record."""
    try:
        _recorded(claude_suite.cases(oracle=_recorded)[3])
        _recorded(claude_repair.cases()[3])
    except claude_oracle.NotRecorded as missing:
        pytest.fail(f"{missing}; run `python -m tests.conformance.claude_report --record` (as root) and commit "
                    f"{claude_oracle.RECORD.name}")


def test_a_case_the_record_lacks_is_reported() -> None:
    case = claude_oracle.resume_case("not-recorded", "0" * 36, {"0" * 36 + ".jsonl": b"{}\n"})
    with pytest.raises(claude_oracle.NotRecorded, match="not-recorded"):
        _recorded([case])


def test_every_kind_is_judged_on_enough_files() -> None:
    kinds = Counter(verdict.kind for verdict in verdicts())
    assert sum(count for kind, count in kinds.items() if kind not in ("corpus", "seed")) >= 300
    assert set(kinds) == {*claude_mutants.KINDS, *claude_mutants.TARGETED, "corpus", "seed"}
    assert all(kinds[kind] == claude_mutants.TARGETED_PER_KIND for kind in claude_mutants.TARGETED)
    assert kinds["corpus"] == len(claude_mutants.corpus())
    assert {verdict.name for verdict in verdicts() if verdict.kind == "seed"} == {f"seed-{k}" for k in SEED_KINDS}


def test_agrees_with_the_real_cli_except_known_disagreements() -> None:
    unexplained = sorted({(verdict.kind, check, verdict.name) for verdict in verdicts()
                          for check in verdict.failed if explained(verdict.release, verdict.kind, check) is None})
    assert unexplained == []


def test_the_context_is_judged_on_every_file_claude_code_resumed() -> None:
    judged = [verdict for verdict in verdicts() if "context" in verdict.applied]
    assert len(judged) > 300
    refused = [verdict.name for verdict in verdicts() if "refused" in verdict.applied]
    assert sorted(refused) == sorted(v.name for v in verdicts() if v.kind in ("empty-file", "garbage-file"))


def test_every_known_disagreement_still_happens() -> None:
    seen = {(verdict.kind, check) for verdict in verdicts() for check in verdict.failed}
    assert [known for known in KNOWN if (known.kind, known.check) not in seen] == []


def test_only_what_the_file_does_not_hold_is_stripped_from_the_request() -> None:
    """On the corpus, what is left of the request after stripping is the file's: no resume prompt, no
    cache_control, and the last message's text or tool ids occur in the file (or are a placeholder Claude Code puts
    in, such as "No response requested."): the prompt and only it was removed."""
    files = claude_mutants.corpus()
    cases = [claude_oracle.resume_case(p.name, p.stem, {p.name: p.read_bytes(), **claude_mutants.companions(p)})
             for p in files]
    for path, result in zip(files, claude_oracle.run(cases), strict=True):
        data = path.read_bytes()
        sent = claude_suite.sent(result, path.stem, data)
        assert sent, path.name
        whole = json.dumps(result.requests[0]["messages"])
        stripped = json.dumps(sent)
        assert claude_oracle.RESUME_PROMPT in whole and claude_oracle.RESUME_PROMPT not in stripped
        assert "cache_control" not in stripped
        last = sent[-1]["content"]
        blocks = [{"type": "text", "text": last}] if isinstance(last, str) else last
        for block in blocks:
            key = block.get("text") or block.get("tool_use_id") or block.get("id") or block.get("thinking")
            assert key in claude_suite.PLACEHOLDERS or json.dumps(key)[1:-1].removesuffix("\\n") in data.decode(), \
                (path.name, block)
