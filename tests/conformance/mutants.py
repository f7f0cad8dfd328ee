"""Seeded mutants of real pi-written sessions, one function per kind of damage. Deterministic: the same seed gives
the same files, so an agreement table can be compared run to run."""

from __future__ import annotations

import json
import random
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
MUTANTS_PER_RELEASE = 340


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
}


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
