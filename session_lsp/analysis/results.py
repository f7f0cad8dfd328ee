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
from collections.abc import Callable, Collection, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

import msgspec

from .diagnostics import LineIssue, Severity
from .jsonscan import Path
from .lines import LineKind


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
    model: LinkModel | None
    """None for a file that is not a session."""
    issues: list[LinkIssue]


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
    titles: bool = True
    """Whether the line pass names each line (`LineResult.title`, for outlines, trees and hovers): `check` prints
    none, so it neither computes nor keeps them."""


class FormatAnalyzer(Protocol):
    def line(self, text: str) -> LineResult: ...

    def show_titles(self) -> None:
        """From now on, `line` gives titles (for a document analysed without them)."""
        ...

    def title(self, text: str, result: LineResult) -> str:
        """The title of a line `line` analysed without one (as `result`), once `show_titles` was called."""
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
