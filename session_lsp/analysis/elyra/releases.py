"""The pi releases session-lsp can speak for, as data: what each one knows and what its loader does is looked up
here, never tested by scattered version conditions in the rules. Adding a release is adding a row.

Every value was checked against the real package named in the row (its session-manager.js, messages.js and
pi-ai's types.d.ts) and, for the loader, by running it on the same files (docs/formats.md, spec section 7).
"""

from __future__ import annotations

import msgspec

from ..diagnostics import Severity

_LEVELS_073 = ("off", "minimal", "low", "medium", "high", "xhigh")
_STOPS_073 = ("stop", "length", "toolUse", "error", "aborted")
_SKIPPED_16 = ("pi 1.6 skips it like a blank line (it keeps only values JavaScript reads as true), so whatever record "
               "was meant to be here is lost")


class PiRelease(msgspec.Struct, frozen=True):
    key: str
    """What `--pi-version` and the `sessionLsp.piVersion` setting accept, e.g. "1.6"."""
    package: str
    """The npm package and version this row was verified against."""
    name: str
    """How messages name it: "pi 1.6"."""
    bad_header: str
    """What the loader does with a file whose first parseable line is not a header with a string id; `{entries}`
    is how many entries the file has, counted ("1 entry", "3 entries")."""
    final_newline: str
    """What happens to a file whose last line has no `\\n`."""
    final_newline_severity: Severity
    header_scan_bytes: int
    """How much of the file `pi --continue` reads to find a session's header."""
    header_scan_skips: bool
    """Whether `--continue` skips blank, malformed and falsy lines before the header (1.6's `readSessionHeader`);
    0.73 parses the first physical line only."""
    thinking_levels: tuple[str, ...]
    """Lowest first, as pi's level picker lists them (completion offers them in this order)."""
    stop_reasons: tuple[str, ...]
    unwritten_stop_reasons: tuple[str, ...]
    """Stop reasons the release knows but never persists, which only a response still streaming has (ELY068;
    completion does not offer them)."""
    trims_file: bool
    """Whether the loader trims the whole file before splitting it (0.73, `String.prototype.trim`), which drops a
    byte order mark, `\\v`, `\\f` or a no-break space at its start; 1.6 parses line by line, so they make the header
    unparseable and pi refuses the file."""
    null_line: str
    """What the loader does with a line that is JSON `null`."""
    falsy_line: str | None
    """What the loader does with a line whose JSON value is falsy (`null`, `false`, `0`, `""`) when it skips it as a
    blank one (1.6 keeps a parsed value only `if (entry)`); None when it keeps it as an entry (0.73)."""
    unknown_entry_types: dict[str, str] = {}
    """Entry types newer releases write that this one does not know, with what it does with them."""
    unknown_roles: dict[str, str] = {}
    """Message roles newer releases write that this one does not know, with what it does with them."""
    unknown_fields: dict[str, tuple[str, ...]] = {}
    """Fields newer releases write that this one does not know, as JSON names, by the object that holds them
    ("assistant", "toolCall", "usage", "compaction", "branch_summary"): it keeps them in the file and ignores them."""
    projection: bool = False
    """pi 1.x's `buildSessionProjection`: `context_edit` entries applied, system messages sent, a compaction's
    `systemMessage` checkpoint replacing the system messages before it (0.73 ignores all three)."""


RELEASES: dict[str, PiRelease] = {
    release.key: release
    for release in (
        PiRelease(
            "0.73", "@mariozechner/pi-coding-agent@0.73.1", "pi 0.73",
            bad_header="pi 0.73 treats the file as empty and, when the session is opened, starts a fresh one and "
                       "rewrites the file with only a new header, destroying {entries}",
            final_newline="pi 0.73 appends its next entry straight onto this line, so both records become one "
                          "unparseable line and are lost",
            final_newline_severity=Severity.WARNING,
            header_scan_bytes=512,
            header_scan_skips=False,
            thinking_levels=_LEVELS_073,
            stop_reasons=_STOPS_073,
            unwritten_stop_reasons=(),
            trims_file=True,
            null_line="pi 0.73 keeps it as an entry and then throws reading its `.type` (\"Cannot read properties of "
                      "null\"), so it cannot open the session at all (the file is left untouched)",
            falsy_line=None,
            unknown_entry_types={
                "usage": "pi 0.73 does not know `usage` entries (pi 1.x's): it keeps the line as a tree node and "
                         "leaves it out of token and cost totals",
                "context_edit": "pi 0.73 ignores `context_edit` (pi 1.x's): this edit has no effect, and the "
                                "target goes to the model as written",
            },
            unknown_roles={
                "system": "pi 0.73 does not know the `system` role (pi 1.x's): it keeps the entry but leaves the "
                          "message out of what it sends to the model",
            },
            unknown_fields={
                "assistant": ("providerThinkingLevel", "thinkingLevel", "deferred", "rawStopReason", "endTurn",
                              "durationMs"),
                "toolCall": ("namespace", "argumentsError"),
                "usage": ("reasoning",),
                "compaction": ("systemMessage", "usage"),
                "branch_summary": ("usage",),
            },
        ),
        PiRelease(
            "1.6", "@earendil-works/pi-coding-agent@1.6.0", "pi 1.6",
            bad_header="pi 1.6 refuses to open it (\"Session file is not a valid pi session\") and leaves the "
                       "file untouched, but {entries} cannot be resumed",
            final_newline="pi 1.6 adds the missing newline when it loads the file, so nothing is lost; the last "
                          "write was probably cut short",
            final_newline_severity=Severity.INFORMATION,
            header_scan_bytes=1024 * 1024,
            header_scan_skips=True,
            thinking_levels=(*_LEVELS_073, "max"),
            stop_reasons=(*_STOPS_073, "pending", "deferred"),
            unwritten_stop_reasons=("pending",),
            trims_file=False,
            null_line=_SKIPPED_16,
            falsy_line=_SKIPPED_16,
            projection=True,
        ),
    )
}
DEFAULT_RELEASE = "1.6"
"""The newest known release: what users run today."""


def release(key: str | None) -> PiRelease:
    """The row for `key`; an unknown or missing key means the default (callers validate user input first)."""
    return RELEASES.get(key or DEFAULT_RELEASE, RELEASES[DEFAULT_RELEASE])
