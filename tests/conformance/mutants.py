"""Seeded mutants of real pi-written sessions, one function per kind of damage. Deterministic: the same seed gives
the same files, so an agreement table can be compared run to run."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
SEED_DIRS = ("elyra-pi-written", "elyra-pi-1.6-written")
"""Small files pi itself wrote: the seeds every mutant starts from."""
CORPUS_DIRS = ("elyra", "elyra-pi-written", "elyra-pi-1.6-written")
SEED = 8
MUTANTS_PER_KIND = 10


class Mutant(msgspec.Struct, frozen=True):
    name: str
    kind: str
    seed: str
    """The clean file it was made from ("" for a corpus file, which is its own seed)."""
    data: bytes


Lines = list[bytes]
Mutation = Callable[[random.Random, Lines], Lines | None]


def seeds() -> list[Path]:
    return sorted(path for folder in SEED_DIRS for path in (CORPUS / folder).glob("*.jsonl"))


def corpus() -> list[Path]:
    return sorted(path for folder in CORPUS_DIRS for path in (CORPUS / folder).glob("*.jsonl"))


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _objects(lines: Lines) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for index, line in enumerate(lines):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append((index, value))
    return out


def _entries(lines: Lines, where: Callable[[dict[str, Any]], bool] = lambda entry: True) -> list[tuple[int, dict]]:
    return [(i, v) for i, v in _objects(lines) if v.get("type") != "session" and where(v)]


def _edit(rng: random.Random, lines: Lines, where: Callable[[dict[str, Any]], bool],
          change: Callable[[dict[str, Any], Lines], None]) -> Lines | None:
    found = _entries(lines, where)
    if not found:
        return None
    index, entry = rng.choice(found)
    change(entry, lines)
    out = list(lines)
    out[index] = _dump(entry)
    return out


def _body(lines: Lines) -> range:
    """Indexes of the entry lines (not the header, not the final empty string)."""
    return range(1, len(lines) - 1)


def delete_line(rng: random.Random, lines: Lines) -> Lines:
    out = list(lines)
    del out[rng.choice(_body(lines))]
    return out


def duplicate_line(rng: random.Random, lines: Lines) -> Lines:
    index = rng.choice(_body(lines))
    return [*lines[:index + 1], lines[index], *lines[index + 1:]]


def swap_lines(rng: random.Random, lines: Lines) -> Lines:
    out = list(lines)
    first = rng.choice(range(1, len(lines) - 2))
    out[first], out[first + 1] = out[first + 1], out[first]
    return out


def glue_lines(rng: random.Random, lines: Lines) -> Lines:
    index = rng.choice(range(1, len(lines) - 2))
    return [*lines[:index], lines[index] + lines[index + 1], *lines[index + 2:]]


def torn_last_line(rng: random.Random, lines: Lines) -> Lines:
    last = lines[-2]
    return [*lines[:-2], last[:rng.randrange(1, len(last))]]


def missing_final_newline(rng: random.Random, lines: Lines) -> Lines:
    return lines[:-1]


def _parent(choose: Callable[[random.Random, dict[str, Any], Lines], Any]) -> Mutation:
    def mutate(rng: random.Random, lines: Lines) -> Lines | None:
        return _edit(rng, lines, lambda e: isinstance(e.get("parentId"), str),
                     lambda e, all_lines: e.__setitem__("parentId", choose(rng, e, all_lines)))
    return mutate


def _descendant(rng: random.Random, entry: dict[str, Any], lines: Lines) -> Any:
    ids = [e.get("id") for _, e in _entries(lines)]
    position = ids.index(entry.get("id"))
    later = ids[position:]
    return rng.choice(later)  # its own id when it is the last: a self-loop is a cycle too


def duplicate_id(rng: random.Random, lines: Lines) -> Lines | None:
    found = _entries(lines, lambda e: isinstance(e.get("id"), str))
    if len(found) < 2:
        return None
    (_, first), (index, second) = sorted(rng.sample(found, 2), key=lambda pair: pair[0])
    second["id"] = first["id"]
    out = list(lines)
    out[index] = _dump(second)
    return out


def header_removed(rng: random.Random, lines: Lines) -> Lines:
    return lines[1:]


def header_moved(rng: random.Random, lines: Lines) -> Lines:
    index = rng.choice(range(2, len(lines)))
    return [*lines[1:index], lines[0], *lines[index:]]


def _version(value: Any) -> Mutation:
    def mutate(rng: random.Random, lines: Lines) -> Lines:
        header = json.loads(lines[0])
        header["version"] = value
        return [_dump(header), *lines[1:]]
    return mutate


def id_not_string(rng: random.Random, lines: Lines) -> Lines | None:
    return _edit(rng, lines, lambda e: "id" in e, lambda e, _: e.__setitem__("id", rng.choice([7, None, ["x"]])))


def unknown_type(rng: random.Random, lines: Lines) -> Lines | None:
    return _edit(rng, lines, lambda e: True, lambda e, _: e.__setitem__("type", "mystery_entry"))


def unknown_role(rng: random.Random, lines: Lines) -> Lines | None:
    return _edit(rng, lines, lambda e: isinstance(e.get("message"), dict),
                 lambda e, _: e["message"].__setitem__("role", "narrator"))


def unknown_enum(rng: random.Random, lines: Lines) -> Lines | None:
    def change(entry: dict[str, Any], _: Lines) -> None:
        if entry.get("type") == "thinking_level_change":
            entry["thinkingLevel"] = "extreme"
        else:
            entry["message"]["stopReason"] = "exhausted"
    return _edit(rng, lines, lambda e: e.get("type") == "thinking_level_change"
                 or (isinstance(e.get("message"), dict) and "stopReason" in e["message"]), change)


REQUIRED: dict[Any, tuple[str, ...]] = {"message": ("message", "timestamp"), "model_change": ("provider", "modelId"),
            "thinking_level_change": ("thinkingLevel",), "compaction": ("summary", "firstKeptEntryId"),
            "branch_summary": ("summary", "fromId"), "custom_message": ("customType", "content"),
            "label": ("targetId",), "session_info": ("name",), "usage": ("usage",), "context_edit": ("replacement",)}
MESSAGE_REQUIRED: dict[Any, tuple[str, ...]] = {"user": ("content", "role"), "assistant": ("content", "stopReason"),
                    "toolResult": ("toolCallId", "content"), "system": ("content",)}


def missing_field(rng: random.Random, lines: Lines) -> Lines | None:
    def change(entry: dict[str, Any], _: Lines) -> None:
        message = entry.get("message")
        if isinstance(message, dict) and rng.random() < 0.6:
            fields = [f for f in MESSAGE_REQUIRED.get(message.get("role"), ("role",)) if f in message]
            if fields:
                del message[rng.choice(fields)]
                return
        fields = [f for f in (*REQUIRED.get(entry.get("type"), ()), "parentId", "timestamp") if f in entry]
        del entry[rng.choice(fields)]
    return _edit(rng, lines, lambda e: True, change)


def _reference(where: Callable[[dict[str, Any]], bool], field: str,
               inner: bool = False) -> Mutation:
    def mutate(rng: random.Random, lines: Lines) -> Lines | None:
        ids = [e.get("id") for _, e in _entries(lines) if isinstance(e.get("id"), str)]

        def change(entry: dict[str, Any], _: Lines) -> None:
            value = rng.choice(["nothing-here", rng.choice(ids) if ids else "x"])
            (entry["message"] if inner else entry)[field] = value
        return _edit(rng, lines, where, change)
    return mutate


def blank_line(rng: random.Random, lines: Lines) -> Lines:
    index = rng.choice(range(1, len(lines)))
    return [*lines[:index], rng.choice([b"", b"   ", b"\t"]), *lines[index:]]


def non_object_line(rng: random.Random, lines: Lines) -> Lines:
    index = rng.choice(range(1, len(lines)))
    return [*lines[:index], rng.choice([b"null", b"42", b'"text"', b"[1,2]", b"true", b"false", b"0"]), *lines[index:]]


def deep_nesting(rng: random.Random, lines: Lines) -> Lines:
    """Nesting past what a recursive decoder takes (600 to 5,000 levels): a field on an entry that holds it, or a
    bare deep array inserted as a line. Written by hand: json.dumps recurses too."""
    out = list(lines)
    depth = rng.randrange(600, 5000)
    if rng.random() < 0.5:
        index = rng.choice(range(1, len(lines)))
        out.insert(index, b"[" * depth + b"1" + b"]" * depth)
        return out
    index = rng.choice(_body(lines))
    line = out[index].rstrip()
    out[index] = line[:-1] + b',"nested":' + b'{"a":' * depth + b"1" + b"}" * depth + b"}"
    return out


def invalid_utf8(rng: random.Random, lines: Lines) -> Lines:
    out = list(lines)
    index = rng.choice(_body(lines))
    line = out[index]
    cut = line.rfind(b'"', 0, len(line) - 2)
    cut = cut if cut > 0 else len(line) // 2
    out[index] = line[:cut] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80"]) + line[cut:]
    return out


def crlf(rng: random.Random, lines: Lines) -> Lines:
    return [line + b"\r" for line in lines[:-1]] + [b""]


def bom(rng: random.Random, lines: Lines) -> Lines:
    return [b"\xef\xbb\xbf" + lines[0], *lines[1:]]


def v1_entries(rng: random.Random, lines: Lines) -> Lines | None:
    def change(entry: dict[str, Any], _: Lines) -> None:
        entry.pop("id", None)
        entry.pop("parentId", None)
    return _edit(rng, lines, lambda e: "id" in e, change)


def hook_message(rng: random.Random, lines: Lines) -> Lines | None:
    return _edit(rng, lines, lambda e: isinstance(e.get("message"), dict) and e["message"].get("role") == "user",
                 lambda e, _: e["message"].__setitem__("role", "hookMessage"))


# -- damage found by an independent attack (issue 20): each kind reaches one class where pi and we once disagreed

def _is_role(role: str) -> Callable[[dict[str, Any]], bool]:
    return lambda e: isinstance(e.get("message"), dict) and e["message"].get("role") == role


def system_damaged(rng: random.Random, lines: Lines) -> Lines | None:
    """A pi 1.x system message with a wrong-typed or missing field (pi 0.73 does not know the role)."""
    def change(entry: dict[str, Any], _: Lines) -> None:
        message = entry["message"]
        field = rng.choice(["content", "sections", "toolsAdded", "toolsRemoved"])
        if field == "content" and rng.random() < 0.5:
            del message["content"]
        else:
            message[field] = rng.choice([42, "oops", {"x": 1}, [1, 2]])
    return _edit(rng, lines, _is_role("system"), change)


def context_edit_damaged(rng: random.Random, lines: Lines) -> Lines | None:
    """A `context_edit` whose replacement is neither null nor {content} (or is missing)."""
    def change(entry: dict[str, Any], _: Lines) -> None:
        choice = rng.choice(["string", "number", "empty", "array", "missing"])
        if choice == "missing":
            del entry["replacement"]
        else:
            entry["replacement"] = {"string": "shorter", "number": 7, "empty": {}, "array": [1]}[choice]
    return _edit(rng, lines, lambda e: e.get("type") == "context_edit", change)


def usage_damaged(rng: random.Random, lines: Lines) -> Lines | None:
    """A pi 1.x `usage` entry with a wrong-typed or missing field."""
    def change(entry: dict[str, Any], _: Lines) -> None:
        field = rng.choice(["kind", "provider", "model", "usage", "note"])
        if field in entry and rng.random() < 0.4:
            del entry[field]
        else:
            entry[field] = rng.choice([None, 3, ["x"], {"input": "many"}])
    return _edit(rng, lines, lambda e: e.get("type") == "usage", change)


def _escape_edit(rng: random.Random, lines: Lines, where: Callable[[dict[str, Any]], bool],
                 change: Callable[[bytes], bytes]) -> Lines | None:
    """A byte-level edit of one entry line chosen by `where` (json.dumps cannot write what the edit makes)."""
    found = _entries(lines, where)
    if not found:
        return None
    index, _ = rng.choice(found)
    out = list(lines)
    out[index] = change(out[index])
    return out


def _text_value(line: bytes, rng: random.Random) -> int | None:
    """Where a `"text":"` or `"content":"` string value starts (just past its quote), or None."""
    starts = [m.end() for m in re.finditer(rb'"(?:text|content|summary|thinking)":"', line)]
    return rng.choice(starts) if starts else None


def lone_surrogate(rng: random.Random, lines: Lines) -> Lines | None:
    """An escaped lone UTF-16 surrogate (`\\ud800` as written in JSON), which JSON.parse reads: in a message's text,
    or in an entry's id and in every reference to it."""
    unit = rng.choice([b"\\ud800", b"\\udfff", b"\\uDBFF", b"\\udc00"])
    if rng.random() < 0.5:
        def into_text(line: bytes) -> bytes:
            at = _text_value(line, rng)
            return line if at is None else line[:at] + unit + line[at:]
        return _escape_edit(rng, lines, lambda e: bool(_text_value(_dump(e), random.Random(0))), into_text)
    found = _entries(lines, lambda e: isinstance(e.get("id"), str))
    if not found:
        return None
    _, entry = rng.choice(found)
    old = json.dumps(entry["id"]).encode()
    new = old[:-1] + unit + b'"'
    return [line.replace(old, new) if i else line for i, line in enumerate(lines)]


def js_space_before_header(rng: random.Random, lines: Lines) -> Lines:
    """Whitespace JavaScript's trim removes but JSON does not allow (`\\v`, `\\f`, a no-break space) before the
    header: pi 0.73 trims the whole file before splitting it."""
    return [rng.choice([b"\x0b", b"\x0c", b"\x0b\x0c", b"\xc2\xa0"]) + lines[0], *lines[1:]]


def header_timestamp(rng: random.Random, lines: Lines) -> Lines:
    header = json.loads(lines[0])
    header["timestamp"] = rng.choice(["yesterday", "", "2026-13-45T99:00:00Z", "Thu, 01 Jan 2026", 1795168803000])
    return [_dump(header), *lines[1:]]


_NUMBER = re.compile(rb'(?<=[:\[,])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[,}\]])')


def number_overflow(rng: random.Random, lines: Lines) -> Lines | None:
    """A number JSON.parse reads as Infinity (`1e400`), or an integer beyond 2^53 it rounds."""
    def change(line: bytes) -> bytes:
        found = list(_NUMBER.finditer(line))
        if not found:
            return line
        match = rng.choice(found)
        big = rng.choice([b"1e400", b"-1e400", b"123456789012345678901234567890", b"1.5e309"])
        return line[:match.start()] + big + line[match.end():]
    return _escape_edit(rng, lines, lambda e: bool(_NUMBER.search(_dump(e))), change)


def context_edit_of_calls(rng: random.Random, lines: Lines) -> Lines | None:
    """A well-formed `context_edit` appended at the end that replaces the content of an assistant message with
    tool calls on the path: the calls are gone, their results stay."""
    calls = _entries(lines, lambda e: _is_role("assistant")(e) and isinstance(e["message"].get("content"), list)
                     and any(isinstance(b, dict) and b.get("type") == "toolCall" for b in e["message"]["content"]))
    ids = [e.get("id") for _, e in _entries(lines)]
    if not calls or not ids or not isinstance(ids[-1], str):
        return None
    _, target = rng.choice(calls)
    replacement = rng.choice([{"content": "I listed the files."}, {"content": [{"type": "text", "text": "done"}]}])
    edit = {"type": "context_edit", "id": "e0d1e2f3", "parentId": ids[-1], "timestamp": "2026-12-04T07:00:00.000Z",
            "targetId": target["id"], "replacement": replacement}
    return [*lines[:-1], _dump(edit), b""]


def empty_id(rng: random.Random, lines: Lines) -> Lines | None:
    """An entry whose id is `""`, and its child whose parentId is `""`: pi's walk stops at the falsy parentId."""
    objects = _entries(lines)
    named = [(i, e) for i, e in objects if isinstance(e.get("id"), str)
             and any(c.get("parentId") == e["id"] for _, c in objects)
             and sum(line.count(json.dumps(e["id"]).encode()) for line in lines)
             == 1 + sum(1 for _, c in objects if c.get("parentId") == e["id"])]
    if not named:
        return None
    i, parent = rng.choice(named)
    old = parent["id"]
    out = list(lines)
    for j, entry in objects:
        if entry.get("parentId") == old or j == i:
            entry["parentId" if j != i else "id"] = ""
            out[j] = _dump(entry)
    return out


def _fresh_ids(entries: list[dict[str, Any]], salt: str) -> list[dict[str, Any]]:
    """Copies with every id (and parentId naming one of them) renamed, as another writer would have drawn them."""
    renamed = {e["id"]: f"{salt}{k:06x}" for k, e in enumerate(entries) if isinstance(e.get("id"), str)}
    out = []
    for entry in entries:
        copy = json.loads(json.dumps(entry))
        if copy.get("id") in renamed:
            copy["id"] = renamed[copy["id"]]
        if copy.get("parentId") in renamed:
            copy["parentId"] = renamed[copy["parentId"]]
        out.append(copy)
    return out


def interleaved_writers(rng: random.Random, lines: Lines) -> Lines | None:
    """Two pi processes on one session: both resumed from the same entry and appended their own turns, and their
    lines interleave in the file."""
    found = _entries(lines, lambda e: isinstance(e.get("id"), str))
    if len(found) < 4:
        return None
    cut = rng.randrange(max(1, len(found) - 4), len(found) - 1)
    head_index = found[cut][0]
    ours = [e for _, e in found[cut + 1:]]
    theirs = _fresh_ids(ours, "b")
    out = list(lines[:head_index + 1])
    for mine, other in zip(ours, theirs, strict=True):
        out += [_dump(mine), _dump(other)] if rng.random() < 0.5 else [_dump(other), _dump(mine)]
    return [*out, b""]


def torn_then_appended(rng: random.Random, lines: Lines) -> Lines | None:
    """The last write was cut short, and the next run appended onto the torn line (pi 0.73 does not add the
    missing newline), then went on appending."""
    found = _entries(lines, lambda e: isinstance(e.get("id"), str))
    if len(found) < 3:
        return None
    index = rng.randrange(2, len(lines) - 2)
    torn = lines[index][:rng.randrange(1, len(lines[index]))]
    return [*lines[:index], torn + lines[index + 1], *lines[index + 2:]]


def pasted_branch(rng: random.Random, lines: Lines) -> Lines | None:
    """Entries copied from another session and pasted in: their first parentId names an entry of that session."""
    others = [path for path in seeds() if path.read_bytes().split(b"\n")[1:] != lines[1:]]
    other = rng.choice(others).read_bytes().split(b"\n")
    found = _entries(other, lambda e: isinstance(e.get("id"), str))
    start = rng.randrange(1, max(2, len(found) - 2))
    piece = [_dump(e) for e in _fresh_ids([e for _, e in found[start:start + rng.randrange(1, 4)]], "c")]
    where = rng.choice([len(lines) - 1, rng.randrange(1, len(lines) - 1)])
    return [*lines[:where], *piece, *lines[where:]]


def broken_escape(rng: random.Random, lines: Lines) -> Lines | None:
    """A hand edit that breaks an escape: an escaped quote unescaped, a backslash dropped from `\\n`, an unknown
    escape, or a `\\u` with too few digits."""
    def change(line: bytes) -> bytes:
        at = _text_value(line, rng)
        if at is None:
            return line
        broken = rng.choice([b'say "hi"', b"\\x41", b"\\u12", b"C:\\path", b"\\'"])
        return line[:at] + broken + line[at:]
    return _escape_edit(rng, lines, lambda e: bool(_text_value(_dump(e), random.Random(0))), change)


def foreign_header(rng: random.Random, lines: Lines) -> Lines:
    """The header replaced by another session's, another agent's first line, or a header pi's type check rejects."""
    choice = rng.choice(["other-session", "thndrs", "claude", "type-case", "id-number"])
    header = json.loads(lines[0])
    if choice == "other-session":
        header.update(id="0190aaaa-bbbb-7ccc-8ddd-eeeeffff0000", cwd="/elsewhere", timestamp="2025-01-01T00:00:00.000Z")
        first = _dump(header)
    elif choice == "thndrs":
        first = b'{"seq":0,"schema_version":"0.1.0","type":"session","session_id":"s1","turn_id":null}'
    elif choice == "claude":
        first = b'{"type":"summary","summary":"A session","leafUuid":"0b1c"}'
    elif choice == "type-case":
        header["type"] = "Session"
        first = _dump(header)
    else:
        header["id"] = 12345
        first = _dump(header)
    return [first, *lines[1:]]


def nul_bytes(rng: random.Random, lines: Lines) -> Lines | None:
    """A NUL in a string: raw (JSON forbids control characters there) or escaped as `\\u0000` (legal)."""
    def change(line: bytes) -> bytes:
        at = _text_value(line, rng)
        if at is None:
            return line
        return line[:at] + rng.choice([b"\x00", b"\\u0000", b"a\\u0000b"]) + line[at:]
    return _escape_edit(rng, lines, lambda e: bool(_text_value(_dump(e), random.Random(0))), change)


def duplicate_key(rng: random.Random, lines: Lines) -> Lines | None:
    """A key written twice in one object (JSON.parse keeps the last): a stale value first, or last."""
    def change(line: bytes) -> bytes:
        key = rng.choice([b"type", b"id", b"parentId", b"timestamp"])
        match = re.search(rb'"' + key + rb'":("[^"]*"|null)', line)
        if match is None:
            return line
        stale = rng.choice([b'"x"', b"null", b'"message"', b"7"])
        pair = b'"' + key + b'":' + stale
        if rng.random() < 0.5:  # the stale value first: JSON.parse keeps the real one
            return line[:1] + pair + b"," + line[1:]
        return line[:-1] + b"," + pair + b"}"
    return _escape_edit(rng, lines, lambda e: True, change)


def odd_ids(rng: random.Random, lines: Lines) -> Lines | None:
    """An id pi never draws, renamed consistently with every reference to it: keys of Object.prototype, spaces,
    non-ASCII, very long, or looking like a number."""
    found = _entries(lines, lambda e: isinstance(e.get("id"), str))
    if not found:
        return None
    _, entry = rng.choice(found)
    new = rng.choice(["__proto__", "constructor", "has space", "héllo✓", "x" * 300, "12345678", "toString", "root"])
    old = json.dumps(entry["id"]).encode()
    return [line.replace(old, _dump(new)) if i else line for i, line in enumerate(lines)]


KINDS: dict[str, Mutation] = {
    "delete-line": delete_line,
    "duplicate-line": duplicate_line,
    "swap-lines": swap_lines,
    "glue-lines": glue_lines,
    "torn-last-line": torn_last_line,
    "missing-final-newline": missing_final_newline,
    "parent-dangling": _parent(lambda rng, entry, lines: "no-such-entry"),
    "parent-self": _parent(lambda rng, entry, lines: entry.get("id")),
    "parent-descendant": _parent(_descendant),
    "duplicate-id": duplicate_id,
    "header-removed": header_removed,
    "header-moved": header_moved,
    "version-0": _version(0),
    "version-1": _version(1),
    "version-2": _version(2),
    "version-4": _version(4),
    "version-string-3": _version("3"),
    "id-not-string": id_not_string,
    "unknown-type": unknown_type,
    "unknown-role": unknown_role,
    "unknown-enum": unknown_enum,
    "missing-field": missing_field,
    "toolCallId-edit": _reference(lambda e: isinstance(e.get("message"), dict)
                                  and e["message"].get("role") == "toolResult", "toolCallId", inner=True),
    "firstKeptEntryId-edit": _reference(lambda e: e.get("type") == "compaction", "firstKeptEntryId"),
    "fromId-edit": _reference(lambda e: e.get("type") == "branch_summary", "fromId"),
    "targetId-edit": _reference(lambda e: e.get("type") in ("label", "context_edit"), "targetId"),
    "blank-line": blank_line,
    "non-object-line": non_object_line,
    "deep-nesting": deep_nesting,
    "invalid-utf8": invalid_utf8,
    "crlf": crlf,
    "bom": bom,
    "v1-entries": v1_entries,
    "hookMessage": hook_message,
    "system-damaged": system_damaged,
    "context-edit-damaged": context_edit_damaged,
    "usage-damaged": usage_damaged,
    "lone-surrogate": lone_surrogate,
    "js-space-before-header": js_space_before_header,
    "header-timestamp": header_timestamp,
    "number-overflow": number_overflow,
    "context-edit-of-calls": context_edit_of_calls,
    "empty-id": empty_id,
    "interleaved-writers": interleaved_writers,
    "torn-then-appended": torn_then_appended,
    "pasted-branch": pasted_branch,
    "broken-escape": broken_escape,
    "foreign-header": foreign_header,
    "nul-bytes": nul_bytes,
    "duplicate-key": duplicate_key,
    "odd-ids": odd_ids,
}
MUTANTS_PER_RELEASE = MUTANTS_PER_KIND * len(KINDS)


def generate(count: int = MUTANTS_PER_RELEASE, seed: int = SEED) -> list[Mutant]:
    """`count` mutants, kinds taken in turn, each from a seed file chosen by the seeded generator (a kind that
    does not apply to that seed, e.g. fromId-edit on a file without a branch summary, tries the next one)."""
    rng = random.Random(seed)
    files = [(path, path.read_bytes().split(b"\n")) for path in seeds()]
    kinds = list(KINDS.items())
    out: list[Mutant] = []
    attempt = 0
    while len(out) < count and attempt < count * 20:
        kind, mutate = kinds[attempt % len(kinds)]
        attempt += 1
        path, lines = files[rng.randrange(len(files))]
        for offset in range(len(files)):
            candidate_path, candidate = files[(files.index((path, lines)) + offset) % len(files)]
            mutated = mutate(rng, candidate)
            if mutated is not None:
                data = b"\n".join(mutated)
                out.append(Mutant(f"{len(out):03d}-{kind}-{candidate_path.stem}.jsonl", kind,
                                  str(candidate_path.relative_to(ROOT)), data))
                break
    return out
