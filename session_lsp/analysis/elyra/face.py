"""Elyra as the rest of the core sees it: `FORMAT`, this package's entry in `formats.FORMATS`. Everything outside
the package that depends on the format (detection, the passes, the messages about the file as a whole, what the
editor offers) asks this object.

Detection asks every format's face, so the face imports only what `recognise` and the release options read (the
schema's types, the releases): the passes, the repairs and the editing help are imported where a method first needs
them, and a check of a file loads only its own format's."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from .. import plain
from ..detect import FormatInfo, Kind, pi_version
from ..diagnostics import LineIssue
from ..editing import LineTemplate
from ..fixing import Fixers
from ..jsonscan import Path
from ..results import LineResult, Linked, Options
from .bom import bom_issue
from .releases import DEFAULT_RELEASE, RELEASES, PiRelease, release
from .schema import ENTRY_TYPES, RENAMED_WITH_ID, Line

if TYPE_CHECKING:
    from .fact_columns import FactColumns
    from .line_pass import LineState

HEADERLESS_TYPES: frozenset[str] = ENTRY_TYPES.difference(
    *(row.unknown_entry_types for row in RELEASES.values()))
"""The entry types that make a file without a header an Elyra file: those every known pi release writes."""

_TREE_FIELDS = frozenset({"id", "parentId"})
"""Fields the schema leaves optional because v1 files lack them, but every v2+ entry must have (ELY021)."""
_TREE_ONLY: dict[str, frozenset[str]] = {"compaction": frozenset({"firstKeptEntryId"})}
"""Per entry type: further fields required from v2 on (spec §1.6)."""
_V1_ONLY: dict[str, frozenset[str]] = {"compaction": frozenset({"firstKeptEntryIndex"})}
"""Per entry type: fields only v1 files use (in a v2+ file they are stale: ELY023)."""

_DANGLING: dict[str, tuple[str, str]] = {
    "parentId": ("entry", "ELY042"),
    "firstKeptEntryId": ("entry", "ELY050"),
    "fromId": ("entry", "ELY052"),
    "targetId": ("entry", "ELY053"),
    "toolCallId": ("tool call on this entry's path", "ELY070"),
}


class ElyraFormat(plain.Quiet):
    """Elyra's face: what is known of the format before any file (its model's structure is `ElyraSession`'s)."""

    kind = Kind.ELYRA
    agent = "pi"
    title = "Elyra (pi)"
    rule_prefix = "ELY"
    recognised_by = "Elyra files start with a {\"type\":\"session\"} header"
    schema_root: object = Line
    releases: Mapping[str, PiRelease] = RELEASES
    release_option = "pi"
    default_release = DEFAULT_RELEASE
    """The pi releases messages can speak for (`Options.pi_version`); adding one is adding a row there."""
    utf8_issue = ("ELY006", "the file is not valid UTF-8: the agent reads it with U+FFFD replacement characters, "
                            "altering the text (a migration rewrite makes it permanent); `session-lsp fix "
                            "--unsafe-fixes` writes them as U+FFFD (and drops a stray byte that breaks the JSON)")
    file_fields: Mapping[str, str] = {
        "parentSession": "the session file this one was forked or branched from",
        "branchedFrom": "the legacy (v1/v2) name of `parentSession`: the file this session was branched from; "
                        "current pi ignores this key",
        "fullOutputPath": "the file holding the command's full output",
    }
    renamed_with_id = RENAMED_WITH_ID
    rename_scope = (f"an Elyra entry id (or a {', '.join(RENAMED_WITH_ID[:-1])} or "
                    f"{RENAMED_WITH_ID[-1]} naming one) or a tool call id (or a toolCallId naming one)")
    renumbered: frozenset[str] = frozenset()

    @property
    def fixers(self) -> Fixers:
        from .fixes import FIXERS
        return FIXERS

    def linked_file(self, field: str, value: str, options: Options) -> str | None:
        """The value is the path itself."""
        return value if field in self.file_fields else None

    def recognise_name(self, path: str) -> FormatInfo | None:
        return None

    def recognise(self, obj: dict[str, Any], line: int) -> FormatInfo | None:
        """A `session` header, or (a file whose header is missing) an entry with its tree links or its message."""
        kind = obj["type"] if isinstance(obj.get("type"), str) else None
        if kind == "session" and "schema_version" not in obj and "seq" not in obj:
            return FormatInfo(Kind.ELYRA, pi_version(obj), line)
        message = obj.get("message")
        if kind in HEADERLESS_TYPES and "schema_version" not in obj and (
            ("id" in obj and "parentId" in obj) or (kind == "message" and isinstance(message, dict)
                                                    and "role" in message)
        ):
            return FormatInfo(Kind.ELYRA, None, line)
        return None

    def line_pass(self, options: Options) -> Callable[[str, FormatInfo, Any], LineResult]:
        from .line_pass import analyze_line
        return partial(analyze_line, release=release(options.pi_version), line_end=True)

    def file_pass(self, options: Options) -> Callable[[Iterable[str], FormatInfo, Any], Iterator[LineResult]]:
        from .line_pass import analyze_lines
        return partial(analyze_lines, release=release(options.pi_version))

    def line_state(self, options: Options) -> LineState:
        from .line_pass import LineState
        return LineState(titles=False)

    def fact_store(self, state: object) -> FactColumns:
        from .fact_columns import FactColumns
        from .line_pass import LineState
        assert isinstance(state, LineState)
        columns = FactColumns()
        state.writer = columns.writer()
        return columns

    def show_titles(self, state: object) -> None:
        from .line_pass import LineState
        assert isinstance(state, LineState)
        state.titles = True

    def line_titles(self, state: object) -> Callable[[str, LineResult], str | None]:
        from .line_pass import LineState, line_title
        assert isinstance(state, LineState)
        return partial(line_title, state=state)

    def link(self, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
             options: Options) -> Linked:
        from .link_pass import link
        return link(lines, results, info, options)

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
               options: Options, changed: Collection[int]) -> Linked | None:
        from .link_pass import relink
        return relink(previous, lines, results, info, options, changed)

    def bom_issue(self, options: Options, lead: str) -> LineIssue | None:
        """pi's loader trims the whole file before splitting it (in some releases), so line 1 is read without the
        mark or space; what the targeted release does then is ELY008."""
        return bom_issue(options.pi_version, lead)

    def session_id_in_file_name(self, path: str | None) -> str | None:
        from .link_pass import id_in_file_name
        return id_in_file_name(path)

    def required_fields(self, version: int | None, tag: str) -> tuple[frozenset[str], frozenset[str]]:
        """The schema accepts every version, so it leaves an entry's `id`, `parentId` (and a compaction's
        `firstKeptEntryId`) optional: v1 entries have none of them. From v2 on they are required (spec §1.5, §1.6)
        and the v1-only `firstKeptEntryIndex` is stale."""
        if version is None or version < 2 or tag == "session":
            return frozenset(), frozenset()
        return _TREE_FIELDS | _TREE_ONLY.get(tag, frozenset()), _V1_ONLY.get(tag, frozenset())

    def dangling(self, field: str, facts: object) -> tuple[str, str]:
        if field == "targetId" and getattr(facts, "type", None) == "context_edit":
            return "entry", "ELY058"
        return _DANGLING.get(field, ("entry", ""))

    def known_values(self, key: str, options: Options) -> list[tuple[str, str]]:
        from .editing import known_values
        return known_values(key, options)

    def unknown_to_target(self, container: Path, key: str | int | None, value: object, options: Options) -> str:
        from .editing import unknown_to_target
        return unknown_to_target(container, key, value, options)

    def sample(self, now: datetime) -> list[str]:
        from .sample import sample
        return sample(now)

    def first_line(self, now: datetime, path: str | None) -> LineTemplate:
        from .editing import first_line
        return first_line(now, self.session_id_in_file_name(path))



FORMAT = ElyraFormat()
