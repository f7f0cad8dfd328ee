"""Claude Code as the rest of the core sees it: `FORMAT`, this package's entry in `formats.FORMATS`. Everything
outside the package that depends on the format (detection, the passes, what the editor is offered, the structure
and payloads read from the model) asks this object."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from .. import plain
from ..detect import FormatInfo, Kind
from ..diagnostics import LineIssue, Severity
from ..editing import LineTemplate
from ..jsonscan import Path
from ..payload_types import Buffer
from ..results import LineResult, Linked, Options
from ..structure import Budget, Hint, Lens, Outline, RenameTarget
from . import editing, payloads, rename
from .facts import LineState
from .line_pass import analyze_line
from .link_pass import link, place_line_issue
from .model import ClaudeModel
from .releases import DEFAULT_RELEASE, RELEASES
from .relink import relink
from .schema import RECORD_TYPES, Record

_SESSION_FILE = re.compile(r"(?:.*/)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl\Z")

_AGENT_FILE = re.compile(r"(?:.*/)?agent-[0-9a-zA-Z]+\.jsonl\Z")

_DANGLING: dict[str, tuple[str, str]] = {
    "parentUuid": ("record with this uuid", "CCD020"),
    "logicalParentUuid": ("record with this uuid (before the compaction)", "CCD022"),
    "leafUuid": ("record with this uuid", "CCD042"),
    "tool_use_id": ("tool_use with this id", "CCD030"),
    "sourceToolAssistantUUID": ("assistant record with this uuid", ""),
    "messageId": ("user record with this uuid", ""),
}


class ClaudeFormat(plain.Quiet):
    """Claude Code's face. From `plain.Quiet` it keeps the answers a Claude Code file has nothing for (required
    fields, a byte order mark)."""

    kind = Kind.CLAUDE
    agent = "Claude Code"
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

    def place(self, model: object, line: int, code: str) -> tuple[str, Severity | None] | None:
        return place_line_issue(model, line, code) if isinstance(model, ClaudeModel) else None

    def linked_file(self, field: str, value: str, options: Options) -> str | None:
        """`toolUseResult.agentId` (and a subagent record's own `agentId`): the subagent's transcript beside the
        session, `<session>/subagents/agent-<id>.jsonl` (2.1.x) or, when only that exists, `agent-<id>.jsonl` in
        the project folder (older releases)."""
        if field != "agentId" or not options.path or not re.fullmatch(r"[0-9A-Za-z_-]+", value):
            return None
        path = options.path
        folder, _, name = path.rpartition("/")
        above = folder.rpartition("/")[2]
        session = self.session_id_in_file_name(path)
        if session is not None:
            candidates = [f"{folder}/{session}/subagents/agent-{value}.jsonl", f"{folder}/agent-{value}.jsonl"]
        elif above == "subagents" or name.startswith("agent-"):
            candidates = [f"{folder}/agent-{value}.jsonl"]
        else:
            return None
        exists = options.exists
        return next((c for c in candidates if exists is None or exists(c)), candidates[0])

    def recognise_name(self, path: str) -> FormatInfo | None:
        """A `<session uuid>.jsonl` or a subagent's `agent-<id>.jsonl`: Claude Code looks such a file up by its
        name, and refuses it when it holds no conversation."""
        if self.session_id_in_file_name(path) is not None or _AGENT_FILE.match(path):
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
        return analyze_line

    def line_state(self, options: Options) -> LineState:
        return LineState(options.titles)

    def show_titles(self, state: object) -> None:
        assert isinstance(state, LineState)
        state.titles = True

    def line_title(self, text: str, result: LineResult, state: object) -> str | None:
        return None

    def link(self, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
             options: Options) -> Linked:
        return link(lines, results, info, options)

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
               options: Options, changed: Collection[int]) -> Linked | None:
        return relink(previous, lines, results, info, options, changed)

    def bom_issue(self, options: Options, lead: str) -> LineIssue | None:
        return None

    def session_id_in_file_name(self, path: str | None) -> str | None:
        found = _SESSION_FILE.match(path or "")
        return found.group(1) if found else None

    def required_fields(self, version: int | None, tag: str) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(), frozenset()

    def dangling(self, field: str, facts: object) -> tuple[str, str]:
        return _DANGLING.get(field, ("record", ""))

    def known_values(self, key: str, options: Options) -> list[tuple[str, str]]:
        return editing.known_values(key)

    def reference_values(self, results: Sequence[LineResult], model: object, line: int, key: str,
                         levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
        return editing.reference_values(results, line, key)

    def parent_above(self, results: Sequence[LineResult], line: int) -> str | None:
        return editing.uuid_above(results, line)

    def id_in_use(self, model: object, candidate: str) -> bool:
        return isinstance(model, ClaudeModel) and candidate in model.by_uuid

    def flagged(self, model: object, line: int, info: FormatInfo, container: Path, key: str | None, value: Any,
                levels: Sequence[dict[str, Any]]) -> bool:
        return False

    def unknown_to_target(self, container: Path, key: str | int | None, value: object, options: Options) -> str:
        return ""

    def sample(self, now: datetime) -> list[str]:
        return editing.sample(now)

    def first_line(self, now: datetime, path: str | None) -> LineTemplate:
        return editing.first_line(now, self.session_id_in_file_name(path))

    def new_lines(self, results: Sequence[LineResult], model: object, line: int, now: datetime,
                  options: Options) -> list[LineTemplate]:
        return editing.new_lines(results, line, now, self.session_id_in_file_name(options.path))

    def outline(self, model: object, results: Sequence[LineResult], budget: Budget) -> Outline:
        if not isinstance(model, ClaudeModel):
            return super().outline(model, results, budget)
        return payloads.outline(model, results, budget)

    def card_rows(self, model: object, line: int, record: Mapping[str, Any]) -> list[str]:
        return payloads.card_rows(model, line, record) if isinstance(model, ClaudeModel) else []

    def lenses(self, model: object) -> list[Lens]:
        return payloads.lenses(model) if isinstance(model, ClaudeModel) else []

    def folds(self, model: object, results: Sequence[LineResult]) -> list[tuple[int, int]]:
        return payloads.folds(model) if isinstance(model, ClaudeModel) else []

    def hints(self, model: object, first: int, last: int) -> list[Hint]:
        return payloads.hints(model, first, last) if isinstance(model, ClaudeModel) else []

    def call_card(self, model: object, line: int, call_id: str) -> tuple[str, list[str]] | None:
        return payloads.call_card(model, line, call_id) if isinstance(model, ClaudeModel) else None

    def rename_target(self, model: object, line: int, path: Path, value: str | None) -> RenameTarget | None:
        return rename.rename_target(model, line, path, value) if isinstance(model, ClaudeModel) else None

    def rename_refusal(self, model: object, target: RenameTarget, new_name: str) -> str | None:
        return rename.rename_refusal(model, target, new_name) if isinstance(model, ClaudeModel) else None

    def reid(self, model: object, line: int) -> RenameTarget | None:
        return rename.reid(model, line) if isinstance(model, ClaudeModel) else None

    def tree(self, info: FormatInfo, results: Sequence[LineResult], model: object) -> list[Buffer]:
        if not isinstance(model, ClaudeModel):
            return super().tree(info, results, model)
        return payloads.tree(info, results, model)

    def context(self, info: FormatInfo, lines: Sequence[str], results: Sequence[LineResult], model: object,
                line: int, options: Options) -> msgspec.Struct:
        def saved(agent: str) -> bool | None:
            path = self.linked_file("agentId", agent, options) if options.exists is not None else None
            return None if path is None or options.exists is None else options.exists(path)

        return payloads.context(info, lines, model if isinstance(model, ClaudeModel) else None, line,
                                self.session_id_in_file_name(options.path), options.now, saved)


FORMAT = ClaudeFormat()
