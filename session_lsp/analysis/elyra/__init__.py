"""Elyra (pi) sessions: the line pass (`line_pass`) and the link pass (`link_pass`) joined into one analyzer."""

from __future__ import annotations

from collections.abc import Sequence

from ..detect import FormatInfo
from ..results import Linked, LineResult, Options
from .line_pass import analyze_line
from .link_pass import link


class ElyraAnalyzer:
    def __init__(self, info: FormatInfo, options: Options) -> None:
        self.info = info
        self.options = options

    def line(self, text: str) -> LineResult:
        return analyze_line(text, self.info)

    def link(self, lines: Sequence[str], results: Sequence[LineResult]) -> Linked:
        return link(lines, results, self.info, self.options)
