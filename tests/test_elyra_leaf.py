"""ELY047, the note on the entry pi resumes from: what its path to the root meets."""

from __future__ import annotations

import json

from session_lsp.analysis import Options, analyze

HEADER = {"type": "session", "version": 3, "id": "019cb5a0-7c1e-7b3a-9f2d-3e4a5b6c7d8e",
          "timestamp": "2026-03-01T09:15:00.000Z", "cwd": "/w"}


def entry(entry_id: str, parent: str | None, second: int) -> dict[str, object]:
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": f"2026-03-01T09:15:{second:02d}.000Z",
            "message": {"role": "user", "content": "go", "timestamp": 1772356500000 + second * 1000}}


def leaf_message(*values: dict[str, object]) -> str:
    document = analyze("".join(json.dumps(value) + "\n" for value in values), Options())
    (found,) = [d for d in document.diagnostics() if d.code == "ELY047"]
    return found.message


def test_a_leaf_below_a_dangling_parent_names_the_line_where_the_walk_stops() -> None:
    message = leaf_message(HEADER, entry("aaaa0001", "ffff0000", 1), entry("aaaa0002", "aaaa0001", 2))
    assert "2 entries on its path to the root; the walk stops at line 2, whose parent is missing" in message


def test_a_leaf_on_a_parent_loop_says_the_walk_never_ends() -> None:
    message = leaf_message(HEADER, entry("aaaa0001", "aaaa0002", 1), entry("aaaa0002", "aaaa0001", 2))
    assert "the path loops, so pi hangs building the context" in message
    assert "the walk stops" not in message


def test_a_leaf_with_a_sound_path_gets_only_its_length() -> None:
    message = leaf_message(HEADER, entry("aaaa0001", None, 1), entry("aaaa0002", "aaaa0001", 2))
    assert message.endswith("(2 entries on its path to the root)")
