"""An Elyra file's `results.Session`: its link model (`ElyraModel`) as the features see it, made by the link pass
(and relink) with the file's format and options bound. The work is done by the modules that read the model (cards,
lenses, outline, rename, editing, payloads, placing); this class only binds them to one model."""

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
from . import cards, editing, lenses, outline, payloads, rename
from .model import ElyraModel
from .placing import place_line_issue


class ElyraSession(plain.NoSession):
    """From `plain.NoSession` it keeps what an Elyra file has no structure for: renumbering (entries have no record
    numbers)."""

    __slots__ = ("model",)

    def __init__(self, model: ElyraModel, info: FormatInfo, options: Options) -> None:
        super().__init__(info, options)
        self.model = model

    def place(self, line: int, code: str) -> tuple[str, Severity | None] | None:
        return place_line_issue(self.model, line, code)

    def reference_values(self, results: Sequence[LineResult], line: int, key: str,
                         levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
        return editing.reference_values(results, self.model, line, key, levels)

    def id_in_use(self, candidate: str) -> bool:
        return editing.id_in_use(self.model, candidate)

    def flagged(self, line: int, container: Path, key: str | None, value: Any,
                levels: Sequence[dict[str, Any]]) -> bool:
        return editing.flagged(self.model, line, self.info.version, container, key, value)

    def new_lines(self, results: Sequence[LineResult], line: int, now: datetime) -> list[LineTemplate]:
        return editing.new_lines(results, self.model, line, now, self.options)

    def outline(self, results: Sequence[LineResult], title: Callable[[int], str], budget: Budget) -> Outline:
        return outline.outline(self.model, results, title, budget)

    def folds(self, results: Sequence[LineResult]) -> list[tuple[int, int]]:
        return outline.folds(self.model)

    def lenses(self) -> list[Lens]:
        return lenses.lenses(self.model)

    def hints(self, first: int, last: int) -> list[Hint]:
        return lenses.hints(self.model, first, last)

    def card_rows(self, line: int, record: Mapping[str, Any]) -> list[str]:
        return cards.card_rows(self.model, line, record)

    def call_card(self, line: int, call_id: str) -> tuple[str, list[str]] | None:
        return cards.call_card(self.model, line, call_id)

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
        return payloads.context(self.info, lines, self.model, line, self.options.pi_version)
