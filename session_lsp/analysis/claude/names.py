"""The names Claude Code gives its files: `<session uuid>.jsonl` for a session, `agent-<id>.jsonl` for a
subagent's transcript."""

from __future__ import annotations

import re
from collections.abc import Callable

_SESSION_FILE = re.compile(r"(?:.*/)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl\Z")

AGENT_FILE = re.compile(r"(?:.*/)?agent-[0-9a-zA-Z]+\.jsonl\Z")


def session_id_in_file_name(path: str | None) -> str | None:
    found = _SESSION_FILE.match(path or "")
    return found.group(1) if found else None


def subagent_file(agent: str, path: str | None, exists: Callable[[str], bool] | None) -> str | None:
    """The transcript of the subagent `agent` of the file at `path`: `<session>/subagents/agent-<id>.jsonl` beside
    the session (2.1.x) or, when only that exists, `agent-<id>.jsonl` in the project folder (older releases)."""
    if not path or not re.fullmatch(r"[0-9A-Za-z_-]+", agent):
        return None
    folder, _, name = path.rpartition("/")
    above = folder.rpartition("/")[2]
    session = session_id_in_file_name(path)
    if session is not None:
        candidates = [f"{folder}/{session}/subagents/agent-{agent}.jsonl", f"{folder}/agent-{agent}.jsonl"]
    elif above == "subagents" or name.startswith("agent-"):
        candidates = [f"{folder}/agent-{agent}.jsonl"]
    else:
        return None
    return next((c for c in candidates if exists is None or exists(c)), candidates[0])
