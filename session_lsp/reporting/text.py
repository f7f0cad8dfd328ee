"""The formats for a person: `text` (the default: grouped by file, each diagnostic with the line it is on and a
caret under the column, in colour on a terminal) and `concise` (one `path:line:col: CODE [severity] message` a
diagnostic, the form editors and `grep` read)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import IO

from ..analysis import Severity
from .paths import shown
from .report import Checked, Report, Shown, one_line

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
COLOURS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m", Severity.INFORMATION: "\x1b[1;34m",
           Severity.HINT: "\x1b[1;36m"}


def colour_wanted(stream: IO[str], environ: Mapping[str, str] | None = None) -> bool:
    """Colour when the stream is a terminal (not TERM=dumb), unless NO_COLOR is set (https://no-color.org);
    FORCE_COLOR set forces it, on a pipe too, and wins over NO_COLOR, as it does for Node and most linters."""
    env = os.environ if environ is None else environ
    if env.get("FORCE_COLOR", "") not in ("", "0", "false"):
        return True
    if env.get("NO_COLOR", ""):
        return False
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
    return terminal and env.get("TERM", "") != "dumb"


class Paint:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        return f"{style}{text}{RESET}" if self.enabled and text else text


def concise_line(name: str, shown_one: Shown) -> str:
    diagnostic = shown_one.diagnostic
    span = diagnostic.span
    return (f"{name}:{span.line + 1}:{span.start + 1}: {diagnostic.code} [{diagnostic.severity.label}] "
            f"{one_line(diagnostic.message)}")


class ConciseReport(Report):
    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        name = shown(path)
        if shown_ones:
            self.out.write("\n".join(concise_line(name, one) for one in shown_ones) + "\n")

    def end(self) -> None:
        self.out.write(self.summary() + "\n")


class TextReport(Report):
    """Each file that has something to show: its name (with `-v`, its format and counts, for every file), then
    each diagnostic as `LINE:COL severity CODE message` over the line's text with a caret under the flagged span."""

    def __init__(self, out: IO[str], notes: IO[str], verbose: bool = False, floor: Severity = Severity.WARNING,
                 statistics: bool = False, command: Sequence[str] = (), colour: bool = False) -> None:
        super().__init__(out, notes, verbose, floor, statistics, command)
        self.paint = Paint(colour)
        self._written = False
        self._last_had = False

    def note(self, path: str, checked: Checked) -> None:
        """`-v`'s note is the file's heading, so it is written with the file (`file`)."""

    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        if not shown_ones and not self.verbose:
            return
        paint = self.paint
        count = len(checked.diagnostics)
        heading = paint(BOLD, shown(path))
        if self.verbose:
            heading += (f": {checked.label}, {checked.line_count} line{'' if checked.line_count == 1 else 's'}, "
                        f"{count} diagnostic{'' if count == 1 else 's'}")
        apart = self._written and (bool(shown_ones) or self._last_had)
        rows = ["", heading] if apart else [heading]
        gutter = max((len(str(one.diagnostic.span.line + 1)) for one in shown_ones), default=1)
        for one in shown_ones:
            diagnostic = one.diagnostic
            span = diagnostic.span
            severity = diagnostic.severity
            rows.append(f"  {span.line + 1}:{span.start + 1} {paint(COLOURS[severity], severity.label)} "
                        f"{paint(BOLD, diagnostic.code)} {one_line(diagnostic.message)}")
            if one.snippet is not None:
                bar = paint(DIM, "|")
                rows.append(f"    {paint(DIM, str(span.line + 1).rjust(gutter))} {bar} {one.snippet.text}".rstrip())
                rows.append(f"    {' ' * gutter} {bar} {' ' * one.snippet.indent}"
                            f"{paint(COLOURS[severity], '^' * one.snippet.width)}")
        self.out.write("\n".join(rows) + "\n")
        self._written = True
        self._last_had = bool(shown_ones)

    def end(self) -> None:
        self.out.write(("\n" if self._last_had else "") + self.summary() + "\n")
