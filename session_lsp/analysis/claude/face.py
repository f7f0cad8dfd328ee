"""Claude Code as the rest of the core sees it: `FORMAT`, this package's entry in `formats.FORMATS`. Everything
outside the package that depends on the format (detection, the passes, what the editor is offered, the structure
and payloads read from the model) asks this object.

Detection asks every format's face, so the face imports only what `recognise` reads (the schema's types, the file
names): the passes, the repairs and the editing help are imported where a method first needs them, and a check of a
file loads only its own format's."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .. import plain
from ..detect import FormatInfo, Kind
from ..diagnostics import LineIssue
from ..editing import LineTemplate
from ..fixing import Fixers
from ..jsonscan import Path
from ..results import LineResult, Linked, Options
from .names import AGENT_FILE, session_id_in_file_name, subagent_file
from .releases import DEFAULT_RELEASE, RELEASES
from .schema import RECORD_TYPES, Record

if TYPE_CHECKING:
    from .facts import LineState

_DANGLING: dict[str, tuple[str, str]] = {
    "parentUuid": ("record with this uuid", "CCD020"),
    "logicalParentUuid": ("record with this uuid (before the compaction)", "CCD022"),
    "leafUuid": ("record with this uuid", "CCD042"),
    "tool_use_id": ("tool_use with this id", "CCD030"),
    "sourceToolAssistantUUID": ("assistant record with this uuid", ""),
    "messageId": ("user record with this uuid", ""),
}


class ClaudeFormat(plain.Quiet):
    """Claude Code's face: what is known of the format before any file (its model's structure is
    `ClaudeSession`'s)."""

    kind = Kind.CLAUDE
    agent = "Claude Code"
    title = "Claude Code"
    rule_prefix = "CCD"
    recognised_by = "Claude Code files with a record carrying its sessionId"
    schema_root: object = Record
    releases: Mapping[str, object] = RELEASES
    release_option = "claude"
    default_release = DEFAULT_RELEASE
    """`--claude-version` / `sessionLsp.claudeVersion` choose a row of `releases.RELEASES` (one row: 2.1.332)."""
    utf8_issue = ("CCD008", "the file is not valid UTF-8: Claude Code decodes it with U+FFFD replacement characters, "
                            "so the bytes that are not UTF-8 reach the model altered; save the file as UTF-8 "
                            "(re-type the damaged text)")
    file_fields: Mapping[str, str] = {
        "agentId": "the subagent whose transcript is `<session>/subagents/agent-<id>.jsonl`"}
    renamed_with_id: tuple[str, ...] = ("parentUuid", "logicalParentUuid", "leafUuid", "sourceToolAssistantUUID")
    rename_scope = "record uuids and tool call ids"
    renumbered: frozenset[str] = frozenset()

    @property
    def fixers(self) -> Fixers:
        from .fixes import FIXERS
        return FIXERS

    def linked_file(self, field: str, value: str, options: Options) -> str | None:
        """`toolUseResult.agentId` (and a subagent record's own `agentId`): the subagent's transcript beside the
        session, `<session>/subagents/agent-<id>.jsonl` (2.1.x) or, when only that exists, `agent-<id>.jsonl` in
        the project folder (older releases)."""
        return subagent_file(value, options.path, options.exists) if field == "agentId" else None

    def recognise_name(self, path: str) -> FormatInfo | None:
        """A `<session uuid>.jsonl` or a subagent's `agent-<id>.jsonl`: Claude Code looks such a file up by its
        name, and refuses it when it holds no conversation."""
        if self.session_id_in_file_name(path) is not None or AGENT_FILE.match(path):
            return FormatInfo(Kind.CLAUDE, None, None)
        return None

    def recognise(self, obj: dict[str, Any], line: int) -> FormatInfo | None:
        """A record Claude Code writes: a known `type` with the `sessionId` (or `uuid`) every one of them carries,
        and no envelope of another format (thndrs's `seq`, Codex's `payload`)."""
        tag = obj.get("type")
        if not isinstance(tag, str) or tag not in RECORD_TYPES or "payload" in obj or "seq" in obj:
            return None
        if (isinstance(obj.get("sessionId"), str) or isinstance(obj.get("uuid"), str) or tag == "summary"
                or (tag == "file-history-snapshot" and isinstance(obj.get("messageId"), str))):
            return FormatInfo(Kind.CLAUDE, None, line)
        return None

    def line_pass(self, options: Options) -> Callable[[str, FormatInfo, Any], LineResult]:
        from .line_pass import analyze_line
        return analyze_line

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
        from .relink import relink
        return relink(previous, lines, results, info, options, changed)

    def bom_issue(self, options: Options, lead: str) -> LineIssue | None:
        return None

    def session_id_in_file_name(self, path: str | None) -> str | None:
        return session_id_in_file_name(path)

    def required_fields(self, version: int | None, tag: str) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(), frozenset()

    def dangling(self, field: str, facts: object) -> tuple[str, str]:
        return _DANGLING.get(field, ("record", ""))

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



FORMAT = ClaudeFormat()
