"""A Claude Code file's `results.Session`: its link model (`ClaudeModel`) as the features see it, made by the link
pass (and relink) with the file's format and options bound. The work is done by the modules that read the model
(payloads, rename, editing); this class only binds them to one model."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from .. import plain
from ..detect import FormatInfo
from ..diagnostics import Severity
from ..editing import LineTemplate
from ..jsonscan import Path
from ..payload_types import Buffer
from ..results import LineResult, Options
from ..structure import Budget, Hint, Lens, Outline, RenameTarget
from . import editing, payloads, rename
from .model import ClaudeModel
from .names import session_id_in_file_name, subagent_file
from .placing import place_line_issue


class ClaudeSession(plain.NoSession):
    """From `plain.NoSession` it keeps what a Claude Code file has nothing for: flagged values and renumbering."""

    __slots__ = ("model",)

    def __init__(self, model: ClaudeModel, info: FormatInfo, options: Options) -> None:
        super().__init__(info, options)
        self.model = model

    def place(self, line: int, code: str) -> tuple[str, Severity | None] | None:
        return place_line_issue(self.model, line, code)

    def reference_values(self, results: Sequence[LineResult], line: int, key: str,
                         levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
        return editing.reference_values(results, line, key)

    def id_in_use(self, candidate: str) -> bool:
        return candidate in self.model.by_uuid

    def new_lines(self, results: Sequence[LineResult], line: int, now: datetime) -> list[LineTemplate]:
        return editing.new_lines(results, line, now, session_id_in_file_name(self.options.path))

    def outline(self, results: Sequence[LineResult], title: Callable[[int], str], budget: Budget) -> Outline:
        return payloads.outline(self.model, results, title, budget)

    def card_rows(self, line: int, record: Mapping[str, Any]) -> list[str]:
        return payloads.card_rows(self.model, line, record)

    def lenses(self) -> list[Lens]:
        return payloads.lenses(self.model)

    def folds(self, results: Sequence[LineResult]) -> list[tuple[int, int]]:
        return payloads.folds(self.model)

    def hints(self, first: int, last: int) -> list[Hint]:
        return payloads.hints(self.model, first, last)

    def call_card(self, line: int, call_id: str) -> tuple[str, list[str]] | None:
        return payloads.call_card(self.model, line, call_id)

    def rename_target(self, line: int, path: Path, value: str | None) -> RenameTarget | None:
        return rename.rename_target(self.model, line, path, value)

    def rename_refusal(self, target: RenameTarget, new_name: str) -> str | None:
        return rename.rename_refusal(self.model, target, new_name)

    def reid(self, line: int) -> RenameTarget | None:
        return rename.reid(self.model, line)

    def tree(self, results: Sequence[LineResult], title: Callable[[int], str]) -> list[Buffer]:
        return payloads.tree(self.info, results, title, self.model)

    def context(self, lines: Sequence[str], results: Sequence[LineResult], line: int,
                now: float | None = None) -> msgspec.Struct:
        exists = self.options.exists

        def saved(agent: str) -> bool | None:
            path = subagent_file(agent, self.options.path, exists) if exists is not None else None
            return None if path is None or exists is None else exists(path)

        return payloads.context(self.info, lines, self.model, line, session_id_in_file_name(self.options.path),
                                self.options.now if now is None else now, saved)
