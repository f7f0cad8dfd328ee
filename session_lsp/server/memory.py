"""Handing memory back once diagnostics have gone out.

Reading a 50 MB session allocates and frees several hundred MB of short-lived objects (the message, the decoded
lines, the line pass's scratch values). glibc keeps freed pages in its heap until asked to return them, so without
`malloc_trim` the server would stay near its peak size for as long as it runs.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator

from ..analysis import Document
from ..analysis.line_store import LineStore


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows): nothing to call
        return None


_TRIM = _malloc_trim()


PACKING_STEP = 128
"""Blocks of lines compressed in one step of `settling` (8,192 lines): about 10 ms."""


def settling(doc: Document) -> Iterator[None]:
    """Compress the lines no request is reading (`LineStore.compact`) and return freed pages to the system, which
    also undoes the heap growth a relink leaves behind (the old link model freed among new objects). In steps of
    about 10 ms, pausing between them, which an edit typed right after the open would otherwise wait for; the
    server stops at a pause when the document changes, and settles it again after the next publish. Cheap when
    there is nothing to do: about a millisecond on a 100,000-line file."""
    if isinstance(doc.lines, LineStore):
        while doc.lines.compact(PACKING_STEP) == PACKING_STEP:
            yield
    if _TRIM is not None:
        _TRIM(0)
