"""A thndrs file's `results.Session`: its link model (`ThndrsModel`) as the features see it, made by the link pass
(and relink) with the file's format and options bound. The work is done by the modules that read the model
(outline, editing, payloads); this class only binds them to one model."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from .. import plain
from ..detect import FormatInfo
from ..editing import LineTemplate
from ..jsonscan import Path
from ..payload_types import Buffer
from ..results import LineResult, Options
from ..structure import Budget, Lens, Outline, Renumbering
from . import editing, outline, payloads
from .model import ThndrsModel


class ThndrsSession(plain.NoSession):
    """From `plain.NoSession` it keeps what a thndrs file does not offer: hints (its turns are shown by lenses), tool
    call cards (a call is a record of its own, described by `card_rows`), renames and parents (records have none)."""

    __slots__ = ("model",)

    def __init__(self, model: ThndrsModel, info: FormatInfo, options: Options) -> None:
        super().__init__(info, options)
        self.model = model

    def reference_values(self, results: Sequence[LineResult], line: int, key: str,
                         levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
        return editing.reference_values(results, self.model, line, key, levels)

    def flagged(self, line: int, container: Path, key: str | None, value: Any,
                levels: Sequence[dict[str, Any]]) -> bool:
        return editing.flagged(self.model, line, container, key, value, levels)

    def new_lines(self, results: Sequence[LineResult], line: int, now: datetime) -> list[LineTemplate]:
        return editing.new_lines(results, self.model, line, now)

    def outline(self, results: Sequence[LineResult], title: Callable[[int], str], budget: Budget) -> Outline:
        return outline.outline(self.model, results, title, budget)

    def folds(self, results: Sequence[LineResult]) -> list[tuple[int, int]]:
        return outline.folds(self.model, results)

    def lenses(self) -> list[Lens]:
        return outline.lenses(self.model)

    def card_rows(self, line: int, record: Mapping[str, Any]) -> list[str]:
        return outline.card_rows(self.model, record)

    def renumbering(self) -> Renumbering:
        return outline.renumbering(self.model)

    def tree(self, results: Sequence[LineResult], title: Callable[[int], str]) -> list[Buffer]:
        return payloads.tree(self.info, results, title, self.model)

    def context(self, lines: Sequence[str], results: Sequence[LineResult], line: int,
                now: float | None = None) -> msgspec.Struct:
        return payloads.context(self.info, lines, results, self.model, line)
