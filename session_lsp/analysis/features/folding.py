"""Folding."""

from __future__ import annotations

from ..document import Document
from .types import FoldingRange


def folding_ranges(doc: Document) -> list[FoldingRange]:
    return []
