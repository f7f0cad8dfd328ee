"""What renaming a Claude Code uuid changes: the record's `uuid` and every parentUuid, logicalParentUuid,
leafUuid, sourceToolAssistantUUID or file-history-snapshot messageId naming it; or a tool_use `id` and the
tool_use_id of every result answering it."""

from __future__ import annotations

from ..jsonscan import Path
from ..structure import Place, RenameTarget, renamed_below
from .model import ClaudeModel, use_paths

RECORD, CALL = "record", "tool call"
UUID_FIELDS = frozenset({"parentUuid", "logicalParentUuid", "leafUuid", "sourceToolAssistantUUID", "messageId"})


def _record(model: ClaudeModel, line: int, value: str) -> RenameTarget:
    naming = tuple((r.line, r.path) for r in model.references_to(line) if r.value == value and r.field in UUID_FIELDS)
    return RenameTarget(RECORD, value, ((line, ("uuid",)), *naming))


def _call(model: ClaudeModel, line: int, path: Path, value: str) -> RenameTarget:
    answers = tuple((r.line, r.path) for r in model.references_to(line)
                    if r.field == "tool_use_id" and r.value == value)
    return RenameTarget(CALL, value, ((line, path), *answers))


def rename_target(model: ClaudeModel, line: int, path: Path, value: str | None) -> RenameTarget | None:
    """On a record's `uuid` or a field naming one; on a tool_use's `id` or a tool_result's tool_use_id."""
    reference = next((r for r in model.references_from(line) if r.path == path), None)
    if reference is not None:
        if reference.target is None:
            return None
        if reference.field == "tool_use_id":
            record = model.at_line.get(reference.target)
            use = next((p for p, v in use_paths(record.facts) if v == reference.value), None) if record else None
            return _call(model, reference.target, use, reference.value) if use is not None else None
        return _record(model, reference.target, reference.value) if reference.field in UUID_FIELDS else None
    record = model.at_line.get(line)
    if not value or record is None or record.part:
        return None
    if path == ("uuid",) and record.facts.uuid == value:
        return _record(model, line, value)
    if (path, value) in use_paths(record.facts):
        return _call(model, line, path, value)
    return None


def rename_refusal(model: ClaudeModel, target: RenameTarget, new_name: str) -> str | None:
    if not new_name:
        return f"a {target.kind} id cannot be empty: Claude Code would index the record under an empty key"
    if target.kind == CALL:
        if new_name in model.uses:
            line = model.records[model.uses[new_name]].line
            return f"tool_use id {new_name!r} is already used on line {line + 1}: the API requires unique ids"
        return None
    if new_name in model.by_uuid:
        line = model.records[model.by_uuid[new_name]].line
        return (f"uuid {new_name!r} is already used by line {line + 1}: Claude Code keeps one record per uuid, so "
                "one of the two would be lost on resume")
    return None


def reid(model: ClaudeModel, line: int) -> RenameTarget | None:
    """A later row declaring a uuid already declared: its uuid, and the records after it (up to the next row with
    that uuid) that name it, which meant this row."""
    record = model.at_line.get(line)
    if record is None or record.facts.uuid is None or record.part:
        return None
    old = record.facts.uuid
    declared, naming = _naming(model)
    return renamed_below(RECORD, old, (line, ("uuid",)), declared.get(old, []), naming.get(old, []))


def _naming(model: ClaudeModel) -> tuple[dict[str, list[int]], dict[str, list[Place]]]:
    """Per uuid, the lines of the records (not glued parts) declaring it and the places naming it in the fields a
    new uuid follows: made once a model (its views), not read from every record for each duplicate."""
    found: tuple[dict[str, list[int]], dict[str, list[Place]]] | None = model.views.get("naming")
    if found is None:
        found = model.views["naming"] = _index(model)
    return found


def _index(model: ClaudeModel) -> tuple[dict[str, list[int]], dict[str, list[Place]]]:
    declared: dict[str, list[int]] = {}
    naming: dict[str, list[Place]] = {}
    for other in model.records:
        if other.part:
            continue
        found = other.facts
        if found.uuid is not None:
            declared.setdefault(found.uuid, []).append(other.line)
        for field, value in (("parentUuid", found.parent), ("logicalParentUuid", found.logical_parent),
                             ("sourceToolAssistantUUID", found.source_tool), ("leafUuid", found.leaf)):
            if value is not None:
                naming.setdefault(value, []).append((other.line, (field,)))
    return declared, naming



