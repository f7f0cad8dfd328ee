"""The thndrs 0.1.0 session records (`SessionRecord`, spec §2.2-§2.6) as msgspec Structs.

These types are the single source of truth: the line pass decodes each line straight into `Record`, and only when
that fails does `validate.check` walk the same types to list every problem.

Presence rules, as serde applies them (§2.3):

* required (R): a plain field with no default;
* `Option<T>` (O, N): `T | None = None` -- serde accepts the key absent or `null`;
* `#[serde(default)]` (D): `T = <default>` -- absent means the default, `null` is an error.

`forbid_unknown_fields=True` everywhere, although serde ignores unknown keys: a line with an unknown key then fails
the fast decode and takes the slow path, which reports THN011 and still reads the record.

Field order is thndrs's declaration order, and `omit_defaults` follows what its writer omits: structs whose optional
fields are `skip_serializing_if` (O, D/O) omit defaults, structs whose optional fields are always written (N written
as `null`, plain D) do not. A record thndrs wrote therefore re-encodes to exactly its own line, which is how the line
pass proves cheaply that a line has no duplicate keys (see `line_pass`).

`gc=False`: decoded JSON cannot form reference cycles, and untracked records keep the collector out of the way of a
100,000-line decode.

Integers: msgspec bounds must fit in an int64, so u64/usize fields carry `extra={"u64": True}`; `validate` checks
the 2^64-1 bound from it and the line pass checks it on the fast path.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import msgspec

U64 = Annotated[int, msgspec.Meta(ge=0, extra={"u64": True})]
"""Rust u64 (hashes, token counts, seq): may exceed 2^53."""
Usize = Annotated[int, msgspec.Meta(ge=0, extra={"u64": True})]
"""Rust usize: 64-bit on every target thndrs supports."""
U32 = Annotated[int, msgspec.Meta(ge=0, le=2**32 - 1)]
I32 = Annotated[int, msgspec.Meta(ge=-(2**31), le=2**31 - 1)]

ToolStatus = Literal["Running", "Ok", "Failed", "Cancelled"]
"""PascalCase: the enum has no `rename_all`."""
WriteOp = Literal["create", "replace", "edit"]
CompactionTrigger = Literal["manual", "automatic"]
CompactionRisk = Literal["low", "high"]
CompactionReviewResult = Literal["not_required", "pending", "approved", "rejected"]
ContextItemKind = Literal[
    "harness", "project_instruction", "pinned_file", "skill", "transcript", "summary", "tool_archive",
]
ContextVisibility = Literal["visible", "pinned", "summary_only", "archived", "candidate", "dropped", "blocked"]
ArtifactKind = Literal["tool_evidence"]
ArtifactRetention = Literal["active", "expired", "corrupt"]
UsageRule = Literal["anthropic_messages", "open_ai_chat", "open_ai_responses"]
ReceiptMode = Literal["shadow", "applied", "baseline_fallback"]


class _Nested(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    pass


class _Written(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=False, gc=False):
    """A nested struct whose optional fields the writer always writes (`null` or the default)."""


# ---------------------------------------------------------------------------------------------------------------
# Nested types (§2.5)


class SessionConfigFile(_Nested, kw_only=True):
    path: str
    source: str
    """`global` or `project`."""
    sha256: str


class SessionConfigMeta(_Nested, kw_only=True):
    session_dir: str | None = None
    files: list[SessionConfigFile] = []
    origins: dict[str, str] = {}
    diagnostics: list[str] = []
    mcp_files: list[SessionConfigFile] = []
    mcp_diagnostics: list[str] = []
    memory_enabled: bool | None = None
    """Written by pre-0.1.0 builds; 0.1.0 ignores it."""


class ContextSourceMeta(_Nested, kw_only=True):
    path: str
    scope: str
    content_hash: U64
    truncated: bool
    byte_count: Usize


class ContextDiagnosticMeta(_Nested, kw_only=True):
    severity: str
    code: str
    message: str


class ContextItemMeta(_Nested, kw_only=True):
    id: str
    kind: ContextItemKind
    source_path: str | None = None
    scope: str | None = None
    content_hash: U64 | None = None
    artifact_handle: str | None = None
    byte_count: Usize
    token_estimate: Usize
    visibility: ContextVisibility
    reason_code: str = ""
    reason: str


class ContextLedgerMeta(_Nested, kw_only=True):
    items: list[ContextItemMeta]
    available_input: U64
    target: U64
    auto_compaction_threshold: U64
    used: U64
    diagnostics: list[ContextDiagnosticMeta] = []


class SourceHash(_Nested, kw_only=True):
    id: str
    content_hash: U64 | None = None


class TokenUsage(_Nested, kw_only=True):
    input_tokens: U64
    output_tokens: U64


class CompactionAudit(_Nested, kw_only=True):
    summary: str
    covered_start_seq: U64
    covered_end_seq: U64
    """Inclusive: the last replaced record's `seq`."""
    source_hashes: list[SourceHash] = []
    trigger: CompactionTrigger
    risk: CompactionRisk
    review: CompactionReviewResult | None = None
    recovery_handles: list[str] = []
    model: str
    usage: TokenUsage | None = None


class PromptMetadata(_Written, kw_only=True):
    model: str
    provider: str = ""
    search_mode: str
    renderer_mode: str = ""
    date: str
    cwd: str
    prompt_fragments: list[str] = []
    docs_map: list[str] = []
    context_sources: list[ContextSourceMeta]
    tool_catalog_size: Usize
    tool_names: list[str] = []
    skill_catalog_size: Usize
    skill_names: list[str] = []
    diagnostics: list[str] = []
    history_reuse: bool
    prev_context_hash: U64 | None = None
    transcript_tail_size: Usize
    has_user_turn: bool


class _Provenance(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="kind", gc=False):
    pass


class ExactSerialized(_Provenance, kw_only=True, tag="exact_serialized"):
    boundary: str


class Estimated(_Provenance, kw_only=True, tag="estimated"):
    estimator: str
    version: str


class ProviderReported(_Provenance, kw_only=True, tag="provider_reported"):
    provider: str
    component: str


class Derived(_Provenance, kw_only=True, tag="derived"):
    rule: str
    version: str


class UnknownProvenance(_Provenance, kw_only=True, tag="unknown"):
    pass


Provenance = ExactSerialized | Estimated | ProviderReported | Derived | UnknownProvenance


class MeasuredValue(_Written, kw_only=True):
    value: U64
    provenance: Provenance


class OptionalValue(_Written, kw_only=True):
    value: U64 | None = None
    provenance: Provenance


class UsageComponents(_Written, kw_only=True):
    input_tokens: U64 | None = None
    output_tokens: U64 | None = None
    cache_read_input_tokens: U64 | None = None
    cache_creation_input_tokens: U64 | None = None
    reasoning_tokens: U64 | None = None


class ProviderUsage(_Written, kw_only=True):
    provider: str
    rule: UsageRule
    components: UsageComponents
    inclusive_input_tokens: OptionalValue


class ContextItemSnapshot(_Nested, kw_only=True):
    id: str
    artifact_handle: str | None = None
    state: ContextVisibility
    reason_code: str
    reason: str


class ContextReductionReceipt(_Nested, kw_only=True):
    item_id: str
    method: str
    version: str
    before_bytes: U64
    after_bytes: U64
    lossy: bool
    mode: ReceiptMode = "shadow"
    diagnostic: str | None = None


class ProviderRequestAccounting(_Written, kw_only=True):
    """Crate thndrs-agent 0.1.0. `turn_id` should equal the record's own (THN057)."""

    turn_id: str
    request_id: str
    attempt: U32
    """1-based retry number."""
    provider: str
    model: str
    serialized_bytes: MeasuredValue
    estimated_input_tokens: OptionalValue
    provider_usage: ProviderUsage | None = None
    context: list[ContextItemSnapshot]
    shadow_receipts: list[ContextReductionReceipt]


class McpToolSessionMeta(_Nested, kw_only=True):
    server_name: str
    original_tool_name: str


class ArtifactMetadata(_Written, kw_only=True):
    schema_version: U32
    identity: str
    kind: ArtifactKind
    handle: str
    """`artifact_v1_` + 64 hex digits (THN059)."""
    content_hash: str
    """SHA-256 hex of the stored body (a string, unlike the u64 hashes elsewhere)."""
    original_byte_count: Usize
    bounded_byte_count: Usize
    truncated: bool
    redacted: bool
    created_at: str
    created_at_unix: U64
    expires_at: str | None = None
    expires_at_unix: U64 | None = None
    retention: ArtifactRetention


class SkillReferenceRecord(_Nested, kw_only=True):
    path: str
    content_hash: U64
    byte_count: Usize
    truncated: bool


class AcpPermissionOptionRecord(_Nested, kw_only=True):
    id: str
    name: str
    kind: str
    """A display label (`allow once`, ...); the fixture generator writes `allow_once` (THN060)."""


# ---------------------------------------------------------------------------------------------------------------
# Records (§2.2 envelope + §2.4)


class _Record(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True, tag_field="type",
              gc=False):
    schema_version: U32
    """Always 1; never checked on read."""
    seq: U64
    time: str
    """`YYYY-MM-DDTHH:MM:SSZ`, stored opaquely."""


class SessionMeta(_Record, kw_only=True, tag="session_meta"):
    session_id: str
    cwd: str
    title: str
    provider: str
    model: str
    websearch: str
    app_version: str
    config: SessionConfigMeta | None = None


class Context(_Record, kw_only=True, tag="context"):
    sources: list[ContextSourceMeta]


class ContextLedger(_Record, kw_only=True, tag="context_ledger"):
    turn_id: str
    ledger: ContextLedgerMeta


class ContextPin(_Record, kw_only=True, tag="context_pin"):
    item: ContextItemMeta
    reason: str


class ContextDrop(_Record, kw_only=True, tag="context_drop"):
    item: ContextItemMeta
    reason: str


class ContextRecovery(_Record, kw_only=True, tag="context_recovery"):
    item: ContextItemMeta
    reason: str


class Compaction(_Record, kw_only=True, tag="compaction"):
    audit: CompactionAudit


class CompactionReview(_Record, kw_only=True, tag="compaction_review"):
    recovery_handle: str
    review: CompactionReviewResult


class User(_Record, kw_only=True, tag="user"):
    turn_id: str
    text: str


class PromptMetadataRecord(_Record, kw_only=True, tag="prompt_metadata"):
    turn_id: str
    metadata: PromptMetadata


class AssistantFinished(_Record, kw_only=True, tag="assistant_finished"):
    turn_id: str
    text: str


class ReasoningFinished(_Record, kw_only=True, tag="reasoning_finished"):
    turn_id: str
    text: str


class Usage(_Record, kw_only=True, tag="usage"):
    input_tokens: U64
    output_tokens: U64


class RequestAccounting(_Record, kw_only=True, tag="request_accounting"):
    turn_id: str
    accounting: ProviderRequestAccounting


class ToolStarted(_Record, kw_only=True, tag="tool_started"):
    turn_id: str
    call_id: str
    name: str
    arguments: str
    """The raw JSON text of the arguments: a string, not an object."""
    mcp: McpToolSessionMeta | None = None


class ToolFinished(_Record, kw_only=True, tag="tool_finished"):
    turn_id: str
    call_id: str
    status: ToolStatus
    output: list[str]
    artifact: ArtifactMetadata | None = None
    mcp: McpToolSessionMeta | None = None


class Cancelled(_Record, kw_only=True, tag="cancelled"):
    turn_id: str
    reason: str


class Failed(_Record, kw_only=True, tag="failed"):
    turn_id: str
    error: str


class AcpSession(_Record, kw_only=True, tag="acp_session"):
    local_session_id: str
    agent_name: str
    acp_session_id: str
    command: str
    protocol_version: str
    agent_info_name: str | None = None
    agent_info_version: str | None = None
    client_info_name: str | None = None
    client_info_version: str | None = None


class SessionRenamed(_Record, kw_only=True, tag="session_renamed"):
    title: str


class FileWrite(_Record, kw_only=True, tag="file_write", omit_defaults=False):
    turn_id: str
    op: WriteOp
    path: str
    before_hash: U64 | None = None
    before_bytes: Usize | None = None
    after_hash: U64
    after_bytes: Usize
    status: ToolStatus


class McpConfigChanged(_Record, kw_only=True, tag="mcp_config_changed"):
    turn_id: str
    previous_files: list[SessionConfigFile]
    current_files: list[SessionConfigFile]
    diagnostics: list[str] = []


class ShellExec(_Record, kw_only=True, tag="shell_exec"):
    turn_id: str
    process_id: U64 | None = None
    """Background registry id; omitted for one-shot commands."""
    command: str
    cwd: str
    process_status: str
    """`ok`, `failed`, `timeout`, `cancelled`; `running` for a background start (THN053)."""
    exit_code: I32 | None = None
    elapsed_ms: U64
    kind: str
    """`one-shot` or `background` (THN053)."""


class SkillActivated(_Record, kw_only=True, tag="skill_activated", omit_defaults=False):
    name: str
    path: str
    content_hash: U64
    byte_count: Usize
    rendered_content_hash: U64 = 0
    rendered_byte_count: Usize = 0
    loaded_references: list[SkillReferenceRecord]


class QueuedInput(_Record, kw_only=True, tag="queued_input"):
    kind: str
    """`steering` or `follow-up` (THN055)."""
    text: str


class AcpPermissionRequest(_Record, kw_only=True, tag="acp_permission_request"):
    turn_id: str
    tool_call_id: str
    title: str
    options: list[AcpPermissionOptionRecord]


class AcpPermissionOutcome(_Record, kw_only=True, tag="acp_permission_outcome"):
    turn_id: str
    tool_call_id: str
    outcome: str


Record = (
    SessionMeta | Context | ContextLedger | ContextPin | ContextDrop | ContextRecovery | Compaction | CompactionReview
    | User | PromptMetadataRecord | AssistantFinished | ReasoningFinished | Usage | RequestAccounting | ToolStarted
    | ToolFinished | Cancelled | Failed | AcpSession | SessionRenamed | FileWrite | McpConfigChanged | ShellExec
    | SkillActivated | QueuedInput | AcpPermissionRequest | AcpPermissionOutcome
)
"""One line of a thndrs 0.1.0 session file, tagged by `type`."""

RECORD_TYPES: dict[str, type[_Record]] = {
    cls.__struct_config__.tag: cls for cls in get_args(Record)
}
"""`type` tag -> record Struct, for the 27 variants of 0.1.0."""

OTHER_BUILD_TYPES: dict[str, str] = {
    "memory_write": "the pre-0.1.0 memory build",
    "memory_delete": "the pre-0.1.0 memory build",
    "session_fork": "later builds",
    "context_capture_policy": "later builds",
    "request_content_captured": "later builds",
    "context_snapshot": "later builds",
    "context_lifecycle": "later builds",
}
"""Record types of other thndrs builds (§2.9) -> which builds write them. 0.1.0 drops them (THN006)."""

TURN_CLOSERS = frozenset({"assistant_finished", "cancelled", "failed"})
"""Records that settle a turn (a turn can be forked only when it has a user record and one of these)."""
