"""The pi releases session-lsp can speak for, as data: what each one's loader does is looked up here, never tested
by scattered version conditions in the rules. Adding a release is adding a row."""

from __future__ import annotations

import msgspec


class PiRelease(msgspec.Struct, frozen=True):
    key: str
    """What `--pi-version` and the `sessionLsp.piVersion` setting accept, e.g. "1.6"."""
    package: str
    """The npm package and version this row was verified against."""
    trims_bom: bool
    """Whether the loader trims the whole file before splitting it (0.73), which drops a byte order mark at its start;
    1.6 parses line by line, so the BOM makes the header unparseable and pi refuses the file."""


RELEASES: dict[str, PiRelease] = {
    release.key: release
    for release in (
        PiRelease("0.73", "@mariozechner/pi-coding-agent@0.73.1", trims_bom=True),
        PiRelease("1.6", "@earendil-works/pi-coding-agent@1.6.0", trims_bom=False),
    )
}
DEFAULT_RELEASE = "1.6"
"""The newest known release: what users run today."""


def release(key: str | None) -> PiRelease:
    """The row for `key`; an unknown or missing key means the default (callers validate user input first)."""
    return RELEASES.get(key or DEFAULT_RELEASE, RELEASES[DEFAULT_RELEASE])
