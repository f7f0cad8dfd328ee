"""Editor features as pure functions of a `Document` (no I/O, no pygls/lsprotocol).

Positions are core positions: 0-based line, code-point column. Every function accepts any document (Elyra,
thndrs, or not a session) and any position, and returns an empty result rather than raising.

Signatures (all re-exported here):

* `hover(doc, line, col) -> Hover | None` — an id/reference (Elyra: id, parentId, firstKeptEntryId, fromId,
  targetId, toolCallId; thndrs: turn_id, call_id, tool_call_id, process_id, seq fields) → a card of the entry it
  names; a `type`/`role` value → that type's fields; a dangling reference → what the agent does then.
  Cost: O(length of the hovered line and the target line), never O(file).
* `definition(doc, line, col, exists=None) -> list[Location]` — a reference → the line it names; the declaration
  itself → nothing; header `parentSession`/`branchedFrom` → `Location(Span(0,0,0,0), path=<the path>)`. The core
  cannot look at the disk: the file location is returned when `exists(path)` is true, where `exists` is this
  argument, else `doc.options.exists`; when neither is given it is always returned (the server may filter).
* `references(doc, line, col, include_declaration=True) -> list[Location]` — every line that names the same entry.
* `prepare_rename(doc, line, col) -> PrepareRename | None` — the span of the Elyra entry id (on the `id` itself or
  on any parentId/targetId/fromId/firstKeptEntryId naming it) a rename would change.
* `rename(doc, line, col, new_name) -> list[TextEdit] | RenameError` — the id and every reference to it; refused
  (RenameError) for an empty id, an id already used, or a position with nothing to rename.
* `document_symbols(doc, limit=5000) -> list[Symbol]` — Elyra: the conversation tree, nested only at branch points
  (the active branch first); thndrs: one symbol per turn with its records. Past `limit` symbols a final symbol
  "… N more entries not shown" says what was cut.
* `folding_ranges(doc) -> list[FoldingRange]` — Elyra: contiguous runs of one branch; thndrs: each turn's
  contiguous lines.
* `selection_ranges(doc, positions) -> list[SelectionRange]` — per (line, col): value → member → enclosing
  objects/arrays → the line.
* `completions(doc, line, col, now) -> list[CompletionItem]` — keys for the object at hand (schema-driven,
  required first), enum values, ids for reference fields, open tool calls; on an empty line a snippet for a whole
  new entry. `now` is a `datetime` (aware or UTC-naive) or an ISO string: the core has no clock.
* `code_actions(doc, span, diagnostics) -> list[CodeAction]` — quick fixes for the given core `Diagnostic`s that
  touch `span`: each is a `Fix` of `fixes.py` (the one mechanism `session-lsp fix` applies too).
* `fix_all(doc, select) -> CodeAction | None` — the "fix all safe problems" source action (`source.fixAll.session-lsp`):
  `fix_document` to a fixpoint with the safe fixes, as one edit of the changed lines.
* `fixes(doc, diagnostics) -> list[Fix]`, `fix_document(doc, select, unsafe) -> Repaired` — the fixes themselves
  (text edits, title, codes, applicability from the registry) and their application to a fixpoint.
* `code_lenses(doc) -> list[CodeLens]` — branch points (how many branches, which is active) and the leaf.
* `inlay_hints(doc, start_line, end_line) -> list[InlayHint]` — the same facts at the end of lines in the range.
* `encode_tree(doc) -> list[bytes-like]` — the JSON of the `sessionLsp/tree` request, in parts (the Structs of
  `payload_types`); `tree(doc) -> dict` is the same payload as JSON values.
* `encode_context(doc, line) -> bytes` — the JSON of `sessionLsp/context` (what the agent sends from that leaf);
  `context(doc, line) -> dict` is the same payload as JSON values.
"""

from .actions import FIX_ALL, code_actions, fix_all
from .completion import completions
from .fixes import Repaired, fix_document, fixes
from .folding import folding_ranges
from .hover import hover
from .lenses import code_lenses, inlay_hints
from .navigation import definition, prepare_rename, references, rename
from .payloads import context, encode_context, encode_tree, tree
from .selection import selection_ranges
from .symbols import document_symbols
from .types import (
    CodeAction,
    CodeLens,
    CompletionItem,
    Fix,
    FoldingRange,
    Hover,
    InlayHint,
    Location,
    PrepareRename,
    RenameError,
    SelectionRange,
    Symbol,
    TextEdit,
)

__all__ = [
    "FIX_ALL",
    "CodeAction",
    "CodeLens",
    "CompletionItem",
    "Fix",
    "FoldingRange",
    "Hover",
    "InlayHint",
    "Location",
    "PrepareRename",
    "RenameError",
    "Repaired",
    "SelectionRange",
    "Symbol",
    "TextEdit",
    "code_actions",
    "code_lenses",
    "completions",
    "context",
    "definition",
    "document_symbols",
    "encode_context",
    "encode_tree",
    "fix_all",
    "fix_document",
    "fixes",
    "folding_ranges",
    "hover",
    "inlay_hints",
    "prepare_rename",
    "references",
    "rename",
    "selection_ranges",
    "tree",
]
