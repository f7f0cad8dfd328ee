"""Payloads of the custom requests `sessionLsp/tree` (the whole conversation structure, for a tree view) and
`sessionLsp/context` (what the agent would send from a line), as the Structs of `payload_types` that the
document's format builds, encoded to JSON. `encode_tree` never holds a tree's nodes all at once: a million-entry
session's tree goes out in parts."""

from __future__ import annotations

from typing import Any

import msgspec

from ..document import Document
from ..payload_types import Buffer


def encode_tree(doc: Document) -> list[Buffer]:
    """The JSON of `sessionLsp/tree`, in parts. Elyra: one node per entry (children by line, active branch first),
    the active path and the leaf. thndrs: one node per turn (its records inside) and per record outside any turn.
    Nodes are named by line number, since ids may be missing or repeated."""
    return doc.session.tree(doc.results, doc.title)


def tree(doc: Document) -> dict[str, Any]:
    """The payload of `sessionLsp/tree` as JSON values (the CLI prints it)."""
    decoded: dict[str, Any] = msgspec.json.decode(b"".join(encode_tree(doc)))
    return decoded


def encode_context(doc: Document, line: int, now: float | None = None) -> bytes:
    """The JSON of `sessionLsp/context`. Elyra: the messages pi sends when the entry on `line` is the leaf (the
    file's leaf when `line` is not an entry). thndrs: the texts of the turn `line` belongs to."""
    return msgspec.json.encode(doc.session.context(doc.lines, doc.results, line, now))


def context(doc: Document, line: int, now: float | None = None) -> dict[str, Any]:
    """The payload of `sessionLsp/context` as JSON values (the CLI prints it)."""
    decoded: dict[str, Any] = msgspec.json.decode(encode_context(doc, line, now))
    return decoded
