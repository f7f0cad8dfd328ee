"""The repair proof for Codex (as repair.py for pi): every Codex conformance mutant, fixed by `session-lsp fix
--unsafe-fixes` (the function the command runs, `session_lsp.fixer.repair`), then resumed by the real Codex 0.171.0.

A mutant is repaired when Codex resumes the fixed rollout (no refusal) and `check` reports no error in it. Its content
is lost when an item Codex sent for the damaged rollout (by id; the synthetic "aborted" outputs and the other items
Codex makes itself, whose ids are not in the file, are not content) is not in what it sends for the fixed one, unless
the fix gave back a compaction Codex wrote and the damage made it ignore, and the item is in the fixed rollout above
that compaction: Codex then sends the compaction's replacement history in its place, as it did before the damage
(counted apart, as pi's proof counts what is on a branch pi does not resume; `as_written` says whether Codex then
sends exactly what it sends for the rollout before the damage).
Codex's answers come from the record like the suite's; a fixed rollout missing from it runs the CLI.
`python -m tests.conformance.codex_repair` (`--record` adds the fixed rollouts' runs to the record, as root).
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from session_lsp.analysis import Options, Severity
from session_lsp.analysis.codex.model import CodexModel
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.rule_filter import RuleFilter
from session_lsp.fixer import Outcome, repair

from . import codex_mutants, codex_oracle, codex_suite
from .mutants import Mutant

COMMAND = "session-lsp fix --unsafe-fixes FILE"


class Repaired(msgspec.Struct):
    name: str
    kind: str
    failed: list[str]
    """Why the fixed rollout is not repaired: "refused", "error" (empty: repaired)."""
    errors: list[str]
    lost: list[str]
    """The ids of the items Codex sent for the damaged rollout that it no longer sends for the fixed one."""
    fixes: int
    compacted: list[str] = []
    """The ids of the items Codex sent for the damaged rollout that the fix's restored compaction replaces (each is
    in the fixed rollout above it)."""
    as_written: bool = False
    """Codex sends for the fixed rollout exactly what it sends for the rollout before the damage."""
    context: bool = False
    """session-lsp's `context` of the fixed rollout is what Codex sends for it."""


def _content(items: list[Any] | None, data: bytes) -> list[str]:
    """The ids of the items that come from the file (Codex's own items, synthetic outputs among them, left out)."""
    return [item["id"] for item in items or [] if isinstance(item, dict) and isinstance(item.get("id"), str)
            and item["id"].encode() in data]


class Fixed(msgspec.Struct, frozen=True):
    mutant: Mutant
    rollout: str
    """Where Codex keeps it, relative to its sessions folder."""
    outcome: Outcome
    data: bytes
    """The fixed rollout (the mutant's bytes when no fix applied)."""


def fixed(count: int = codex_mutants.MUTANTS) -> list[Fixed]:
    """Every mutant, fixed as `session-lsp fix --unsafe-fixes` fixes it."""
    clean = codex_suite.rollouts()
    made = codex_mutants.generate([(r.name, r.data) for r in clean], count)
    path = {rollout.name: rollout.path for rollout in clean}
    everything = RuleFilter([], [])
    out: list[Fixed] = []
    for mutant in made:
        outcome = repair(mutant.name, mutant.data, everything, "", unsafe=True, path=Path(path[mutant.seed]).name)
        out.append(Fixed(mutant, path[mutant.seed], outcome, outcome.new if outcome.new is not None else mutant.data))
    return out


def cases(done: Sequence[Fixed]) -> list[codex_oracle.Case]:
    """Codex resuming each damaged rollout, then each fixed one."""
    return [*(codex_oracle.resume_case(f.mutant.name, f.rollout, f.mutant.data) for f in done),
            *(codex_oracle.resume_case(f.mutant.name, f.rollout, f.data) for f in done)]


def run(count: int = codex_mutants.MUTANTS) -> list[Repaired]:
    clean = codex_suite.rollouts()
    done = fixed(count)
    made = [f.mutant for f in done]
    outcomes = [f.outcome for f in done]
    path = {rollout.name: rollout.path for rollout in clean}
    results = codex_oracle.run(cases(done))
    seeds = codex_oracle.run([codex_oracle.resume_case(r.name, r.path, r.data) for r in clean])
    written = {r.name: codex_suite.sent(result, r.path, r.data) for r, result in zip(clean, seeds, strict=True)}
    out: list[Repaired] = []
    for index, (mutant, outcome, data) in enumerate(zip(made, outcomes, [f.data for f in done], strict=True)):
        before = codex_suite.sent(results[index], path[mutant.seed], mutant.data)
        after = codex_suite.sent(results[len(made) + index], path[mutant.seed], data)
        failed = []
        if after is None:
            failed.append("refused")
        options = Options(path=Path(path[mutant.seed]).name)
        document = analyze_bytes(data, options)
        errors = sorted({d.code for d in document.diagnostics() if d.severity is Severity.ERROR})
        if errors:
            failed.append("error")
        gone = list((Counter(_content(before, mutant.data)) - Counter(_content(after, data))).elements())
        above = _above_restored_compaction(analyze_bytes(mutant.data, options).linked.model, document.linked.model,
                                           data)
        compacted = [ident for ident in gone if ident in above]
        lost = [ident for ident in gone if ident not in above]
        predicted = codex_suite.predict(data, Path(path[mutant.seed]).name).items
        out.append(Repaired(mutant.name, mutant.kind, failed, errors, lost, len(outcome.applied), compacted,
                            after is not None and after == written[mutant.seed], predicted == after))
    return out


def _above_restored_compaction(damaged: Any, fixed: Any, data: bytes) -> set[str]:
    """The ids of the items in the fixed rollout's lines above the last compaction Codex applies to it, when Codex
    did not apply that compaction to the damaged rollout (the fix gave it back); empty otherwise."""
    if not isinstance(fixed, CodexModel) or fixed.last_compaction is None or (
            isinstance(damaged, CodexModel) and damaged.last_compaction == fixed.last_compaction):
        return set()
    found: set[str] = set()
    for line in data.split(b"\n")[:fixed.last_compaction]:
        found.update(ident.decode() for ident in re.findall(rb'"id":"([^"]+)"', line))
    return found


def table(results: Sequence[Repaired]) -> str:
    """Mutants, fixes applied, repaired, still erroring, still refused after the fix, items lost; then the kinds
    where anything is left."""
    rows = ["| Codex | mutants | fixes applied | repaired | still erroring | refused after the fix | items lost | "
            "sent before, now compacted away again |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
            f"| {codex_oracle.VERSION} | {len(results)} | {sum(r.fixes for r in results)} | "
            f"{sum(1 for r in results if not r.failed)} | {sum(1 for r in results if 'error' in r.failed)} | "
            f"{sum(1 for r in results if 'refused' in r.failed)} | {sum(len(r.lost) for r in results)} | "
            f"{sum(len(r.compacted) for r in results)} |"]
    left: dict[str, list[Repaired]] = defaultdict(list)
    for r in results:
        if r.failed or r.lost or r.compacted:
            left[r.kind].append(r)
    for kind, group in sorted(left.items()):
        codes = Counter(code for r in group for code in r.errors)
        restored = [r for r in group if r.compacted]
        rows.append(f"\n{kind}: {sum(1 for r in group if r.failed)} not repaired "
                    f"{dict(Counter(f for r in group for f in r.failed))}, errors left {dict(codes)}, "
                    f"items lost {sum(len(r.lost) for r in group)}, compaction given back in {len(restored)} "
                    f"({sum(1 for r in restored if r.as_written)} now sent exactly as before the damage)")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    try:
        results = run()
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"`{COMMAND}` on every Codex conformance mutant, then the real Codex:\n")
    print(table(results))
    if "--record" in argv:
        codex_suite.run()
        print(f"recorded {codex_oracle.record()} runs in {codex_oracle.RECORD}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
