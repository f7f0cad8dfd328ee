"""What a rollout's file name says: Codex names it `rollout-<local time>-<thread uuid>.jsonl` and finds a thread's
rollout by it."""

from __future__ import annotations

import re

UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
ROLLOUT = re.compile(rf"(?:.*/)?rollout-(\d{{4}}-\d{{2}}-\d{{2}})T(\d{{2}})-(\d{{2}})-(\d{{2}})-({UUID})\.jsonl"
                     r"(?:\.zst)?\Z")


def thread_in_name(path: str | None) -> str | None:
    found = ROLLOUT.match(path or "")
    return found.group(5) if found else None


def time_in_name(path: str | None) -> str | None:
    """The time the name holds, as RFC 3339 (Codex names the file in local time; read as UTC)."""
    found = ROLLOUT.match(path or "")
    return None if found is None else f"{found.group(1)}T{found.group(2)}:{found.group(3)}:{found.group(4)}.000Z"
