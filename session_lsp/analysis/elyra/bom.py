"""A byte order mark at the start of the file: what each pi release's loader makes of it."""

from __future__ import annotations

from ..diagnostics import LineIssue, Severity
from .releases import release


def bom_issue(pi_version: str | None) -> LineIssue:
    """ELY008 on the BOM itself. The rest of the file is analyzed as without it: removing it is the whole fix."""
    row = release(pi_version)
    if row.trims_bom:
        return LineIssue("ELY008", 0, 1, f"the file starts with a byte order mark: pi {row.key} trims it when loading "
                         "and reads the session unchanged, but `--continue` parses the raw first line, fails, and "
                         "skips this file", Severity.WARNING)
    return LineIssue("ELY008", 0, 1, f"the file starts with a byte order mark: pi {row.key} parses the first line with "
                     "it, fails, drops the header and refuses to open the file (\"Session file is not a valid pi "
                     "session\"); remove the mark", Severity.ERROR)
