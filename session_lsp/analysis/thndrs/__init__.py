"""thndrs session records: the line pass (`line_pass`) and the link pass (`link_pass`, with `relink` for an edit to
one call_id), which `document.analyzer_for` binds to a file."""

from __future__ import annotations

from .facts import LineState
from .line_pass import analyze_line
from .link_pass import link, relink

__all__ = ["LineState", "analyze_line", "link", "relink"]
