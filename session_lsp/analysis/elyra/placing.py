"""Where an Elyra entry sits in the model, when that changes what an issue about it means: on an abandoned branch,
compacted away on the active path, or a context_edit a later one supersedes. The link pass says it of its own
issues, the session (`ElyraSession.place`) of the line pass's."""

from __future__ import annotations

from ..diagnostics import Severity
from .model import NONE, ElyraModel

_ABANDONED = "(on an abandoned branch: this matters only if you navigate there)"
_COMPACTED = ("(compacted away on the active path: pi no longer sends it; this matters only if you navigate back "
              "above the compaction)")
_PLACED_LINE_RULES = frozenset({"ELY030", "ELY031", "ELY032", "ELY033", "ELY059", "ELY060", "ELY061", "ELY066",
                                "ELY067", "ELY068", "ELY069"})
"""Line-pass rules about what pi sends of an entry: like the link pass's path rules, said where they are off the
active path."""


def compacted_below(model: ElyraModel) -> int | None:
    """The entry on the active path above which the last compaction on it drops everything (its first kept entry,
    or the compaction itself when that names nothing above it); None without a compaction there."""
    cached = model.views.get("compacted_below")
    if isinstance(cached, int):
        return None if cached == NONE else cached
    facts, path = model.line_facts, model.active_path
    last = max((line for line in model.special_lines if facts[line].type == "compaction" and line in path),
               key=model.pre.__getitem__, default=None)
    found = None
    if last is not None:
        kept = model.first_kept(last)
        found = kept if kept is not None and model.is_ancestor(kept, last) else last
    model.views["compacted_below"] = NONE if found is None else found
    return found


def off_the_path(model: ElyraModel, line: int) -> str | None:
    """What to say of an entry pi does not send on resume: on an abandoned branch, or compacted away."""
    if not model.is_entry(line):
        return None
    if line not in model.active_path:
        return _ABANDONED
    cut = compacted_below(model)
    if cut is not None and line != cut and model.is_ancestor(line, cut):
        return _COMPACTED
    return None


def place_line_issue(model: ElyraModel, line: int, code: str) -> tuple[str, Severity | None] | None:
    """Where a line-pass issue's entry sits, when that changes what it means: a note for its message, and a
    severity when it changes (None: the rule's). Off the active path, the notes of the link pass's path rules; a
    context_edit with a bad replacement (ELY059) that a later edit of the same target on the path supersedes has no
    effect."""
    if code not in _PLACED_LINE_RULES or not model.tree or model.resumed is None:
        return None
    note = off_the_path(model, line)
    if note is not None:
        return note, None
    if code != "ELY059":
        return None
    facts = model.line_facts
    target = facts[line].target_id
    later = next((other for other in reversed(model.special_lines)
                  if other != line and facts[other].type == "context_edit" and facts[other].target_id == target
                  and other in model.active_path and model.is_ancestor(line, other)), None)
    if target is None or later is None:
        return None
    return (f"(superseded: the context_edit on line {later + 1} edits the same entry later on the path, and pi "
            "applies only the latest, so this one has no effect)", Severity.WARNING)
