"""The Claude Code releases whose behaviour messages state: one row per release verified against the real CLI
(tests/conformance), newest last. A new release is a new row; `--claude-version` and the `claudeVersion` setting
accept its key."""

from __future__ import annotations

import msgspec

from . import schema as s


class ClaudeRelease(msgspec.Struct, frozen=True):
    key: str
    record_types: frozenset[str]
    """The record types this release writes (others it ignores, or links by uuid without sending them)."""
    system_subtypes: frozenset[str]
    attachment_types: frozenset[str]


RELEASES: dict[str, ClaudeRelease] = {
    "2.1.332": ClaudeRelease("2.1.332", frozenset(s.RECORD_TYPES), s.SYSTEM_SUBTYPES, s.ATTACHMENT_TYPES),
}
DEFAULT_RELEASE = "2.1.332"
