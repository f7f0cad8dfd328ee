"""Which rules a run reports and at what severity: the one matcher behind the CLI's --select/--ignore and the
server's `sessionLsp` settings, so both read a selector the same way.

A selector is a code ("ELY042"), a code prefix ("ELY04", "THN"), a rule name ("dangling-parent") or "ALL",
case-insensitive. As in ruff, the most specific selector that matches a code decides: `select=["ELY"]` with
`ignore=["ELY04"]` drops ELY042, and `select=["ELY042"]` with `ignore=["ELY04"]` keeps it. On equal specificity
ignore wins. No `select` means every rule. Severity overrides (`{"ELY04": "warning", "ELY046": "off"}`) match the
same way; "off" drops the rule. `off` selectors (a configuration's per-file-ignores) drop their codes whatever
else is selected.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from .diagnostics import Diagnostic, Severity
from .registry import RULES

LEVELS: dict[str, Severity | None] = {
    "error": Severity.ERROR,
    "warning": Severity.WARNING,
    "information": Severity.INFORMATION,
    "info": Severity.INFORMATION,
    "hint": Severity.HINT,
    "off": None,
}

_NAMES = {rule.name: rule.code for rule in RULES.values()}
_ALL = "ALL"


def _normalize(selector: str) -> str | None:
    """The code prefix a selector stands for, or None when it names no registered rule."""
    text = selector.strip()
    if text.lower() in _NAMES:
        return _NAMES[text.lower()]
    text = text.upper()
    if text == _ALL:
        return ""
    if text and any(code.startswith(text) for code in RULES):
        return text
    return None


def _specificity(code: str, prefixes: Iterable[str]) -> int:
    """Length of the longest prefix that matches `code`, -1 when none does."""
    return max((len(prefix) for prefix in prefixes if code.startswith(prefix)), default=-1)


class RuleFilter:
    def __init__(self, select: Sequence[str] = (), ignore: Sequence[str] = (),
                 severity: Mapping[str, str] | None = None, off: Sequence[str] = ()) -> None:
        self.problems: list[str] = []
        """Selectors and levels that were not understood (and are left out), for the caller to report."""
        self._select = self._prefixes(select, "select")
        self._ignore = self._prefixes(ignore, "ignore")
        self._off = self._prefixes(off, "off")
        self._levels: list[tuple[str, Severity | None]] = []
        for selector, level in (severity or {}).items():
            prefix = self._prefix(selector, "severity")
            if prefix is None:
                continue
            if not isinstance(level, str) or level.lower() not in LEVELS:
                self.problems.append(f"severity: {level!r} for {selector!r} is not one of {', '.join(LEVELS)}")
                continue
            self._levels.append((prefix, LEVELS[level.lower()]))
        levels = sorted(self._levels, key=lambda item: (item[0], -1 if item[1] is None else int(item[1])))
        self._key = (tuple(sorted(self._select)), tuple(sorted(self._ignore)), tuple(sorted(self._off)),
                     tuple(levels))
        self._cache: dict[str, tuple[bool, Severity | None]] = {}
        """code -> (reported, severity override or None for the default)."""

    def _prefix(self, selector: object, field: str) -> str | None:
        prefix = _normalize(selector) if isinstance(selector, str) else None
        if prefix is None:
            self.problems.append(f"{field}: {selector!r} matches no rule code, prefix or name")
        return prefix

    def _prefixes(self, selectors: Sequence[str], field: str) -> list[str]:
        return [prefix for selector in selectors if (prefix := self._prefix(selector, field)) is not None]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleFilter) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def enabled(self, code: str) -> bool:
        if any(code.startswith(prefix) for prefix in self._off):
            return False
        selected = _specificity(code, self._select) if self._select else 0
        return selected > _specificity(code, self._ignore)

    def _decide(self, code: str) -> tuple[bool, Severity | None]:
        if not self.enabled(code):
            return False, None
        best, override, reported = -1, None, True
        for prefix, level in self._levels:
            if code.startswith(prefix) and len(prefix) > best:
                best, override, reported = len(prefix), level, level is not None
        return reported, override

    def severity(self, code: str, default: Severity) -> Severity | None:
        """The severity to report `code` with, or None when it is not reported."""
        decision = self._cache.get(code)
        if decision is None:
            decision = self._cache[code] = self._decide(code)
        reported, override = decision
        if not reported:
            return None
        return default if override is None else override

    def apply(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        for diagnostic in diagnostics:
            level = self.severity(diagnostic.code, diagnostic.severity)
            if level is None:
                continue
            out.append(diagnostic if level is diagnostic.severity else msgspec.structs.replace(diagnostic,
                                                                                                severity=level))
        return out

