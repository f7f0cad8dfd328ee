"""The pi releases session-lsp can speak for, as data: what each one's loader does is looked up here, never tested
by scattered version conditions in the rules. Adding a release is adding a row."""

from __future__ import annotations

import msgspec


class PiRelease(msgspec.Struct, frozen=True):
    key: str
    """What `--pi-version` and the `sessionLsp.piVersion` setting accept, e.g. "1.6"."""
    package: str
    """The npm package and version this row was verified against."""
    projection: bool = False
    """pi 1.x's `buildSessionProjection`: `context_edit` entries applied, system messages sent, a compaction's
    `systemMessage` checkpoint replacing the system messages before it (0.73 ignores all three)."""


RELEASES: dict[str, PiRelease] = {
    release.key: release
    for release in (
        PiRelease("0.73", "@mariozechner/pi-coding-agent@0.73.1"),
        PiRelease("1.6", "@earendil-works/pi-coding-agent@1.6.0", projection=True),
    )
}
DEFAULT_RELEASE = "1.6"
"""The newest known release: what users run today."""


def release(key: str | None) -> PiRelease:
    """The row for `key`; an unknown or missing key means the default (callers validate user input first)."""
    return RELEASES.get(key or DEFAULT_RELEASE, RELEASES[DEFAULT_RELEASE])
