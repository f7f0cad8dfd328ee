"""The `sessionLsp` settings section: which rules to report and at what severity, and which pi release to speak for.

The client's value is untrusted JSON: anything not understood is reported back (window/logMessage) and left out,
never fatal.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..analysis.formats import with_releases
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
    releases: tuple[tuple[str, str], ...] = ()
    """`sessionLsp.<format>Version` (`piVersion`, `claudeVersion`, ...): the release of each format whose behaviour
    messages and the context preview state, as (the face's `release_option`, release key)."""
    analyze_file_max_bytes: int = DEFAULT_ANALYZE_FILE_MAX_BYTES
    """`sessionLsp.analyzeFileMaxBytes`: the largest file `sessionLsp/analyzeFile` reads."""


def _releases(value: dict[str, Any], problems: list[str]) -> tuple[tuple[str, str], ...]:
    chosen: list[tuple[str, str]] = []
    for face in with_releases():
        key = f"{face.release_option}Version"
        found = value.get(key)
        if found is None:
            found = face.default_release
        elif found not in face.releases:
            problems.append(f"{key}: expected one of {', '.join(face.releases)}, got {found!r}; using "
                            f"{face.default_release}")
            found = face.default_release
        chosen.append((face.release_option, str(found)))
    return tuple(chosen)


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
    releases = _releases(value, problems)
    max_bytes = _max_bytes(value.get("analyzeFileMaxBytes"), problems)
    return Settings(rules, releases, max_bytes), problems + rules.problems
