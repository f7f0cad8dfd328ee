"""The command line: `session-lsp check` (files in, diagnostics out), `session-lsp context` and `session-lsp tree`
(what pi sends to the model, the conversation tree), `session-lsp rules` and `session-lsp serve`.

Thin on purpose: this module reads files, walks folders, filters and formats. Every judgement about a line comes
from `session_lsp.analysis`; the server is imported only by `serve`, so `check` never loads pygls.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from typing import IO, Any, NoReturn

import msgspec

from . import __version__
from .analysis import RULES, Document, Options, Severity
from .analysis.document import analyze_bytes
from .analysis.formats import FORMATS, Format, session_formats, with_releases
from .analysis.lines import LineKind
from .analysis.registry import PLANNED
from .analysis.rule_filter import RuleFilter
from .config import Config, ConfigError, Finder
from .files import FileLines, NotReadable, sha256, uncompressed
from .forked import SPLIT_SIZES
from .reporting import (
    Checked,
    OutputFormat,
    Report,
    Wants,
    checked_file,
    make_report,
    one_line,
    parse_output_format,
    parse_severity,
    shown,
)

EXIT_CLEAN = 0
EXIT_FOUND = 1
EXIT_USAGE = 2

STDIN = "-"
clock = time.perf_counter
"""What a file's check is timed with (JUnit's `time`)."""
FAIL_LEVELS: dict[str, Severity | None] = {"error": Severity.ERROR, "warning": Severity.WARNING, "never": None}


class UsageError(Exception):
    """A problem with the command line or the files it names: reported in one line on stderr, exit code 2."""


class Source(msgspec.Struct):
    """A file to check: what to call it in the output, and where to read it (None = standard input)."""

    name: str
    path: str | None


# ---------------------------------------------------------------------------------------------------------------
# Selecting codes


def split_selectors(values: Sequence[str] | None) -> list[str]:
    """`--select ELY04,THN --select SLS001` -> ["ELY04", "THN", "SLS001"]."""
    return [part.strip() for value in values or () for part in value.split(",") if part.strip()]


def rule_filter(select: Sequence[str] | None, ignore: Sequence[str] | None) -> RuleFilter:
    """The shared matcher (the server reads its settings with the same one). A selector that names no rule is a
    typo, not an empty selection, so it is refused."""
    chosen = RuleFilter(split_selectors(select), split_selectors(ignore))
    if chosen.problems:
        raise UsageError("; ".join(f"--{problem}" for problem in chosen.problems) + " (see `session-lsp rules`)")
    return chosen


# ---------------------------------------------------------------------------------------------------------------
# Finding and reading files


SKIPPED_FOLDERS = frozenset({
    ".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", "CVS",  # version control
    "node_modules", ".venv", "venv", "__pypackages__", ".tox", ".nox",  # installed packages, environments
    "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis",  # tool caches
})
"""Folders a walk does not enter: what they hold is not the user's sessions. A folder with a `pyvenv.cfg` (a
virtual environment by any name) is skipped too. A folder named on the command line is always checked."""


def collect(paths: Sequence[str], stdin_name: str | None, exclude: Sequence[str] = (),
            configured: Callable[[str], bool] = lambda path: False) -> tuple[list[Source], list[str], list[str]]:
    """Files named on the command line, and `*.jsonl` files under folders (recursively, sorted, but not in
    SKIPPED_FOLDERS or what `exclude` or a configuration file's `exclude` (`configured`) matches); plus one message
    per path that cannot be used, and one warning per folder that holds no file to check."""
    sources: list[Source] = []
    problems: list[str] = []
    warnings: list[str] = []
    seen: set[str] = set()

    def add(source: Source) -> None:
        key = os.path.realpath(source.path) if source.path is not None else STDIN
        if key not in seen:  # a file named twice, or inside a folder also named, is checked once
            seen.add(key)
            sources.append(source)

    for path in paths:
        if path == STDIN:
            add(Source(stdin_name or "<stdin>", None))
        elif os.path.isdir(path):
            skipped: list[str] = []
            known = len(problems)
            found = list(_walk(path, problems, exclude, skipped, configured))
            for file in found:
                add(Source(file, file))
            if not found and len(problems) == known:  # a folder it could not read is an error already
                warnings.append(_nothing_found(path, skipped))
        elif os.path.exists(path):
            add(Source(path, path))
        else:
            problems.append(f"{path}: no such file or directory")
    return sources, problems, warnings


def _excluded(path: str, root: str, globs: Sequence[str]) -> bool:
    """An --exclude GLOB matches a file's or folder's name, its path below the folder named, or its path as shown."""
    name = os.path.basename(path)
    below = os.path.relpath(path, root)
    return any(fnmatch.fnmatchcase(name, glob) or fnmatch.fnmatchcase(below, glob) or fnmatch.fnmatchcase(path, glob)
               for glob in globs)


def _walk(root: str, problems: list[str], exclude: Sequence[str], skipped: list[str],
          configured: Callable[[str], bool]) -> Iterator[str]:
    def unreadable(error: OSError) -> None:
        problems.append(f"{error.filename}: cannot read folder ({error.strerror})")

    for folder, subfolders, files in os.walk(root, onerror=unreadable):
        if folder != root and "pyvenv.cfg" in files:
            skipped.append(folder)
            subfolders.clear()
            continue
        entered = []
        for name in sorted(subfolders):
            inside = os.path.join(folder, name)
            if name in SKIPPED_FOLDERS or _excluded(inside, root, exclude) or configured(inside):
                skipped.append(inside)
            else:
                entered.append(name)
        subfolders[:] = entered
        for name in sorted(files):
            found = os.path.join(folder, name)
            if (name.endswith((".jsonl", ".jsonl.zst")) and not _excluded(found, root, exclude)
                    and not configured(found)):
                yield found


def _nothing_found(root: str, skipped: Sequence[str]) -> str:
    note = ""
    if skipped:
        shown = ", ".join(skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
        note = f"; not searched: {shown} (name a folder to check it)"
    return f"{root}: no *.jsonl files found in this folder{note}"


@contextmanager
def _readable(path: str) -> Iterator[None]:
    """A file that cannot be read is a UsageError for that file, whether opening or reading it failed."""
    try:
        yield
    except NotReadable as error:
        raise UsageError(f"{path}: cannot read file ({error}; give a pipe's output as '-')") from None
    except OSError as error:
        raise UsageError(f"{path}: cannot read file ({error.strerror})") from None


def _stdin(data: bytes) -> bytes:
    """Standard input's bytes, decompressed when they are Zstandard."""
    try:
        return uncompressed(data)
    except NotReadable as error:
        raise UsageError(f"-: cannot read standard input ({error})") from None


class Stored(msgspec.Struct):
    """What a source is as stored: its size in bytes and, when asked for, the SHA-256 of those bytes."""

    length: int | None = None
    sha256: str | None = None


@contextmanager
def opened(source: Source, options: Options, data: bytes | None = None,
           digest: bool = False, split: bool = False) -> Iterator[tuple[Document, Stored]]:
    """The analysis of a source: a file is streamed (`Document.streamed`: its text is never held, its lines are
    read back while the document is open); standard input is read whole, unless the parent already read it
    (`data`, for a worker). The digest is taken of the bytes as they are read, never by a second read. `split`: a
    file of a size in `SPLIT_SIZES` has its second half's line pass run in a second process (`FileLines.split`)."""
    if source.path is None:
        raw = sys.stdin.buffer.read() if data is None else data
        yield analyze_bytes(_stdin(raw), options), Stored(len(raw), sha256(raw).hexdigest() if digest else None)
        return
    with _readable(source.path), FileLines(source.path, digest=digest,
                                           split_sizes=SPLIT_SIZES if split else None) as lines:
        document = Document.streamed(lines, options)
        yield document, Stored(lines.stored_size, lines.sha256)


# ---------------------------------------------------------------------------------------------------------------
# Commands


class CheckSettings(msgspec.Struct, frozen=True):
    """What every file of one `check` run is checked with; a worker process receives it once, at its start."""

    chosen: RuleFilter
    pi_version: str
    stdin_filename: str | None
    releases: tuple[tuple[str, str], ...] = ()
    wants: Wants = Wants()


def check_one(settings: CheckSettings, source: Source, data: bytes | None = None,
              split: bool = False) -> Checked | str:
    """One file, streamed (or `data`, standard input read by the parent) and analysed; a read error is returned as
    its message, so it stays the problem of that file alone. Only what the output needs is kept of each
    diagnostic."""
    options = Options(path=source.path or settings.stdin_filename, exists=os.path.exists,
                      pi_version=settings.pi_version, releases=settings.releases)
    started = clock()
    try:
        with opened(source, options, data, settings.wants.digest, split) as (document, stored):
            result = _checked(settings, document)
    except UsageError as error:
        return str(error)
    result.seconds = clock() - started
    result.length, result.sha256 = stored.length, stored.sha256
    return result


def _checked(settings: CheckSettings, document: Document) -> Checked:
    return checked_file(document, settings.chosen.apply(document.diagnostics()), settings.wants)


_worker_settings: Sequence[CheckSettings] = ()
"""A worker process's settings (each file names its own by index), set once by `_start_worker`."""


def _start_worker(settings: Sequence[CheckSettings], interrupt: signal.Handlers) -> None:
    """Ctrl-C reaches the whole process group: a worker just ends (no traceback), and the parent reports it. A
    `check` started with SIGINT ignored (a background job of a shell without job control, `nohup`) keeps ignoring
    it in its workers too, or a Ctrl-C meant for another program would break its run."""
    global _worker_settings
    signal.signal(signal.SIGINT, interrupt)
    _worker_settings = settings


def _check_in_worker(task: tuple[int, Source, bytes | None]) -> Checked | str:
    index, source, data = task
    return check_one(_worker_settings[index], source, data)


def default_jobs() -> int:
    """The cores this process may run on (its affinity mask, not the machine's count)."""
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return counted() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def chunk_size(files: int, jobs: int) -> int:
    """Files per message to a worker: enough that 2,000 small files do not spend their time in pickling and pipes,
    few enough that one worker does not end up with the last large files while the others idle."""
    return max(1, min(16, files // (jobs * 8)))


def checked(sources: Sequence[Source], settings: PerFile, jobs: int) -> Iterator[Checked | str]:
    """Each source's outcome, in the order of `sources` whatever order the workers finish in. Standard input is
    read here (a worker must not read it) and sent to the worker as bytes; one file, or `jobs` 1, is checked in
    this process, one file with `jobs` 2 or more split across two (`SPLIT_SIZES`)."""
    split = jobs >= 2
    jobs = min(jobs, len(sources))
    if jobs <= 1:
        for source in sources:
            yield check_one(settings.of(source), source, split=split)
        return
    tasks: list[tuple[int, Source, bytes | None]] = []
    for source in sources:
        tasks.append((settings.index(source), source, sys.stdin.buffer.read() if source.path is None else None))
    sys.stdout.flush()
    sys.stderr.flush()
    interrupt = signal.SIG_IGN if signal.getsignal(signal.SIGINT) is signal.SIG_IGN else signal.SIG_DFL
    from concurrent.futures import ProcessPoolExecutor  # here: a check in this process never loads multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    threading.excepthook = _quiet_cancelled_race
    pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(settings.all, interrupt))
    try:
        yield from pool.map(_check_in_worker, tasks, chunksize=chunk_size(len(tasks), jobs))
    except BrokenProcessPool as error:
        raise WorkerLost from error
    finally:  # left early (`check | head` closed the pipe): the chunks not started yet are dropped, not checked
        pool.shutdown(wait=True, cancel_futures=True)


def _quiet_cancelled_race(args: threading.ExceptHookArgs) -> None:
    """A Ctrl-C reaches the workers and this process at once: the pool's own thread then marks the work of its dead
    workers failed while this one cancels the work not started, and Python 3.11's thread raises on each piece of
    work cancelled first (an InvalidStateError, fixed in 3.12). The work is dropped either way and the run ends with
    status 130, so that thread's traceback is not printed; anything else is, as usual."""
    from concurrent.futures import InvalidStateError

    if args.exc_type is InvalidStateError and type(args.thread).__name__ == "_ExecutorManagerThread":
        return
    threading.__excepthook__(args)


class WorkerLost(Exception):
    """A worker process of `-j` ended abruptly (killed by a signal or the kernel's OOM killer)."""


class Progress:
    """`checked 812/2000 files` on a terminal's stderr, rewritten in place, once a run is long (many files, or
    still going after `delay` seconds), and erased at the end. Never on a pipe or a file: logs stay clean."""

    FILES = 100
    DELAY = 1.0
    INTERVAL = 0.1

    def __init__(self, total: int, stream: IO[str], clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.stream = stream
        self.clock = clock
        self.enabled = total > 1 and stream.isatty()
        self.start = clock()
        self.delay = 0.0 if total > self.FILES else self.DELAY
        self.shown = False
        self._last = float("-inf")

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.delay or (now - self._last < self.INTERVAL and done < self.total):
            return
        self._last = now
        self.stream.write(f"\rchecked {done}/{self.total} files")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Erase the line, so what is written next (a verbose note, a diagnostic on the same terminal) starts
        clean; the next update draws it again."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def check(args: argparse.Namespace) -> int:
    if args.stdin_filename is not None and STDIN not in args.paths:
        raise UsageError("--stdin-filename names standard input, so it needs '-' among the paths")
    rule_filter(args.select, args.ignore)  # a typo on the command line is refused before any file is read
    finder = _finder(args)
    sources, problems, warnings = collect(args.paths or ["."], args.stdin_filename, args.exclude or (),
                                          lambda path: _configured(finder, path).excludes(path))
    first = sources[0].path if sources else None
    args.output_format = configured_output(args.output_format, _configured(finder, first))
    for warning in warnings:
        print(f"session-lsp: warning: {warning}", file=sys.stderr)
    settings = PerFile(args, finder)
    if args.fix or args.diff:
        return fix_then_check(args, sources, problems, settings)
    return report_check(args, sources, problems, settings)


def configured_output(given: OutputFormat | None, config: Config) -> OutputFormat | None:
    """The output format: the command line's, else the configuration's `output-format` (None: the default)."""
    return given or (parse_output_format(config.output_format) if config.output_format else None)


def _finder(args: argparse.Namespace) -> Finder:
    try:
        return Finder(args.config, args.isolated)
    except ConfigError as error:
        raise UsageError(str(error)) from None


def _configured(finder: Finder, path: str | None) -> Config:
    try:
        return finder.for_file(path)
    except ConfigError as error:
        raise UsageError(str(error)) from None


class PerFile:
    """Each file's `CheckSettings`: the command line over the file's configuration (`config.Finder`), one object
    for the files that share them, so a worker process receives each once."""

    def __init__(self, args: argparse.Namespace, finder: Finder) -> None:
        self.args, self.finder = args, finder
        self.all: list[CheckSettings] = []
        self._index: dict[CheckSettings, int] = {}

    def index(self, source: Source) -> int:
        """The position in `all` of a source's settings."""
        args = self.args
        config = _configured(self.finder, source.path)
        chosen = config.rules(split_selectors(args.select) or None, split_selectors(args.ignore),
                              source.path or args.stdin_filename)
        if chosen.problems:
            raise UsageError(f"{config.path}: " + "; ".join(chosen.problems))
        releases = _releases(args, config)
        settings = CheckSettings(chosen, dict(releases).get("pi", ""), args.stdin_filename, releases,
                                 Wants.of(*output_of(args)))
        if settings not in self._index:
            self._index[settings] = len(self.all)
            self.all.append(settings)
        return self._index[settings]

    def of(self, source: Source) -> CheckSettings:
        return self.all[self.index(source)]


def output_of(args: argparse.Namespace) -> tuple[OutputFormat, Severity]:
    """The output format and the severity floor of a run: the options, else the defaults."""
    return args.output_format or OutputFormat.TEXT, args.min_severity or Severity.WARNING


def _report(args: argparse.Namespace, out: IO[str], problems: Sequence[str] = ()) -> Report:
    """The run's report, told of the problems found before it (paths that do not exist, files not written)."""
    style, floor = output_of(args)
    report = make_report(style, out, sys.stderr, args.verbose, floor, args.statistics, getattr(args, "argv", ()))
    for problem in problems:
        report.problem(problem)
    return report


def _unreadable(report: Report, problems: list[str], source: Source, message: str) -> None:
    problems.append(message)
    report.problem(message, source.name)


def fix_then_check(args: argparse.Namespace, sources: list[Source], problems: list[str],
                   settings: PerFile) -> int:
    """`fix` and `check --fix` (as ruff): fix, then report what is left; `--diff` prints the diff instead. Standard
    input is fixed to standard output, and then the report goes to standard error."""
    from . import fixer

    stdin = any(source.path is None for source in sources)
    if stdin and len(sources) > 1:
        raise UsageError("fixing standard input writes the fixed text to standard output, so '-' must be the only path")
    chosen = [settings.of(source) for source in sources]
    run = fixer.fix_sources([(source.name, source.path, each.chosen, each.pi_version)
                             for source, each in zip(sources, chosen, strict=True)],
                            args.unsafe_fixes, args.show_fixes, not args.diff, sys.stdout, sys.stderr)
    problems += run.problems
    if args.diff:
        print(run.summary(), file=sys.stderr)
        for problem in problems:
            print(f"session-lsp: error: {problem}", file=sys.stderr)
        return EXIT_USAGE if problems else EXIT_FOUND if run.changed else EXIT_CLEAN
    if stdin:
        outcome = check_one(chosen[0], sources[0], run.stdin_fixed or b"")
        report = _report(args, sys.stderr, problems)
        if isinstance(outcome, str):
            _unreadable(report, problems, sources[0], outcome)
        else:
            report.add(sources[0].name, outcome)
        return _finish(args, report, problems)
    status = report_check(args, sources, problems, settings)
    print(run.summary(), file=sys.stdout if output_of(args)[0].human else sys.stderr)
    return status


def report_check(args: argparse.Namespace, sources: list[Source], problems: list[str],
                 settings: PerFile) -> int:
    report = _report(args, sys.stdout, problems)
    human = output_of(args)[0].human
    progress = Progress(len(sources), sys.stderr)
    for note in getattr(args, "release_notes", []) if args.verbose else ():
        print(note, file=sys.stdout if human else sys.stderr)
    # the progress line shares the terminal with what the report writes to stderr, or to a stdout that is one too
    interleaved = (args.verbose and not human) or sys.stdout.isatty()
    done = 0
    try:
        for source, outcome in zip(sources, checked(sources, settings, args.jobs), strict=True):
            done += 1
            if isinstance(outcome, str):
                _unreadable(report, problems, source, outcome)
            else:
                if interleaved:
                    progress.clear()
                report.add(source.name, outcome)
            progress.update(done)
    except WorkerLost:  # killed by a signal or the kernel's OOM killer: what was checked is still printed
        lost = len(sources) - done
        problems.append(f"a worker process ended abruptly (killed by a signal, or out of memory): {lost} "
                        f"file{'' if lost == 1 else 's'} not checked")
        report.problem(problems[-1])
    progress.clear()
    return _finish(args, report, problems)


def _finish(args: argparse.Namespace, report: Report, problems: list[str]) -> int:
    """The exit status; the report ends knowing it, and each problem goes to standard error."""
    if problems:
        status = EXIT_USAGE
    else:
        status = EXIT_FOUND if report.found(FAIL_LEVELS[args.fail_on]) else EXIT_CLEAN
    report.finish(status, not problems)
    for problem in problems:
        print(f"session-lsp: error: {shown(problem)}", file=sys.stderr)
    return status


def _releases(args: argparse.Namespace, config: Config | None = None) -> tuple[tuple[str, str], ...]:
    """The release chosen for each format that has a release option: `--pi-version`, `--claude-version`, ...,
    else the configuration's `pi-version`, ..., else the newest verified."""
    chosen = []
    for face in with_releases():
        given = getattr(args, f"{face.release_option}_version")
        written = config.releases.get(face.release_option) if config is not None else None
        if given is None and written is not None:
            given = face.release_for(written)[0]  # checked when the file was read
        chosen.append((face.release_option, given or face.default_release))
    return tuple(chosen)


def _release_arguments(parser: argparse.ArgumentParser, purpose: str) -> None:
    """`--<format>-version` for every format whose releases the messages can speak for, from the faces."""
    for face in with_releases():
        parser.add_argument(f"--{face.release_option}-version", action=ReleaseVersion, default=None,
                            metavar="VERSION", face=face,
                            help=f"the {face.agent} release whose behaviour {purpose}, MAJOR.MINOR[.PATCH]; one "
                                 "session-lsp does not know is read as the newest known before it (known: "
                                 f"{', '.join(face.releases)}; default: {face.default_release})")


@contextmanager
def _document(args: argparse.Namespace) -> Iterator[Document]:
    """The file of `context` or `tree`, analysed for the releases the command line chose, else its configuration
    file's (found as `check` finds it, or `--config`, or none with `--isolated`), else the newest."""
    path = args.path
    source = Source(path, None if path == STDIN else path)
    releases = args.releases = _releases(args, _configured(_finder(args), source.path))
    # the resume is now: what Claude Code does with a turn an API error ended depends on the error's age
    options = Options(path=source.path, exists=os.path.exists, pi_version=dict(releases).get("pi"), releases=releases,
                      now=time.time() * 1000)
    with opened(source, options) as (document, _):
        yield document


def _print_json(payload: object) -> None:
    sys.stdout.write(msgspec.json.format(msgspec.json.encode(payload), indent=2).decode() + "\n")


def context(args: argparse.Namespace) -> int:
    """The payload of `sessionLsp/context`: what the agent sends to the model from the leaf (or from --line's
    entry); for an agent that refuses the file, the error it prints."""
    from .analysis import features

    line = args.line - 1 if args.line is not None else -1
    with _document(args) as document:
        if args.line is not None:
            _within(document, args.path, args.line)
        payload = features.context(document, line)
        face = document.face
        if args.line is not None and payload.get("leaf", line) != line:
            raise UsageError(f"--line {args.line}: line {args.line} of {args.path} is not an entry {face.agent} can "
                             f"take as the leaf ({_holds(document, line)}); give an entry's line, or leave --line out "
                             f"for {face.agent}'s leaf")
    release = dict(args.releases).get(face.release_option, "")
    agent = f"{face.agent} {release}".strip()
    if args.format == "json":
        _print_json(payload)
        return EXIT_CLEAN
    if "leaf" not in payload:
        print(f"{shown(args.path)}: {payload['label']}: no model context (not a session with a leaf)")
        return EXIT_CLEAN
    if payload.get("refused"):
        print(f"{shown(args.path)}: {agent} refuses to resume it: {payload['refused']}")
        return EXIT_CLEAN
    messages = payload["messages"]
    leaf = payload["leaf"]
    where = f"from the entry on line {leaf + 1}" if leaf is not None else "(no entries)"
    print(f"{shown(args.path)}: {agent} sends {len(messages)} message{'' if len(messages) == 1 else 's'} {where}")
    if payload.get("cut_short"):
        print(f"  ({payload['cut_short']})")
    for number, message in enumerate(messages, 1):
        source = f"line {message['line'] + 1}" if message["line"] is not None else "synthetic"
        note = f" ({message['note']})" if message["note"] else ""
        first = one_line(message["text"])
        print(f"{number:4}. {message['role']:<10} {source}{note}: {first[:160]}{'...' if len(first) > 160 else ''}")
    return EXIT_CLEAN


def _within(document: Document, path: str, number: int) -> None:
    """A 1-based `--line` that names a line of the file."""
    lines = document.lines
    count = len(lines) - (lines[-1] == "")
    if number < 1:
        raise UsageError(f"--line {number}: lines are numbered from 1")
    if number > count:
        raise UsageError(f"--line {number} is past the end: {path} has {count} line{'' if count == 1 else 's'}")


_HOLDS = {LineKind.BLANK: "a blank line", LineKind.INVALID: "not valid JSON, pi skips it",
          LineKind.GLUED: "records glued together, pi skips the line", LineKind.NON_OBJECT: "not a JSON object"}


def _holds(document: Document, line: int) -> str:
    """What a line is, in a few words: its title (the header's is "session v3"), or what kind of line it is."""
    result = document.results[line]
    return _HOLDS.get(result.kind) or document.title(line) or "not an entry"


def tree(args: argparse.Namespace) -> int:
    """The payload of `sessionLsp/tree`: every entry, its children, the active path and the leaf."""
    from .analysis import features

    with _document(args) as document:
        payload = features.tree(document)
    if args.format == "json":
        _print_json(payload)
        return EXIT_CLEAN
    nodes = payload["nodes"]
    if "leaf" not in payload:
        print(f"{shown(args.path)}: {payload['label']}: {payload['entry_count']} records")
        for node in nodes:
            print(f"  line {node['line'] + 1}: {node.get('kind', '')} {node['title']}")
        return EXIT_CLEAN
    by_line = {node["line"]: node for node in nodes}
    leaf = payload["leaf"]
    print(f"{shown(args.path)}: {payload['entry_count']} entries, leaf on line "
          f"{leaf + 1 if leaf is not None else '-'}, {len(payload['active_path'])} on the active path")
    stack = [(root, 0) for root in reversed(payload["roots"])]
    seen: set[int] = set()
    while stack:
        line, depth = stack.pop()
        node = by_line.get(line)
        if node is None or line in seen:  # a cycle is shown once
            continue
        seen.add(line)
        mark = "*" if node["on_active_path"] else " "
        label = f" [{node['label']}]" if node["label"] else ""
        leaf_mark = "  <- leaf" if node["is_leaf"] else ""
        orphan = f"  (orphan root: {node['orphan']})" if node.get("orphan") else ""
        print(f"{mark} {'  ' * min(depth, 40)}{line + 1}: {node['type']} {one_line(node['title'] or '')}{label}"
              f"{leaf_mark}{orphan}")
        children = node["children"]
        step = depth + 1 if len(children) > 1 or (depth == 0 and len(payload["roots"]) > 1) else depth
        stack.extend((child, step) for child in reversed(children))
    return EXIT_CLEAN


def list_rules(args: argparse.Namespace) -> int:
    if args.format == "json":
        from .reporting.rules import rules_json

        sys.stdout.write(rules_json().decode("utf-8"))
        return EXIT_CLEAN
    rows = [(r.code, r.severity.label, r.name, r.summary + ("  (not yet checked)" if r.code in PLANNED else "")
             + (f"  [fix: {r.fix.value}]" if r.fix is not None else "")) for r in RULES.values()]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3])
    return EXIT_CLEAN


def format_names(has: Callable[[Format], bool]) -> dict[str, Format]:
    """The names `new --format` and `schema` take for the formats that have something to give: a format's own name
    (`elyra`, `claude`) and the agent's, as its release option names it (`pi`)."""
    names: dict[str, Format] = {}
    for kind, face in FORMATS.items():
        if has(face):
            names[kind.value] = face
            if face.release_option:
                names.setdefault(face.release_option, face)
    return names


def _is_session(face: Format) -> bool:
    """A session format's face: each has a sample for `new` (the plain face's is empty). Asked of the face's place,
    not of the sample, which would build a session of every format for any command's parser."""
    return face in session_formats()


def _has_schema(face: Format) -> bool:
    return face.schema_root is not None


def new_session(args: argparse.Namespace) -> int:
    """A minimal valid session of a format, as its agent writes one, to start a fixture from."""
    face = format_names(_is_session)[args.format]
    sys.stdout.write("".join(line + "\n" for line in face.sample(datetime.now(UTC))))
    return EXIT_CLEAN


def schema(args: argparse.Namespace) -> int:
    """The JSON Schema of one line of a format, generated from the msgspec types the checker decodes lines with."""
    face = format_names(_has_schema)[args.format]
    generated = msgspec.json.schema(face.schema_root)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": f"One line (record) of a {face.agent} session file",
                "description": "Generated by session-lsp from the types it decodes each line with; a session file "
                               "is JSON Lines, one such object per line.", **generated}
    _print_json(document)
    return EXIT_CLEAN


def explain_rule(args: argparse.Namespace) -> int:
    """`session-lsp rule CODE` (or a rule's name), as `ruff rule`."""
    from .reporting.rules import explain, info

    wanted = args.code.strip()
    found = RULES.get(wanted.upper()) or next((r for r in RULES.values() if r.name == wanted.lower()), None)
    if found is None:
        raise UsageError(f"{wanted}: no rule has this code or name (`session-lsp rules` lists them)")
    if args.format == "json":
        _print_json(info(found))
    else:
        sys.stdout.write(explain(found))
    return EXIT_CLEAN


def _parsed(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type from one of reporting's parsers (a ValueError becomes argparse's usage error)."""
    def convert(value: str) -> Any:
        try:
            return parse(value)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return convert


def positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value!r}")
    return int(value)


class ReleaseVersion(argparse.Action):
    """`--<agent>-version MAJOR.MINOR[.PATCH]`, kept as the key of the release row that speaks for it, with what it
    was read as (`release_notes`, which `check -v` prints) when that is another release's row."""

    def __init__(self, *args: Any, face: Format, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.face = face

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        try:
            key, note = self.face.release_for(str(values))
        except ValueError as error:
            parser.error(f"argument {option_string}: {error}")
        setattr(namespace, self.dest, key)
        if note is not None:
            namespace.release_notes = [*getattr(namespace, "release_notes", []), note]


def parse_tcp(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host, int(port)


WAITING = ("session-lsp: this is the language server: it waits for an editor's LSP messages (JSON-RPC) on standard "
           "input, so typing here does nothing useful; Ctrl-D or Ctrl-C ends it.\n"
           "session-lsp: to check session files from a terminal, run `session-lsp check PATH...` "
           "(`session-lsp --help` lists every command).\n")


def serve(args: argparse.Namespace) -> int:
    from .server import CannotListen
    from .server import serve as run_server

    tcp = getattr(args, "tcp", None)
    if tcp is None and _is_terminal(sys.stdin):  # someone typed `session-lsp`, not an editor starting it
        sys.stderr.write(WAITING)
        sys.stderr.flush()
    try:
        run_server(tcp)
    except CannotListen as error:
        raise UsageError(str(error)) from None
    return EXIT_CLEAN


def _is_terminal(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except ValueError:  # closed
        return False


# ---------------------------------------------------------------------------------------------------------------
# Argument parsing


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one stderr line (as the README promises), with the usage of the command that
    was given folded into it."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split())
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} ({usage})\n")


def _format_names() -> str:
    names = [face.title for face in session_formats()]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="session-lsp",
        description=f"Checker and language server for {_format_names()} session files (JSON Lines). "
                    "Without a command, starts the language server on standard input/output.")
    parser.add_argument("--version", action="version", version=f"session-lsp {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    check_parser = commands.add_parser(
        "check", help="check session files and print diagnostics",
        description="Check session files. Folders are searched recursively for *.jsonl, leaving out version "
                    "control, virtual environment, node_modules and tool cache folders (a folder named is always "
                    "searched); '-' reads standard input. "
                    "Exit status: 0 nothing at or above --fail-on, 1 something was found, 2 usage or I/O error.")
    check_arguments(check_parser)
    check_parser.add_argument("--fix", action="store_true", help="apply the fixes first, then report what is left")
    fix_parser = commands.add_parser(
        "fix", help="repair session files (safe fixes; --unsafe-fixes for the rest), then report what is left",
        description="Apply the fixes the editor offers as quick fixes, to a fixpoint, and write each file atomically "
                    "(a file that changes meanwhile is left alone); then report what is left, as `check` does. "
                    "'-' fixes standard input to standard output. Exit status: 0 nothing at or above --fail-on is "
                    "left, 1 something is (with --diff: a file would change), 2 usage or I/O error, or a file not "
                    "written.")
    check_arguments(fix_parser)
    fix_parser.set_defaults(fix=True)
    return _more_commands(parser, commands)


def check_arguments(check_parser: argparse.ArgumentParser) -> None:
    """What `check` and `fix` share: every option of a check, and the fix options (ruff's names)."""
    from . import fixer

    fixer.add_options(check_parser)
    check_parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    check_parser.add_argument("--output-format", "--format", type=_parsed(parse_output_format), metavar="FORMAT",
                              help="text (default: grouped by file, the line and a caret under each problem), concise "
                                   "(one line each), json, json-lines, github, sarif or junit")
    check_parser.add_argument("--min-severity", type=_parsed(parse_severity), metavar="LEVEL",
                              help="lowest severity printed: error, warning (default), information or hint; what is "
                                   "below it is only counted in the summary line")
    check_parser.add_argument("--statistics", action="store_true",
                              help="print how many times each code was found instead of the diagnostics")
    _config_arguments(check_parser)
    check_parser.add_argument("--select", action="append", metavar="CODES",
                              help="only report these codes, code prefixes or rule names (comma-separated, repeatable)")
    check_parser.add_argument("--ignore", action="append", metavar="CODES",
                              help="never report these (same forms; the most specific selector wins)")
    check_parser.add_argument("--fail-on", choices=tuple(FAIL_LEVELS), default="error",
                              help="lowest severity that makes the exit status 1 (default: error)")
    check_parser.add_argument("--stdin-filename", metavar="NAME",
                              help="the file name to report and check against when reading '-'")
    _release_arguments(check_parser, "messages describe")
    check_parser.add_argument("--exclude", action="append", metavar="GLOB",
                              help="do not search files or folders whose name or path matches GLOB (repeatable)")
    check_parser.add_argument("-j", "--jobs", type=positive, default=default_jobs(), metavar="N",
                              help="check files in N worker processes (default: the usable cores, here "
                                   f"{default_jobs()}); 1 checks them in this process")
    check_parser.add_argument("-v", "--verbose", action="store_true",
                              help="also print each file's detected format and line count")
    check_parser.set_defaults(run=check, fix=False)


def _config_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="PATH",
                        help="use this configuration file for every file (a .session-lsp.toml, or a "
                             "pyproject.toml with [tool.session-lsp]) instead of the closest one above each")
    parser.add_argument("--isolated", action="store_true",
                        help="read no configuration file: only the command line's options")


def _more_commands(parser: argparse.ArgumentParser, commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    for name, run, summary in (
            ("context", context, "print what pi sends to the model from the file's leaf (or from --line)"),
            ("tree", tree, "print the conversation tree: entries, branches, the active path and the leaf")):
        sub = commands.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ". "
                                  "--format json prints the payload of the server's sessionLsp/" + name + " request.")
        sub.add_argument("path", metavar="PATH", help="a session file ('-' reads standard input)")
        sub.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
        _release_arguments(sub, "to show")
        _config_arguments(sub)
        if name == "context":
            sub.add_argument("--line", type=int, metavar="N",
                             help="the 1-based line of the entry to take as the leaf (default: pi's leaf)")
        sub.set_defaults(run=run)

    rules_parser = commands.add_parser("rules", help="list every rule: code, severity, name, summary")
    rules_parser.add_argument("--format", choices=("text", "json"), default="text",
                              help="text (default) or json: every rule with its reason, fix, link and example")
    rules_parser.set_defaults(run=list_rules)
    rule_parser = commands.add_parser("rule", help="explain a rule: what the agent does, an example, the fix")
    rule_parser.add_argument("code", metavar="CODE", help="a rule's code (ELY042) or name (dangling-parent)")
    rule_parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    rule_parser.set_defaults(run=explain_rule)

    new_parser = commands.add_parser("new", help="print a minimal valid session of a format, to start a fixture from")
    new_parser.add_argument("--format", required=True, choices=tuple(format_names(_is_session)),
                            help="the format (pi and elyra are one)")
    new_parser.set_defaults(run=new_session)
    schema_parser = commands.add_parser("schema", help="print the JSON Schema of one line of a format",
                                        description="Print the JSON Schema (2020-12) of one line of a session file "
                                                    "of FORMAT, generated from the types the checker decodes lines "
                                                    "with; editors can validate JSON Lines with it.")
    schema_parser.add_argument("format", metavar="FORMAT", choices=tuple(format_names(_has_schema)),
                               help=f"one of {', '.join(format_names(_has_schema))}")
    schema_parser.set_defaults(run=schema)

    serve_parser = commands.add_parser("serve", help="start the language server (default: standard input/output)")
    transport = serve_parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="talk over standard input/output (the default)")
    transport.add_argument("--tcp", type=parse_tcp, metavar="HOST:PORT", help="listen on a TCP socket")
    serve_parser.set_defaults(run=serve)
    return parser


def main(argv: Sequence[str] | None = None, hard_exit: bool = False) -> int:
    """Run the command line `argv` (default: the process's) and return its exit status. `hard_exit`: the program's
    own call, which ends the process once the command is done (`_end`), but for the language server."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if unknown:  # argparse would blame the top-level parser; the usage that helps is the subcommand's
        subcommands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        culprit = subcommands.choices.get(args.command, parser) if args.command else parser
        culprit.error(f"unrecognized arguments: {' '.join(unknown)}")
    run: Callable[[argparse.Namespace], int] = getattr(args, "run", serve)
    status = _status(run, args)
    if hard_exit and run is not serve:
        _end(status)
    return status


def entry() -> int:
    """The `session-lsp` program."""
    return main(hard_exit=True)


def _end(status: int) -> NoReturn:
    """End the process without the interpreter's teardown, as mypy ends: freeing every module's objects one by one
    took 15 ms of a small file's `check` and 30 ms of a 50 MB one's. A command has written everything by then (`fix`
    has renamed its files into place, `-j`'s workers are joined): only the streams' buffers are left to flush."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away before the last of the output: as `_status` ends on it
        status = EXIT_FOUND
    with suppress(OSError):
        sys.stderr.flush()
    os._exit(status)


def _status(run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return run(args)
    except UsageError as error:
        print(f"session-lsp: error: {shown(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (`session-lsp check | head`): stop quietly, and keep Python from complaining again
        # when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FOUND
    except KeyboardInterrupt:
        return 130
