"""The names Codex gives its rollouts: `rollout-<time>-<thread uuid>.jsonl` (or `.jsonl.zst`), by which resume finds
one."""

from __future__ import annotations

import re

_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
ROLLOUT = re.compile(rf"(?:.*/)?rollout-\d{{4}}-\d{{2}}-\d{{2}}T\d{{2}}-\d{{2}}-\d{{2}}-({_UUID})\.jsonl(?:\.zst)?\Z")


def session_id_in_file_name(path: str | None) -> str | None:
    found = ROLLOUT.match(path or "")
    return found.group(1) if found else None
