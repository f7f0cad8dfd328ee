"""The one select/ignore/severity matcher shared by the CLI and the server."""

from __future__ import annotations

import pytest

from session_lsp.analysis import Diagnostic, Severity, Span
from session_lsp.analysis.rule_filter import RuleFilter


@pytest.mark.parametrize(("select", "ignore", "code", "enabled"), [
    ((), (), "ELY042", True),
    (("ELY",), (), "THN001", False),
    (("ELY",), ("ELY04",), "ELY042", False),
    (("ELY",), ("ELY04",), "ELY001", True),
    (("ELY042",), ("ELY04",), "ELY042", True),  # the more specific selector wins
    (("ELY042",), ("ELY04",), "ELY041", False),
    (("ELY04",), ("ELY04",), "ELY042", False),  # equal specificity: ignore wins
    (("all",), ("THN",), "THN001", False),
    ((), ("dangling-parent",), "ELY042", False),  # a rule name is an exact selector
    (("ely04",), (), "ELY042", True),  # case-insensitive
])
def test_enabled(select: tuple[str, ...], ignore: tuple[str, ...], code: str, enabled: bool) -> None:
    assert RuleFilter(select, ignore).enabled(code) is enabled


def test_severity_overrides_match_the_most_specific_prefix() -> None:
    rules = RuleFilter(severity={"ELY0": "hint", "ELY042": "warning", "ELY046": "off"})
    assert rules.severity("ELY042", Severity.ERROR) is Severity.WARNING
    assert rules.severity("ELY001", Severity.ERROR) is Severity.HINT
    assert rules.severity("ELY046", Severity.INFORMATION) is None
    assert rules.severity("THN001", Severity.ERROR) is Severity.ERROR
    assert rules.problems == []


def test_unknown_selectors_and_levels_are_reported_and_left_out() -> None:
    rules = RuleFilter(select=["ELY", "XYZ"], ignore=[""], severity={"ELY001": "loud", "nope": "hint"})
    assert len(rules.problems) == 4
    assert any("XYZ" in problem for problem in rules.problems)
    assert any("loud" in problem for problem in rules.problems)
    assert rules.enabled("ELY001") and not rules.enabled("THN001")
    assert rules.severity("ELY001", Severity.ERROR) is Severity.ERROR


def test_apply_drops_and_rewrites() -> None:
    items = [Diagnostic("ELY001", Span.on_line(0, 0, 1), "a", Severity.ERROR),
             Diagnostic("ELY042", Span.on_line(1, 0, 1), "b", Severity.ERROR),
             Diagnostic("THN001", Span.on_line(2, 0, 1), "c", Severity.ERROR)]
    out = RuleFilter(ignore=["THN"], severity={"ELY001": "information"}).apply(items)
    assert [(d.code, d.severity) for d in out] == [("ELY001", Severity.INFORMATION), ("ELY042", Severity.ERROR)]


def test_equal_filters_compare_equal() -> None:
    assert RuleFilter(["ELY"], ["ELY04"]) == RuleFilter(["ely"], ["ely04"])
    assert RuleFilter(["ELY"]) != RuleFilter(["THN"])
