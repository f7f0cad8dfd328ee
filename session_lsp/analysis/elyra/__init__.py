"""Elyra (pi) sessions: the line pass (`line_pass`) and the link pass (`link_pass`, with `relink` for an edit that
moves one subtree), which `document.analyzer_for` binds to a file."""

from __future__ import annotations

from .line_pass import LineState, analyze_line, line_title
from .link_pass import link, relink

__all__ = ["LineState", "analyze_line", "line_title", "link", "relink"]
