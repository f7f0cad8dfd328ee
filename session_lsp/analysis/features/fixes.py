"""Repairs: the one mechanism behind the editor's quick fixes, its "fix all" source action and `session-lsp fix`.

A fixer reads one diagnostic (and what the rule left in its `data`: the parent the entry above would be, the call an
orphan result lost) and returns a `Fix`: text edits on the document's lines, a title, the codes it repairs and its
applicability, which is the rule's (`registry.Rule.fix`). `fixes()` answers the editor's quick fixes;
`fix_document()` applies them to a fixpoint, for the CLI and the "fix all" action.

What no fixer does: drop a line the agent would have read. A line is deleted only when the agent cannot read it
either (a torn last line, a line that is not an object, a blank line) or cannot use it (an orphan tool result no
provider accepts, a message entry without a message, a context_edit whose replacement pi cannot read: pi throws on
the last two or sends nothing from them); an entry the agent reads is relinked, never removed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

import msgspec

from .. import jsonscan
from ..detect import leading_trim
from ..diagnostics import Diagnostic, Span
from ..document import Document, analyze
from ..lines import LineKind, split_glued
from ..registry import RULES, Applicability, rule
from ..text import fresh_id
from .edits import remove_value, replace_line, replace_value
from .types import Fix, TextEdit
from .values import elyra_parent_above, reference_values

SEQ_CODES = ("THN030", "THN031", "THN032", "THN033")
MAX_ROUNDS = 12
"""A fix can uncover the next problem (a header moved up shows the dangling parents below it); each round fixes one
phase, so a file converges in a few rounds, and a bound keeps a pathological one from running on."""

Fixer = Callable[[Document, Diagnostic], Fix | None]


def _fix(code: str, title: str, *edits: TextEdit) -> Fix:
    applicability = rule(code).fix
    assert applicability is not None, f"{code} declares no fix in the registry"
    return Fix(title, (code,), applicability, edits)


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()


def _delete_line(lines: Sequence[str], line: int) -> TextEdit:
    """The whole line and its line break (the one before it for the last line), so no blank line is left."""
    if line + 1 < len(lines):
        return TextEdit(Span(line, 0, line + 1, 0), "")
    if line == 0:
        return TextEdit(Span(0, 0, 0, len(lines[0])), "")
    return TextEdit(Span(line - 1, len(lines[line - 1]), line, len(lines[line])), "")


def _insert_members(text: str, members: str) -> tuple[int, str] | None:
    """Where and what to insert so an object line starts with `members` (JSON text without braces)."""
    start = text.find("{")
    if start < 0:
        return None
    empty = text[start + 1:].lstrip().startswith("}")
    return start + 1, members if empty else members + ","


# -- the lines themselves -----------------------------------------------------------------------------------------


def _split_glued(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    line = diagnostic.span.line
    if doc.results[line].kind is not LineKind.GLUED:
        return None
    pieces = split_glued(doc.lines[line], doc.results[line].parts)
    return _fix(diagnostic.code, f"Split into {len(pieces)} lines", replace_line(doc.lines, line, "\n".join(pieces)))


def _drop_bom(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """The byte order mark, or the other space JSON does not allow, before the header: what pi 0.73 trims."""
    lead = leading_trim(doc.lines[0])
    if not lead:
        return None
    what = "byte order mark" if doc.lines[0][:lead] == "\ufeff" else "space before the header JSON does not allow"
    return _fix(diagnostic.code, f"Remove the {what}", TextEdit(Span(0, 0, 0, lead), ""))


def _lf(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """A `\\r` before the line's `\\n`: the agent reads it as JSON whitespace and writes `\\n` alone."""
    line = diagnostic.span.line
    text = doc.lines[line]
    if not text.endswith("\r"):
        return None
    return _fix(diagnostic.code, "Write the line ending as \\n (drop the \\r)",
                TextEdit(Span(line, len(text) - 1, line, len(text)), ""))


def _final_newline(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    last = len(doc.lines) - 1
    if doc.lines[last] == "":
        return None
    end = len(doc.lines[last])
    return _fix(diagnostic.code, "Add the final newline", TextEdit(Span(last, end, last, end), "\n"))


_BAD_ESCAPE = re.compile(r'\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})')
"""A backslash JSON does not allow after it (a hand edit's `\\q`, `\\x41`, `\\u12`)."""


def _an_object(text: str) -> bool:
    try:
        return isinstance(msgspec.json.decode(text), dict)
    except (msgspec.DecodeError, RecursionError):
        return False


_QUOTE_OR_ESCAPE = re.compile(r'\\.|"', re.DOTALL)
_AFTER_QUOTE = re.compile(r"[ \t]*(.?)", re.DOTALL)
_ENDS_STRING = frozenset(",:}]")
"""What may follow a string's closing quote in an object line (spaces skipped): anything else means the quote is
inside the string."""


def _escape_stray_quotes(text: str) -> str | None:
    """The line with every quote inside a string escaped where what follows it cannot follow a string's end (a hand
    edit's `"say "hi""`); None when there is none."""
    pieces: list[str] = []
    kept = 0
    inside = False
    for found in _QUOTE_OR_ESCAPE.finditer(text):
        if found.group() != '"':
            continue
        after = _AFTER_QUOTE.match(text, found.end())
        following = after.group(1) if after is not None else ""
        if inside and following and following not in _ENDS_STRING:
            pieces += [text[kept:found.start()], '\\"']
            kept = found.end()
        else:
            inside = not inside
    return "".join(pieces) + text[kept:] if pieces else None


def _salvaged(text: str) -> tuple[str, str] | None:
    """The line as one record, when a mechanical repair gives one: NUL bytes left out, a stray backslash or quote
    escaped, or a torn start cut (a record appended after a write that never finished). With what was done, for
    the title."""
    if "\x00" in text and _an_object(mended := text.replace("\x00", "")):
        return mended, "Remove the NUL bytes"
    if _an_object(mended := _BAD_ESCAPE.sub(r"\\\\", text)):
        return mended, "Escape the stray backslash"
    # before escaping quotes, which could read a torn start and the record after it as one string
    for found in re.finditer(r'\{"', text):
        if found.start() and _an_object(text[found.start():]):
            return text[found.start():], "Cut the torn start (the record after it is whole)"
    quoted = _escape_stray_quotes(text)
    if quoted is not None and (_an_object(quoted) or _an_object(quoted := _BAD_ESCAPE.sub(r"\\\\", quoted))):
        return quoted, "Escape the stray quotes inside the string"
    return None


def _torn_tail(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """A line JSON cannot read, made one record again where a mechanical repair does it; else, only for the last
    line with no newline after it (a write the agent never finished), the line cut: the agent drops it too."""
    line = diagnostic.span.line
    salvaged = _salvaged(doc.lines[line]) if line < len(doc.lines) else None
    if salvaged is not None:
        return _fix(diagnostic.code, salvaged[1], replace_line(doc.lines, line, salvaged[0]))
    last = len(doc.lines) - 1
    if diagnostic.span.line != last or doc.lines[last] == "":
        return None
    return _fix(diagnostic.code, "Cut the torn last line (the agent drops it too)",
                TextEdit(Span(last, 0, last, len(doc.lines[last])), ""))


def _drop_line(what: str) -> Fixer:
    def fixer(doc: Document, diagnostic: Diagnostic) -> Fix | None:
        line = diagnostic.span.line
        if line == len(doc.lines) - 1 and doc.lines[line] == "":
            return None
        return _fix(diagnostic.code, f"Delete this {what}", _delete_line(doc.lines, line))
    return fixer


def _utf8(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """The text already holds U+FFFD where the bytes were invalid, as the agent reads them; writing it makes that
    replacement permanent, which is what the agent's own rewrite would do."""
    spans = [diagnostic.span, *(related.span for related in diagnostic.related)]
    edits: list[TextEdit] = []
    for number in sorted({span.line for span in spans if span.line == span.end_line}):
        mine = [span for span in spans if span.line == number and span.end_line == number]
        text = doc.lines[number]
        # where a stray byte broke the JSON (it sits between tokens), dropping it lets the agent read the line
        kept = text
        for span in sorted(mine, key=lambda span: span.start, reverse=True):
            kept = kept[:span.start] + kept[span.end:]
        if doc.results[number].kind is LineKind.INVALID and _parses(kept):
            edits.append(replace_line(doc.lines, number, kept))
        else:
            edits.extend(TextEdit(span, text[span.start:span.end]) for span in mine)
    return _fix(diagnostic.code, "Write the invalid bytes as U+FFFD, as the agent reads them", *edits)


def _parses(text: str) -> bool:
    try:
        msgspec.json.decode(text)
    except msgspec.DecodeError:
        return False
    return True


# -- the header ---------------------------------------------------------------------------------------------------


def _move_header(doc: Document, line: int, code: str) -> Fix | None:
    if line <= 0 or line >= len(doc.lines):
        return None
    lines = doc.lines
    insert = TextEdit(Span(0, 0, 0, 0), lines[line].strip() + "\n")
    return _fix(code, f"Move the header from line {line + 1} to the first line", insert, _delete_line(lines, line))


def _header(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    data = diagnostic.data or {}
    if "header_line" in data:
        return _move_header(doc, data["header_line"], diagnostic.code)
    if "header_id" in data:
        line, value = diagnostic.span.line, _json(data["header_id"])
        edit = replace_value(doc.lines, line, ("id",), value)
        if edit is None:  # no `id` at all (another program's first line with `type` "session")
            members = f'"id":{value}' + (f',"version":{data["header_version"]}' if "header_version" in data else "")
            found = _insert_members(doc.lines[line], members)
            edit = TextEdit(Span(line, found[0], line, found[0]), found[1]) if found is not None else None
        return _fix(diagnostic.code, f"Give the header the id {data['header_id']!r}", edit) if edit else None
    if "header" in data:
        return _fix(diagnostic.code, "Insert the session header pi would have written",
                    TextEdit(Span(0, 0, 0, 0), _json(data["header"]) + "\n"))
    return None


def _header_first(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    return _move_header(doc, diagnostic.span.line, diagnostic.code)


def _tree_version(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY020: the entries carry a tree, so the header says version 3 (a missing `version` is added)."""
    line = (diagnostic.data or {}).get("header_line")
    if not isinstance(line, int):
        return None
    edit = replace_value(doc.lines, line, ("version",), "3")
    if edit is None:
        found = _insert_members(doc.lines[line], '"version":3')
        if found is None:
            return None
        edit = TextEdit(Span(line, found[0], line, found[0]), found[1])
    return _fix(diagnostic.code, "Set the header's version to 3", edit)


def _version(doc: Document, diagnostic: Diagnostic) -> Fix | None:
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
    return _fix(diagnostic.code, f"Set version to {version}, as pi reads it",
                TextEdit(Span(line, found[0], line, found[1]), str(version)))


# -- ids and parents ----------------------------------------------------------------------------------------------


def _taken(doc: Document) -> Callable[[str], bool]:
    model = doc.linked.model
    return lambda candidate: model is not None and doc.face.id_in_use(model, candidate)


def _missing_ids(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY021: an entry without `id` or `parentId` gets a fresh id and the entry above as its parent."""
    line = diagnostic.span.line
    text = doc.lines[line]
    members: list[str] = []
    if jsonscan.value_span(text, ("id",)) is None:
        members.append(f'"id":{_json(fresh_id(f"{line}/{text}", _taken(doc)))}')
    if jsonscan.value_span(text, ("parentId",)) is None:
        members.append(f'"parentId":{_json(elyra_parent_above(doc, line))}')
    found = _insert_members(text, ",".join(members)) if members else None
    if found is None:
        return None
    title = "Give this entry " + " and ".join(("a fresh id" if m.startswith('"id"') else "the entry above as parent")
                                                for m in members)
    return _fix(diagnostic.code, title, TextEdit(Span(line, found[0], line, found[0]), found[1]))


def _wrong_type(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY033: an entry's `id` gets a fresh string id; a system message's field, what pi reads in its place."""
    return _id_type(doc, diagnostic) or _system_field(doc, diagnostic)


_SYSTEM_LISTS = ("toolsAdded", "toolsRemoved")


def _system_field(doc: Document, diagnostic: Diagnostic) -> Fix | None:
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
        edit = replace_value(doc.lines, line, path, _json(text[hit.start:hit.end]))
        title = f"Write `{name}` as text"
    elif field == "content" and not rest:
        edit = replace_value(doc.lines, line, path, '""')
        title = "Give the system message empty content, which pi reads as no system text"
    else:
        return None
    return _fix(diagnostic.code, title, edit) if edit is not None else None


def _replacement(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY059: a context_edit whose `replacement` pi cannot read. A string is the content meant (what pi's own
    `appendContextEdit` writes as `{"content": ...}`); anything else says nothing pi can apply (pi sends the target
    with no content, or throws when it is missing), so the edit goes: the target is sent as the edit before it on
    the path left it, or with its own content."""
    line = diagnostic.span.line
    text = doc.lines[line]
    found = jsonscan.find(jsonscan.scan(text), ("replacement",))
    if found is not None and found.kind == "string" and found.complete:
        edit = replace_value(doc.lines, line, ("replacement",), f'{{"content":{text[found.start:found.end]}}}')
        return _fix(diagnostic.code, "Write the replacement as {\"content\": ...}", edit) if edit else None
    return _drop_entry(doc, diagnostic, "Delete this context_edit, whose replacement pi cannot read (its children "
                       "move up to its parent)")


def _keep_calls(doc: Document, diagnostic: Diagnostic) -> Fix | None:
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
    edit = replace_value(doc.lines, diagnostic.span.line, ("replacement",), _json({"content": [*blocks, *kept]}))
    count = len(kept)
    return _fix(diagnostic.code, f"Keep the tool call{'s' if count != 1 else ''} {', '.join(map(repr, calls))} in the "
                "replacement", edit) if edit else None


def _id_type(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """ELY033 on an entry's `id` (a number, null, an array): a fresh string id."""
    line = diagnostic.span.line
    found = jsonscan.value_span(doc.lines[line], ("id",))
    if found is None or (found[0], found[1]) != (diagnostic.span.start, diagnostic.span.end):
        return None
    new = fresh_id(f"{line}/{doc.lines[line]}", _taken(doc))
    return _fix(diagnostic.code, f"Give this entry the fresh id {new!r}",
                TextEdit(Span(line, found[0], line, found[1]), _json(new)))


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


def _role(doc: Document, line: int) -> str | None:
    """The role a message without one has by its fields (pi drops a message whose role it does not know); a message
    with nothing but its content is the user's (a system message carries its sections and tools)."""
    message = jsonscan.find(jsonscan.scan(doc.lines[line]), ("message",))
    fields = {name for name, _, _, _ in message.members or ()} if message is not None else set()
    named = [role for role, marks in ROLE_MARKS if fields.intersection(marks)]
    if not named and "content" in fields and fields <= {"content", "timestamp"}:
        return "user"
    return named[0] if len(named) == 1 else None


def _open_call(doc: Document, line: int) -> str | None:
    """The open tool call the result on `line` most likely answers: of the calls completion offers there, one with
    the result's tool name, else the first."""
    try:
        root = msgspec.json.decode(doc.lines[line])
    except msgspec.DecodeError:
        return None
    message = root.get("message") if isinstance(root, dict) else None
    if not isinstance(message, dict):
        return None
    offered = reference_values(doc, line, "toolCallId", [root, message])
    name = message.get("toolName")
    named = [value for value, detail in offered if isinstance(name, str) and f"open {name} call" in detail]
    chosen = (named or [value for value, _ in offered])[:1]
    return chosen[0] if chosen and isinstance(chosen[0], str) else None


def _missing_field(doc: Document, diagnostic: Diagnostic) -> Fix | None:
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
    inserted = _insert_members(text[found[0]:found[1]], f"{_json(key)}:{_json(value)}")
    if inserted is None:
        return None
    at = found[0] + inserted[0]
    return _fix(diagnostic.code, f"Add `{'.'.join(map(str, path))}`: {_json(value)}",
                TextEdit(Span(line, at, line, at), inserted[1]))


def _drop_entry(doc: Document, diagnostic: Diagnostic, title: str) -> Fix | None:
    """The entry's line goes, and the entries below it hang from its parent, so no other entry leaves the path."""
    line = diagnostic.span.line
    model = doc.linked.model
    parent = jsonscan.value_span(doc.lines[line], ("parentId",))
    if model is None:
        return None
    parent_json = doc.lines[line][parent[0]:parent[1]] if parent is not None else "null"
    edits = [_delete_line(doc.lines, line)]
    for reference in model.references_to(line):
        if reference.field == "parentId" and reference.line != line:
            edit = replace_value(doc.lines, reference.line, reference.path, parent_json)
            if edit is not None:
                edits.append(edit)
    return _fix(diagnostic.code, title, *edits)


def _drop_orphan(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """An orphan result no unanswered call could take: providers reject it, so the agent could never send it."""
    return _drop_entry(doc, diagnostic, "Delete this orphan tool result (its children move up to its parent)")


def _orphan(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    call = (diagnostic.data or {}).get("suggested_call")
    if call is None:
        return _drop_orphan(doc, diagnostic)
    edit = replace_value(doc.lines, diagnostic.span.line, ("message", "toolCallId"), _json(call))
    return _fix(diagnostic.code, f"Point toolCallId at the unanswered call {call!r}", edit) if edit else None


def _reparent(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    line = diagnostic.span.line
    data = diagnostic.data or {}
    if "suggested_parent" not in data:
        return None
    parent = data["suggested_parent"]
    edit = replace_value(doc.lines, line, ("parentId",), _json(parent))
    if edit is None:
        return None
    note = data.get("suggested_note") or ("the entry above" if parent is not None else
                                          "no entry above: make this a root")
    title = f"Set parentId to {_json(parent) if parent is None else repr(parent)} ({note})"
    return _fix(diagnostic.code, title, edit)


def _reid(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    """The later of two entries with one id gets a fresh id (one a rename would take), and the lines the model says
    meant this entry by it are pointed at it."""
    model, face = doc.linked.model, doc.face
    line = diagnostic.span.line
    target = face.reid(model, line) if model is not None else None
    if model is None or target is None:
        return None
    data = diagnostic.data or {}
    new = data.get("new_id") or fresh_id(f"{target.value}/{line}",
                                         lambda candidate: face.rename_refusal(model, target, candidate) is not None)
    edits = [change for number, path in target.places
             if (change := replace_value(doc.lines, number, path, _json(new))) is not None]
    if not edits or edits[0].span.line != target.places[0][0]:
        return None
    moved = len(edits) - 1
    title = f"Give this entry the fresh id {new!r}" + (f" and update the {moved} line{'s' if moved != 1 else ''} "
                                                       "written after it" if moved else "")
    return _fix(diagnostic.code, title, *edits)


def _suggested(key: str, path: tuple[str, ...], title: str) -> Fixer:
    """A reference the link pass found a better value for (`data[key]`)."""
    def fixer(doc: Document, diagnostic: Diagnostic) -> Fix | None:
        value = (diagnostic.data or {}).get(key)
        if value is None:
            return None
        edit = replace_value(doc.lines, diagnostic.span.line, path, _json(value))
        return _fix(diagnostic.code, title.format(value=value), edit) if edit is not None else None
    return fixer


def _hook_message(doc: Document, diagnostic: Diagnostic) -> Fix | None:
    edit = replace_value(doc.lines, diagnostic.span.line, ("message", "role"), '"custom"')
    return _fix(diagnostic.code, 'Rename role "hookMessage" to "custom"', edit) if edit is not None else None


def renumber(doc: Document, codes: Sequence[str]) -> Fix | None:
    """The record numbers in line order, as the format's writer numbers them: one fix for every seq diagnostic."""
    model = doc.linked.model
    if model is None or not codes:
        return None
    numbering = doc.face.renumbering(model)
    edits: list[TextEdit] = []
    for number, path, value in numbering.changes:
        found = jsonscan.value_span(doc.lines[number], path)
        if found is not None:
            edits.append(TextEdit(Span(number, found[0], number, found[1]), str(value)))
    if not edits:
        return None
    count = numbering.count
    title = f"Renumber seq 0..{count - 1} in line order ({len(edits)} record{'s' if len(edits) != 1 else ''} change)"
    return Fix(title, tuple(dict.fromkeys(codes)), Applicability.SAFE, tuple(edits))


FIXERS: dict[str, tuple[int, Fixer]] = {
    # phase 0: bytes and lines, so every later fix sees the lines the agent will read
    "ELY006": (0, _utf8), "THN002": (0, _utf8),
    "ELY008": (0, _drop_bom),
    "ELY002": (0, _split_glued), "THN001": (0, _split_glued),
    "ELY001": (0, _torn_tail), "THN071": (0, _torn_tail), "CCD006": (0, _torn_tail),
    "ELY003": (0, _drop_line("line, which holds no entry")), "THN003": (0, _drop_line("line, which holds no record")),
    "ELY004": (0, _drop_line("blank line")), "THN070": (0, _drop_line("blank line")),
    "ELY026": (0, _lf), "CCD005": (0, _lf),
    # phase 1: the end of the file and the header
    "ELY005": (1, _final_newline),
    "ELY010": (1, _header), "ELY011": (1, _header_first), "ELY020": (1, _tree_version), "ELY016": (1, _version),
    # phase 2: ids, so that parents can then name them
    "ELY021": (2, _missing_ids), "ELY033": (2, _wrong_type), "ELY040": (2, _reid),
    # phase 3: parents
    "ELY042": (3, _reparent), "ELY044": (3, _reparent), "ELY045": (3, _reparent),
    # phase 4: the other references and values
    "ELY032": (4, _missing_field),
    "ELY070": (4, _orphan),
    "ELY050": (4, _suggested("suggested_first_kept", ("firstKeptEntryId",), "Keep the history from {value!r}")),
    "ELY076": (4, _suggested("suggested_first_kept", ("firstKeptEntryId",), "Keep the history from {value!r}")),
    "ELY024": (4, _hook_message),
    "ELY059": (4, _replacement), "ELY077": (4, _keep_calls),
}
SEQ_PHASE = 4

_ALL_FIXABLE = frozenset({*FIXERS, *SEQ_CODES})
assert {code for code, found in ((c, rule(c)) for c in _ALL_FIXABLE) if found.fix is None} == set(), \
    "every fixer's rule declares its applicability"


def _phased(doc: Document, diagnostics: Sequence[Diagnostic]) -> list[tuple[int, Fix]]:
    """Each diagnostic's fix with its phase, in diagnostic order; the seq diagnostics share one renumbering."""
    out: list[tuple[int, Fix]] = []
    seq_codes: list[str] = []
    for diagnostic in diagnostics:
        if not 0 <= diagnostic.span.line < len(doc.lines):
            continue
        if diagnostic.code in SEQ_CODES:
            seq_codes.append(diagnostic.code)
            continue
        found = FIXERS.get(diagnostic.code) or _glued(doc, diagnostic)
        if found is not None:
            phase, fixer = found
            fix = fixer(doc, diagnostic)
            if fix is not None:
                out.append((phase, fix))
    numbering = renumber(doc, seq_codes)
    if numbering is not None:
        out.append((SEQ_PHASE, numbering))
    return out


def _glued(doc: Document, diagnostic: Diagnostic) -> tuple[int, Fixer] | None:
    """Splitting a glued line is every format's fix (the line pass says a line is glued): a format's rule that
    declares a fix and sits on such a line gets it without a row here."""
    if fixable(diagnostic) is None or doc.results[diagnostic.span.line].kind is not LineKind.GLUED:
        return None
    return 0, _split_glued


def fixes(doc: Document, diagnostics: Sequence[Diagnostic]) -> list[Fix]:
    """The fix of each diagnostic that has one (safe and unsafe), as the editor offers them."""
    return [fix for _, fix in _phased(doc, diagnostics)]


def fixable(diagnostic: Diagnostic) -> Applicability | None:
    """Whether a diagnostic's rule has a fix, and of which kind (a given diagnostic may still have none: an
    ELY001 that is not the last line)."""
    return rule(diagnostic.code).fix if diagnostic.code in RULES else None


# -- applying fixes -----------------------------------------------------------------------------------------------


def apply_edits(lines: Sequence[str], edits: Sequence[TextEdit]) -> str:
    """The document's text with non-overlapping `edits` applied (all relative to `lines`)."""
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    text = "\n".join(lines)
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.start, e.span.end_line, e.span.end), reverse=True):
        span = edit.span
        start = starts[span.line] + span.start
        end = starts[span.end_line] + span.end
        text = text[:start] + edit.new_text + text[end:]
    return text


def _rows(fix: Fix) -> tuple[int, int]:
    return min(e.span.line for e in fix.edits), max(e.span.end_line for e in fix.edits)


class Repaired(msgspec.Struct, frozen=True):
    """What `fix_document` did: the new text (the old one when nothing applied), the fixes applied in order, and
    how many more an `--unsafe-fixes` run would apply now (`unsafe_left`)."""

    text: str
    applied: tuple[Fix, ...]
    unsafe_left: int
    converged: bool


Select = Callable[[Sequence[Diagnostic]], Sequence[Diagnostic]]


def fix_document(doc: Document, select: Select = lambda found: found, unsafe: bool = False,
                 rounds: int = MAX_ROUNDS) -> Repaired:
    """Apply the fixes of the selected diagnostics until none is left (or `rounds` ran): in each round, the fixes of
    the earliest phase that has any, skipping one whose lines another fix of the round already changed. Each round
    analyses the new text again, so a fix is always computed on the lines it edits."""
    applied: list[Fix] = []
    seen: set[str] = set()
    current = doc
    text = "\n".join(doc.lines)
    for _ in range(rounds):
        phased = _phased(current, select(current.diagnostics()))
        allowed = [(phase, fix) for phase, fix in phased if unsafe or fix.safe]
        if not allowed:
            left = sum(1 for _, fix in phased if not fix.safe)
            return Repaired(text, tuple(applied), left, True)
        first = min(phase for phase, _ in allowed)
        taken: list[Fix] = []
        rows: list[tuple[int, int]] = []
        for phase, fix in allowed:
            low, high = _rows(fix)
            if phase != first or any(low <= end and start <= high for start, end in rows):
                continue
            taken.append(fix)
            rows.append((low, high))
        text = apply_edits(current.lines, [edit for fix in taken for edit in fix.edits])
        applied.extend(taken)
        if text in seen:  # fixes that undo each other: stop rather than go round
            break
        seen.add(text)
        current = analyze(text, current.options)
    phased = _phased(current, select(current.diagnostics()))
    return Repaired(text, tuple(applied), sum(1 for _, fix in phased if not fix.safe), False)
