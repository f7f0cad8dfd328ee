"""`session-lsp fix` and `session-lsp check --fix`: the core's fixes (`analysis.features.fixes`, the ones the
editor offers as quick fixes) applied to files, to a fixpoint, and written atomically (`atomic.py`).

Safe fixes only, unless `--unsafe-fixes`; `--diff` prints what would change and writes nothing; `--show-fixes`
lists each fix applied. A file that is not valid UTF-8 is written only with the fix that says so (the code of its
format's `utf8_issue`, unsafe), since writing the text replaces the invalid bytes. A file that changed while it was
being fixed (an agent appending to it) is left alone, with a message.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import IO

import msgspec

from .analysis import Options
from .analysis.document import analyze_bytes
from .analysis.fixing import Fix
from .analysis.registry import RULES
from .analysis.rule_filter import RuleFilter
from .files import NotReadable, is_zstd


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options `fix` and `check --fix` share (as ruff names them)."""
    parser.add_argument("--unsafe-fixes", action="store_true",
                        help="also apply unsafe fixes: those that relink or drop something (`session-lsp rules` "
                             "says which rules have safe or unsafe fixes)")
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff of the fixes and write nothing (exit 1 when a file would change)")
    parser.add_argument("--show-fixes", action="store_true", help="list every fix applied, file by file")


class Outcome(msgspec.Struct):
    """One file's repair: the fixes applied (in order), its new bytes (None: unchanged), how many unsafe fixes
    are left for `--unsafe-fixes`, and why it was not written (None: it was, or needed nothing)."""

    name: str
    applied: list[Fix]
    new: bytes | None
    old: bytes
    unsafe_left: int
    problem: str | None = None
    unfinished: bool = False
    """Fixes were still left when `fix_document`'s rounds ran out (each fix uncovering the next): a run again goes
    on."""


def repair(name: str, data: bytes, chosen: RuleFilter, pi_version: str, unsafe: bool,
           path: str | None = None) -> Outcome:
    """The fixes of one file's bytes, as a check of `path` (for the rules about its name) would select them."""
    if is_zstd(data):
        return Outcome(name, [], None, data, 0, "Zstandard-compressed: session-lsp fix does not rewrite a .zst file; "
                       "decompress it (`zstd -d`), fix the .jsonl, and compress it again")
    from .analysis.features import fix_document  # here: `check` builds this module's options, never runs a fix

    document = analyze_bytes(data, Options(path=path or name, exists=os.path.exists, pi_version=pi_version))
    repaired = fix_document(document, chosen.apply, unsafe)
    new = repaired.text.encode("utf-8")
    applied = list(repaired.applied)
    utf8 = document.face.utf8_issue
    if document.invalid_utf8 and applied and not any(utf8 is not None and utf8[0] in fix.codes for fix in applied):
        how = f"with --unsafe-fixes ({utf8[0]})" if utf8 is not None else "with --unsafe-fixes"
        return Outcome(name, [], None, data, repaired.unsafe_left,
                       "not valid UTF-8, so writing any fix would replace the invalid bytes with U+FFFD: fix it "
                       f"{how}, or by hand")
    return Outcome(name, applied, new if applied and new != data else None, data, repaired.unsafe_left,
                   unfinished=not repaired.converged and not repaired.looped)


def diff(outcome: Outcome) -> str:
    if outcome.new is None:
        return ""
    from .line_diff import unified_diff  # here: only --diff shows one

    old = outcome.old.decode("utf-8", "replace").splitlines(keepends=True)
    new = outcome.new.decode("utf-8").splitlines(keepends=True)
    lines = unified_diff(old, new, f"a/{outcome.name}", f"b/{outcome.name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


class FixRun:
    """Fixes the files of one run and keeps what the summary and the exit status need."""

    def __init__(self, unsafe: bool, show: bool, write: bool, out: IO[str], err: IO[str]) -> None:
        self.unsafe = unsafe
        self.show, self.write, self.out, self.err = show, write, out, err
        self.fixed = 0
        self.changed: list[str] = []
        self.unsafe_left = 0
        self.left_alone: list[str] = []
        self.unfinished: list[str] = []
        """The files that still had fixes to apply when `fix_document`'s rounds ran out."""
        self.problems: list[str] = []
        self.stdin_fixed: bytes | None = None
        """Standard input as fixed (what the check after the fix reads)."""

    def file(self, name: str, path: str, chosen: RuleFilter, pi_version: str) -> None:
        from . import atomic  # here: its temporary files load shutil and random, which `check` never needs

        try:
            data, status = atomic.read(path)
        except NotReadable as error:
            self.problems.append(f"{name}: cannot read file ({error})")
            return
        except OSError as error:
            self.problems.append(f"{name}: cannot read file ({error.strerror})")
            return
        outcome = repair(name, data, chosen, pi_version, self.unsafe, path)
        if not self._report(outcome) or outcome.new is None:
            return
        if not self.write:
            self.out.write(diff(outcome))
            self.changed.append(name)
            return
        try:
            atomic.replace(path, outcome.new, data, status)
        except atomic.Changed:
            self.fixed -= len(outcome.applied)
            self.left_alone.append(name)
            print(f"session-lsp: {name}: changed while it was being fixed (is the agent still writing to it?); "
                  "left as it was: run fix again when it is done", file=self.err)
            return
        except OSError as error:
            self.fixed -= len(outcome.applied)
            self.problems.append(f"{name}: cannot write file ({error.strerror})")
            return
        self.changed.append(name)

    def stdin(self, name: str, data: bytes, out: IO[bytes], chosen: RuleFilter, pi_version: str) -> None:
        """Standard input fixed to standard output (as ruff: the text, whole, fixed or not)."""
        outcome = repair(name, data, chosen, pi_version, self.unsafe)
        written = outcome.new if self._report(outcome, True) and outcome.new is not None else data
        self.stdin_fixed = written
        if self.write:
            out.write(written)
            out.flush()
        else:
            self.out.write(diff(outcome))
        if outcome.new is not None:
            self.changed.append(name)

    def _report(self, outcome: Outcome, to_stdout: bool = False) -> bool:
        """Counts and shows the fixes of a file; False when it cannot be written."""
        self.unsafe_left += outcome.unsafe_left
        if outcome.problem is not None:
            self.problems.append(f"{outcome.name}: {outcome.problem}")
            return False
        self.fixed += len(outcome.applied)
        if outcome.unfinished:
            self.unfinished.append(outcome.name)
        if self.show and outcome.applied:
            listing = self.out if self.write and not to_stdout else self.err  # stdout may hold a diff or the text
            for fix in outcome.applied:
                line = min(edit.span.line for edit in fix.edits) + 1
                codes = ", ".join(f"{code} ({RULES[code].name})" for code in fix.codes)
                print(f"{outcome.name}:{line}: fixed {codes}: {fix.title}", file=listing)
        return True

    def summary(self) -> str:
        files = len(self.changed)
        verb = "would fix" if not self.write else "fixed"
        parts = [f"{verb} {self.fixed} problem{'' if self.fixed == 1 else 's'} in {files} "
                 f"file{'' if files == 1 else 's'}"]
        if self.unsafe_left and not self.unsafe:
            parts.append(f"{self.unsafe_left} more fixable with --unsafe-fixes")
        if self.left_alone:
            parts.append(f"{len(self.left_alone)} left alone (changed while fixing)")
        if self.unfinished:
            count = len(self.unfinished)
            parts.append(f"{count} file{'' if count == 1 else 's'} with fixes still to apply when fix stopped after "
                         "its rounds (a fix there uncovers the next): run fix again to go on")
        return "; ".join(parts)


def fix_sources(sources: Sequence[tuple[str, str | None, RuleFilter, str]], unsafe: bool, show: bool, write: bool,
                out: IO[str], err: IO[str]) -> FixRun:
    """Each (name, path, rules, pi release) source fixed in turn, with the rules and release its configuration
    chose; a path None is standard input (written back to standard output)."""
    run = FixRun(unsafe, show, write, out, err)
    for name, path, chosen, pi_version in sources:
        if path is None:
            run.stdin(name, sys.stdin.buffer.read(), sys.stdout.buffer, chosen, pi_version)
        else:
            run.file(name, path, chosen, pi_version)
    return run
