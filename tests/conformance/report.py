"""Prints the agreement table: per pi release and mutation kind, how many files session-lsp judges as the real
release behaves. `python -m tests.conformance.report` (from the project root, after
`bash tests/conformance/install.sh`)."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence

from . import suite
from .known import Known, explained


def table(verdicts: Sequence[suite.Verdict], agent: str = "pi",
          explain: Callable[[str, str, str], Known | None] = explained) -> str:
    """A Markdown table: release, kind, files, agreeing files, and the disagreeing checks (unknown ones marked)."""
    groups: dict[tuple[str, str], list[suite.Verdict]] = defaultdict(list)
    for verdict in verdicts:
        groups[verdict.release, verdict.kind].append(verdict)
    rows = [f"| {agent} | kind | files | agree | % | disagreements (check: files) |", "|---|---|---:|---:|---:|---|"]
    for (release, kind), group in sorted(groups.items()):
        agree = sum(1 for verdict in group if not verdict.failed)
        counts: dict[str, int] = defaultdict(int)
        for verdict in group:
            for check in verdict.failed:
                counts[check] += 1
        notes = ", ".join(f"{check}: {count}{'' if explain(release, kind, check) else ' UNEXPLAINED'}"
                          for check, count in sorted(counts.items()))
        rows.append(f"| {release} | {kind} | {len(group)} | {agree} | {100 * agree / len(group):.0f} | {notes} |")
    for release in sorted({verdict.release for verdict in verdicts}):
        mine = [verdict for verdict in verdicts if verdict.release == release]
        agree = sum(1 for verdict in mine if not verdict.failed)
        rows.append(f"| {release} | **all** | {len(mine)} | {agree} | {100 * agree / len(mine):.1f} | |")
    return "\n".join(rows)


def summary(verdicts: Sequence[suite.Verdict]) -> str:
    """Per release, over the mutants (corpus files left out): how many agree on every check, how many agree once
    the known disagreements (known.py) are set aside, and on how many of those where pi built a request our model
    context lists the same messages (roles and synthetic results) and our active path has pi's length."""
    rows = ["| pi | mutants | agree | % | agree but known | % | context equal | % |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for release in sorted({verdict.release for verdict in verdicts}):
        mine = [verdict for verdict in verdicts if verdict.release == release and verdict.kind != "corpus"]
        agree = sum(1 for verdict in mine if not verdict.failed)
        explained_too = sum(1 for verdict in mine
                            if all(explained(release, verdict.kind, check) for check in verdict.failed))
        judged = [verdict for verdict in mine if "context" in verdict.applied]
        equal = sum(1 for verdict in judged if not {"context", "path"} & set(verdict.failed))
        rows.append(f"| {release} | {len(mine)} | {agree} | {100 * agree / len(mine):.1f} | {explained_too} | "
                    f"{100 * explained_too / len(mine):.1f} | {equal} of {len(judged)} | "
                    f"{100 * equal / max(len(judged), 1):.1f} |")
    return "\n".join(rows)


def main() -> int:
    problem = suite.install_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    verdicts: list[suite.Verdict] = []
    for release in suite.RUNTIMES:
        start = time.perf_counter()
        verdicts += suite.run(release)
        print(f"pi {release}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    print(summary(verdicts))
    print()
    print(table(verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
