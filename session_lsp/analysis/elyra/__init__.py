"""Elyra (pi) sessions: the line pass (`line_pass`) and the link pass (`link_pass`, with `relink` for an edit that
moves one subtree). `FORMAT` (`face.py`) is the package's one face to the rest of the core."""

from __future__ import annotations

from .face import FORMAT

__all__ = ["FORMAT"]
