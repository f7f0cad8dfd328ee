"""The repairs of Claude Code transcripts: the shared ones (`fixing.generic`) for Claude Code's rule codes."""

from __future__ import annotations

from ..fixing import LINES, Fixers, generic

FIXERS: Fixers = {
    "CCD006": (LINES, generic.torn_tail),
    "CCD005": (LINES, generic.lf),
}
"""Claude Code's rules with a fix: the phase it runs in and the fixer."""
