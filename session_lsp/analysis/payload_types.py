"""The JSON of our own requests (`sessionLsp/tree`, `sessionLsp/context`, `sessionLsp/analyzeFile`) as msgspec
Structs: the one definition the formats' `payloads.py` build (through `Format.tree`/`context`), the server encodes and
vscode-extension/src/protocol.ts is generated from (`python tools/gen_protocol_ts.py`; tests/test_protocol_ts.py
fails when the two differ). Lines are 0-based. Every field is always sent, null included: a key is absent only
where one variant of a union has no such field (an Elyra node has no `kind`, a thndrs turn no `children`).

A tree can hold a million nodes, so it is encoded in parts (`array`, `around_last`) and sent as they are, never
held as one list of Python values or copied into the message around it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Annotated

import msgspec

TREE = "sessionLsp/tree"
CONTEXT = "sessionLsp/context"
ANALYZE_FILE = "sessionLsp/analyzeFile"
DECOMPRESS = "sessionLsp/decompress"
METHODS = {"tree": TREE, "context": CONTEXT, "analyzeFile": ANALYZE_FILE, "decompress": DECOMPRESS}
"""The custom methods by the name the extension calls them."""

COMPRESSED_SCHEME = "session-lsp-zst"
"""The URI scheme of a `.jsonl.zst` file opened as its text (`session-lsp-zst:/path/x.jsonl.zst`): VS Code shows such
a file read-only through a file system of its own, which gets the text from `sessionLsp/decompress`; the server reads
the URI's path as the file's (vscode-extension/src/compressed.ts holds the same name)."""

Buffer = bytes | bytearray | memoryview
CHUNK = 4096
"""Nodes built and encoded at a time: a tree's nodes never live as Python objects all at once."""


def ts(declared: str) -> msgspec.Meta:
    """The TypeScript type of a field whose value is JSON encoded elsewhere (msgspec.Raw)."""
    return msgspec.Meta(extra={"ts": declared})


class ElyraNode(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """An Elyra entry."""

    id: str | None
    line: int
    type: str | None
    role: str | None
    title: str
    label: str | None
    parent: int | None
    """The parent entry's line, null for a root (also for a dangling or self parent)."""
    children: list[int]
    """The children's lines, the active branch first."""
    on_active_path: bool
    is_leaf: bool
    orphan: str | None = None
    """For a root that is one only because its link to its parent is broken, why ("parentId 'x' names no entry"):
    pi's tree view shows it as a root, and its context walk stops there. None for a root with `parentId: null`, and
    for every other entry."""


class ThndrsRecord(msgspec.Struct, frozen=True, gc=False):
    """A thndrs record inside a turn."""

    line: int
    type: str | None
    title: str


class RecordNode(ThndrsRecord, frozen=True, gc=False, tag_field="kind", tag="record"):
    """A thndrs record outside every turn."""


class TurnNode(msgspec.Struct, frozen=True, gc=False, tag_field="kind", tag="turn"):
    """A thndrs turn, its records inside."""

    id: str
    line: int
    title: str
    settled: bool
    records: list[ThndrsRecord]


class ElyraTree(msgspec.Struct, frozen=True, gc=False):
    """An Elyra session: every entry, the active path and the leaf."""

    format: str
    version: int | None
    label: str
    entry_count: int
    header_line: int | None
    leaf: int | None
    """The line of the active leaf."""
    active_path: list[int]
    roots: list[int]
    session_name: str | None
    nodes: list[ElyraNode]


class ThndrsTree(msgspec.Struct, frozen=True, gc=False):
    """A thndrs session: its turns and the records outside them."""

    format: str
    version: int | None
    label: str
    entry_count: int
    session_id: str | None
    title: str | None
    nodes: list[TurnNode | RecordNode]


class OtherTree(msgspec.Struct, frozen=True, gc=False):
    """A file that is not a session (or has no model)."""

    format: str
    version: int | None
    label: str
    entry_count: int
    nodes: tuple[()]


class ElyraMessage(msgspec.Struct, frozen=True, gc=False):
    """A message pi sends to the model."""

    role: str
    text: str
    line: int | None
    """The entry it comes from; for a synthetic result, the assistant entry holding the call."""
    note: str


class ThndrsMessage(msgspec.Struct, frozen=True, gc=False):
    """A text of the turn."""

    role: str
    text: str
    line: int


class ElyraContext(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """What pi sends from a leaf."""

    format: str
    version: int | None
    label: str
    leaf: int | None
    messages: list[ElyraMessage]
    cut_short: str | None = None
    """When pi's walk from the leaf stopped at a broken link, so the context starts mid-conversation: where and why
    (the first message is then not the conversation's first). None when the walk reached a real root."""


class TurnContext(msgspec.Struct, frozen=True, gc=False):
    """thndrs: the texts of a turn; also the empty answer for a file that is not a session."""

    format: str
    version: int | None
    label: str
    turn_id: str | None
    messages: list[ThndrsMessage]


class ClaudeMessage(msgspec.Struct, frozen=True, gc=False):
    """A message Claude Code sends after `--resume`."""

    role: str
    text: str
    """For display: the texts of its blocks, a tool call or result named."""
    line: int | None
    """The record it comes from (the first, for a message merged from several); null for one Claude Code adds."""
    note: str
    content: Annotated[msgspec.Raw, ts("unknown[]")]
    """The API content blocks exactly as Claude Code sends them in `messages[i].content`."""


class ClaudeContext(msgspec.Struct, frozen=True, gc=False):
    """What Claude Code sends when it resumes the file (before the new prompt), or the error it stops with."""

    format: str
    version: int | None
    label: str
    leaf: int | None
    refused: str | None
    """The error Claude Code prints instead of resuming (no request is sent), or null."""
    messages: list[ClaudeMessage]


class CodexItem(msgspec.Struct, frozen=True, gc=False):
    """An input item Codex sends after `codex exec resume`."""

    role: str
    """A message's role, else the item's type ("function_call", "reasoning", ...)."""
    text: str
    """For display: its text, a call or output named."""
    line: int | None
    """The line it comes from (a compaction's, for an item of its replacement history or its summary)."""
    note: str
    item: Annotated[msgspec.Raw, ts("unknown")]
    """The Responses API input item as Codex rebuilds it."""


class CodexContext(msgspec.Struct, frozen=True, gc=False):
    """The history Codex sends when it resumes the rollout (before the new prompt), or the error it stops with."""

    format: str
    version: int | None
    label: str
    leaf: int | None
    refused: str | None
    """The error Codex prints instead of resuming (no request is sent), or null."""
    messages: list[CodexItem]


class AnalyzeFileResult(msgspec.Struct, frozen=True, gc=False):
    """A file on disk analysed without opening it: its diagnostics and its tree."""

    format: str
    """The format's label ("Elyra v3")."""
    kind: str
    version: int | None
    diagnostics: Annotated[msgspec.Raw, ts("Diagnostic[]")]
    tree: Annotated[msgspec.Raw, ts("TreeResult")]


class DecompressResult(msgspec.Struct, frozen=True, gc=False):
    """The bytes a Zstandard-compressed session file (`.jsonl.zst`) holds, for an editor that cannot decompress it."""

    base64: str
    """Every frame's bytes, decompressed, in base64 (the editor decodes them as it decodes any file)."""
    size: int
    """How many bytes that is."""


UNIONS: dict[str, tuple[type[msgspec.Struct], ...]] = {
    "TreeNode": (ElyraNode, TurnNode, RecordNode),
    "TreeRecord": (ThndrsRecord,),
    "TreeResult": (ElyraTree, ThndrsTree, OtherTree),
    "ContextMessage": (ElyraMessage, ThndrsMessage, ClaudeMessage, CodexItem),
    "ContextResult": (ElyraContext, TurnContext, ClaudeContext, CodexContext),
    "AnalyzeFileResult": (AnalyzeFileResult,),
    "DecompressResult": (DecompressResult,),
}
"""What the extension reads, by TypeScript name: each is one interface holding every field of its Structs (present
in all of them: required; else optional)."""


def array(items: Iterable[msgspec.Struct], encoder: msgspec.json.Encoder | None = None) -> list[Buffer]:
    """A JSON array of `items` in parts, CHUNK items built and encoded at a time. Each part is exact: no buffer
    grows (and over-allocates) to the whole array's size."""
    encoder = encoder or msgspec.json.Encoder()
    parts: list[Buffer] = []
    iterator: Iterator[msgspec.Struct] = iter(items)
    while chunk := list(islice(iterator, CHUNK)):
        parts += (b",", memoryview(encoder.encode(chunk))[1:-1])
    if not parts:
        return [b"[]"]
    parts[0] = b"["
    parts.append(b"]")
    return parts


def around_last(value: msgspec.Struct) -> tuple[bytes, bytes]:
    """`value`'s JSON before and after its last field's value, which is only a placeholder: a large member is
    encoded in parts where it goes, never copied into its parent, and `value` is gone before that member is built."""
    placeholder = msgspec.json.encode(getattr(value, value.__struct_fields__[-1]))
    whole = msgspec.json.encode(value)
    end = len(whole) - len(placeholder) - 1
    if whole[end:] != placeholder + b"}":
        raise ValueError(f"{type(value).__name__} does not end with its last field")
    return whole[:end], b"}"
