"""Prints the agreement table of session-lsp against the real Codex CLI: per kind of file (corpus, the suite's own
seeds, each mutant kind), how many rollouts session-lsp judges as Codex behaves on `exec resume`.
`python -m tests.conformance.codex_report` (from the project root). Codex's answers come from the committed record
(codex_oracle.RECORD) and the local cache; only cases in neither start the CLI (as root, in a network namespace,
after `bash tests/conformance/install.sh codex-cli`). `--record` rewrites the record with exactly this run's cases;
`--dump DIR` also writes every mutant with what Codex sent for it and what session-lsp predicts."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from . import codex_oracle, codex_suite
from .codex_known import explained
from .report import table


def main(argv: list[str]) -> int:
    start = time.perf_counter()
    try:
        verdicts = codex_suite.run()
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"Codex {codex_suite.RELEASE}: {len(verdicts)} rollouts in {time.perf_counter() - start:.1f} s",
          file=sys.stderr)
    judged = [verdict for verdict in verdicts if "context" in verdict.applied]
    refused = [verdict for verdict in verdicts if "refused" in verdict.applied]
    print(f"context equal to Codex's request on {sum('context' not in v.failed for v in judged)} of {len(judged)} "
          f"resumed rollouts; refusal predicted on {sum('refused' not in v.failed for v in refused)} of "
          f"{len(refused)} refused\n")
    print(table(verdicts, "Codex", explained))
    if "--record" in argv:
        print(f"recorded {codex_oracle.record()} runs in {codex_oracle.RECORD}", file=sys.stderr)
    if "--dump" in argv:
        codex_suite.dump(Path(argv[argv.index("--dump") + 1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
