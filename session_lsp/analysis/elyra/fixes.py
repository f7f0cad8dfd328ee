"""The repairs of Elyra (pi) files: the header, ids, parents, tool results and the other references, each from
what its rule left in the diagnostic's `data` (the parent above, the unanswered call, the first entry to keep); and
`FIXERS`, this format's rule codes with their phase and fixer (the shared ones from `fixing.generic`)."""

from __future__ import annotations

import math
from collections.abc import Callable

import msgspec

from .. import jsonscan
from ..diagnostics import Diagnostic, Span
from ..editing import HORIZON
from ..fixing import (
    FILE,
    IDS,
    LINES,
    PARENTS,
    REFERENCES,
    Fix,
    FixDoc,
    Fixer,
    Fixers,
    TextEdit,
    delete_line,
    fix,
    generic,
    insert_members,
    json_text,
    remove_value,
    replace_value,
)
from ..text import fresh_id
from .facts import EntryFacts


def _move_header(doc: FixDoc, line: int, code: str) -> Fix | None:
    if line <= 0 or line >= len(doc.lines):
        return None
    lines = doc.lines
    insert = TextEdit(Span(0, 0, 0, 0), lines[line].strip() + "\n")
    return fix(code, f"Move the header from line {line + 1} to the first line", insert, delete_line(lines, line))


def _header(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    data = diagnostic.data or {}
    if "header_line" in data:
        return _move_header(doc, data["header_line"], diagnostic.code)
    if "header_id" in data:
        line, value = diagnostic.span.line, json_text(data["header_id"])
        edit = replace_value(doc.lines, line, ("id",), value)
        if edit is None:  # no `id` at all (another program's first line with `type` "session")
            members = f'"id":{value}' + (f',"version":{data["header_version"]}' if "header_version" in data else "")
            found = insert_members(doc.lines[line], members)
            edit = TextEdit(Span(line, found[0], line, found[0]), found[1]) if found is not None else None
        return fix(diagnostic.code, f"Give the header the id {data['header_id']!r}", edit) if edit else None
    if "header" in data:
        return fix(diagnostic.code, "Insert the session header pi would have written",
                    TextEdit(Span(0, 0, 0, 0), json_text(data["header"]) + "\n"))
    return None


def _header_first(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    return _move_header(doc, diagnostic.span.line, diagnostic.code)


def _tree_version(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """ELY020: the entries carry a tree, so the header says version 3 (a missing `version` is added)."""
    line = (diagnostic.data or {}).get("header_line")
    if not isinstance(line, int):
        return None
    edit = replace_value(doc.lines, line, ("version",), "3")
    if edit is None:
        found = insert_members(doc.lines[line], '"version":3')
        if found is None:
            return None
        edit = TextEdit(Span(line, found[0], line, found[0]), found[1])
    return fix(diagnostic.code, "Set the header's version to 3", edit)


def _version(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """ELY016: the version pi reads the number as (below 2: 1, else its whole part, at most 3)."""
    line = diagnostic.span.line
    found = jsonscan.value_span(doc.lines[line], ("version",))
    if found is None:
        return None
    try:
        value = float(doc.lines[line][found[0]:found[1]])
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    version = 1 if value < 2 else min(3, int(value))
    return fix(diagnostic.code, f"Set version to {version}, as pi reads it",
                TextEdit(Span(line, found[0], line, found[1]), str(version)))


def _taken(doc: FixDoc) -> Callable[[str], bool]:
    return doc.session.id_in_use


def _missing_ids(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """ELY021: an entry without `id` or `parentId` gets a fresh id and the entry above as its parent."""
    line = diagnostic.span.line
    text = doc.lines[line]
    taken = _taken(doc)
    members: list[str] = []
    edits: list[TextEdit] = []
    if jsonscan.value_span(text, ("id",)) is None:
        new = fresh_id(f"{line}/{text}", taken)
        members.append(f'"id":{json_text(new)}')
        taken = _besides(taken, new)
    if jsonscan.value_span(text, ("parentId",)) is None:
        parent, given = _entry_above(doc, line, taken)
        members.append(f'"parentId":{json_text(parent)}')
        edits.extend(given)
    found = insert_members(text, ",".join(members)) if members else None
    if found is None:
        return None
    title = "Give this entry " + " and ".join(("a fresh id" if m.startswith('"id"') else "the entry above as parent")
                                                for m in members)
    if edits:
        title += " (and that entry the fresh id it lacks)"
    return fix(diagnostic.code, title, *edits, TextEdit(Span(line, found[0], line, found[0]), found[1]))


def _entry_above(doc: FixDoc, line: int, taken: Callable[[str], bool]) -> tuple[str | None, list[TextEdit]]:
    """The parent pi would have written for `line`: the id of the nearest entry above (a line of no type, which
    other fixes delete, is passed over). When that entry has no id either (a file written without ids), it gets the
    fresh id its own ELY021 fix would give it, in the same fix: taking the next entry up that has an id instead
    made such a file a forest of roots, each entry alone in pi's context."""
    results, lines = doc.results, doc.lines
    for number in range(line - 1, max(-1, line - 1 - HORIZON), -1):
        facts = results[number].facts
        if not isinstance(facts, EntryFacts) or facts.type is None:
            continue
        if facts.id is not None:
            return facts.id, []
        above = lines[number]
        if facts.has_id or jsonscan.value_span(above, ("id",)) is not None:
            continue  # an id of the wrong type: ELY033's fix replaces it
        new = fresh_id(f"{number}/{above}", taken)
        found = insert_members(above, f'"id":{json_text(new)}')
        if found is None:
            continue
        return new, [TextEdit(Span(number, found[0], number, found[0]), found[1])]
    return None, []


def _besides(taken: Callable[[str], bool], new: str) -> Callable[[str], bool]:
    """`taken`, with `new` taken too: two fresh ids of one fix never coincide."""
    return lambda candidate: candidate == new or taken(candidate)


def _wrong_type(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """ELY033: an entry's `id` gets a fresh string id; a system message's field, what pi reads in its place."""
    return _id_type(doc, diagnostic) or _system_field(doc, diagnostic)


_SYSTEM_LISTS = ("toolsAdded", "toolsRemoved")


def _system_field(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """A pi 1.x system message's field with the wrong type. pi reads `toolsAdded ?? []`, `toolsRemoved ?? []` and
    `sections ?? {}`, so a damaged list or section map goes (pi cannot iterate it: a number or an object throws, a
    string gives a tool or section per character), as does a tool that is not an object; a section's value that is
    not a string is written as the text of its JSON (pi would render `1` or `[object Object]`); content that is
    neither a string nor blocks, which pi throws on, becomes "" (no system text)."""
    line = diagnostic.span.line
    text = doc.lines[line]
    root = jsonscan.scan(text)
    role = jsonscan.find(root, ("message", "role"))
    hit = jsonscan.at(text, diagnostic.span.start, root)
    system = role is not None and jsonscan.string_value(text, role) == "system"
    if not system or hit is None or hit.start != diagnostic.span.start:
        return None
    path = hit.path
    if path[:1] != ("message",) or len(path) < 2:
        return None
    field, rest = path[1], path[2:]
    name = jsonscan.dotted(path)
    if field in (*_SYSTEM_LISTS, "sections") and not rest:
        edit = remove_value(doc.lines, line, path)
        title = f"Remove `{name}`, which pi cannot read (it reads a missing one as empty)"
    elif field in _SYSTEM_LISTS and len(rest) == 1 and isinstance(rest[0], int):
        edit = remove_value(doc.lines, line, path)
        title = f"Remove `{name}`, which is not a tool"
    elif field == "sections" and len(rest) == 1:
        edit = replace_value(doc.lines, line, path, json_text(text[hit.start:hit.end]))
        title = f"Write `{name}` as text"
    elif field == "content" and not rest:
        edit = replace_value(doc.lines, line, path, '""')
        title = "Give the system message empty content, which pi reads as no system text"
    else:
        return None
    return fix(diagnostic.code, title, edit) if edit is not None else None


def _replacement(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """ELY059: a context_edit whose `replacement` pi cannot read. A string is the content meant (what pi's own
    `appendContextEdit` writes as `{"content": ...}`); anything else says nothing pi can apply (pi sends the target
    with no content, or throws when it is missing), so the edit goes: the target is sent as the edit before it on
    the path left it, or with its own content."""
    line = diagnostic.span.line
    text = doc.lines[line]
    found = jsonscan.find(jsonscan.scan(text), ("replacement",))
    if found is not None and found.kind == "string" and found.complete:
        edit = replace_value(doc.lines, line, ("replacement",), f'{{"content":{text[found.start:found.end]}}}')
        return fix(diagnostic.code, "Write the replacement as {\"content\": ...}", edit) if edit else None
    return _drop_entry(doc, diagnostic, "Delete this context_edit, whose replacement pi cannot read (its children "
                       "move up to its parent)")


def _keep_calls(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """ELY077: an edit of an assistant message that loses the tool calls whose results stay gets those calls back,
    after the replacement's own content (an omitting edit keeps just the calls), so every result pi sends has its
    call and nothing the edit says is lost."""
    data = diagnostic.data or {}
    target, calls = data.get("target_line"), data.get("calls")
    if not isinstance(target, int) or not isinstance(calls, list) or not 0 <= target < len(doc.lines):
        return None
    try:
        edit_entry = msgspec.json.decode(doc.lines[diagnostic.span.line])
        target_entry = msgspec.json.decode(doc.lines[target])
    except msgspec.DecodeError:
        return None
    message = target_entry.get("message") if isinstance(target_entry, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(edit_entry, dict) or not isinstance(content, list):
        return None
    kept = [block for block in content if isinstance(block, dict) and block.get("type") == "toolCall"
            and block.get("id") in calls]
    if not kept:
        return None
    replacement = edit_entry.get("replacement")
    said = replacement.get("content") if isinstance(replacement, dict) else None
    blocks = [{"type": "text", "text": said}] if isinstance(said, str) else said if isinstance(said, list) else []
    edit = replace_value(doc.lines, diagnostic.span.line, ("replacement",), json_text({"content": [*blocks, *kept]}))
    count = len(kept)
    return fix(diagnostic.code, f"Keep the tool call{'s' if count != 1 else ''} {', '.join(map(repr, calls))} in the "
               "replacement", edit) if edit else None


def _id_type(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """ELY033 on an entry's `id` (a number, null, an array): a fresh string id."""
    line = diagnostic.span.line
    found = jsonscan.value_span(doc.lines[line], ("id",))
    if found is None or (found[0], found[1]) != (diagnostic.span.start, diagnostic.span.end):
        return None
    new = fresh_id(f"{line}/{doc.lines[line]}", _taken(doc))
    return fix(diagnostic.code, f"Give this entry the fresh id {new!r}",
                TextEdit(Span(line, found[0], line, found[1]), json_text(new)))


NEUTRAL: dict[str, object] = {"content": [], "stopReason": "stop", "summary": "", "thinkingLevel": "off",
                              "customType": "custom", "name": "", "details": {}, "cwd": ""}
"""What a missing required field is given: a value that adds nothing to what the agent sends (no text, a normal
stop, a header's working directory pi reads as unknown). A message's role comes from the fields only that role has
(`ROLE_MARKS`), a result's toolCallId from the open calls; a field whose value cannot be told is left to a
person."""


ROLE_MARKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("toolResult", ("toolCallId", "toolName", "isError")), ("bashExecution", ("command", "output", "cancelled")),
    ("custom", ("customType", "display")), ("assistant", ("api", "provider", "model", "usage", "stopReason")),
    ("system", ("sections", "toolsAdded", "toolsRemoved")))
"""The fields only one message role has: what a message without `role` is, when its fields name one role alone."""


def _role(doc: FixDoc, line: int) -> str | None:
    """The role a message without one has by its fields (pi drops a message whose role it does not know); a message
    with nothing but its content is the user's (a system message carries its sections and tools)."""
    message = jsonscan.find(jsonscan.scan(doc.lines[line]), ("message",))
    fields = {name for name, _, _, _ in message.members or ()} if message is not None else set()
    named = [role for role, marks in ROLE_MARKS if fields.intersection(marks)]
    if not named and "content" in fields and fields <= {"content", "timestamp"}:
        return "user"
    return named[0] if len(named) == 1 else None


def _open_call(doc: FixDoc, line: int) -> str | None:
    """The open tool call the result on `line` most likely answers: of the calls completion offers there, one with
    the result's tool name, else the first."""
    try:
        root = msgspec.json.decode(doc.lines[line])
    except msgspec.DecodeError:
        return None
    message = root.get("message") if isinstance(root, dict) else None
    if not isinstance(message, dict):
        return None
    offered = doc.session.reference_values(doc.results, line, "toolCallId", [root, message])
    name = message.get("toolName")
    named = [value for value, detail in offered if isinstance(name, str) and f"open {name} call" in detail]
    chosen = (named or [value for value, _ in offered])[:1]
    return chosen[0] if chosen and isinstance(chosen[0], str) else None


def _missing_field(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    path = (diagnostic.data or {}).get("missing")
    if not isinstance(path, list) or not path:
        return None
    if path == ["message"]:
        # a message entry with no message says nothing; pi keeps it and throws building the context from it
        return _drop_entry(doc, diagnostic, "Delete this message entry, which has no `message` (its children move up "
                           "to its parent)")
    line, key = diagnostic.span.line, path[-1]
    value = _open_call(doc, line) if path == ["message", "toolCallId"] else \
        _role(doc, line) if path == ["message", "role"] else NEUTRAL.get(key)
    role = jsonscan.find(jsonscan.scan(doc.lines[line]), ("message", "role"))
    if path == ["message", "content"] and role is not None and jsonscan.string_value(doc.lines[line], role) == "system":
        value = ""  # a system message's content is a string: pi 1.6 sends the missing one as ""
    if value is None:
        return None
    text = doc.lines[line]
    enclosing = tuple(path[:-1])
    found = jsonscan.value_span(text, enclosing) if enclosing else (0, len(text))
    if found is None:
        return None
    inserted = insert_members(text[found[0]:found[1]], f"{json_text(key)}:{json_text(value)}")
    if inserted is None:
        return None
    at = found[0] + inserted[0]
    return fix(diagnostic.code, f"Add `{'.'.join(map(str, path))}`: {json_text(value)}",
                TextEdit(Span(line, at, line, at), inserted[1]))


def _drop_entry(doc: FixDoc, diagnostic: Diagnostic, title: str) -> Fix | None:
    """The entry's line goes, and the entries below it hang from its parent, so no other entry leaves the path."""
    line = diagnostic.span.line
    model = doc.linked.model
    if model is None:
        return None
    return fix(diagnostic.code, title, *generic.unlink_line(doc.lines, line, "parentId", model.references_to(line)))


def _drop_orphan(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    """An orphan result no unanswered call could take: providers reject it, so the agent could never send it."""
    return _drop_entry(doc, diagnostic, "Delete this orphan tool result (its children move up to its parent)")


def _orphan(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    call = (diagnostic.data or {}).get("suggested_call")
    if call is None:
        return _drop_orphan(doc, diagnostic)
    edit = replace_value(doc.lines, diagnostic.span.line, ("message", "toolCallId"), json_text(call))
    return fix(diagnostic.code, f"Point toolCallId at the unanswered call {call!r}", edit) if edit else None


def _reparent(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    line = diagnostic.span.line
    data = diagnostic.data or {}
    if "suggested_parent" not in data:
        return None
    parent = data["suggested_parent"]
    edit = replace_value(doc.lines, line, ("parentId",), json_text(parent))
    if edit is None:
        return None
    note = data.get("suggested_note") or ("the entry above" if parent is not None else
                                          "no entry above: make this a root")
    title = f"Set parentId to {json_text(parent) if parent is None else repr(parent)} ({note})"
    return fix(diagnostic.code, title, edit)


def _suggested(key: str, path: tuple[str, ...], title: str) -> Fixer:
    """A reference the link pass found a better value for (`data[key]`)."""
    def fixer(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
        value = (diagnostic.data or {}).get(key)
        if value is None:
            return None
        edit = replace_value(doc.lines, diagnostic.span.line, path, json_text(value))
        return fix(diagnostic.code, title.format(value=value), edit) if edit is not None else None
    return fixer


def _hook_message(doc: FixDoc, diagnostic: Diagnostic) -> Fix | None:
    edit = replace_value(doc.lines, diagnostic.span.line, ("message", "role"), '"custom"')
    return fix(diagnostic.code, 'Rename role "hookMessage" to "custom"', edit) if edit is not None else None


_KEEP_FROM = _suggested("suggested_first_kept", ("firstKeptEntryId",), "Keep the history from {value!r}")

FIXERS: Fixers = {
    "ELY006": (LINES, generic.utf8),
    "ELY008": (LINES, generic.drop_bom),
    "ELY002": (LINES, generic.split_glued_line),
    "ELY001": (LINES, generic.torn_tail),
    "ELY003": (LINES, generic.drop_line("line, which holds no entry")),
    "ELY004": (LINES, generic.drop_line("blank line")),
    "ELY026": (LINES, generic.lf),
    "ELY005": (FILE, generic.final_newline),
    "ELY010": (FILE, _header), "ELY011": (FILE, _header_first), "ELY020": (FILE, _tree_version),
    "ELY016": (FILE, _version),
    "ELY021": (IDS, _missing_ids), "ELY033": (IDS, _wrong_type), "ELY040": (IDS, generic.reid),
    "ELY042": (PARENTS, _reparent), "ELY044": (PARENTS, _reparent), "ELY045": (PARENTS, _reparent),
    "ELY032": (REFERENCES, _missing_field),
    "ELY070": (REFERENCES, _orphan),
    "ELY050": (REFERENCES, _KEEP_FROM),
    "ELY076": (REFERENCES, _KEEP_FROM),
    "ELY024": (REFERENCES, _hook_message),
    "ELY059": (REFERENCES, _replacement), "ELY077": (REFERENCES, _keep_calls),
}
"""Elyra's rules with a fix: the phase it runs in and the fixer."""
