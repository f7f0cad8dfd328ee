"""Prints the agreement table of session-lsp against the real Claude Code: per kind of file (corpus, the suite's
own seeds, each mutant kind), how many files session-lsp judges as Claude Code behaves on `--resume`.
`python -m tests.conformance.claude_report` (from the project root, as root: the CLI runs in a network namespace,
after `bash tests/conformance/install.sh`). `--dump DIR` also writes every mutant with the request Claude Code
sent for it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from . import claude_mutants, claude_suite
from .claude_known import explained
from .report import table


def main(argv: list[str]) -> int:
    problem = claude_suite.install_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    start = time.perf_counter()
    verdicts = claude_suite.run()
    print(f"Claude Code {claude_suite.RELEASE}: {len(verdicts)} files in {time.perf_counter() - start:.1f} s",
          file=sys.stderr)
    print(table(verdicts, "Claude Code", explained))
    if len(argv) == 2 and argv[0] == "--dump":
        claude_suite.dump(Path(argv[1]), claude_mutants.generate())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
