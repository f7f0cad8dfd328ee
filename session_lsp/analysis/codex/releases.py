"""The Codex releases whose behaviour messages state: one row per release verified against the real CLI, newest
last. A new release is a new row; `--codex-version` and the `codexVersion` setting accept its key."""

from __future__ import annotations

import msgspec

from . import schema as s


class CodexRelease(msgspec.Struct, frozen=True):
    key: str
    line_types: frozenset[str]
    """The line types this release reads (a line of another type is skipped)."""
    item_kinds: frozenset[str]
    """The response item kinds it sends (another kind is read as `Other` and not sent)."""
    event_kinds: frozenset[str]


RELEASES: dict[str, CodexRelease] = {
    "0.171": CodexRelease("0.171", s.LINE_TYPES, frozenset(s.ITEM_KINDS), s.EVENT_KINDS),
}
DEFAULT_RELEASE = "0.171"
