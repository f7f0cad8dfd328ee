"""A byte order mark, or other space JSON does not allow, at the start of the file: what each pi release's loader
makes of it."""

from __future__ import annotations

from ..detect import BOM
from ..diagnostics import LineIssue, Severity
from .releases import release


def bom_issue(pi_version: str | None, lead: str) -> LineIssue:
    """ELY008 on the mark or space (`lead`). The rest of the file is analyzed as without it: removing it is the whole
    fix."""
    row = release(pi_version)
    what = "a byte order mark" if lead == BOM else f"space JSON does not allow ({_named(lead)})"
    if row.trims_file:
        return LineIssue("ELY008", 0, len(lead), f"the file starts with {what}: pi {row.key} trims it when loading "
                         "and reads the session unchanged, but `--continue` parses the raw first line, fails, and "
                         "skips this file", Severity.WARNING)
    return LineIssue("ELY008", 0, len(lead), f"the file starts with {what}: pi {row.key} parses the first line with "
                     "it, fails, drops the header and refuses to open the file (\"Session file is not a valid pi "
                     "session\"); remove it", Severity.ERROR)


_NAMES = {"\v": "\\v", "\f": "\\f", "\ufeff": "a byte order mark", " ": "a space", "\t": "a tab", "\r": "\\r",
          "\u00a0": "a no-break space"}


def _named(lead: str) -> str:
    names = dict.fromkeys(_NAMES.get(char, f"U+{ord(char):04X}") for char in lead)
    return ", ".join(names)
