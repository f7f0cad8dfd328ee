"""Codex rollout lines (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`) as msgspec Structs.

Every line is one envelope, `{timestamp, ordinal?, type, payload, metadata?}` (Rust's `RolloutLine`: the item is an
adjacently tagged enum, `type` naming the payload's shape). msgspec has no adjacent tagging, so a line is decoded in
two steps: the envelope with its payload left `Raw`, then the payload with the decoder of its `type`. The shapes come
from the files the real 0.171.0 CLI wrote (tests/corpus/codex-0.171.0-written/) and openai/codex's
`protocol.rs`/`models.rs`. Codex reads a line with serde: a payload that does not fit its Rust type loses the whole
line, so the fields typed here are those serde requires; what Codex never reads back (world_state's state, token
usage, rate limits) is `Any`. No Struct forbids unknown fields: serde ignores them.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Raw


class Envelope(msgspec.Struct):
    """One line of a rollout. `timestamp` is what Codex writes (an RFC 3339 string); typed `Any` here so that a
    wrong one is reported by its own rule rather than as a line that does not decode."""

    type: str
    payload: Raw = Raw(b"null")
    timestamp: Any = None
    ordinal: Any = None
    metadata: Any = None


# ---------------------------------------------------------------------------------------------------------------
# session_meta


class BaseInstructions(msgspec.Struct):
    text: str


class SessionMeta(msgspec.Struct):
    """The first line of every rollout. serde requires `id`, `timestamp`, `cwd`, `originator` and `cli_version`
    (a file whose first line lacks one is refused as "failed to read session metadata")."""

    id: str
    timestamp: str
    cwd: str
    originator: str
    cli_version: str
    session_id: str | None = None
    forked_from_id: str | None = None
    source: Any = None
    thread_source: Any = None
    model_provider: str | None = None
    base_instructions: BaseInstructions | None = None
    instructions: str | None = None
    git: Any = None
    history_mode: str | None = None
    context_window: Any = None
    account_scoped: bool | None = None
    runtime_workspace_roots: Any = None
    agent_nickname: str | None = None
    agent_role: str | None = None


# ---------------------------------------------------------------------------------------------------------------
# response_item: `ResponseItem`, internally tagged by `type`


class InputText(msgspec.Struct, tag_field="type", tag="input_text"):
    text: str


class OutputText(msgspec.Struct, tag_field="type", tag="output_text"):
    text: str
    annotations: Any = None
    logprobs: Any = None


class InputImage(msgspec.Struct, tag_field="type", tag="input_image"):
    image_url: str
    detail: Any = None


ContentItem = InputText | OutputText | InputImage


class Item(msgspec.Struct, kw_only=True):
    """What every response item may carry besides its own fields."""

    id: str | None = None
    internal_chat_message_metadata_passthrough: Any = None


class Message(Item, tag_field="type", tag="message"):
    role: str
    content: list[ContentItem]
    status: str | None = None
    end_turn: bool | None = None
    phase: Any = None


class AgentMessage(Item, tag_field="type", tag="agent_message"):
    content: Any = None


class Reasoning(Item, tag_field="type", tag="reasoning"):
    summary: list[Any] = []
    content: list[Any] | None = None
    encrypted_content: str | None = None


class LocalShellCall(Item, tag_field="type", tag="local_shell_call"):
    call_id: str | None = None
    status: Any = None
    action: Any = None


class FunctionCall(Item, tag_field="type", tag="function_call"):
    name: str
    arguments: str
    call_id: str
    namespace: str | None = None
    status: Any = None


class FunctionCallOutput(Item, tag_field="type", tag="function_call_output"):
    output: Any
    call_id: str | None = None
    """Codex reads a null or missing call_id, and sends the output without one."""


class CustomToolCall(Item, tag_field="type", tag="custom_tool_call"):
    call_id: str
    name: str
    input: str
    status: Any = None


class CustomToolCallOutput(Item, tag_field="type", tag="custom_tool_call_output"):
    output: Any
    call_id: str | None = None
    name: str | None = None


class ToolSearchCall(Item, tag_field="type", tag="tool_search_call"):
    call_id: str | None = None
    execution: str | None = None
    arguments: Any = None
    status: Any = None


class ToolSearchOutput(Item, tag_field="type", tag="tool_search_output"):
    call_id: str | None = None
    execution: str | None = None
    status: Any = None
    tools: Any = None


class WebSearchCall(Item, tag_field="type", tag="web_search_call"):
    status: Any = None
    action: Any = None


class ImageGenerationCall(Item, tag_field="type", tag="image_generation_call"):
    status: Any = None
    result: Any = None
    revised_prompt: Any = None


class Compaction(Item, tag_field="type", tag="compaction"):
    encrypted_content: str | None = None


class ContextCompaction(Item, tag_field="type", tag="context_compaction"):
    encrypted_content: str | None = None


class AdditionalTools(Item, tag_field="type", tag="additional_tools"):
    tools: Any = None


class GhostSnapshot(Item, tag_field="type", tag="ghost_snapshot"):
    ghost_commit: Any = None


ResponseItem = (Message | AgentMessage | Reasoning | LocalShellCall | FunctionCall | FunctionCallOutput
                | CustomToolCall | CustomToolCallOutput | ToolSearchCall | ToolSearchOutput | WebSearchCall
                | ImageGenerationCall | Compaction | ContextCompaction | AdditionalTools | GhostSnapshot)

ITEM_KINDS: dict[str, type[Item]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]  # every member of ResponseItem is tagged with a str
    for cls in (Message, AgentMessage, Reasoning, LocalShellCall, FunctionCall, FunctionCallOutput, CustomToolCall,
                CustomToolCallOutput, ToolSearchCall, ToolSearchOutput, WebSearchCall, ImageGenerationCall,
                Compaction, ContextCompaction, AdditionalTools, GhostSnapshot)
}
"""Response item kinds Codex knows; any other `type` is read as `ResponseItem::Other` and never sent."""

CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "tool_search_call"})
OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output", "tool_search_output"})
OUTPUT_OF = {"function_call": "function_call_output", "local_shell_call": "function_call_output",
             "custom_tool_call": "custom_tool_call_output", "tool_search_call": "tool_search_output"}
"""The output kind that answers each call kind (a local shell call is answered by a function_call_output)."""
CALLS_OF = {"function_call_output": ("function_call", "local_shell_call"),
            "custom_tool_call_output": ("custom_tool_call",), "tool_search_output": ("tool_search_call",)}


# ---------------------------------------------------------------------------------------------------------------
# The other line types


class Compacted(msgspec.Struct):
    """A compaction checkpoint: on resume `replacement_history` replaces everything before it."""

    message: str
    replacement_history: list[Any] | None = None
    replacement_history_metadata: list[Any] | None = None
    retained_context: Any = None
    window_number: int | None = None
    first_window_id: str | None = None
    previous_window_id: str | None = None
    window_id: str | None = None
    compaction_response_id: str | None = None
    latest_token_usage_record: Any = None
    resume_metadata: Any = None


class TurnContext(msgspec.Struct):
    model: str
    cwd: str | None = None
    turn_id: str | None = None
    root_turn_id: str | None = None
    approval_policy: Any = None
    sandbox_policy: Any = None
    summary: Any = None
    effort: Any = None
    collaboration_mode: Any = None


class Event(msgspec.Struct):
    """An `event_msg` payload: the fields replay reads of the few kinds that change the history (a turn's start and
    end, a rollback); the rest of each kind is `Any`."""

    type: str
    turn_id: Any = None
    num_turns: Any = None
    message: Any = None


class WorldState(msgspec.Struct):
    full: bool | None = None
    state: Any = None


class TokenUsageRecord(msgspec.Struct):
    thread_id: str | None = None
    turn_id: str | None = None
    session_id: str | None = None
    root_turn_id: str | None = None
    response_id: str | None = None
    usage: Any = None
    turn_token_usage: Any = None
    thread_token_usage: Any = None


class InterAgentCommunication(msgspec.Struct):
    author: Any = None
    recipient: Any = None
    content: Any = None


class InterAgentCommunicationMetadata(msgspec.Struct):
    trigger_turn: bool


PAYLOADS: dict[str, Any] = {
    "session_meta": SessionMeta,
    "response_item": ResponseItem,
    "compacted": Compacted,
    "turn_context": TurnContext,
    "event_msg": Event,
    "world_state": WorldState,
    "token_usage_record": TokenUsageRecord,
    "inter_agent_communication": InterAgentCommunication,
    "inter_agent_communication_metadata": InterAgentCommunicationMetadata,
    "retained_context": Any,
    "security_risk_score": Any,
}
"""Every line `type` Codex 0.171 reads, with the shape of its payload."""

LINE_TYPES = frozenset(PAYLOADS)

EVENT_KINDS = frozenset({
    # persisted by 0.171 (the corpus's, and the persisted set of the rollout policy)
    "task_started", "task_complete", "turn_started", "turn_complete", "turn_aborted", "thread_rolled_back",
    "thread_settings_applied", "item_completed", "token_count", "user_message", "agent_message", "agent_reasoning",
    "agent_reasoning_raw_content", "patch_apply_end", "thread_goal_updated", "context_compacted",
    "entered_review_mode", "exited_review_mode", "mcp_tool_call_end", "web_search_end", "image_generation_end",
    "sub_agent_activity", "undo_completed", "exec_command_end", "view_image_tool_call", "error", "warning",
    "turn_diff", "plan_update", "collab_agent_spawn_end", "collab_agent_interaction_end", "collab_waiting_end",
    "collab_close_end", "collab_resume_end", "guardian_assessment", "dynamic_tool_call_request",
    "dynamic_tool_call_response", "stream_error", "shutdown_complete", "deprecation_notice",
})
"""`event_msg` kinds Codex knows; a line of any other kind does not decode and is skipped (nothing is lost: events
are not sent to the model)."""

TURN_STARTS = frozenset({"task_started", "turn_started"})
TURN_ENDS = frozenset({"task_complete", "turn_complete", "turn_aborted"})


# ---------------------------------------------------------------------------------------------------------------
# A whole line, tagged by its `type`: what completion and hover inspect (the face's `schema_root`)


class _Line(msgspec.Struct, kw_only=True):
    timestamp: str
    ordinal: int | None = None


class SessionMetaLine(_Line, tag_field="type", tag="session_meta"):
    payload: SessionMeta


class ResponseItemLine(_Line, tag_field="type", tag="response_item"):
    payload: ResponseItem
    metadata: Any = None


class CompactedLine(_Line, tag_field="type", tag="compacted"):
    payload: Compacted


class TurnContextLine(_Line, tag_field="type", tag="turn_context"):
    payload: TurnContext


class EventLine(_Line, tag_field="type", tag="event_msg"):
    payload: Event


class WorldStateLine(_Line, tag_field="type", tag="world_state"):
    payload: WorldState


class TokenUsageLine(_Line, tag_field="type", tag="token_usage_record"):
    payload: TokenUsageRecord


class InterAgentLine(_Line, tag_field="type", tag="inter_agent_communication"):
    payload: InterAgentCommunication


class InterAgentMetadataLine(_Line, tag_field="type", tag="inter_agent_communication_metadata"):
    payload: InterAgentCommunicationMetadata


class RetainedContextLine(_Line, tag_field="type", tag="retained_context"):
    payload: Any


class SecurityRiskScoreLine(_Line, tag_field="type", tag="security_risk_score"):
    payload: Any


Line = (SessionMetaLine | ResponseItemLine | CompactedLine | TurnContextLine | EventLine | WorldStateLine
        | TokenUsageLine | InterAgentLine | InterAgentMetadataLine | RetainedContextLine | SecurityRiskScoreLine)
"""Every line Codex 0.171 reads, as one tagged union (the line pass decodes the envelope and its payload apart)."""
