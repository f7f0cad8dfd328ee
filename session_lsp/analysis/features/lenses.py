"""Code lenses and inlay hints."""

from __future__ import annotations

from ..document import Document
from .types import CodeLens, InlayHint


def code_lenses(doc: Document) -> list[CodeLens]:
    return []


def inlay_hints(doc: Document, start_line: int, end_line: int) -> list[InlayHint]:
    return []
