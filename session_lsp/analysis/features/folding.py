"""Folding ranges: the stretches of lines the format's model folds as one (Elyra: consecutive entries of one run of
the tree, since a branch's entries are scattered over the file; thndrs: a turn's consecutive lines)."""

from __future__ import annotations

from ..document import Document
from .types import FoldingRange


def folding_ranges(doc: Document) -> list[FoldingRange]:
    return [FoldingRange(first, last) for first, last in doc.session.folds(doc.results)]
