"""The `sessionLsp` settings section: which rules to report and at what severity.

The client's value is untrusted JSON: anything not understood is reported back (window/logMessage) and left out,
never fatal.
"""

from __future__ import annotations

from typing import Any

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


def parse(value: Any) -> tuple[RuleFilter, list[str]]:
    """The rule filter for a `sessionLsp` settings object, and what in it was not understood."""
    problems: list[str] = []
    if value is None:
        value = {}
    if not isinstance(value, dict):
        return RuleFilter(), [f"expected an object, got {value!r}"]
    severity = value.get("severity")
    if severity is not None and not isinstance(severity, dict):
        problems.append(f"severity: expected an object mapping codes to levels, got {severity!r}")
        severity = None
    rules = RuleFilter(_strings(value.get("select"), "select", problems),
                       _strings(value.get("ignore"), "ignore", problems), severity)
    return rules, problems + rules.problems
