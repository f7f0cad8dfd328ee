"""What every output format shares: the result of checking one file, the severity floor, the counts behind the
summary line and the exit status, and `--statistics`."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import IO

import msgspec

from ..analysis import RULES, Diagnostic, Document, Severity
from ..analysis.fixing import Fix
from .paths import shown
from .snippet import Snippet, snippet


class OutputFormat(enum.Enum):
    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    JSON_LINES = "json-lines"
    GITHUB = "github"
    SARIF = "sarif"
    JUNIT = "junit"

    @property
    def human(self) -> bool:
        """Whether the output is for a person: the summary line and `-v`'s notes go to standard output (for the
        others, the notes go to standard error, so the output stays one document)."""
        return self in (OutputFormat.TEXT, OutputFormat.CONCISE)


DEFAULT_FORMAT = OutputFormat.TEXT
DEFAULT_FLOOR = Severity.WARNING
SEVERITIES = {severity.label: severity for severity in Severity}


def parse_output_format(value: str) -> OutputFormat:
    """The one reading of an output format's name, for `--output-format` and a configuration file alike; raises
    ValueError naming the choices."""
    try:
        return OutputFormat(value.strip().lower())
    except ValueError:
        choices = ", ".join(style.value for style in OutputFormat)
        raise ValueError(f"unknown output format {value!r} (choose one of {choices})") from None


def parse_severity(value: str) -> Severity:
    """A severity's name (`error`, `warning`, `information` or `info`, `hint`), for `--min-severity`."""
    name = value.strip().lower()
    found = SEVERITIES.get("information" if name == "info" else name)
    if found is None:
        raise ValueError(f"unknown severity {value!r} (choose one of {', '.join(SEVERITIES)})")
    return found


class Checked(msgspec.Struct, array_like=True, gc=False):
    """What checking one file gives the report: small enough to send back from a worker process, so a document
    (lines, results, model) never crosses a process boundary. `snippets` and `fixes` run beside `diagnostics`
    when the output shows them (None for a diagnostic below the floor, which is only counted)."""

    label: str
    line_count: int
    diagnostics: list[Diagnostic]
    snippets: list[Snippet | None] = []
    fixes: list[list[Fix]] = []
    seconds: float = 0.0
    """How long reading and analysing the file took (JUnit's `time`)."""
    length: int | None = None
    """The file's size in bytes, as stored (SARIF's `artifacts`)."""
    sha256: str | None = None
    """The SHA-256 of the bytes analysed, when reading them gave it for nothing (a plain file, standard input)."""


class Wants(msgspec.Struct, frozen=True):
    """What a worker computes for each diagnostic at or above `floor`, besides the diagnostic itself."""

    floor: int = DEFAULT_FLOOR
    snippets: bool = False
    fixes: bool = False
    digest: bool = False
    """The SHA-256 of each file's bytes (SARIF's artifact hashes)."""

    @classmethod
    def of(cls, style: OutputFormat, floor: Severity) -> Wants:
        sarif = style is OutputFormat.SARIF
        return cls(floor, style is OutputFormat.TEXT, sarif, sarif)


def checked_file(document: Document, diagnostics: Sequence[Diagnostic], wants: Wants) -> Checked:
    """Only what the output needs is kept of each diagnostic (its fixes are computed first: a fixer reads the
    diagnostic's `data`)."""
    lines = document.lines
    kept_ones = [d.severity <= wants.floor for d in diagnostics]
    snippets: list[Snippet | None] = []
    if wants.snippets:
        snippets = [snippet(lines[d.span.line], d.span.start, d.span.end if d.span.end_line == d.span.line else None)
                    if keep else None for d, keep in zip(diagnostics, kept_ones, strict=True)]
    found: list[list[Fix]] = []
    if wants.fixes:
        from ..analysis.features import fixes  # here: the editor features, which only SARIF's fixes need

        found = [fixes(document, [d]) if keep else [] for d, keep in zip(diagnostics, kept_ones, strict=True)]
    kept = [Diagnostic(d.code, d.span, d.message, d.severity) for d in diagnostics]
    return Checked(document.format.label, len(lines) - (lines[-1] == ""), kept, snippets, found)


class Shown(msgspec.Struct, gc=False):
    """A diagnostic the output prints, with what the worker computed for it."""

    diagnostic: Diagnostic
    snippet: Snippet | None
    fixes: list[Fix]


def one_line(message: str) -> str:
    return message.replace("\r", " ").replace("\n", " ")


def plural(severity: Severity, count: int) -> str:
    if severity is Severity.INFORMATION or count == 1:
        return severity.label
    return severity.label + "s"


class Report:
    """Writes diagnostics as they come, file by file, and keeps the counts for the summary and the exit code.
    A subclass writes one format: `file` (a file's diagnostics at or above the floor), `end` (after the last)."""

    def __init__(self, out: IO[str], notes: IO[str], verbose: bool = False, floor: Severity = DEFAULT_FLOOR,
                 statistics: bool = False, command: Sequence[str] = ()) -> None:
        self.out = out
        self.notes = notes
        self.verbose = verbose
        self.floor = floor
        self.statistics = statistics
        self.command = tuple(command)
        """The command line's arguments after the program's name (SARIF's invocation)."""
        self.files = 0
        self.counts = dict.fromkeys(Severity, 0)
        self.per_code: Counter[tuple[str, Severity]] = Counter()
        self.problems: list[tuple[str, str | None]] = []
        """What could not be checked: a message and the file it is about (None: the run's)."""
        self.started = datetime.now(UTC)
        self.ended = self.started
        self.exit_code = 0
        self.successful = True

    def add(self, path: str, checked: Checked) -> None:
        self.files += 1
        printed: list[Shown] = []
        for index, diagnostic in enumerate(checked.diagnostics):
            self.counts[diagnostic.severity] += 1
            if diagnostic.severity <= self.floor:
                self.per_code[diagnostic.code, diagnostic.severity] += 1
                printed.append(Shown(diagnostic, checked.snippets[index] if checked.snippets else None,
                                   checked.fixes[index] if checked.fixes else []))
        if self.verbose:
            self.note(path, checked)
        if not self.statistics:
            self.file(path, checked, printed)

    def note(self, path: str, checked: Checked) -> None:
        count = len(checked.diagnostics)
        print(f"{shown(path)}: {checked.label}, {checked.line_count} line{'' if checked.line_count == 1 else 's'}, "
              f"{count} diagnostic{'' if count == 1 else 's'}", file=self.notes)

    def file(self, path: str, checked: Checked, printed: Sequence[Shown]) -> None:
        raise NotImplementedError

    def problem(self, message: str, path: str | None = None) -> None:
        """A file that could not be checked (`path`), or a problem of the whole run; the CLI prints it on
        standard error, and the formats that can say it in their document (SARIF) do so too."""
        self.problems.append((message, path))

    def end(self) -> None:
        """After the last file, unless `--statistics` replaced the listing."""

    def finish(self, exit_code: int = 0, successful: bool = True) -> None:
        """The run is over: `exit_code` is the status the program ends with; `successful` is False when something
        could not be checked (a usage or I/O error), not when problems were found."""
        self.ended = datetime.now(UTC)
        self.exit_code, self.successful = exit_code, successful
        if self.statistics:
            self.write_statistics()
        else:
            self.end()

    def write_statistics(self) -> None:
        rows = self.statistics_rows()
        if rows:
            widths = [max(len(row[i]) for row in rows) for i in range(4)]
            for row in rows:
                cells = [row[0].rjust(widths[0]), *(cell.ljust(width) for cell, width in zip(row[1:4], widths[1:],
                                                                                               strict=True))]
                self.out.write("  ".join([*cells, row[4]]).rstrip() + "\n")
        self.out.write(self.summary() + "\n")

    def statistics_rows(self) -> list[tuple[str, str, str, str, str]]:
        """Count, code, severity, name and `[fix: safe]`, the most frequent first (as `ruff --statistics`)."""
        rows = []
        for (code, severity), count in sorted(self.per_code.items(), key=lambda item: (-item[1], item[0])):
            rule = RULES[code]
            fix = f"[fix: {rule.fix.value}]" if rule.fix is not None else ""
            rows.append((str(count), code, severity.label, rule.name, fix))
        return rows

    @property
    def hidden(self) -> int:
        return sum(count for severity, count in self.counts.items() if severity > self.floor)

    def summary(self) -> str:
        parts = ", ".join(f"{self.counts[s]} {plural(s, self.counts[s])}" for s in Severity)
        line = f"{self.files} file{'' if self.files == 1 else 's'} checked: {parts}"
        if self.hidden:
            line += f" ({self.hidden} below --min-severity {self.floor.label} not shown)"
        return line

    def found(self, level: Severity | None) -> bool:
        return level is not None and any(count for severity, count in self.counts.items() if severity <= level)
