"""Handing memory back once diagnostics have gone out.

Reading a 50 MB session allocates and frees several hundred MB of short-lived objects (the message, the decoded
lines, the line pass's scratch values). glibc keeps freed pages in its heap until asked to return them, so without
`malloc_trim` the server would stay near its peak size for as long as it runs.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

from ..analysis import Document
from ..analysis.line_store import LineStore


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows): nothing to call
        return None


_TRIM = _malloc_trim()


def settle(doc: Document) -> None:
    """Name the lines of a newly opened file (`Document.show_titles`: its first diagnostics went out without),
    compress the lines no request is reading (`LineStore.compact`) and return freed pages to the system, which
    also undoes the heap growth a relink leaves behind (the old link model freed among new objects). All are cheap
    when there is nothing to do: about a millisecond on a 100,000-line file."""
    doc.show_titles()
    if isinstance(doc.lines, LineStore):
        doc.lines.compact()
    if _TRIM is not None:
        _TRIM(0)
