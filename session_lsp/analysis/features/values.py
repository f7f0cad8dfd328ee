"""Values a reference field can take at a line, as the document's format reads them from the line facts above it
(a bounded walk) and its link model: recent entry ids, open tool calls, the current turn."""

from __future__ import annotations

from typing import Any

from ..detect import Kind
from ..document import Document
from ..editing import HORIZON as HORIZON
from ..formats import format_for

ELYRA_REFERENCE_FIELDS = format_for(Kind.ELYRA).renamed_with_id
"""What navigation's rename reads (until it asks `doc.face.renamed_with_id`)."""


def elyra_parent_above(doc: Document, line: int) -> str | None:
    """The id of the nearest entry above `line`: what pi would make the parent of a line appended there."""
    return doc.face.parent_above(doc.results, line)


def reference_values(doc: Document, line: int, key: str, levels: list[dict[str, Any]]) -> list[tuple[Any, str]]:
    """(value, detail) pairs for the reference field `key` being written on `line`."""
    return doc.face.reference_values(doc.results, doc.linked.model, line, key, levels)
