"""thndrs session records: the line pass (`line_pass`) and the link pass (`link_pass`, with `relink` for an edit to
one call_id). `FORMAT` (`face.py`) is the package's one face to the rest of the core."""

from __future__ import annotations

from .face import FORMAT
from .facts import LineState
from .line_pass import analyze_line
from .link_pass import link, relink

__all__ = ["FORMAT", "LineState", "analyze_line", "link", "relink"]
