"""Definition, references, rename."""

from __future__ import annotations

from collections.abc import Callable

from ..document import Document
from .types import Location, PrepareRename, RenameError, TextEdit


def definition(doc: Document, line: int, col: int, exists: Callable[[str], bool] | None = None) -> list[Location]:
    return []


def references(doc: Document, line: int, col: int, include_declaration: bool = True) -> list[Location]:
    return []


def prepare_rename(doc: Document, line: int, col: int) -> PrepareRename | None:
    return None


def rename(doc: Document, line: int, col: int, new_name: str) -> list[TextEdit] | RenameError:
    return RenameError("nothing to rename here")
