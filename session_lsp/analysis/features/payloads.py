"""Custom request payloads."""

from __future__ import annotations

from typing import Any

from ..document import Document


def tree(doc: Document) -> dict[str, Any]:
    return {}


def context(doc: Document, line: int) -> dict[str, Any]:
    return {}
