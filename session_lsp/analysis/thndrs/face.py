"""thndrs as the rest of the core sees it: `FORMAT`, this package's entry in `formats.FORMATS`. Everything outside
the package that depends on the format (detection, the passes, the messages about the file as a whole, what the
editor offers) asks this object.

Detection asks every format's face, so the face imports only what `recognise` reads (the schema's types): the passes,
the repairs and the editing help are imported where a method first needs them, and a check of a file loads only its
own format's."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .. import plain
from ..detect import FormatInfo, Kind
from ..diagnostics import LineIssue
from ..editing import LineTemplate
from ..fixing import Fixers
from ..jsonscan import Path
from ..results import LineResult, Linked, Options
from . import fixes
from .schema import OTHER_BUILD_TYPES, RECORD_TYPES, Record

if TYPE_CHECKING:
    from .facts import LineState

DETECTED_TYPES: frozenset[str] = frozenset(RECORD_TYPES) | frozenset(OTHER_BUILD_TYPES)
"""The record types that make an enveloped first record a thndrs file: 0.1.0's and other builds' (§2.9)."""

_DANGLING: dict[str, tuple[str, str]] = {
    "turn_id": ("`user` record starting this turn", "THN048"),
    "call_id": ("earlier `tool_started` in this turn", "THN040"),
    "tool_call_id": ("earlier `acp_permission_request`", "THN046"),
    "recovery_handle": ("earlier compaction's recovery handle", "THN051"),
    "covered_start_seq": ("record with this seq", "THN050"),
    "covered_end_seq": ("record with this seq", "THN050"),
    "local_session_id": ("session_meta with this session_id", "THN024"),
    "process_id": ("open `running` shell_exec", "THN054"),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ThndrsFormat(plain.Quiet):
    """thndrs's face: what is known of the format before any file (its model's structure is `ThndrsSession`'s)."""

    kind = Kind.THNDRS
    agent = "thndrs"
    title = "thndrs"
    rule_prefix = "THN"
    recognised_by = "thndrs files with a session_meta record"
    schema_root: object = Record
    releases: Mapping[str, object] = {}
    release_option = ""
    default_release = ""
    utf8_issue = ("THN002", "the file is not valid UTF-8: thndrs reads it with read_to_string, which fails, so it "
                            "loads no records at all; `session-lsp fix --unsafe-fixes` writes the invalid bytes "
                            "as U+FFFD")
    file_fields: Mapping[str, str] = {}
    renamed_with_id: tuple[str, ...] = ()
    rename_scope = ""
    fixers: Fixers = fixes.FIXERS
    renumbered: frozenset[str] = fixes.RENUMBERED

    def linked_file(self, field: str, value: str, options: Options) -> str | None:
        """The value is the path itself."""
        return value if field in self.file_fields else None

    def recognise_name(self, path: str) -> FormatInfo | None:
        return None

    def recognise(self, obj: dict[str, Any], line: int) -> FormatInfo | None:
        """A record in thndrs's envelope (integer `schema_version` and `seq`, string `time`) and no `payload`
        (Codex rollouts share the `session_meta` name)."""
        enveloped = (_is_int(obj.get("schema_version")) and _is_int(obj.get("seq"))
                     and isinstance(obj.get("time"), str))
        kind = obj["type"] if isinstance(obj.get("type"), str) else None
        if enveloped and "payload" not in obj and kind in DETECTED_TYPES:
            return FormatInfo(Kind.THNDRS, obj["schema_version"], line)
        return None

    def line_pass(self, options: Options) -> Callable[[str, FormatInfo, Any], LineResult]:
        from .line_pass import analyze_line
        return analyze_line

    def file_pass(self, options: Options) -> Callable[[Iterable[str], FormatInfo, Any], Iterator[LineResult]]:
        from .line_pass import analyze_lines
        return analyze_lines

    def line_state(self, options: Options) -> LineState:
        from .facts import LineState
        return LineState(titles=False)

    def show_titles(self, state: object) -> None:
        from .facts import LineState
        assert isinstance(state, LineState)
        state.titles = True

    def link(self, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
             options: Options) -> Linked:
        from .link_pass import link
        return link(lines, results, info, options)

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
               options: Options, changed: Collection[int]) -> Linked | None:
        from .link_pass import relink
        return relink(previous, lines, results, info, options, changed)

    def bom_issue(self, options: Options, lead: str) -> LineIssue | None:
        """None: line 1 is analysed as written, mark included."""
        return None

    def session_id_in_file_name(self, path: str | None) -> str | None:
        from .editing import session_id_in_file_name
        return session_id_in_file_name(path)

    def required_fields(self, version: int | None, tag: str) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(), frozenset()

    def dangling(self, field: str, facts: object) -> tuple[str, str]:
        return _DANGLING.get(field, ("entry", ""))

    def known_values(self, key: str, options: Options) -> list[tuple[str, str]]:
        from .editing import known_values
        return known_values(key)

    def unknown_to_target(self, container: Path, key: str | int | None, value: object, options: Options) -> str:
        return ""

    def sample(self, now: datetime) -> list[str]:
        from .sample import sample
        return sample(now)

    def first_line(self, now: datetime, path: str | None) -> LineTemplate:
        from .editing import first_line
        return first_line(now, self.session_id_in_file_name(path))



FORMAT = ThndrsFormat()
