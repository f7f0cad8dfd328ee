"""What `session-lsp check` prints: the output formats, the severity floor, `--statistics`, and the rule docs of
`session-lsp rule` and `rules --format json`. The CLI hands each file's diagnostics to a `Report` and never
formats one itself; `parse_output_format` is the one reading of a format's name (the option and a configuration
file's `output-format` both go through it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from ..analysis import Severity
from .paths import json_path, shown, uri
from .report import (
    DEFAULT_FLOOR,
    DEFAULT_FORMAT,
    Checked,
    OutputFormat,
    Report,
    Wants,
    checked_file,
    one_line,
    parse_output_format,
    parse_severity,
)
from .text import ConciseReport, TextReport, colour_wanted


def _reports() -> dict[OutputFormat, type[Report]]:
    """Every report but `text`'s. The formats for programs are imported when one is chosen: a person's output never
    loads them."""
    from .machine import GithubReport, JsonLinesReport, JsonReport, JunitReport
    from .sarif import SarifReport

    return {OutputFormat.CONCISE: ConciseReport, OutputFormat.JSON: JsonReport,
            OutputFormat.JSON_LINES: JsonLinesReport, OutputFormat.GITHUB: GithubReport,
            OutputFormat.SARIF: SarifReport, OutputFormat.JUNIT: JunitReport}


def make_report(style: OutputFormat, out: IO[str], err: IO[str], verbose: bool = False,
                floor: Severity = DEFAULT_FLOOR, statistics: bool = False, command: Sequence[str] = ()) -> Report:
    """The report of one run: `-v`'s notes go with a person's output, or to `err` beside a program's."""
    notes = out if style.human else err
    if style is OutputFormat.TEXT:
        return TextReport(out, notes, verbose, floor, statistics, command, colour_wanted(out))
    return _reports()[style](out, notes, verbose, floor, statistics, command)


__all__ = [
    "DEFAULT_FLOOR", "DEFAULT_FORMAT", "Checked", "OutputFormat", "Report", "Wants", "checked_file", "colour_wanted",
    "json_path", "make_report", "one_line", "parse_output_format", "parse_severity", "shown", "uri",
]
