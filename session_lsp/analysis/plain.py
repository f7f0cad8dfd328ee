"""Files that are not sessions: ordinary JSON Lines and look-alikes stay quiet. `FORMAT` is the entry of
`formats.FORMATS` for `Kind.UNKNOWN`: it recognises nothing, checks nothing, and offers nothing but the notice that
the file is not checked; its link pass gives a `NoSession`, the null `results.Session` every format's session
inherits what it has no structure for from."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import msgspec

from .detect import FormatInfo, Kind
from .diagnostics import LineIssue, Severity
from .editing import LineTemplate
from .fixing import Fixer
from .jsonscan import Path
from .lines import LineKind, is_blank
from .payload_types import Buffer, OtherTree, TurnContext
from .results import Anchor, FactStore, LineResult, Linked, LinkIssue, Options
from .structure import Budget, Hint, Lens, Outline, RenameTarget, Renumbering


class Named(Protocol):
    """What SLS001 says of each session format (`formats.Format`, whose table makes the plain face)."""

    @property
    def title(self) -> str: ...

    @property
    def recognised_by(self) -> str: ...


def _line(text: str, info: FormatInfo, state: object) -> LineResult:
    return LineResult(LineKind.BLANK if is_blank(text) else LineKind.OBJECT)


_VERSION = re.compile(r"\d{1,6}(?:\.\d{1,6}){1,2}", re.ASCII)


def _version(text: str, agent: str, example: str) -> tuple[int, ...]:
    if _VERSION.fullmatch(text) is None:
        raise ValueError(f"expected a {agent} version MAJOR.MINOR or MAJOR.MINOR.PATCH (e.g. {example}), got {text!r}")
    return tuple(int(part) for part in text.split("."))


class Quiet:
    """What a format's face shares: `release_for` read from its `releases`. A face inherits it; plain files have no
    releases."""

    releases: Mapping[str, object]
    agent: str
    title: str
    default_release: str

    def release_for(self, version: str) -> tuple[str, str | None]:
        """The row of `releases` (keys MAJOR.MINOR[.PATCH]) that speaks for `version`: its own (a shorter key stands
        for every later part of it), else the newest known release older than it."""
        wanted = _version(version, self.agent, self.default_release)
        rows = sorted(self.releases, key=lambda key: _version(key, self.agent, key))
        for key in rows:
            if wanted[: len(_version(key, self.agent, key))] == _version(key, self.agent, key):
                return key, None
        older = [key for key in rows if _version(key, self.agent, key) < wanted]
        if not older:
            raise ValueError(f"{self.agent} {version} is older than the oldest release session-lsp knows "
                             f"({self.agent} {rows[0] if rows else 'none'}; known: {', '.join(rows)})")
        return older[-1], (f"{self.agent} {version} is not a release session-lsp knows: it is read as {self.agent} "
                           f"{older[-1]}, the newest known release older than it")

    def file_pass(self, options: Options) -> Callable[[Iterable[str], FormatInfo, Any], Iterator[LineResult]] | None:
        """No loop of its own: the document calls the line pass on each line."""
        return None

    def line_titles(self, state: object) -> Callable[[str, LineResult], str | None]:
        """No titles made from results: the line pass names each line again."""
        return _named_again

    def fact_store(self, state: object) -> FactStore:
        """A list: the results' facts as they are."""
        return []


def _named_again(text: str, result: LineResult) -> None:
    return None


class NoSession:
    """The `results.Session` of a file with no structure to offer: no outline, folds, lenses or hints, no cards,
    nothing to rename or renumber, no values to suggest, a tree and a context that name only the file's format.
    Plain files have this one; a format's session inherits it and answers what its model has."""

    __slots__ = ("info", "options")

    def __init__(self, info: FormatInfo, options: Options) -> None:
        self.info = info
        self.options = options

    def place(self, line: int, code: str) -> tuple[str, Severity | None] | None:
        """Nothing: a file without a model places nothing."""
        return None

    def reference_values(self, results: Sequence[LineResult], line: int, key: str,
                         levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
        return []

    def id_in_use(self, candidate: str) -> bool:
        return False

    def flagged(self, line: int, container: Path, key: str | None, value: Any,
                levels: Sequence[dict[str, Any]]) -> bool:
        return False

    def new_lines(self, results: Sequence[LineResult], line: int, now: datetime) -> list[LineTemplate]:
        return []

    def outline(self, results: Sequence[LineResult], title: Callable[[int], str], budget: Budget) -> Outline:
        return Outline([], "lines")

    def folds(self, results: Sequence[LineResult]) -> list[tuple[int, int]]:
        return []

    def lenses(self) -> list[Lens]:
        return []

    def hints(self, first: int, last: int) -> list[Hint]:
        return []

    def card_rows(self, line: int, record: Mapping[str, Any]) -> list[str]:
        return []

    def call_card(self, line: int, call_id: str) -> tuple[str, list[str]] | None:
        return None

    def rename_target(self, line: int, path: Path, value: str | None) -> RenameTarget | None:
        return None

    def rename_refusal(self, target: RenameTarget, new_name: str) -> str | None:
        return None

    def reid(self, line: int) -> RenameTarget | None:
        return None

    def renumbering(self) -> Renumbering:
        return Renumbering(0, ())

    def tree(self, results: Sequence[LineResult], title: Callable[[int], str]) -> list[Buffer]:
        """The file's format and nothing else."""
        info = self.info
        return [msgspec.json.encode(OtherTree(info.kind.value, info.version, info.label, 0, ()))]

    def context(self, lines: Sequence[str], results: Sequence[LineResult], line: int,
                now: float | None = None) -> msgspec.Struct:
        """No turn: the empty context (in the shape thndrs answers with)."""
        info = self.info
        return TurnContext(info.kind.value, info.version, info.label, None, [])


class PlainFormat(Quiet):
    """The face of a file in no session format; `formats.FORMATS` makes it with the session formats' faces, which
    its one notice (SLS001) names."""

    kind = Kind.UNKNOWN
    agent = ""
    title = "not a session"
    rule_prefix = "SLS"
    recognised_by = ""
    schema_root: object = None
    releases: Mapping[str, object] = {}
    release_option = ""
    default_release = ""
    utf8_issue = None
    """A file that is not a session is left alone, whatever its bytes (its one notice is SLS001)."""
    file_fields: Mapping[str, str] = {}
    renamed_with_id: tuple[str, ...] = ()
    rename_scope = ""
    fixers: Mapping[str, tuple[int, Fixer]] = {}
    renumbered: frozenset[str] = frozenset()

    def __init__(self, sessions: Sequence[Named]) -> None:
        names = [face.title for face in sessions]
        self.not_a_session = (f"not a recognised {', '.join(names[:-1])} or {names[-1]} session file: nothing is "
                              f"checked ({', '.join(face.recognised_by for face in sessions)})")

    def linked_file(self, field: str, value: str, options: Options) -> str | None:
        """The value is the path itself."""
        return value if field in self.file_fields else None

    def recognise_name(self, path: str) -> FormatInfo | None:
        return None

    def recognise(self, obj: dict[str, Any], line: int) -> FormatInfo | None:
        return None

    def line_pass(self, options: Options) -> Callable[[str, FormatInfo, Any], LineResult]:
        return _line

    def line_state(self, options: Options) -> None:
        return None

    def show_titles(self, state: object) -> None:
        """Plain lines have no titles."""

    def line_titles(self, state: object) -> Callable[[str, LineResult], str | None]:
        return _untitled

    def link(self, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
             options: Options) -> Linked:
        session = NoSession(info, options)
        if all(is_blank(line) for line in lines):
            return Linked(None, [], session)
        return Linked(None, [LinkIssue("SLS001", Anchor(0), self.not_a_session)], session)

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
               options: Options, changed: Collection[int]) -> Linked | None:
        return None

    def bom_issue(self, options: Options, lead: str) -> LineIssue | None:
        return None

    def session_id_in_file_name(self, path: str | None) -> str | None:
        return None

    def required_fields(self, version: int | None, tag: str) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(), frozenset()

    def dangling(self, field: str, facts: object) -> tuple[str, str]:
        return "entry", ""

    def known_values(self, key: str, options: Options) -> list[tuple[str, str]]:
        return []

    def unknown_to_target(self, container: Path, key: str | int | None, value: object, options: Options) -> str:
        return ""

    def sample(self, now: datetime) -> list[str]:
        return []

    def first_line(self, now: datetime, path: str | None) -> LineTemplate | None:
        return None


def _untitled(text: str, result: LineResult) -> str:
    return ""
