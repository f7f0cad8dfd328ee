"""Elyra's code lenses and inlay hints: at each branch point how many branches there are and which one is active,
and on the leaf that pi resumes from."""

from __future__ import annotations

from ..structure import Hint, Lens
from .model import ElyraModel

LEAF_TEXT = "● leaf: pi resumes from this entry (the last line, not the deepest or newest)"


def _active_child(model: ElyraModel, line: int) -> tuple[int, int] | None:
    """(1-based branch number, child line) of the branch the active path takes at this branch point."""
    for number, child in enumerate(model.children(line), 1):
        if child in model.active_path:
            return number, child
    return None


def _branch_text(model: ElyraModel, line: int) -> tuple[str, int | None]:
    count = len(model.children(line))
    active = _active_child(model, line)
    if active is None:
        return f"⎇ {count} branches (none leads to the leaf)", None
    return f"⎇ {count} branches · active: branch {active[0]} (line {active[1] + 1})", active[1]


def lenses(model: ElyraModel) -> list[Lens]:
    out = [Lens(line, *_branch_text(model, line)) for line in model.branch_points]
    if model.leaf is not None:
        out.append(Lens(model.leaf, LEAF_TEXT))
    return out


def hints(model: ElyraModel, first: int, last: int) -> list[Hint]:
    out: list[Hint] = []
    for line in range(first, last + 1):
        if len(model.children(line)) > 1:
            out.append(Hint(line, _branch_text(model, line)[0]))
        if model.leaf == line:
            out.append(Hint(line, "● leaf", LEAF_TEXT))
    return out
