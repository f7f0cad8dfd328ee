"""The conformance suite against the real Codex CLI 0.171.0 (tests/conformance/codex_*.py): what it sends when it
resumes each corpus rollout, each rollout the suite has it write, and each seeded mutant, against session-lsp's
`context` and `check`. Codex's answers come from the committed record; a case missing from it runs the CLI (which
then must be installed, with root for the network namespace), so these tests never skip."""

from __future__ import annotations

from collections import Counter
from functools import cache

from conformance import codex_mutants, codex_oracle, codex_seeds, codex_suite
from conformance.codex_known import KNOWN, explained
from conformance.suite import Verdict

SEED_KINDS = {"tools", "resume", "compact", "killed"}


@cache
def verdicts() -> tuple[Verdict, ...]:
    return tuple(codex_suite.run())


def test_every_kind_is_judged_on_enough_files() -> None:
    kinds = Counter(verdict.kind for verdict in verdicts())
    assert sum(count for kind, count in kinds.items() if kind not in ("corpus", "seed")) >= 300
    assert set(kinds) == {*codex_mutants.KINDS, "corpus", "seed"}
    assert kinds["corpus"] == len(codex_mutants.corpus()) == 4
    assert {verdict.name for verdict in verdicts() if verdict.kind == "seed"} == {f"seed-{k}" for k in SEED_KINDS}


def test_the_record_holds_every_case_so_ci_does_not_start_codex() -> None:
    recorded = codex_oracle.recorded()
    clean = codex_suite.rollouts()
    made = codex_mutants.generate([(r.name, r.data) for r in clean])
    missing = [case.name for case in codex_suite.cases(clean, made) if codex_oracle.key(case) not in recorded]
    assert missing == [], "run `python -m tests.conformance.codex_report --record` (as root) and commit the record"


def test_the_seeds_are_what_the_real_cli_was_driven_to_write() -> None:
    """The seeds hold what their runs were scripted to do: several tools, three turns, two compactions, a turn
    without its end."""
    seeds = {seed.kind: seed.data.decode() for seed in codex_seeds.write()}
    assert seeds["tools"].count('"type":"function_call"') == 3 and '"type":"custom_tool_call"' in seeds["tools"]
    assert seeds["resume"].count('"type":"task_complete"') == 3
    assert seeds["compact"].count('"type":"compacted"') == 2
    assert '"type":"task_started"' in seeds["killed"] and '"type":"task_complete"' not in seeds["killed"]


def test_agrees_with_the_real_cli_except_known_disagreements() -> None:
    unexplained = sorted({(verdict.kind, check, verdict.name) for verdict in verdicts()
                          for check in verdict.failed if explained(verdict.release, verdict.kind, check) is None})
    assert unexplained == []


def test_the_context_is_judged_on_every_rollout_codex_resumed() -> None:
    judged = [verdict for verdict in verdicts() if "context" in verdict.applied]
    assert len(judged) > 250
    refused = {verdict.kind for verdict in verdicts() if "refused" in verdict.applied}
    assert {"meta-removed", "empty-file", "garbage-file"} <= refused


def test_every_known_disagreement_still_happens() -> None:
    seen = {(verdict.kind, check) for verdict in verdicts() for check in verdict.failed}
    seen |= {("*", check) for _, check in seen}
    assert [known for known in KNOWN if (known.kind, known.check) not in seen] == []


def test_only_the_instructions_and_the_new_turn_are_stripped_from_the_request() -> None:
    """On the clean rollouts, what is left of the request after stripping is the file's: every item's id is in the
    file, and the resume prompt is gone."""
    clean = codex_suite.rollouts()
    results = codex_oracle.run([codex_oracle.resume_case(r.name, r.path, r.data) for r in clean])
    for rollout, result in zip(clean, results, strict=True):
        whole = result.inputs[0]
        sent = codex_suite.sent(result, rollout.path, rollout.data)
        assert sent is not None and len(sent) == len(whole) - 2, rollout.name
        assert whole[-1]["content"][0]["text"] == codex_oracle.RESUME_PROMPT
        assert whole[0]["role"] == "developer" and whole[0]["id"] not in rollout.data.decode()
        for item in sent:
            assert item["id"] in rollout.data.decode(), (rollout.name, item)

