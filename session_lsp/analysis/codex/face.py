"""Codex as the rest of the core sees it: `FORMAT`, this package's entry in `formats.FORMATS`. Everything outside the
package that depends on the format (detection, the passes, the structure and payloads read from the model) asks this
object.

Detection asks every format's face, so the face imports only what `recognise` reads (the schema's types, the file
names): the passes, the repairs and the editing help are imported where a method first needs them, and a check of a
file loads only its own format's."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import msgspec

from .. import plain
from ..detect import FormatInfo, Kind
from ..diagnostics import LineIssue
from ..editing import LineTemplate
from ..fixing import Fixers
from ..jsonscan import Path
from ..results import LineResult, Linked, Options
from .names import ROLLOUT, UUID, thread_in_name
from .releases import DEFAULT_RELEASE, RELEASES
from .schema import LINE_TYPES, Line

if TYPE_CHECKING:
    from .facts import LineState

_DANGLING: dict[str, tuple[str, str]] = {
    "call_id": ("call with this call_id", "CDX020"),
    "turn_id": ("task_started event of this turn", ""),
}


def _parent_candidates(thread: str, path: str) -> list[str]:
    if not re.fullmatch(UUID, thread) or thread[14] != "7":
        return []
    millis = int(thread.replace("-", "")[:12], 16)
    folder = path.rpartition("/")[0]
    parts = folder.split("/")
    day_folders = len(parts) >= 4 and all(p.isdigit() for p in parts[-3:])
    root = "/".join(parts[:-3]) if day_folders else None
    found: list[str] = []
    for hours in (0, *range(-12, 0), *range(1, 15)):
        for lag in (0, 1):  # the file is named a moment after the id is made
            when = datetime.fromtimestamp(millis / 1000 + hours * 3600 + lag, UTC)
            name = f"rollout-{when:%Y-%m-%dT%H-%M-%S}-{thread}.jsonl"
            if root is not None:
                found.append(f"{root}/{when:%Y/%m/%d}/{name}")
            found.append(f"{folder}/{name}")
    return found


class CodexFormat(plain.Quiet):
    """Codex's face: what is known of the format before any file (its model's structure is `CodexSession`'s)."""

    kind = Kind.CODEX
    agent = "Codex"
    title = "Codex"
    rule_prefix = "CDX"
    recognised_by = "Codex rollouts with a {\"type\":\"session_meta\",\"payload\":...} line"
    schema_root: object = Line
    releases: Mapping[str, object] = RELEASES
    release_option = "codex"
    default_release = DEFAULT_RELEASE
    """`--codex-version` / `sessionLsp.codexVersion` choose a row of `releases.RELEASES` (one row: 0.171)."""
    utf8_issue = ("CDX009", "the file is not valid UTF-8: Codex reads each line as UTF-8 text, and a line that is not "
                            "cannot be read, so the records on it are lost on resume; correct the damaged bytes "
                            "(shown as U+FFFD)")
    file_fields: Mapping[str, str] = {
        "forked_from_id": "the rollout of the thread this one was forked from (`rollout-<time>-<id>.jsonl`)"}
    renamed_with_id: tuple[str, ...] = ()
    rename_scope = ""
    renumbered: frozenset[str] = frozenset()

    @property
    def fixers(self) -> Fixers:
        from .fixes import FIXERS
        return FIXERS

    def linked_file(self, field: str, value: str, options: Options) -> str | None:
        """`forked_from_id`: the parent thread's rollout, when it exists. Its name holds the time it was created,
        which a thread id (a UUID v7) carries to the millisecond: the candidates are that time in each UTC offset
        (Codex names files in local time), in `sessions/YYYY/MM/DD/` beside this rollout's day folder and in this
        rollout's own folder, and the first that exists is it."""
        if field != "forked_from_id" or not options.path or options.exists is None:
            return None
        return next((c for c in _parent_candidates(value, options.path) if options.exists(c)), None)

    def recognise_name(self, path: str) -> FormatInfo | None:
        """`rollout-<time>-<uuid>.jsonl`: Codex looks a thread up by such a name, and refuses it when it is empty."""
        return FormatInfo(Kind.CODEX, None, None) if ROLLOUT.match(path) else None

    def recognise(self, obj: dict[str, Any], line: int) -> FormatInfo | None:
        """A line in Codex's envelope: a `type` it reads with its `payload` beside it (thndrs records share the name
        `session_meta` but carry `seq` and no payload)."""
        tag = obj.get("type")
        if isinstance(tag, str) and tag in LINE_TYPES and "payload" in obj and "seq" not in obj:
            return FormatInfo(Kind.CODEX, None, line)
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
        return None

    def bom_issue(self, options: Options, lead: str) -> LineIssue | None:
        return None

    def session_id_in_file_name(self, path: str | None) -> str | None:
        return thread_in_name(path)

    def required_fields(self, version: int | None, tag: str) -> tuple[frozenset[str], frozenset[str]]:
        return frozenset(), frozenset()

    def dangling(self, field: str, facts: object) -> tuple[str, str]:
        return _DANGLING.get(field, ("record", ""))

    def known_values(self, key: str, options: Options) -> list[tuple[str, str]]:
        return [(tag, "rollout line type") for tag in sorted(LINE_TYPES)] if key == "type" else []

    def unknown_to_target(self, container: Path, key: str | int | None, value: object, options: Options) -> str:
        return ""

    def sample(self, now: datetime) -> list[str]:
        """A session_meta, a prompt and its answer, as Codex 0.171 writes them (for `session-lsp new`); the file's
        name should be `rollout-<time>-<id>.jsonl`."""
        stamp = now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"
        thread = str(uuid.uuid4())
        meta = {"session_id": thread, "id": thread, "timestamp": stamp, "cwd": "/home/user/project",
                "originator": "codex_exec", "cli_version": "0.171.0", "source": "exec", "model_provider": "openai"}
        payloads_: list[tuple[str, dict[str, Any]]] = [
            ("session_meta", meta),
            ("response_item", {"type": "message", "role": "user",
                               "content": [{"type": "input_text", "text": "Say hello."}]}),
            ("response_item", {"type": "message", "role": "assistant",
                               "content": [{"type": "output_text", "text": "Hello."}]}),
        ]
        return [msgspec.json.encode({"timestamp": stamp, "ordinal": number, "type": kind, "payload": payload}).decode()
                for number, (kind, payload) in enumerate(payloads_)]

    def first_line(self, now: datetime, path: str | None) -> LineTemplate | None:
        return None



FORMAT = CodexFormat()
