"""The `sessionLsp` settings section: which rules to report and at what severity, and which pi release to speak for.

The client's value is untrusted JSON: anything not understood is reported back (window/logMessage) and left out,
never fatal.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..analysis.elyra.releases import DEFAULT_RELEASE, for_version, stand_in
from ..analysis.rule_filter import RuleFilter

SECTION = "sessionLsp"


def _strings(value: Any, field: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        problems.append(f"{field}: expected a list of rule codes or prefixes, got {value!r}")
        return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
    return value


DEFAULT_ANALYZE_FILE_MAX_BYTES = 1 << 30
"""1 GiB: a file this large takes the server a few GB of memory to analyse."""


class Settings(msgspec.Struct, frozen=True):
    rules: RuleFilter
    pi_version: str = DEFAULT_RELEASE
    """`sessionLsp.piVersion`: the pi release whose behaviour messages and the context preview state."""
    analyze_file_max_bytes: int = DEFAULT_ANALYZE_FILE_MAX_BYTES
    """`sessionLsp.analyzeFileMaxBytes`: the largest file `sessionLsp/analyzeFile` reads."""


def _pi_version(value: Any, problems: list[str]) -> str:
    """The key of the release row that speaks for `piVersion` (any MAJOR.MINOR[.PATCH], as `--pi-version`); what
    a version session-lsp does not know is read as goes to the log with the problems."""
    if value is None:
        return DEFAULT_RELEASE
    try:
        row = for_version(value) if isinstance(value, str) else None
    except ValueError as error:
        problems.append(f"piVersion: {error}; using {DEFAULT_RELEASE}")
        return DEFAULT_RELEASE
    if row is None:
        problems.append(f"piVersion: expected a pi version such as {DEFAULT_RELEASE!r}, got {value!r}; using "
                        f"{DEFAULT_RELEASE}")
        return DEFAULT_RELEASE
    note = stand_in(value)
    if note is not None:
        problems.append(f"piVersion: {note}")
    return row.key


def _max_bytes(value: Any, problems: list[str]) -> int:
    if value is None:
        return DEFAULT_ANALYZE_FILE_MAX_BYTES
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        problems.append(f"analyzeFileMaxBytes: expected a positive integer, got {value!r}")
        return DEFAULT_ANALYZE_FILE_MAX_BYTES
    return value


def parse(value: Any) -> tuple[Settings, list[str]]:
    """The settings in a `sessionLsp` settings object, and what in it was not understood."""
    problems: list[str] = []
    if value is None:
        value = {}
    if not isinstance(value, dict):
        return Settings(RuleFilter()), [f"expected an object, got {value!r}"]
    severity = value.get("severity")
    if severity is not None and not isinstance(severity, dict):
        problems.append(f"severity: expected an object mapping codes to levels, got {severity!r}")
        severity = None
    rules = RuleFilter(_strings(value.get("select"), "select", problems),
                       _strings(value.get("ignore"), "ignore", problems), severity)
    pi_version = _pi_version(value.get("piVersion"), problems)
    max_bytes = _max_bytes(value.get("analyzeFileMaxBytes"), problems)
    return Settings(rules, pi_version, max_bytes), problems + rules.problems
