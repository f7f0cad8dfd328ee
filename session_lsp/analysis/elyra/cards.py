"""The rows of an Elyra entry's hover card (where it sits in the tree pi builds) and the card of a tool call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .model import ElyraModel


def card_rows(model: ElyraModel, line: int, record: Mapping[str, Any]) -> list[str]:
    rows: list[str] = []
    if isinstance(record.get("id"), str):
        rows.append(f"id `{record['id']}`")
    if isinstance(record.get("timestamp"), str):
        rows.append(f"time {record['timestamp']}")
    if not model.is_entry(line):
        return rows
    depth = model.depth(line)
    if depth is not None:
        rows.append(f"depth {depth}")
    children = len(model.children(line))
    rows.append(f"{children} child{'ren' if children != 1 else ''}" + (" (a branch point)" if children > 1 else ""))
    if model.leaf == line:
        rows.append("**the leaf**: the last entry, where pi resumes")
    elif line in model.active_path:
        rows.append("on the active path (an ancestor of the leaf)")
    else:
        rows.append("not on the active path (pi does not send it as context)")
    label = model.label(line)
    if label:
        rows.append(f"label **{label}**")
    return rows


def call_card(model: ElyraModel, line: int, call_id: str) -> tuple[str, list[str]] | None:
    """The toolCall block with this id in the assistant entry on `line`, and the results that answer it."""
    call = next((c for c in getattr(model.facts(line), "tool_calls", ()) if c.id == call_id), None)
    if call is None:
        return None
    results = model.tool_results(line, call.index)
    rows = [f"in the assistant message on line {line + 1}, content block {call.index}"]
    if results:
        rows.append("answered by line " + ", ".join(str(r + 1) for r in results))
    else:
        rows.append("no toolResult answers it on its path: before the next request pi inserts a synthetic "
                    "\"No result provided\" error result")
    return f"tool call `{call.name or '?'}`", rows
