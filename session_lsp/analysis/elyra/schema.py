"""Typed shapes of every Elyra (pi) line, as pi writes them (spec §1.4–§1.7).

One typed decode of a line into `Line` validates it completely: unknown keys are refused
(`forbid_unknown_fields`), so a line that decodes has no schema problem at all. When the decode fails, the
line pass walks the same types with `validate.check` to list every problem with its path.

Optional keys are `T | UnsetType` (pi's `JSON.stringify` drops `undefined`, so "optional" means absent);
`None` is allowed only where pi itself writes or tolerates `null`. Fields that newer pi builds add, and leftovers
real files contain (`partialJson`, usage without `totalTokens`, legacy header keys), are declared so they are
accepted silently. Rules that depend on the header version (ids in v2+, which compaction index is required) are
checked by the line pass, not here, because one schema serves every version.

Each tagged class carries its tag as a class variable (`type` / `role`) so checks can read it the same way from
a Struct and from a raw dict.
"""

from __future__ import annotations

from typing import Any, ClassVar, get_args

import msgspec
from msgspec import UNSET, UnsetType

__all__ = ["UNSET", "UnsetType"]


class _Object(msgspec.Struct, forbid_unknown_fields=True, rename="camel", kw_only=True, gc=False):
    """Decoded JSON cannot form reference cycles, so these need no garbage-collector tracking (`gc=False`), which
    keeps a 100k-line file from paying for collections."""


class _Block(_Object, tag_field="type"):
    type: ClassVar[str]


class TextContent(_Block, tag="text"):
    type: ClassVar[str] = "text"
    text: str
    text_signature: str | UnsetType = UNSET


class ImageContent(_Block, tag="image"):
    type: ClassVar[str] = "image"
    data: str
    mime_type: str


class ThinkingContent(_Block, tag="thinking"):
    type: ClassVar[str] = "thinking"
    thinking: str
    thinking_signature: str | UnsetType = UNSET
    redacted: bool | UnsetType = UNSET


class ToolCall(_Block, tag="toolCall"):
    type: ClassVar[str] = "toolCall"
    id: str
    name: str
    arguments: dict[str, Any]
    thought_signature: str | UnsetType = UNSET
    namespace: str | UnsetType = UNSET
    arguments_error: str | UnsetType = UNSET
    """pi 1.x: the model's arguments were not a JSON object (`arguments` is then `{}`)."""
    partial_json: str | UnsetType = UNSET
    """A streaming leftover that real 2025 files contain."""


BLOCK_TYPES: tuple[type[_Block], ...] = (TextContent, ImageContent, ThinkingContent, ToolCall)

UserBlocks = list[TextContent | ImageContent]
AssistantBlocks = list[TextContent | ThinkingContent | ToolCall]


class Cost(_Object):
    input: float
    output: float
    cache_read: float
    cache_write: float
    total: float
    cache_write1h: float | UnsetType = msgspec.field(default=UNSET, name="cacheWrite1h")


class Usage(_Object):
    input: float
    output: float
    cache_read: float
    cache_write: float
    total_tokens: float | UnsetType = UNSET
    """Absent in files from Nov 2025 (ELY065)."""
    cost: Cost | UnsetType = UNSET
    cache_write1h: float | UnsetType = msgspec.field(default=UNSET, name="cacheWrite1h")
    reasoning: float | UnsetType = UNSET


class _Message(_Object, tag_field="role", kw_only=True):
    role: ClassVar[str]
    timestamp: float
    """Unix milliseconds."""


class UserMessage(_Message, tag="user"):
    role: ClassVar[str] = "user"
    content: str | UserBlocks


class AssistantMessage(_Message, tag="assistant"):
    role: ClassVar[str] = "assistant"
    content: AssistantBlocks
    api: str
    provider: str
    model: str
    usage: Usage
    stop_reason: str
    error_message: str | UnsetType = UNSET
    response_id: str | UnsetType = UNSET
    response_model: str | UnsetType = UNSET
    provider_thinking_level: str | UnsetType = UNSET
    diagnostics: Any = UNSET
    deferred: Any = UNSET
    raw_stop_reason: str | UnsetType = UNSET
    end_turn: bool | UnsetType = UNSET
    thinking_level: str | UnsetType = UNSET
    web_search: Any = UNSET
    duration_ms: float | UnsetType = UNSET


class ToolResultMessage(_Message, tag="toolResult"):
    role: ClassVar[str] = "toolResult"
    tool_call_id: str
    tool_name: str
    content: UserBlocks
    is_error: bool
    details: Any = UNSET
    usage: Usage | UnsetType = UNSET
    added_tool_names: list[str] | UnsetType = UNSET


class BashExecutionMessage(_Message, tag="bashExecution"):
    role: ClassVar[str] = "bashExecution"
    command: str
    output: str
    cancelled: bool
    truncated: bool
    exit_code: int | float | UnsetType | None = UNSET
    """Absent when unknown or killed; `null` is tolerated by the renderer."""
    full_output_path: str | UnsetType = UNSET
    exclude_from_context: bool | UnsetType = UNSET


class CustomMessage(_Message, tag="custom"):
    role: ClassVar[str] = "custom"
    custom_type: str
    content: str | UserBlocks
    display: bool
    details: Any = UNSET


class HookMessage(_Message, tag="hookMessage"):
    """The v2 name of `custom`; migration renames it only in files below v3."""

    role: ClassVar[str] = "hookMessage"
    custom_type: str
    content: str | UserBlocks
    display: bool
    details: Any = UNSET


class BranchSummaryMessage(_Message, tag="branchSummary"):
    """In-memory only (built from `branch_summary` entries); accepted so ELY061 can name it."""

    role: ClassVar[str] = "branchSummary"
    summary: str
    from_id: str


class CompactionSummaryMessage(_Message, tag="compactionSummary"):
    """In-memory only (built from `compaction` entries); accepted so ELY061 can name it."""

    role: ClassVar[str] = "compactionSummary"
    summary: str
    tokens_before: float


class ToolSpec(_Object):
    name: str
    description: str
    parameters: Any


class ToolName(_Object):
    name: str


class SystemMessage(_Message, tag="system"):
    """pi 1.x (spec §7.1): the first one persists the whole prompt and tools, later ones patch them."""

    role: ClassVar[str] = "system"
    content: str | list[TextContent]
    sections: dict[str, str | None] | UnsetType = UNSET
    tools_added: list[ToolSpec] | UnsetType = UNSET
    tools_removed: list[ToolName] | UnsetType = UNSET


Message = (UserMessage | AssistantMessage | ToolResultMessage | BashExecutionMessage | CustomMessage | HookMessage
           | BranchSummaryMessage | CompactionSummaryMessage | SystemMessage)

MESSAGE_ROLES: frozenset[str] = frozenset({"user", "assistant", "toolResult", "bashExecution", "custom", "hookMessage",
                                           "system"})
SUMMARY_ROLES: frozenset[str] = frozenset({"branchSummary", "compactionSummary"})


class _Line(_Object, tag_field="type"):
    type: ClassVar[str]


class SessionHeader(_Line, tag="session", forbid_unknown_fields=False):
    """Unknown keys are accepted: pi 1.x allows custom metadata in the header (spec §7.1)."""

    type: ClassVar[str] = "session"
    id: str
    timestamp: str
    cwd: str
    version: int | UnsetType = UNSET
    parent_session: str | UnsetType = UNSET
    branched_from: str | UnsetType = UNSET
    """Legacy name of `parentSession` (v1/v2 era), never migrated."""
    provider: str | UnsetType = UNSET
    model_id: str | UnsetType = UNSET
    thinking_level: str | UnsetType = UNSET


LEGACY_HEADER_FIELDS: tuple[str, ...] = ("branchedFrom", "provider", "modelId", "thinkingLevel")


class EntryBase(_Line, kw_only=True):
    """Every non-header line. `id`/`parentId` are required from v2 on, absent in v1 (checked by version)."""

    timestamp: str
    id: str | UnsetType = UNSET
    parent_id: str | UnsetType | None = UNSET


class MessageEntry(EntryBase, tag="message"):
    type: ClassVar[str] = "message"
    message: Message


class ThinkingLevelChangeEntry(EntryBase, tag="thinking_level_change"):
    type: ClassVar[str] = "thinking_level_change"
    thinking_level: str


class ModelChangeEntry(EntryBase, tag="model_change"):
    type: ClassVar[str] = "model_change"
    provider: str
    model_id: str


class CompactionEntry(EntryBase, tag="compaction"):
    type: ClassVar[str] = "compaction"
    summary: str
    tokens_before: float
    first_kept_entry_id: str | UnsetType = UNSET
    """Required from v2 on."""
    first_kept_entry_index: int | UnsetType = UNSET
    """v1 only: index into the parsed lines (header = 0)."""
    details: Any = UNSET
    from_hook: bool | UnsetType = UNSET
    system_message: SystemMessage | UnsetType = UNSET
    """pi 1.x: the prompt and tools checkpoint at the boundary."""
    usage: Usage | UnsetType = UNSET


class BranchSummaryEntry(EntryBase, tag="branch_summary"):
    type: ClassVar[str] = "branch_summary"
    from_id: str
    summary: str
    details: Any = UNSET
    from_hook: bool | UnsetType = UNSET
    usage: Usage | UnsetType = UNSET


class CustomEntry(EntryBase, tag="custom"):
    type: ClassVar[str] = "custom"
    custom_type: str
    data: Any = UNSET


class CustomMessageEntry(EntryBase, tag="custom_message"):
    type: ClassVar[str] = "custom_message"
    custom_type: str
    content: str | UserBlocks
    display: bool
    details: Any = UNSET


class LabelEntry(EntryBase, tag="label"):
    type: ClassVar[str] = "label"
    target_id: str
    label: str | UnsetType = UNSET


class SessionInfoEntry(EntryBase, tag="session_info"):
    type: ClassVar[str] = "session_info"
    name: str | UnsetType = UNSET


class UsageEntry(EntryBase, tag="usage"):
    """pi 1.x: tokens spent outside the conversation (e.g. `cache_warm`); counted in totals, never in context."""

    type: ClassVar[str] = "usage"
    kind: str
    provider: str
    model: str
    usage: Usage
    note: str | UnsetType = UNSET


class ContextReplacement(_Object):
    content: str | list[TextContent | ImageContent | ThinkingContent | ToolCall]


class ContextEditEntry(EntryBase, tag="context_edit"):
    """pi 1.x: an append-only edit of an earlier entry's context contribution; `null` omits the target."""

    type: ClassVar[str] = "context_edit"
    target_id: str
    replacement: ContextReplacement | None


Entry = (MessageEntry | ThinkingLevelChangeEntry | ModelChangeEntry | CompactionEntry | BranchSummaryEntry
         | CustomEntry | CustomMessageEntry | LabelEntry | SessionInfoEntry | UsageEntry | ContextEditEntry)

Line = SessionHeader | Entry
"""What one object line of an Elyra file can be."""

ENTRY_TYPES: frozenset[str] = frozenset(cls.type for cls in get_args(Entry))

RENAMED_WITH_ID = ("parentId", "targetId", "fromId", "firstKeptEntryId")
"""The fields that name another entry by its id as is: a rename of that id changes them too."""
