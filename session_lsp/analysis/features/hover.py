"""Hover."""

from __future__ import annotations

from ..document import Document
from .types import Hover


def hover(doc: Document, line: int, col: int) -> Hover | None:
    return None
