"""A session document: its lines, the per-line results, the link pass, and incremental updates.

`analyze(text)` is the whole core in one call. `Document` keeps the same state across edits: an edit re-runs
`line()` only for the lines it touched, and `link()` runs again, when next needed, only if some touched line's facts
changed (or lines were added or removed). Diagnostics are assembled on demand from both.

`Document.streamed(lines)` is the same analysis of a file whose text is never held: the line pass takes the lines
one at a time, and only the per-line results stay; a line is read back from its `StreamedLines` when a diagnostic's
columns (or a request) need it. Such a document is read-only.

A document keeps no titles (how outlines and trees name a line): `title` makes one from the line's text when a
feature reads it.
"""

from __future__ import annotations

from abc import abstractmethod
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import chain, islice
from typing import Protocol, TypeVar

import msgspec

from .anchors import AnchorResolver
from .detect import DETECTION_HORIZON, FormatInfo, Kind, leading_trim
from .diagnostics import Diagnostic, LineIssue, Related, Severity, Span
from .formats import Format, detect, format_for
from .line_store import Lines, LineStore
from .lines import LineKind
from .registry import rule
from .result_store import PlainResults, TitledResults
from .results import FactStore, FormatAnalyzer, LineResult, Linked, Options, Session
from .text import decode_bytes, split_lines, without_surrogates

Part = TypeVar("Part")
"""What a reader's other process returns for the lines it reads (`StreamedLines.split`)."""

Value = TypeVar("Value", covariant=True)


class Waiting(Protocol[Value]):
    """Work started elsewhere (`Elsewhere`)."""

    def result(self) -> Value | None:
        """Its value, once done; None when it failed there (the caller then does it itself)."""


Elsewhere = Callable[[Callable[[], PlainResults]], Waiting[PlainResults] | None]
"""Starts work in another process, as `Document` asks of a large text (the caller's `forked.fork`: the core starts
no process); None when it cannot."""


class TwoPassAnalyzer:
    """A format's line pass and link pass (and its incremental relink), bound to one file's detected format and
    options. It owns the line pass's state, so what one line leaves for the next (the last id, the shared strings)
    belongs to this file alone."""

    def __init__(self, info: FormatInfo, options: Options, face: Format) -> None:
        self.info = info
        self.options = options
        self._face = face
        self._line_pass = face.line_pass(options)
        self._file_pass = face.file_pass(options)
        self._line_state = face.line_state(options)
        self._titles: Callable[[str, LineResult], str] | None = None

    def line(self, text: str) -> LineResult:
        return self._line_pass(text, self.info, self._line_state)

    def lines(self, texts: Iterable[str]) -> Iterator[LineResult]:
        if self._file_pass is not None:
            return self._file_pass(texts, self.info, self._line_state)
        return self._each(texts)

    def _each(self, texts: Iterable[str]) -> Iterator[LineResult]:
        line_pass, info, state = self._line_pass, self.info, self._line_state
        for text in texts:
            yield line_pass(text, info, state)

    def fact_store(self) -> FactStore:
        return self._face.fact_store(self._line_state)

    def titles(self) -> Callable[[str, LineResult], str]:
        """With a line state of its own, which names lines: the document's names none, so that the lines an edit
        reads again get no title either."""
        if self._titles is None:
            face, info, line_pass = self._face, self.info, self._line_pass
            state = face.line_state(self.options)
            face.show_titles(state)
            made = face.line_titles(state)

            def title(text: str, result: LineResult) -> str:
                found = made(text, result)
                return found if found is not None else line_pass(text, info, state).title

            self._titles = title
        return self._titles

    def link(self, lines: Sequence[str], results: Sequence[LineResult]) -> Linked:
        return self._face.link(lines, results, self.info, self.options)

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult],
               changed: Collection[int]) -> Linked | None:
        return self._face.relink(previous, lines, results, self.info, self.options, changed)


def analyzer_for(info: FormatInfo, options: Options) -> FormatAnalyzer:
    return TwoPassAnalyzer(info, options, format_for(info.kind))


class StreamedLines(Lines):
    """A file's lines as `Document.streamed` reads them: `stream()` hands them over once, in order, split at "\\n"
    as `split_lines` splits a text; afterwards any line can be read back by number, and `invalid_utf8` says where
    invalid UTF-8 was replaced. The reading is the caller's (the CLI's file reader): the core does no I/O."""

    @abstractmethod
    def stream(self) -> Iterator[str]: ...

    @property
    @abstractmethod
    def invalid_utf8(self) -> Sequence[Span]: ...

    @property
    def too_long(self) -> Mapping[int, int]:
        """The lines too long to hold (by number, with their length in bytes), each streamed as an empty stand-in;
        filled in as the stream goes."""
        return {}

    def split(self, later: Callable[[Iterator[str]], Part]) -> Callable[[], Part] | None:
        """Asked once the stream has begun: a reader that can hand the file's later lines to `later` elsewhere (the
        CLI's reader: another process) answers what gives `later`'s result for them, waiting for it, and `stream`
        then ends before them. `later` must be a pure function of those lines (a line pass from a fresh state,
        which gives each line the result a pass from the file's start gives it). None: `stream` yields every
        line."""
        return None


def _head(text: str) -> list[str]:
    """The lines detection reads (`DETECTION_HORIZON`), without splitting the whole text."""
    end = 0
    for _ in range(DETECTION_HORIZON):
        end = text.find("\n", end) + 1
        if not end:
            return split_lines(text)
    return split_lines(text[:end - 1])


def later_pass(info: FormatInfo, options: Options) -> Callable[[Iterable[str]], PlainResults]:
    """What gives the results of a file's later lines (none of them its first) by a line pass of their own, from a
    fresh state, to be joined after the earlier ones: what `Document.streamed` hands a reader that splits the file
    (`StreamedLines.split`) and an opened `Document` hands `elsewhere`. Made before the split, and used once: its
    analyzer and fact store load every module the line pass needs, since a forked process must import nothing
    (`forked.fork`)."""
    analyzer = analyzer_for(info, options)
    store = analyzer.fact_store()

    def later(texts: Iterable[str]) -> PlainResults:
        results = PlainResults(store)
        results.extend(analyzer.lines(texts))
        return results

    return later

EDITOR_DECODING = ("; the editor shows each invalid byte sequence as U+FFFD, and saving writes that character "
                   "(EF BF BD) in its place: the original bytes are lost")
"""What the editor's decoding did to the bytes of a line it shows as read from the disk (`Document.replaced`)."""


class Document:
    _diagnostics: list[Diagnostic] | None

    def __init__(self, text: str, options: Options | None = None, invalid_utf8: Sequence[Span] = (),
                 replaced: Mapping[str, Sequence[int]] | None = None, elsewhere: Elsewhere | None = None) -> None:
        """`invalid_utf8`: where the bytes this text was decoded from were invalid (`analyze_bytes`). `replaced`
        (an editor's document): the lines of the file on disk with invalid UTF-8, as the editor decoded them (each
        invalid sequence a U+FFFD), with the columns of those U+FFFD; a line of the text equal to one of them is
        that line as read from the disk. Edits keep following them (`invalid_utf8` is derived from them), so an
        edited document says what a fresh analysis of its text says. `elsewhere`: what runs the line pass of the
        lines from the text's middle on in another process while this one reads the lines before (the server's
        open of a large file, on two cores)."""
        self.options = options or Options()
        self.replaced = {line: tuple(columns) for line, columns in (replaced or {}).items()}
        self.resolver = AnchorResolver()
        self._too_long: Mapping[int, int] = {}
        text = without_surrogates(text)
        split = self._split(text, elsewhere) if elsewhere is not None else None
        lines = split_lines(text)
        self._replaced_lines = self._match_replaced(enumerate(lines))
        self.invalid_utf8 = tuple(invalid_utf8) or self._replaced_spans()
        if split is None:
            self._reset(lines)
        else:
            info, cut, later = split
            self._start(info, islice(lines, cut), LineStore(lines), later)

    @classmethod
    def streamed(cls, lines: StreamedLines, options: Options | None = None) -> Document:
        """The analysis of `lines` without their text: the same results and diagnostics as `Document(text)` of
        the same file, in the memory the results take."""
        document = cls.__new__(cls)
        document.options = options or Options()
        document.resolver = AnchorResolver()
        document._too_long = lines.too_long
        stream = lines.stream()
        head = list(islice(stream, DETECTION_HORIZON))
        info = detect(head, document.options.path)
        later = lines.split(later_pass(info, document.options))
        document._start(info, chain(head, stream), lines, later)
        document.invalid_utf8 = tuple(lines.invalid_utf8)
        document.replaced, document._replaced_lines = {}, {}
        return document

    def _match_replaced(self, numbered: Iterable[tuple[int, str]]) -> dict[int, tuple[int, ...]]:
        """The lines among `numbered` that are lines of the disk as the editor decoded them: their U+FFFD columns."""
        replaced = self.replaced
        return {number: replaced[line] for number, line in numbered if line in replaced} if replaced else {}

    def _replaced_spans(self) -> tuple[Span, ...]:
        return tuple(Span.on_line(number, column, column + 1) for number, columns in self._replaced_lines.items()
                     for column in columns)

    def _follow_replaced(self, start_line: int, end_line: int, replacement: Sequence[str]) -> None:
        """After an edit of lines start_line..end_line: the lines below move, the new ones are matched afresh (an
        undo brings a line back as it was read), and invalid UTF-8 known only from bytes (`analyze_bytes`) is
        forgotten, since the text is no longer theirs."""
        shift = len(replacement) - (end_line + 1 - start_line)
        kept = {number if number < start_line else number + shift: columns
                for number, columns in self._replaced_lines.items() if not start_line <= number <= end_line}
        kept.update(self._match_replaced(enumerate(replacement, start_line)))
        self._replaced_lines = dict(sorted(kept.items()))
        self.invalid_utf8 = self._replaced_spans()

    def reread(self, replaced: Mapping[str, Sequence[int]]) -> None:
        """The file on disk changed (the editor saved it): its lines with invalid UTF-8 are now `replaced`."""
        self.replaced = {line: tuple(columns) for line, columns in replaced.items()}
        self._replaced_lines = self._match_replaced(enumerate(self.lines))
        self.invalid_utf8 = self._replaced_spans()
        self._diagnostics = None

    def _reset(self, lines: list[str]) -> None:
        self._start(detect(lines, self.options.path), lines, LineStore(lines))

    def _split(self, text: str, elsewhere: Elsewhere) -> tuple[FormatInfo, int, Callable[[], PlainResults]] | None:
        """Before this process splits `text` into lines: the lines from the first that starts past the middle go to
        the process `elsewhere` starts, which splits them from the text itself, so neither process reads a string
        the other made (each such read would copy the memory page it lies on). The format, the number of the first
        of those lines, and what gives their results (read here when that process fails). None: no line starts
        past the middle, or no process starts."""
        start = text.find("\n", len(text) // 2) + 1
        if not start:
            return None
        info = detect(_head(text), self.options.path)
        read = later_pass(info, self.options)

        def later() -> PlainResults:
            return read(split_lines(text[start:]))

        waiting = elsewhere(later)
        if waiting is None:
            return None

        def joined() -> PlainResults:
            found = waiting.result()
            return later() if found is None else found

        return info, text.count("\n", 0, start), joined

    def _start(self, info: FormatInfo, lines: Iterable[str], store: Sequence[str],
               later: Callable[[], PlainResults] | None = None) -> None:
        """Analyse `lines` (read once, in order) as a file of format `info`; `store` holds them afterwards. `later`
        gives the results of the file's lines after `lines` (`StreamedLines.split`)."""
        self.format = info
        self.analyzer = analyzer_for(self.format, self.options)
        texts = iter(lines)
        results = PlainResults(self.analyzer.fact_store())
        results.extend(self._line(0, text) for text in islice(texts, 1))
        results.extend(self.analyzer.lines(texts))
        if later is not None:
            results.join(later())
        for number, length in self._too_long.items():  # known once the stream has passed them; line 1 by `_line`
            if number:
                results.replace(number, _too_long(results[number], length))
        self.results = results
        """Every line's result, without a title (`titled` has them)."""
        self.lines: Sequence[str] = store
        self._issue_lines = results.with_issues()
        """The lines whose results have issues, in order: assembling diagnostics visits these, not every line."""
        self._line_diagnostics: dict[int, list[Diagnostic]] = {}
        """Per line, the diagnostics of its line issues as last assembled: an edit drops the lines it touched (every
        line, when lines were added or removed), so a file with thousands of them rebuilds only those."""
        self.resolver.forget()
        self._linked: Linked | None = None
        self._base: Linked | None = None
        """The last link pass run; `_linked` while no edit has changed facts since."""
        self._changed: set[int] | None = set()
        """The lines whose facts changed since `_base` was computed; None once lines were added or removed."""
        self._diagnostics = None

    @property
    def face(self) -> Format:
        """The format's face (`formats.Format`): what features ask instead of testing the format's kind."""
        return format_for(self.format.kind)

    @property
    def session(self) -> Session:
        """The file's link model as its format reads it (`results.Session`, from the link pass): what features ask
        of the file's structure. It follows `linked`: after an edit that changes links, a new one."""
        return self.linked.session

    def _line(self, number: int, text: str) -> LineResult:
        """The line pass of line `number`. A byte order mark, or other space JSON does not allow (`\\v`, `\\f`), at
        the very start is the format's to judge (pi's loader trims the whole file before splitting it, in some
        releases): when it has an issue for it, line 1 is analyzed with that space as spaces, plus that issue."""
        if self._too_long and number in self._too_long:
            return _too_long(self.analyzer.line(text), self._too_long[number])
        text, issue = self._as_read(number, text)
        result = self.analyzer.line(text)
        return result if issue is None else msgspec.structs.replace(result, issues=(issue, *result.issues))

    def _as_read(self, number: int, text: str) -> tuple[str, LineIssue | None]:
        """Line `number`'s text as the line pass reads it, and the format's issue with the space at its start (see
        `_line`): the text with that space as spaces, when there is an issue."""
        lead = 0 if number else leading_trim(text)
        issue = self.face.bom_issue(self.options, text[:lead]) if lead else None
        return (text, None) if issue is None else (" " * lead + text[lead:], issue)

    def title(self, number: int) -> str:
        """How outlines and trees name line `number` (role and first words), made from its text when first asked: a
        document keeps no titles among its results (63 bytes a line of a session pi wrote), since only a feature
        reads them; an opened document's line store keeps those made, compressed with their lines (`label`)."""
        lines = self.lines
        if isinstance(lines, LineStore):
            return lines.label(number, self._name)
        return self._name(number, lines[number])

    def _name(self, number: int, text: str) -> str:
        """Line `number`'s title, made from its `text` as `_line` reads it."""
        return self.analyzer.titles()(self._as_read(number, text)[0], self.results.named(number))

    @property
    def titled(self) -> TitledResults:
        """The results with their titles, each made when read: what a feature that names lines hands its format."""
        return TitledResults(self.results, self.title)

    @property
    def linked(self) -> Linked:
        """The link pass over the current lines, run when first asked for: a burst of edits that change links
        (typing in an id, a paste of many lines) pays for one run when diagnostics or a request need it, not one
        per change. The format's `relink` is tried first: it updates the previous result when the edits since
        changed little (Elyra: one entry's parentId or timestamp, or a result's toolCallId; thndrs: one
        call_id)."""
        if self._linked is None:
            relinked = None
            if self._base is not None and self._changed:
                relinked = self.analyzer.relink(self._base, self.lines, self.results, self._changed)
            self._linked = relinked if relinked is not None else self.analyzer.link(self.lines, self.results)
            self._base, self._changed = self._linked, set()
        return self._linked

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def replace(self, text: str) -> None:
        lines = split_lines(text)
        self._follow_replaced(0, len(self.lines) - 1, lines)
        self._reset(lines)

    def retarget(self, options: Options) -> None:
        """Analyse the same text again for other options (another target pi release states other behaviour)."""
        self.options = options
        self._reset(list(self.lines))

    def edit(self, start_line: int, start_col: int, end_line: int, end_col: int, new_text: str) -> None:
        """Replace the range (code-point columns, end exclusive) with `new_text`, as an LSP change event does."""
        lines, results = self.lines, self.results
        if not isinstance(lines, LineStore):
            raise TypeError("a streamed document is read-only")
        last = len(lines) - 1
        start_line, end_line = min(max(start_line, 0), last), min(max(end_line, 0), last)
        if (end_line, end_col) < (start_line, start_col):
            start_line, start_col, end_line, end_col = end_line, end_col, start_line, start_col
        head = lines[start_line][:start_col]
        tail = lines[end_line][end_col:]
        new_text = without_surrogates(new_text)
        replacement = split_lines(head + new_text + tail)
        old_facts = [(result.kind, result.facts) for result in results[start_line : end_line + 1]]
        ended_with_newline = lines[-1] == ""
        ended_blank = results[-1].kind is LineKind.BLANK
        lines.replace(start_line, end_line + 1, replacement)
        self._follow_replaced(start_line, end_line, replacement)
        moved = len(replacement) != end_line + 1 - start_line
        self.resolver.forget(None if moved else range(start_line, end_line + 1))
        if moved:
            self._line_diagnostics.clear()
        else:
            for number in range(start_line, end_line + 1):
                self._line_diagnostics.pop(number, None)
        if start_line < DETECTION_HORIZON or self.format.kind is Kind.UNKNOWN:
            info = detect(lines, self.options.path)
            if info != self.format:
                self._reset(list(lines))
                return
        new_results = [self._line(start_line + offset, line) for offset, line in enumerate(replacement)]
        self.results = results.spliced(start_line, end_line + 1, new_results)
        self._splice_issue_lines(start_line, end_line, new_results)
        self._diagnostics = None
        if self._base is None:
            return
        # Whether the file ends with "\n", or in a blank line, is seen by the link pass (ELY005, THN071) but is in
        # no line's facts.
        same_shape = (len(replacement) == len(old_facts) and (lines[-1] == "") == ended_with_newline
                      and (self.results[-1].kind is LineKind.BLANK) == ended_blank)
        touched = [start_line + offset for offset, (old, new) in enumerate(zip(old_facts, new_results, strict=False))
                   if old != (new.kind, new.facts)]
        if same_shape and not touched:
            return
        if same_shape and self._changed is not None:
            self._changed.update(touched)
        else:
            self._changed = None
        self._linked = None

    def _splice_issue_lines(self, start_line: int, end_line: int, new_results: list[LineResult]) -> None:
        issue_lines = self._issue_lines
        shift = len(new_results) - (end_line + 1 - start_line)
        low, high = bisect_left(issue_lines, start_line), bisect_right(issue_lines, end_line)
        after = issue_lines[high:]
        issue_lines[low:] = [start_line + offset for offset, result in enumerate(new_results) if result.issues]
        issue_lines.extend([number + shift for number in after] if shift else after)

    def diagnostics(self) -> list[Diagnostic]:
        if self._diagnostics is None:
            self._diagnostics = self._assemble()
        return self._diagnostics

    def _assemble(self) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        last = len(self.lines) - 1
        # after the final "\n": not a line (unless it is the stand-in of a line too long to hold)
        end_of_file = last if self.lines[-1] == "" and last not in self._too_long else None
        results, made = self.results, self._line_diagnostics
        place = self.session.place
        for number in self._issue_lines:
            if number != end_of_file:
                found = made.get(number)
                if found is None:
                    found = made[number] = [_from_line_issue(number, issue) for issue in results[number].issues]
                for diagnostic in found:
                    placed = place(number, diagnostic.code)
                    if placed is not None:
                        note, severity = placed
                        diagnostic = msgspec.structs.replace(diagnostic, message=f"{diagnostic.message} {note}",
                                                             severity=severity or diagnostic.severity)
                    out.append(diagnostic)
        lines = self.lines
        for issue in self.linked.issues:
            span = self.resolver.span(lines, issue.anchor)
            related = tuple(Related(self.resolver.span(lines, r.anchor), r.message) for r in issue.related)
            severity = issue.severity or rule(issue.code).severity
            out.append(Diagnostic(issue.code, span, issue.message, severity, related, issue.data))
        out.extend(self._utf8_diagnostics())
        out.sort(key=lambda d: (d.span.line, d.span.start, d.code))
        return out

    def _utf8_diagnostics(self) -> list[Diagnostic]:
        """What the agent does with the bytes is the format's to say (a file that is not a session has nothing to
        say: its one notice is SLS001)."""
        known = self.face.utf8_issue
        if not self.invalid_utf8 or known is None:
            return []
        code, message = known
        first, *rest = self.invalid_utf8
        related = tuple(Related(span, "another invalid byte sequence") for span in rest[:20])
        editor = EDITOR_DECODING if self.replaced else ""
        count = f" ({len(self.invalid_utf8)} invalid byte sequences)" if rest else ""
        return [Diagnostic(code, first, message + editor + count, rule(code).severity, related)]


def _too_long(result: LineResult, length: int) -> LineResult:
    """The result of a line too long to hold (`length` bytes), streamed as an empty stand-in (analysed as `result`):
    one issue, SLS002."""
    issue = LineIssue("SLS002", 0, 0, f"a line of {length:,} bytes, too long to hold: not read, so nothing on it is "
                      "checked. pi reads each line into one JavaScript string, which holds at most 536,870,888 "
                      "characters: past that it throws \"Invalid string length\" and cannot open the session")
    return msgspec.structs.replace(result, issues=(issue,))


def _from_line_issue(number: int, issue: LineIssue) -> Diagnostic:
    severity: Severity = issue.severity or rule(issue.code).severity
    return Diagnostic(issue.code, Span(number, issue.start, number, issue.end), issue.message, severity, (),
                      issue.data)


def analyze(text: str, options: Options | None = None, invalid_utf8: Sequence[Span] = ()) -> Document:
    return Document(text, options, invalid_utf8)


def analyze_bytes(data: bytes, options: Options | None = None) -> Document:
    """A file's bytes, as the agents read them (UTF-8, invalid sequences replaced and reported)."""
    text, bad = decode_bytes(data)
    return Document(text, options, [Span.on_line(line, start, end) for line, start, end in bad])
