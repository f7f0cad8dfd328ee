"""`python -m tests.attack.peak ARGS` runs `session-lsp ARGS` and writes the process's peak resident memory (VmHWM,
in KiB) to the file named by $SESSION_LSP_PEAK_FILE. The peak is read here, not from wait4's ru_maxrss, because
Linux carries the forking test process's high-water mark into the child's ru_maxrss across exec."""

from __future__ import annotations

import os
import re
import resource
import sys
from pathlib import Path

from session_lsp.cli import main


def _peak_kib() -> int:
    status = Path("/proc/self/status").read_text()
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    return int(found.group(1)) if found else 0


if __name__ == "__main__":
    try:
        code = main(sys.argv[1:])
    finally:
        # and the peak of the process `check` forks to read a file's second half (0 when it forked none): its
        # memory adds to this one's while both run
        forked = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        Path(os.environ["SESSION_LSP_PEAK_FILE"]).write_text(f"{_peak_kib()} {forked}")
    sys.exit(code)
