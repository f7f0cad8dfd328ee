"""The analyzer for files that are not sessions: ordinary JSON Lines and look-alikes stay quiet."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .detect import FormatInfo
from .lines import LineKind, is_blank
from .results import Anchor, LineResult, Linked, LinkIssue, Options


class PlainAnalyzer:
    def __init__(self, info: FormatInfo, options: Options) -> None:
        self.info = info

    def line(self, text: str) -> LineResult:
        return LineResult(LineKind.BLANK if is_blank(text) else LineKind.OBJECT)

    def show_titles(self) -> None:
        pass

    def title(self, text: str, result: LineResult) -> str:
        return ""

    def link(self, lines: Sequence[str], results: Sequence[LineResult]) -> Linked:
        if all(is_blank(line) for line in lines):
            return Linked(None, [])
        message = ("not a recognised Elyra (pi) or thndrs session file: nothing is checked "
                   "(Elyra files start with a {\"type\":\"session\"} header, thndrs files with a session_meta record)")
        return Linked(None, [LinkIssue("SLS001", Anchor(0), message)])

    def relink(self, previous: Linked, lines: Sequence[str], results: Sequence[LineResult],
               changed: Collection[int]) -> Linked | None:
        return None
