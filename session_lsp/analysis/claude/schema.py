"""Claude Code's transcript lines (`~/.claude/projects/<cwd>/<session>.jsonl`) as msgspec Structs: one tagged union,
`Record`, of every record type 2.1.x writes. Claude Code has no published format; the shapes come from files the real
2.1.332 CLI wrote (tests/corpus/claude-code-2.1.332-written/) and the record types its source names.

Claude Code adds fields often and ignores the ones it does not know, so no Struct forbids unknown fields; the ones
typed here are those it reads back when it resumes a session (the chain links, the message content, the leaf
pointers). What it never reads back (api-request bodies, tool results' `toolUseResult`, attachment payloads) is
`msgspec.Raw` or `Any`: decoded as far as its position, never walked.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Raw

# ---------------------------------------------------------------------------------------------------------------
# Content blocks of `message.content`


class Text(msgspec.Struct, tag_field="type", tag="text"):
    text: str
    citations: Any = None
    cache_control: Any = None


class Thinking(msgspec.Struct, tag_field="type", tag="thinking"):
    thinking: str
    signature: str | None = None


class RedactedThinking(msgspec.Struct, tag_field="type", tag="redacted_thinking"):
    data: str


class ToolUse(msgspec.Struct, tag_field="type", tag="tool_use"):
    id: str
    name: str
    input: Any = None
    caller: Any = None


class ServerToolUse(msgspec.Struct, tag_field="type", tag="server_tool_use"):
    id: str
    name: str
    input: Any = None


class ToolResult(msgspec.Struct, tag_field="type", tag="tool_result"):
    tool_use_id: str
    content: Any = None
    is_error: bool | None = None
    cache_control: Any = None


class WebSearchToolResult(msgspec.Struct, tag_field="type", tag="web_search_tool_result"):
    tool_use_id: str
    content: Any = None


class WebFetchToolResult(msgspec.Struct, tag_field="type", tag="web_fetch_tool_result"):
    tool_use_id: str
    content: Any = None


class CodeExecutionToolResult(msgspec.Struct, tag_field="type", tag="code_execution_tool_result"):
    tool_use_id: str
    content: Any = None


class Image(msgspec.Struct, tag_field="type", tag="image"):
    source: Any = None


class Document(msgspec.Struct, tag_field="type", tag="document"):
    source: Any = None
    title: str | None = None


class ToolReference(msgspec.Struct, tag_field="type", tag="tool_reference"):
    tool_name: str | None = None


Block = (Text | Thinking | RedactedThinking | ToolUse | ServerToolUse | ToolResult | WebSearchToolResult
         | WebFetchToolResult | CodeExecutionToolResult | Image | Document | ToolReference)

SERVER_RESULTS = frozenset({"web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result"})
"""Results of server tools: they answer a `server_tool_use` in the same assistant message, not in a user turn."""


class UserMessage(msgspec.Struct):
    role: str
    content: str | list[Block]


class AssistantMessage(msgspec.Struct):
    content: list[Block]
    role: str = "assistant"
    id: str | None = None
    type: str | None = None
    model: str | None = None
    stop_reason: str | None = None
    stop_sequence: str | None = None
    usage: Any = None


# ---------------------------------------------------------------------------------------------------------------
# Records of the conversation chain (they carry `uuid` and `parentUuid`)


class Chained(msgspec.Struct):
    """What every record of the conversation chain carries."""

    uuid: str
    parentUuid: str | None = None
    isSidechain: bool = False
    sessionId: str | None = None
    timestamp: str | None = None
    agentId: str | None = None
    userType: str | None = None
    entrypoint: str | None = None
    cwd: str | None = None
    version: str | None = None
    gitBranch: str | None = None
    slug: str | None = None
    isMeta: bool | None = None


_NULL = Raw(b"null")


class User(Chained, tag_field="type", tag="user"):
    message: UserMessage = msgspec.field(default_factory=lambda: UserMessage("user", ""))
    toolUseResult: Raw = msgspec.field(default_factory=lambda: _NULL)  # a factory: a JSON Schema has no Raw default
    sourceToolAssistantUUID: str | None = None
    sourceToolUseID: str | None = None
    isCompactSummary: bool | None = None
    isVisibleInTranscriptOnly: bool | None = None
    promptId: str | None = None
    permissionMode: str | None = None


class Assistant(Chained, tag_field="type", tag="assistant"):
    message: AssistantMessage = msgspec.field(default_factory=lambda: AssistantMessage([]))
    requestId: str | None = None
    isApiErrorMessage: bool | None = None
    error: Any = None


class System(Chained, tag_field="type", tag="system"):
    subtype: str | None = None
    content: Any = None
    level: str | None = None
    logicalParentUuid: str | None = None
    compactMetadata: Any = None
    toolUseID: str | None = None


class Attachment(Chained, tag_field="type", tag="attachment"):
    attachment: dict[str, Any] = {}
    rendered: list[Any] | None = None
    renderedRole: str | None = None
    renderedBesideToolResult: Any = None


class Progress(Chained, tag_field="type", tag="progress"):
    data: Any = None
    toolUseID: str | None = None
    parentToolUseID: str | None = None


# ---------------------------------------------------------------------------------------------------------------
# Records beside the chain (no uuid): metadata the resume picker and the CLI read


class Summary(msgspec.Struct, tag_field="type", tag="summary"):
    summary: str
    leafUuid: str | None = None


class FileHistorySnapshot(msgspec.Struct, tag_field="type", tag="file-history-snapshot"):
    messageId: str
    snapshot: Any = None
    isSnapshotUpdate: bool | None = None


class QueueOperation(msgspec.Struct, tag_field="type", tag="queue-operation"):
    operation: str
    timestamp: str | None = None
    sessionId: str | None = None
    content: Any = None
    reason: str | None = None


class LastPrompt(msgspec.Struct, tag_field="type", tag="last-prompt"):
    lastPrompt: str | None = None
    leafUuid: str | None = None
    sessionId: str | None = None


class AiTitle(msgspec.Struct, tag_field="type", tag="ai-title"):
    aiTitle: str | None = None
    sessionId: str | None = None


class CustomTitle(msgspec.Struct, tag_field="type", tag="custom-title"):
    customTitle: str | None = None
    sessionId: str | None = None


class AgentName(msgspec.Struct, tag_field="type", tag="agent-name"):
    agentName: str | None = None
    sessionId: str | None = None


class PrLink(msgspec.Struct, tag_field="type", tag="pr-link"):
    prNumber: int | None = None
    prUrl: str | None = None
    prRepository: str | None = None
    sessionId: str | None = None
    timestamp: str | None = None


class PermissionMode(msgspec.Struct, tag_field="type", tag="permission-mode"):
    permissionMode: str | None = None
    sessionId: str | None = None


class Mode(msgspec.Struct, tag_field="type", tag="mode"):
    mode: str | None = None
    sessionId: str | None = None


class WorktreeState(msgspec.Struct, tag_field="type", tag="worktree-state"):
    worktreeSession: Any = None
    sessionId: str | None = None


class ForkContextRef(msgspec.Struct, tag_field="type", tag="fork-context-ref"):
    sessionId: str | None = None


class ApiRequest(msgspec.Struct, tag_field="type", tag="api-request"):
    sessionId: str | None = None
    id: str | None = None
    agentId: str | None = None


class ApiRequestBlob(msgspec.Struct, tag_field="type", tag="api-request-blob"):
    sessionId: str | None = None
    hash: str | None = None
    message: Raw = msgspec.field(default_factory=lambda: _NULL)
    agentId: str | None = None


class ApiRequestShape(msgspec.Struct, tag_field="type", tag="api-request-shape"):
    sessionId: str | None = None
    shapeHash: str | None = None
    agentId: str | None = None


class ToolsUsed(msgspec.Struct, tag_field="type", tag="tools-used"):
    tools: list[str] = []
    sessionId: str | None = None


class CostState(msgspec.Struct, tag_field="type", tag="cost-state"):
    sessionId: str | None = None
    totalCostUSD: float | None = None


class AtisLatch(msgspec.Struct, tag_field="type", tag="atis-latch"):
    atis: Any = None
    sessionId: str | None = None


class TagRecord(msgspec.Struct, tag_field="type", tag="tag"):
    tag: Any = None
    sessionId: str | None = None


Record = (User | Assistant | System | Attachment | Progress | Summary | FileHistorySnapshot | QueueOperation
          | LastPrompt | AiTitle | CustomTitle | AgentName | PrLink | PermissionMode | Mode | WorktreeState
          | ForkContextRef | ApiRequest | ApiRequestBlob | ApiRequestShape | ToolsUsed | CostState | AtisLatch
          | TagRecord)

CHAINED: dict[str, type[Chained]] = {"user": User, "assistant": Assistant, "system": System,
                                     "attachment": Attachment, "progress": Progress}
"""Record types in the conversation chain, by tag."""

RECORD_TYPES: dict[str, type[msgspec.Struct]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]  # every member of Record is tagged with a str
    for cls in (User, Assistant, System, Attachment, Progress, Summary, FileHistorySnapshot, QueueOperation,
                LastPrompt, AiTitle, CustomTitle, AgentName, PrLink, PermissionMode, Mode, WorktreeState,
                ForkContextRef, ApiRequest, ApiRequestBlob, ApiRequestShape, ToolsUsed, CostState, AtisLatch,
                TagRecord)
}

SYSTEM_SUBTYPES = frozenset({
    "compact_boundary", "microcompact_boundary", "informational", "api_error", "local_command", "stop_hook_summary",
    "turn_duration", "away_summary", "bridge_status", "scheduled_task_fire", "memory_saved", "agents_killed",
    "permission_retry", "thinking_cleared",
})
"""`system` subtypes Claude Code 2.1.x writes."""

ATTACHMENT_TYPES = frozenset({
    "environment", "model", "deferred_tools_delta", "agent_listing_delta", "skill_listing", "session_context",
    "date", "remote_session_change", "prompt_snapshot", "queued_command", "hook_success", "hook_additional_context",
    "hook_non_blocking_error", "hook_blocking_error", "hook_cancelled", "hook_system_message",
    "hook_permission_decision", "hook_stopped_continuation", "async_hook_response", "file", "edited_text_file",
    "directory", "compact_file_reference", "pdf_reference", "selected_lines_in_ide", "opened_file_in_ide",
    "todo_reminder", "task_reminder", "plan_mode", "plan_mode_exit", "plan_file_reference", "invoked_skills",
    "nested_memory", "relevant_memories", "critical_system_reminder", "output_style", "diagnostics",
    "mcp_resource", "command_permissions", "agent_mention", "task_status", "token_usage", "budget_usd",
    "output_token_usage", "structured_output", "max_turns_reached", "teammate_mailbox", "team_context",
    "mcp_instructions_delta", "companion_intro", "ultrathink_effort", "skill_discovery", "new_directory",
    "new_file", "already_read_file", "edited_image_file", "auto_mode", "auto_mode_exit", "date_change",
})
"""`attachment.type` values Claude Code 2.1.x writes (the corpus's, and those its source names)."""
