"""Where a line-pass issue's record sits in the chain Claude Code resumes, when that changes what the issue means."""

from __future__ import annotations

from ..diagnostics import Severity
from .model import ClaudeModel

_LOST_LINE_RULES = frozenset({"CCD001", "CCD006"})
"""Line-pass rules for a record Claude Code cannot read, which matters only where it would have been sent."""


def place_line_issue(model: ClaudeModel, line: int, code: str) -> tuple[str, Severity | None] | None:
    """A record lost to damage (torn, NUL-padded) above the /compact boundary the resumed chain starts at, where
    Claude Code sends nothing but the kept segment: a warning, not an error. Only when the chain was walked to the
    boundary without a bridge, and a kept segment was walked whole (a damaged record in it would break the walk):
    then no record on the chain can have been the lost one or named it."""
    if code not in _LOST_LINE_RULES or not model.chain:
        return None
    start = model.records[model.chain[0]]
    if start.facts.subtype != "compact_boundary" or line >= start.line:
        return None
    if any(index in model.bridged for index in model.chain):
        return None
    if start.facts.segment is not None and model.tail is None:
        return None
    return ("(it sits above the /compact boundary the resumed chain starts at: Claude Code sends nothing from "
            "there, so the resumed conversation is whole)", Severity.WARNING)
