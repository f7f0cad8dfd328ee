"""One face per format: what the rest of the core and the editor features may know of a format, and the table of
them. Each format package exports its `FORMAT` (`elyra/face.py`, `thndrs/face.py`, `plain.py`); nothing outside a
package reaches into it, so a third format, or a new pi release, lands in that one package (and its row here).

A face is static: it knows the format, never a file. What a file's link model tells (outline, cards, renames, the
tree and context payloads, ...) is the `results.Session` its link pass returns on `Linked.session`
(`Document.session`), bound to that model: no feature hands a model back to a face.

Detection lives here too: it asks every format in turn whether a file's first JSON object is one of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from . import claude, codex, elyra, plain, thndrs
from .detect import UNKNOWN, FormatInfo, Kind, first_objects
from .diagnostics import LineIssue
from .editing import LineTemplate
from .fixing import Fixers
from .jsonscan import Path
from .results import FactStore, LineResult, Linked, Options, Session

LinePass = Callable[[str, FormatInfo, Any], LineResult]
"""A format's line pass: one line, the file's format, and the format's line state (`elyra.line_pass.LineState`, ...)."""
FilePass = Callable[[Iterable[str], FormatInfo, Any], Iterator[LineResult]]
"""A format's line pass over a file's lines in order, with the same arguments: what `LinePass` gives each line."""


class Format(Protocol):
    """A format as seen from outside its package, before any file: detection, schema, releases, the two passes and
    what the editor may know of the format as such. Nothing here takes a link model: a file's structure is its
    `Session` (`Linked.session`), which `link` and `relink` make. `results` are a document's line results."""

    @property
    def kind(self) -> Kind: ...

    @property
    def title(self) -> str:
        """How people name the format ("Elyra (pi)", "Claude Code"): in help, in SLS001, in the rules' headings."""
        ...

    @property
    def rule_prefix(self) -> str:
        """The prefix of this format's rule codes ("ELY")."""
        ...

    @property
    def recognised_by(self) -> str:
        """How a file of this format is told, for SLS001 ("Elyra files start with ..."); "" for no format."""
        ...

    @property
    def agent(self) -> str:
        """How messages name the program that reads such files ("pi", "thndrs")."""
        ...

    @property
    def schema_root(self) -> object:
        """The msgspec type of one line (a tagged union), which completion and hover inspect; None for none."""
        ...

    @property
    def releases(self) -> Mapping[str, object]:
        """The agent's releases whose behaviour messages can state, by `Options.pi_version` key (pi's)."""
        ...

    @property
    def release_option(self) -> str:
        """The word naming the release option, `--<word>-version` and the `<word>Version` setting ("pi",
        "claude"); "" for a format without releases."""
        ...

    @property
    def default_release(self) -> str:
        """The key of `releases` targeted when none is chosen (the newest verified); "" for none."""
        ...

    def release_for(self, version: str) -> tuple[str, str | None]:
        """The key of the release row that speaks for the agent `version` a user names (MAJOR.MINOR[.PATCH]), and
        what it was read as when that is another release's row (None when it names its own). A malformed version,
        or one older than every row, is a ValueError whose message is meant for the user."""
        ...

    @property
    def utf8_issue(self) -> tuple[str, str] | None:
        """The code and message of a file with invalid UTF-8 (what the agent does with it); None: not reported."""
        ...

    @property
    def file_fields(self) -> Mapping[str, str]:
        """Fields whose value is a path to another file, with what that file is."""
        ...

    def linked_file(self, field: str, value: str, options: Options) -> str | None:
        """The path of the file the value of a `file_fields` field names (the file being `options.path`)."""
        ...

    @property
    def renamed_with_id(self) -> tuple[str, ...]:
        """Fields naming another line by its id as is: renaming the id changes them too."""
        ...

    @property
    def rename_scope(self) -> str:
        """What a rename can change, for the answer to one asked elsewhere ("": nothing in such a file)."""
        ...

    def recognise(self, obj: dict[str, Any], line: int) -> FormatInfo | None:
        """This format, when a file's first JSON object (on `line`) is one of its lines; else None."""
        ...

    def recognise_name(self, path: str) -> FormatInfo | None:
        """This format, for a file with no JSON object to recognise (empty, or all damage) whose name is one the
        agent gives its sessions; else None."""
        ...

    def line_pass(self, options: Options) -> LinePass: ...

    def file_pass(self, options: Options) -> FilePass | None:
        """The line pass of a whole file in one loop, for a format whose call a line would cost as much as the
        work of most lines; None: `line_pass` is called on each line."""
        ...

    def line_state(self, options: Options) -> object:
        """A fresh state for the line pass of one file, which names no line (a document keeps no titles)."""
        ...

    def show_titles(self, state: object) -> None:
        """From now on, the line pass with this state names lines (`Document.title`'s own state)."""
        ...

    def fact_store(self, state: object) -> FactStore:
        """Where a document keeps its lines' facts, bound to its line state: empty, filled in line order as a list
        is (`append`), and the file pass with that state may write a line's facts into it itself (yielding
        `result_store.IN_STORE`); an edit changes a `copy`. A list, or a format's compact store
        (`elyra.fact_columns`)."""
        ...

    def line_titles(self, state: object) -> Callable[[str, LineResult], str | None]:
        """What names a line of a file (whose line pass made no title), bound to a line state that names lines
        (asked once a document): a line's title made from its `result` when the format can; None: the caller runs
        the line pass again for it."""
        ...

    def link(self, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
             options: Options) -> Linked: ...

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
               options: Options, changed: Collection[int]) -> Linked | None:
        """`link`'s result from `previous` after edits that changed only the facts of `changed`, or None."""
        ...

    def bom_issue(self, options: Options, lead: str) -> LineIssue | None:
        """For a file starting with a byte order mark or other space JavaScript's `trim` removes and JSON does not
        allow (`lead`, that space): the issue on it, line 1 then being analysed with it as spaces; None: line 1 is
        analysed as written."""
        ...

    def session_id_in_file_name(self, path: str | None) -> str | None:
        """The session id a file name the agent chose carries."""
        ...

    def required_fields(self, version: int | None, tag: str) -> tuple[frozenset[str], frozenset[str]]:
        """For a line of type `tag` in a file of this version: the fields required although the schema leaves them
        optional, and the fields that are stale there."""
        ...

    def dangling(self, field: str, facts: object) -> tuple[str, str]:
        """For a reference field of a line with these facts: what it should name, and the rule (or "") whose
        reason says what the agent does when it names nothing."""
        ...

    def known_values(self, key: str, options: Options) -> list[tuple[str, str]]:
        """(value, detail) for a string field the agent writes only some values in."""
        ...

    def unknown_to_target(self, container: Path, key: str | int | None, value: object, options: Options) -> str:
        """A note for a tag value the targeted release does not know ("" when it does)."""
        ...

    @property
    def fixers(self) -> Fixers:
        """This format's repairs: rule code -> (phase, fixer), in its package's `fixes.py` (the shared ones from
        `fixing.generic`); `features/fixes.py` applies them."""
        ...

    @property
    def renumbered(self) -> frozenset[str]:
        """The rule codes one renumbering of the file's records repairs (the session's `renumbering`)."""
        ...

    def sample(self, now: datetime) -> list[str]:
        """A minimal valid session of this format, line by line, as the agent writes one (`session-lsp new`); [] for
        a format with none."""
        ...

    def first_line(self, now: datetime, path: str | None) -> LineTemplate | None:
        """The line that makes an empty file (named `path`) a session of this format."""
        ...


_SESSIONS: tuple[Format, ...] = (elyra.FORMAT, thndrs.FORMAT, claude.FORMAT, codex.FORMAT)
FORMATS: Mapping[Kind, Format] = {**{face.kind: face for face in _SESSIONS}, Kind.UNKNOWN: plain.PlainFormat(_SESSIONS)}
"""Every `Kind`'s face; detection asks them in this order."""

__all__ = ["FORMATS", "FilePass", "Format", "LinePass", "Session", "detect", "format_for", "session_formats",
           "with_releases"]


def session_formats() -> list[Format]:
    """The formats a session file can be in (every face but the plain one's), in detection order."""
    return list(_SESSIONS)


def with_releases() -> list[Format]:
    """The formats whose release can be chosen, for the CLI's and the server's release options."""
    return [face for face in FORMATS.values() if face.release_option]


def format_for(kind: Kind) -> Format:
    return FORMATS[kind]


def detect(lines: Sequence[str], path: str | None = None) -> FormatInfo:
    """Which format a file is (spec section 3), from its first JSON object. That first line can be foreign (another
    agent's line, a header pasted from elsewhere): the first objects vote, each for the format that recognises it,
    and the first object of the format most of them name decides (the first object on a tie; it must be one of the
    first two), so a session whose
    header was replaced is still told that it has none. A file without any object is recognised by its name."""
    seen = [_recognised(obj, number) for number, obj in first_objects(lines, VOTERS)]
    if not seen:
        for face in FORMATS.values() if path else ():
            info = face.recognise_name(path or "")
            if info is not None:
                return info
        return UNKNOWN
    votes = Counter(info.kind for info in seen if info is not None)
    if not votes:
        return UNKNOWN
    most = max(votes.values())
    index, winner = next((index, info) for index, info in enumerate(seen)
                         if info is not None and votes[info.kind] == most)
    return winner if index <= FOREIGN_LINES else UNKNOWN


def _recognised(obj: dict[str, Any], number: int) -> FormatInfo | None:
    for face in FORMATS.values():
        info = face.recognise(obj, number)
        if info is not None:
            return info
    return None


VOTERS = 3
"""How many first objects vote on a file's format: a foreign line in the header's place is outvoted by the two
records after it."""
FOREIGN_LINES = 1
"""How many foreign first objects detection looks past: one, in the header's place (more, and the file is some other
JSON Lines that happens to hold an entry-like object)."""
