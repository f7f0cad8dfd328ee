"""The shapes that pass between the layers of the core.

A format analyzer works in two passes:

* `line(text)` looks at one line alone and returns a `LineResult`: its kind, line-local issues (columns only, no
  line number) and the `facts` the link pass needs. Results are cached per line and recomputed only for lines an
  edit touches.
* `link(lines, results)` looks across lines (ids, parents, pairs, sequences) and returns a `Linked`: the link
  model and `LinkIssue`s anchored to a line and a JSON path, not to columns.

`facts` are frozen, comparable values. When an edit leaves every touched line's facts equal, the previous `Linked`
is still right and is reused (early cutoff): typing inside a message's text never re-runs the link pass.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol, overload, runtime_checkable

import msgspec

from .diagnostics import LineIssue, Severity
from .editing import LineTemplate
from .jsonscan import Path
from .lines import LineKind
from .payload_types import Buffer
from .structure import Budget, Hint, Lens, Outline, RenameTarget, Renumbering


class Mark(enum.Enum):
    """Which part of the member at a finding's path a diagnostic covers."""

    VALUE = "value"
    KEY = "key"
    MISSING = "missing"
    """The path names an absent member: mark the enclosing object's key, or its first key when it has none."""


class Finding(NamedTuple):
    """A line-pass problem before it has columns: a check names a JSON path, and the format's line pass turns it
    into a `LineIssue` only when there is one, so a clean line never pays for positions."""

    code: str
    path: Path
    mark: Mark
    message: str
    severity: Severity | None = None


class LineResult(msgspec.Struct, gc=False):
    """Holds only frozen values, never a cycle, so the garbage collector need not track 100,000 of them. A line
    without a title (every line `check` reads) is this class, three slots; a title, and the parts of a glued line,
    take a subclass (`line_result` picks it), so a million-line file does not keep two empty slots a line."""

    kind: LineKind
    facts: Any = None
    issues: tuple[LineIssue, ...] = ()

    @property
    def title(self) -> str:
        """How outlines and trees name this line (role and first words); not read by the link pass."""
        return ""

    @property
    def parts(self) -> tuple[int, ...]:
        """For glued lines: the column where each record starts."""
        return ()


class TitledResult(LineResult, gc=False):
    title: str = ""


class GluedResult(TitledResult, gc=False):
    parts: tuple[int, ...] = ()


def line_result(kind: LineKind, facts: Any = None, issues: tuple[LineIssue, ...] = (), title: str = "",
                parts: tuple[int, ...] = ()) -> LineResult:
    """The smallest result that holds these values."""
    if parts:
        return GluedResult(kind, facts, issues, title, parts)
    if title:
        return TitledResult(kind, facts, issues, title)
    return LineResult(kind, facts, issues)


class Anchor(msgspec.Struct, frozen=True):
    """A place named by line and JSON path; resolved to columns only when diagnostics are shown. An empty path
    means the whole line; `key=True` means the key of the member at `path` rather than its value."""

    line: int
    path: Path = ()
    key: bool = False


class RelatedAnchor(msgspec.Struct, frozen=True):
    anchor: Anchor
    message: str


class LinkIssue(msgspec.Struct, frozen=True):
    code: str
    anchor: Anchor
    message: str
    severity: Severity | None = None
    related: tuple[RelatedAnchor, ...] = ()
    data: dict[str, Any] | None = None


class Linked(msgspec.Struct):
    """What a format's link pass (or relink) gives: its model, the issues it found and the `Session` bound to that
    model. An edit that changes facts gets a new `Linked` (a new model, a new session); one that does not keeps
    this one, so a session binds only what such an edit leaves as it was (the model, the format, the options)."""

    model: LinkModel | None
    """None for a file that is not a session."""
    issues: list[LinkIssue]
    session: Session
    """The file's structure as its format reads it from `model` (`Document.session`)."""


class Options(msgspec.Struct, frozen=True):
    """What the caller knows about the file. The core reads no file: `exists` is the caller's, if it has one."""

    path: str | None = None
    exists: Callable[[str], bool] | None = None
    pi_version: str | None = None
    """The pi release whose behaviour messages state (a key of `elyra.releases.RELEASES`); None: the newest."""
    releases: tuple[tuple[str, str], ...] = ()
    """(a face's `release_option`, a key of its `releases`) for each format whose targeted release was chosen
    (`--claude-version`, `sessionLsp.claudeVersion`); a format not named here targets its `default_release`."""
    now: float | None = None
    """When the agent resumes the file, in Unix milliseconds (what Claude Code does with a turn that ended in an API
    error depends on the error's age); None: long after the file was last written."""


class FactStore(Protocol):
    """Where a document's facts are kept, line by line: a list, or a format's store (`Format.fact_store`)."""

    def append(self, facts: Any, /) -> None: ...

    def extend(self, later: Any, /) -> None:
        """Append the facts of `later`, a store of the same kind holding the file's next lines, filled by a line
        pass of its own (a list: `list.extend`)."""
        ...

    @overload
    def __setitem__(self, line: int, facts: Any, /) -> None: ...

    @overload
    def __setitem__(self, lines: slice, facts: list[Any], /) -> None: ...

    def __setitem__(self, line: int | slice, facts: Any, /) -> None:
        """A line's facts replaced; or, by a slice (step 1), a run of lines by any number of lines (an edit)."""
        ...

    def __getitem__(self, line: int, /) -> Any: ...

    def copy(self) -> FactStore:
        """A store equal to this one that an edit may change while this one stays as it is (a link model reads it)."""
        ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...


class FormatAnalyzer(Protocol):
    def line(self, text: str) -> LineResult: ...

    def lines(self, texts: Iterable[str]) -> Iterator[LineResult]:
        """`line` of each text, in order: a file's line pass, without a call a line to get there."""
        ...

    def fact_store(self) -> FactStore:
        """Where a document keeps the facts of `lines` (the format's `fact_store`), asked before them."""
        ...

    def titles(self) -> Callable[[str, LineResult], str]:
        """What gives the title of a line (its text, and `result`, what `line` gave for it): a document's line pass
        names no line, and a title is made only when a feature reads it."""
        ...

    def link(self, lines: Sequence[str], results: Sequence[LineResult]) -> Linked: ...

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult],
               changed: Collection[int]) -> Linked | None:
        """`link`'s result after edits that changed the facts of the lines in `changed` (and nothing else), from
        `previous`; or None when only a full `link` can tell."""
        ...


class Reference(msgspec.Struct, frozen=True):
    """One link written in the file: the value at `path` on `line` names the entry/record on line `target`
    (None when it names nothing: a dangling reference). `field` is the JSON key, e.g. "parentId", "call_id"."""

    line: int
    path: Path
    field: str
    value: str
    target: int | None


@runtime_checkable
class LinkModel(Protocol):
    """What every format's link model offers the features itself: the links written in the file (hover,
    definition, references, rename). Its structure (outline, folding, lenses, hints, cards, fixes, the custom
    requests' payloads) is the format's to tell: the features ask the face (`formats.Format`), which reads its own
    model, so a new format brings its model and face and no feature changes."""

    def references_from(self, line: int) -> Sequence[Reference]:
        """The links written on this line."""
        ...

    def references_to(self, line: int) -> Sequence[Reference]:
        """The links elsewhere whose target is this line."""
        ...

    def identity(self, line: int) -> tuple[Path, str] | None:
        """The path and value of the field that other lines use to name this line's entry (Elyra: ("id",) and
        the id; thndrs: ("turn_id",) for a turn's user record, ("call_id",) for tool_started, ...), or None."""
        ...


class Session(Protocol):
    """A format's link model as the features see it: made by the format's link pass (and relink) with the model,
    the detected format (`FormatInfo`) and the options bound, and carried on `Linked`, so a feature asks
    `doc.session` and never hands a model back. Each format's class (`elyra/session.py`, ...) holds its own typed
    model; `plain.NoSession` answers nothing, and a format inherits from it what it has no structure for. `lines`
    and `results` are passed, not bound: an edit that changes no facts (typing in a message) keeps the session but
    not the lines' text; a feature that names lines passes `Document.titled`."""

    def place(self, line: int, code: str) -> tuple[str, Severity | None] | None:
        """Where the entry of a line-pass issue (rule `code`, on `line`) sits in the model, when that changes what
        the issue means: a note to add to its message and a severity (None: the rule's); None when nothing
        changes."""
        ...

    def reference_values(self, results: Sequence[LineResult], line: int, key: str,
                         levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
        """(value, detail) for the reference field `key` being written on `line`; `levels` are the members known
        of each object on the cursor's path."""
        ...

    def id_in_use(self, candidate: str) -> bool: ...

    def flagged(self, line: int, container: Path, key: str | None, value: Any,
                levels: Sequence[dict[str, Any]]) -> bool:
        """Whether a value the schema allows at `container`/`key` is one the checker flags on `line`, so the
        editor does not offer it."""
        ...

    def new_lines(self, results: Sequence[LineResult], line: int, now: datetime) -> list[LineTemplate]:
        """Every line the agent could append at `line`, with what the lines above fix."""
        ...

    # The file's structure, in the neutral shapes of `structure`; a format without some structure answers with
    # nothing (an empty list, None).

    def outline(self, results: Sequence[LineResult], title: Callable[[int], str], budget: Budget) -> Outline:
        """The document outline, as far as `budget` lets it go (each node shown takes one; what is left out is
        added to `budget.cut`, counted in the outline's noun); `title` names a line (`Document.title`)."""
        ...

    def folds(self, results: Sequence[LineResult]) -> list[tuple[int, int]]:
        """(first, last line) of each stretch of lines that folds as one."""
        ...

    def lenses(self) -> list[Lens]:
        """The code lenses, in the order they are shown."""
        ...

    def hints(self, first: int, last: int) -> list[Hint]:
        """The inlay hints on lines `first`..`last` (inclusive, both in the file); costs O(lines in the range)."""
        ...

    def card_rows(self, line: int, record: Mapping[str, Any]) -> list[str]:
        """The markdown rows of the card that describes this line (`record`: its decoded object, {} if none)."""
        ...

    def call_card(self, line: int, call_id: str) -> tuple[str, list[str]] | None:
        """(heading, rows) of the card of the call named `call_id` that this line makes, or None."""
        ...

    def rename_target(self, line: int, path: Path, value: str | None) -> RenameTarget | None:
        """What a rename with the cursor at `path` on `line` (where the string `value` is written) changes."""
        ...

    def rename_refusal(self, target: RenameTarget, new_name: str) -> str | None:
        """Why `new_name` cannot replace the target's value, or None. Not asked for a non-empty name equal to the
        value (that rename changes nothing)."""
        ...

    def reid(self, line: int) -> RenameTarget | None:
        """For the later of two lines declaring one value (a duplicate id): its declaration, then the places after
        it (up to the next line declaring the value) that name the value: they meant this line, so they follow it
        to a fresh value. None when the line declares nothing that can be given one."""
        ...

    def renumbering(self) -> Renumbering:
        """The record numbers in line order as the agent writes them, and where the file differs."""
        ...

    def tree(self, results: Sequence[LineResult], title: Callable[[int], str]) -> list[Buffer]:
        """The JSON of `sessionLsp/tree` (the whole conversation structure), in parts: a million-entry session's
        nodes are never all held at once. `title`: a line's title (`Document.title`), read once for each node."""
        ...

    def context(self, lines: Sequence[str], results: Sequence[LineResult], line: int,
                now: float | None = None) -> msgspec.Struct:
        """The payload of `sessionLsp/context`: what the agent would send from `line`, resuming at `now` (Unix
        milliseconds; None: at `Options.now`). A server's document is analysed once for many requests, each asked
        at its own time."""
        ...
