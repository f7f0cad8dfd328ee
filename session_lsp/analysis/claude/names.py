"""The names Claude Code gives its files: `<session uuid>.jsonl` for a session, `agent-<id>.jsonl` for a
subagent's transcript."""

from __future__ import annotations

import re

_SESSION_FILE = re.compile(r"(?:.*/)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl\Z")

AGENT_FILE = re.compile(r"(?:.*/)?agent-[0-9a-zA-Z]+\.jsonl\Z")


def session_id_in_file_name(path: str | None) -> str | None:
    found = _SESSION_FILE.match(path or "")
    return found.group(1) if found else None
