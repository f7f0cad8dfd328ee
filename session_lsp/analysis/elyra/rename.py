"""What renaming an Elyra id changes: an entry id and every parentId, targetId, fromId or firstKeptEntryId naming
it, or a tool call id and the toolCallId of every result answering it; and what a duplicate id's fix moves."""

from __future__ import annotations

from ..jsonscan import Path
from ..structure import Place, RenameTarget, renamed_below
from .facts import EntryFacts
from .model import ElyraModel
from .schema import RENAMED_WITH_ID

_ID_FACTS = (("parent_id", ("parentId",)), ("target_id", ("targetId",)), ("from_id", ("fromId",)),
             ("first_kept_id", ("firstKeptEntryId",)))
ENTRY, CALL = "entry", "tool call"


def _entry(model: ElyraModel, line: int, value: str) -> RenameTarget:
    naming = tuple((r.line, r.path) for r in model.references_to(line)
                   if r.value == value and r.field in RENAMED_WITH_ID)
    return RenameTarget(ENTRY, value, ((line, ("id",)), *naming))


def _call(model: ElyraModel, line: int, block: int, value: str) -> RenameTarget:
    answers = tuple((answer, ("message", "toolCallId")) for answer in model.tool_results(line, block))
    return RenameTarget(CALL, value, ((line, ("message", "content", block, "id")), *answers))


def rename_target(model: ElyraModel, line: int, path: Path, value: str | None) -> RenameTarget | None:
    """On an entry's `id` or a reference naming one; on a toolCall block's `id` or a toolResult's toolCallId."""
    reference = next((r for r in model.references_from(line) if r.path == path), None)
    if reference is not None:
        if reference.field == "toolCallId":
            call = model.tool_call(line)
            return _call(model, *call, reference.value) if call is not None else None
        if reference.field in RENAMED_WITH_ID and reference.target is not None:
            return _entry(model, reference.target, reference.value)
        return None
    if not value:
        return None
    facts = model.facts(line)
    if path == ("id",) and type(facts) is EntryFacts:
        return _entry(model, line, value)
    block = path[2] if len(path) == 4 and path[:2] == ("message", "content") and path[3] == "id" else None
    if (isinstance(block, int) and type(facts) is EntryFacts
            and any(call.index == block and call.id == value for call in facts.tool_calls)):
        return _call(model, line, block, value)
    return None


def rename_refusal(model: ElyraModel, target: RenameTarget, new_name: str) -> str | None:
    if target.kind == CALL:
        if not new_name:
            return "a tool call id cannot be empty: providers reject a tool call without one"
        for number in model.entry_lines:
            if any(call.id == new_name for call in model.line_facts[number].tool_calls):
                return (f"tool call id {new_name!r} is already used on line {number + 1}: provider APIs require "
                        "tool call ids to be unique")
        return None
    if not new_name:
        return "an entry id cannot be empty: pi would index the entry under an empty key"
    if new_name == "root":
        return ('"root" is what branch_summary.fromId writes for "before the first entry"; an entry with this id '
                "would be ambiguous")
    if new_name in model.by_id:
        return (f"id {new_name!r} is already used by line {model.by_id[new_name] + 1}: pi keeps only the later of "
                "two entries with one id")
    return None


def reid(model: ElyraModel, line: int) -> RenameTarget | None:
    """The entry's id, and the lines written after it (up to the next entry with that id) that name the id: pi
    appended them while it was the leaf, so they meant it."""
    old = model.entry_id(line)
    if old is None:
        return None
    declared, naming = _naming(model)
    return renamed_below(ENTRY, old, (line, ("id",)), declared.get(old, []), naming.get(old, []))


def _naming(model: ElyraModel) -> tuple[dict[str, list[int]], dict[str, list[Place]]]:
    """Per id, the entries declaring it, and the places naming it in the fields a new id follows (line by line, in
    `_ID_FACTS` order): made once a model (its views), not read from every line below for each duplicate id's fix,
    which made a file with thousands of them quadratic."""
    found = model.views.get("naming")
    if not isinstance(found, tuple):
        found = model.views["naming"] = _index(model)
    return found


def _index(model: ElyraModel) -> tuple[dict[str, list[int]], dict[str, list[Place]]]:
    declared: dict[str, list[int]] = {}
    naming: dict[str, list[Place]] = {}
    for number, found in enumerate(model.line_facts):
        if type(found) is not EntryFacts:
            continue
        if found.id is not None:
            declared.setdefault(found.id, []).append(number)
        for attr, path in _ID_FACTS:
            value = getattr(found, attr)
            if value is not None:
                naming.setdefault(value, []).append((number, path))
    return declared, naming
