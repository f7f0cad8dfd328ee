"""The formats for programs: `json` (one array), `json-lines` (one object a line, written as it is found),
`github` (workflow commands that annotate a pull request) and `junit` (JUnit XML, which CI systems show as a
test report). Every item carries the rule's name and documentation link; a file name that is not UTF-8 stays
exact where the format can say so (JSON's `\\udcNN`) and is written `\\xNN` elsewhere."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import msgspec

from ..analysis import RULES, Diagnostic, Severity
from .paths import json_path, shown
from .report import Checked, Report, Shown
from .rules import docs_url

GITHUB_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "notice",
                 Severity.HINT: "notice"}


class Item(msgspec.Struct):
    """One diagnostic as `json` and `json-lines` print it: 1-based lines, 1-based code-point columns; `path` is
    already JSON (`json_path`). The first eight fields are the original shape; `name` and `url` came later."""

    path: msgspec.Raw
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    code: str
    message: str
    name: str
    url: str | None
    """The rule's documentation (`reporting.rules.docs_url`); null where there is none: `session-lsp rule CODE`."""


class Statistic(msgspec.Struct):
    """One row of `--statistics` in JSON."""

    code: str
    name: str
    severity: str
    count: int
    fix: str | None
    url: str | None


def to_item(path: msgspec.Raw, diagnostic: Diagnostic) -> Item:
    span = diagnostic.span
    return Item(path, span.line + 1, span.start + 1, span.end_line + 1, span.end + 1, diagnostic.severity.label,
                diagnostic.code, diagnostic.message, RULES[diagnostic.code].name, docs_url(diagnostic.code))


def encode(value: object) -> bytes:
    """JSON of our own values; a lone surrogate (a name from the command line) is escaped rather than refused."""
    try:
        return msgspec.json.encode(value)
    except UnicodeEncodeError:
        return json.dumps(msgspec.to_builtins(value), ensure_ascii=True, separators=(",", ":")).encode("ascii")


class JsonReport(Report):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._items: list[bytes] = []

    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        raw = json_path(path)
        self._items.extend(msgspec.json.encode(to_item(raw, one.diagnostic)) for one in shown_ones)

    def end(self) -> None:
        body = b",\n".join(self._items)
        self.out.write("[\n" + body.decode("utf-8") + "\n]\n" if self._items else "[]\n")

    def statistics_json(self) -> list[bytes]:
        rows = []
        for (code, severity), count in sorted(self.per_code.items(), key=lambda item: (-item[1], item[0])):
            rule = RULES[code]
            rows.append(encode(Statistic(code, rule.name, severity.label, count,
                                         rule.fix.value if rule.fix is not None else None, docs_url(code))))
        return rows

    def write_statistics(self) -> None:
        rows = self.statistics_json()
        self.out.write("[\n" + b",\n".join(rows).decode("utf-8") + "\n]\n" if rows else "[]\n")


class JsonLinesReport(JsonReport):
    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        raw = json_path(path)
        for one in shown_ones:
            self.out.write(msgspec.json.encode(to_item(raw, one.diagnostic)).decode("utf-8") + "\n")

    def end(self) -> None:
        pass

    def write_statistics(self) -> None:
        for row in self.statistics_json():
            self.out.write(row.decode("utf-8") + "\n")


def github_escape(value: str, property_value: bool = False) -> str:
    """GitHub's workflow-command escaping: data escapes %, CR, LF; property values also ':' and ','."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def format_github(name: str, diagnostic: Diagnostic) -> str:
    span = diagnostic.span
    properties = (f"file={github_escape(name, True)},line={span.line + 1},col={span.start + 1},"
                  f"endLine={span.end_line + 1},endColumn={span.end + 1},"
                  f"title={github_escape(diagnostic.code + ' (' + RULES[diagnostic.code].name + ')', True)}")
    return f"::{GITHUB_LEVELS[diagnostic.severity]} {properties}::{github_escape(diagnostic.message)}"


class GithubReport(Report):
    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        name = shown(path)
        if shown_ones:
            self.out.write("\n".join(format_github(name, one.diagnostic) for one in shown_ones) + "\n")


_NOT_XML = "[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
"""Compiled on first use (`re`'s cache keeps it): its ranges take some 10 ms to compile, which only `junit` needs."""


def xml_text(value: str) -> str:
    """Text XML 1.0 can hold: a character it forbids (a control character, a lone surrogate) is written \\uXXXX."""
    return re.sub(_NOT_XML, lambda match: f"\\u{ord(match.group()):04x}", value)


class JunitReport(Report):
    """One test suite per file checked, one failing test case per diagnostic (a file with nothing to show has one
    passing case), as ruff writes JUnit. Times are in seconds, as JUnit's consumers read them: a suite's is how long
    reading and analysing its file took; one analysis finds all of a file's diagnostics, so its cases share that
    time equally (their times add up to the suite's, which is what a CI system sums); the root's is the whole run,
    from its start (`timestamp`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._suites: list[str] = []
        self._cases = 0
        self._failures = 0

    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        from xml.sax.saxutils import escape, quoteattr  # here: it loads urllib.request and http.client

        name = xml_text(shown(path))
        share = _seconds(checked.seconds / max(len(shown_ones), 1))
        cases = []
        for one in shown_ones:
            diagnostic = one.diagnostic
            span = diagnostic.span
            where = f"line {span.line + 1}, column {span.start + 1}"
            message = xml_text(diagnostic.message)
            cases.append(
                f'    <testcase name={quoteattr(f"{diagnostic.code} ({RULES[diagnostic.code].name}) at {where}")} '
                f'classname={quoteattr(name)} file={quoteattr(name)} line="{span.line + 1}" time="{share}">\n'
                f'      <failure message={quoteattr(message)} type="{diagnostic.severity.label}">'
                f'{escape(f"{where}: {diagnostic.code} [{diagnostic.severity.label}] {message}")}</failure>\n'
                f"    </testcase>")
        failures = len(cases)
        if not cases:
            cases.append(f'    <testcase name="session-lsp check" classname={quoteattr(name)} '
                         f'file={quoteattr(name)} time="{share}"/>')
        self._cases += len(cases)
        self._failures += failures
        self._suites.append(f'  <testsuite name={quoteattr(name)} tests="{len(cases)}" failures="{failures}" '
                            f'errors="0" skipped="0" time="{_seconds(checked.seconds)}">\n' + "\n".join(cases)
                            + "\n  </testsuite>")

    def end(self) -> None:
        took = _seconds((self.ended - self.started).total_seconds())
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                       f'<testsuites name="session-lsp" tests="{self._cases}" failures="{self._failures}" '
                       f'errors="0" time="{took}" timestamp="{self.started.isoformat(timespec="seconds")}">\n'
                       + "".join(suite + "\n" for suite in self._suites) + "</testsuites>\n")


def _seconds(value: float) -> str:
    """A JUnit time: seconds with millisecond precision, as pytest writes them."""
    return f"{max(value, 0.0):.3f}"
