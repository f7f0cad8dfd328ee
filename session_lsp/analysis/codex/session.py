"""A Codex rollout's `results.Session`: its link model (`CodexModel`) as the features see it, made by the link pass
with the file's format and options bound. The work is done by `payloads` and `context`, which read the model; this
class binds them to one model."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from .. import plain
from ..detect import FormatInfo
from ..diagnostics import Severity
from ..payload_types import Buffer
from ..results import LineResult, Options
from ..structure import Budget, Lens, Outline
from . import payloads
from .model import CodexModel

_LOST_LINE = frozenset({"CDX001", "CDX002", "CDX005", "CDX007", "CDX008", "CDX030"})
"""Line-pass rules whose error is a record lost on resume."""


class CodexSession(plain.NoSession):
    """From `plain.NoSession` it keeps what a rollout does not offer yet: hints, call cards, renames, renumbering,
    new lines and flagged values."""

    __slots__ = ("model",)

    def __init__(self, model: CodexModel, info: FormatInfo, options: Options) -> None:
        super().__init__(info, options)
        self.model = model

    def place(self, line: int, code: str) -> tuple[str, Severity | None] | None:
        """A damaged line above the last compaction Codex applies loses nothing it sends: the compaction's
        replacement history stands for it."""
        last = self.model.last_compaction
        if code not in _LOST_LINE or last is None or line >= last:
            return None
        return (f"(compacted away: the compaction on line {last + 1} replaces what is above it, so nothing Codex "
                "sends is lost)", Severity.WARNING)

    def reference_values(self, results: Sequence[LineResult], line: int, key: str,
                         levels: Sequence[dict[str, Any]]) -> list[tuple[Any, str]]:
        if key != "call_id":
            return []
        model = self.model
        return [(call, f"{model.records[index].facts.name or ''} call") for call, index in model.calls.items()
                if model.records[index].line < line][-50:]

    def id_in_use(self, candidate: str) -> bool:
        return candidate in self.model.calls

    def outline(self, results: Sequence[LineResult], title: Callable[[int], str], budget: Budget) -> Outline:
        return payloads.outline(self.model, results, title, budget)

    def folds(self, results: Sequence[LineResult]) -> list[tuple[int, int]]:
        return payloads.folds(self.model)

    def card_rows(self, line: int, record: Mapping[str, Any]) -> list[str]:
        return payloads.card_rows(self.model, line)

    def lenses(self) -> list[Lens]:
        return payloads.lenses(self.model)

    def tree(self, results: Sequence[LineResult], title: Callable[[int], str]) -> list[Buffer]:
        return payloads.tree(self.info, results, title, self.model)

    def context(self, lines: Sequence[str], results: Sequence[LineResult], line: int,
                now: float | None = None) -> msgspec.Struct:
        return payloads.context(self.info, lines, self.model, self.options.path)
