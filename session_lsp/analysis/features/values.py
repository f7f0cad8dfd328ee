"""Values a reference field can take at a line, as the document's format reads them from the line facts above it
(a bounded walk) and its link model: recent entry ids, open tool calls, the current turn."""

from __future__ import annotations

from typing import Any

from ..document import Document


def elyra_parent_above(doc: Document, line: int) -> str | None:
    """The id of the nearest entry above `line`: what pi would make the parent of a line appended there."""
    return doc.session.parent_above(doc.results, line)


def reference_values(doc: Document, line: int, key: str, levels: list[dict[str, Any]]) -> list[tuple[Any, str]]:
    """(value, detail) pairs for the reference field `key` being written on `line`."""
    return doc.session.reference_values(doc.results, line, key, levels)
