"""Values a reference field can take at a line, as the document's format reads them from the line facts above it
(a bounded walk) and its link model: recent entry ids, open tool calls, the current turn."""

from __future__ import annotations

from typing import Any

from ..document import Document


def reference_values(doc: Document, line: int, key: str, levels: list[dict[str, Any]]) -> list[tuple[Any, str]]:
    """(value, detail) pairs for the reference field `key` being written on `line`."""
    return doc.session.reference_values(doc.titled, line, key, levels)
