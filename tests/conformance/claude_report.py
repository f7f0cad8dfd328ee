"""Prints the agreement table of session-lsp against the real Claude Code: per kind of file (corpus, the suite's
own seeds, each mutant kind), how many files session-lsp judges as Claude Code behaves on `--resume`.
`python -m tests.conformance.claude_report` (from the project root). Claude Code's answers come from the committed
record (claude_oracle.RECORD) and the local cache; only cases in neither start the CLI (as root, in a network
namespace, after `bash tests/conformance/install.sh`). `--record` also runs the repair proof (claude_repair.py) and
rewrites the record with exactly the cases of the two; `--dump DIR` also writes every mutant with the request
Claude Code sent for it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from . import claude_mutants, claude_oracle, claude_repair, claude_suite
from .claude_known import explained
from .report import table


def main(argv: list[str]) -> int:
    start = time.perf_counter()
    try:
        verdicts = claude_suite.run()
        if "--record" in argv:
            claude_repair.run()
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"Claude Code {claude_suite.RELEASE}: {len(verdicts)} files in {time.perf_counter() - start:.1f} s",
          file=sys.stderr)
    print(table(verdicts, "Claude Code", explained))
    if "--record" in argv:
        print(f"recorded {claude_oracle.record()} runs in {claude_oracle.RECORD}", file=sys.stderr)
    if "--dump" in argv:
        claude_suite.dump(Path(argv[argv.index("--dump") + 1]), claude_mutants.generate())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
