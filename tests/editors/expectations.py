"""What every editor must show for fixtures/broken-elyra.jsonl, checked on the JSON its script wrote."""

from __future__ import annotations

from typing import Any

from .conftest import line_of_id, position_of

PARENT_ID = "a1000001"
"""The hover/definition probe sits on the `parentId` of the entry after this one, naming it."""
PARENT_TEXT = "Fix the failing parser test"


def probe() -> dict[str, Any]:
    """Positions each editor script uses (0-based): inside the parentId value naming PARENT_ID; the glued line
    (ELY002, which has a split quick fix); and a line the tree view jumps to."""
    line, column = position_of(f'"parentId":"{PARENT_ID}"')
    return {
        "hover": [line, column + len('"parentId":"') + 2],
        "action_line": line_of_id("e5000001"),
        "jump_line": line_of_id("c3000002"),
    }


def expected_diagnostics() -> set[tuple[int, str]]:
    return {(line_of_id("e5000001"), "ELY002"), (line_of_id("d4000001"), "ELY042")}


def check_diagnostics(diagnostics: list[dict[str, Any]]) -> None:
    seen = {(d["line"], d["code"]) for d in diagnostics}
    missing = expected_diagnostics() - seen
    assert not missing, f"missing {missing}; the editor got {sorted(seen, key=str)}"
    assert all(isinstance(d["code"], str) and d["code"][:3] in ("ELY", "THN", "SLS") for d in diagnostics), diagnostics


def check_hover(text: Any) -> None:
    assert isinstance(text, str) and PARENT_TEXT in text, f"hover on the parentId did not show its parent: {text!r}"


def check_definition(lines: list[int]) -> None:
    assert lines == [line_of_id(PARENT_ID)], f"definition went to {lines}, not line {line_of_id(PARENT_ID)}"


def check_symbols(names: list[str]) -> None:
    joined = " | ".join(names)
    assert PARENT_TEXT in joined, f"the outline does not list the first user message: {joined}"
    assert "Add a regression test instead" in joined and "Now make it stream" in joined, joined


def check_code_actions(actions: list[dict[str, Any]]) -> None:
    split = [a for a in actions if "split" in a["title"].lower()]
    assert split, f"no split quick fix for the glued line: {actions}"
    assert split[0]["has_edit"] is True and split[0]["kind"].startswith("quickfix"), split


def check_tree(lines: list[str]) -> None:
    joined = "\n".join(lines)
    assert "user: Fix the failing parser test" in joined, joined
    assert "2 branches" in joined, joined
    assert "active leaf" in joined, joined
