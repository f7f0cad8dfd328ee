"""Seeded mutants of sessions the real Claude Code 2.1.332 wrote, one function per kind of damage (issue 21's
classes and what its users report: torn, glued and NUL-padded files, broken uuid links, re-appended rows, tool
pairing, stray sessions and sidechains, leaf markers, huge lines). Deterministic: the same seed files and seed give
the same bytes, so the oracle's cache holds across runs."""

from __future__ import annotations

import itertools
import json
import random
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from .mutants import CORPUS, ROOT, Mutant, _dump

CLAUDE_DIR = "claude-code-2.1.332-written"
SEED = 21
MUTANTS = 340

Lines = list[bytes]
Record = dict[str, Any]
Mutation = Callable[[random.Random, Lines], Lines | None]
CHAINED = ("user", "assistant", "attachment", "system")
"""The record types linked by uuid/parentUuid that Claude Code rebuilds the conversation from."""


def corpus() -> list[Path]:
    """The main session files of the corpus copy (subagent transcripts sit in `<id>/subagents/`)."""
    return sorted((CORPUS / CLAUDE_DIR).glob("*.jsonl"))


def companions(seed: Path) -> dict[str, bytes]:
    """The files beside a session that Claude Code reads with it (its subagent folder), relative to its folder."""
    folder = seed.parent / seed.stem
    return {str(path.relative_to(seed.parent)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()} if folder.exists() else {}


def _records(lines: Lines, where: Callable[[Record], bool] = lambda record: True) -> list[tuple[int, Record]]:
    out = []
    for index, line in enumerate(lines):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and where(value):
            out.append((index, value))
    return out


def _chained(record: Record) -> bool:
    return record.get("type") in CHAINED and isinstance(record.get("uuid"), str)


def _message(role: str, block: str | None = None) -> Callable[[Record], bool]:
    def where(record: Record) -> bool:
        message = record.get("message")
        if record.get("type") != role or not isinstance(message, dict):
            return False
        content = message.get("content")
        return block is None or (isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == block for b in content))
    return where


def _edit(rng: random.Random, lines: Lines, where: Callable[[Record], bool],
          change: Callable[[Record, Lines], bool | None]) -> Lines | None:
    """Changes one record `where` picks (seeded); `change` returning False means it did not apply."""
    found = _records(lines, where)
    if not found:
        return None
    index, record = rng.choice(found)
    if change(record, lines) is False:
        return None
    out = list(lines)
    out[index] = _dump(record)
    return out


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _body(lines: Lines) -> range:
    """Indexes of the record lines (the final empty string after the last newline excluded)."""
    return range(0, len(lines) - 1 if lines and lines[-1] == b"" else len(lines))


# ------------------------------------------------------------------ JSON damage
def torn_last_line(rng: random.Random, lines: Lines) -> Lines:
    """A write cut short: the last line ends mid-record, with no newline."""
    last = lines[_body(lines)[-1]]
    return [*lines[:_body(lines)[-1]], last[:rng.randrange(1, len(last))]]


def torn_last_message(rng: random.Random, lines: Lines) -> Lines | None:
    """The process died while writing its last assistant record: the file ends inside it."""
    found = _records(lines, _message("assistant"))
    if not found:
        return None
    index = found[-1][0]
    return [*lines[:index], lines[index][:rng.randrange(10, len(lines[index]) - 1)]]


def torn_mid_line(rng: random.Random, lines: Lines) -> Lines:
    """A line cut short in the middle of the file; the next record starts on its own line."""
    index = rng.choice(_body(lines)[:-1])
    out = list(lines)
    out[index] = lines[index][:rng.randrange(1, len(lines[index]))]
    return out


def torn_glued(rng: random.Random, lines: Lines) -> Lines:
    """A half line with the next record glued on (an append after a torn write without a newline)."""
    index = rng.choice(_body(lines)[:-1])
    half = lines[index][:rng.randrange(1, len(lines[index]))]
    return [*lines[:index], half + lines[index + 1], *lines[index + 2:]]


def glued_lines(rng: random.Random, lines: Lines) -> Lines:
    """Two whole records on one line."""
    index = rng.choice(_body(lines)[:-1])
    return [*lines[:index], lines[index] + lines[index + 1], *lines[index + 2:]]


def nul_padding(rng: random.Random, lines: Lines) -> Lines:
    """A block of NUL bytes (a crash on a file system that had allocated the space): on a line of its own, in front
    of a record, or at the end of the file."""
    block = b"\0" * rng.choice([16, 512, 4096])
    out = list(lines)
    where = rng.random()
    if where < 0.35:
        out.insert(rng.choice(_body(lines)), block)
    elif where < 0.7:
        index = rng.choice(_body(lines))
        out[index] = block + out[index]
    else:
        out[-1] = out[-1] + block
    return out


def blank_line(rng: random.Random, lines: Lines) -> Lines:
    return [*lines[:(index := rng.choice(_body(lines)))], rng.choice([b"", b"  ", b"\t"]), *lines[index:]]


def crlf(rng: random.Random, lines: Lines) -> Lines:
    return [line + b"\r" for line in lines[:_body(lines)[-1] + 1]] + [b""]


def garbage_line(rng: random.Random, lines: Lines) -> Lines:
    junk = rng.choice([b"not json", b"{", b"null", b"[1,2]", b'"text"', b"42", b"{\"type\":"])
    return [*lines[:(index := rng.choice(_body(lines)))], junk, *lines[index:]]


def huge_line(rng: random.Random, lines: Lines) -> Lines | None:
    """A tool result of several megabytes (Claude Code keeps whole outputs: files of 100 MB are reported)."""
    def change(record: Record, _: Lines) -> None:
        block = next(b for b in record["message"]["content"] if isinstance(b, dict) and b.get("type") == "tool_result")
        size = rng.choice([1, 2, 3]) * 1_000_000
        block["content"] = ("0123456789abcdef" * (size // 16 + 1))[:size]
    return _edit(rng, lines, _message("user", "tool_result"), change)


def empty_file(rng: random.Random, lines: Lines) -> Lines:
    return [b""]


def garbage_file(rng: random.Random, lines: Lines) -> Lines:
    return [b"this is not a session", b"{", b""]


# ------------------------------------------------------------------ lines and links
def delete_record(rng: random.Random, lines: Lines) -> Lines | None:
    found = _records(lines, _chained)
    if not found:
        return None
    index = rng.choice(found)[0]
    return [*lines[:index], *lines[index + 1:]]


def swap_lines(rng: random.Random, lines: Lines) -> Lines:
    out = list(lines)
    index = rng.choice(_body(lines)[:-1])
    out[index], out[index + 1] = out[index + 1], out[index]
    return out


def _not_first(record: Record) -> bool:
    return _chained(record) and isinstance(record.get("parentUuid"), str)


def parent_dangling(rng: random.Random, lines: Lines) -> Lines | None:
    return _edit(rng, lines, _not_first, lambda r, _: r.__setitem__("parentUuid", _uuid(rng)))


def parent_null(rng: random.Random, lines: Lines) -> Lines | None:
    return _edit(rng, lines, _not_first, lambda r, _: r.__setitem__("parentUuid", None))


def parent_cycle(rng: random.Random, lines: Lines) -> Lines | None:
    """A parentUuid naming the record itself or one that comes after it on the chain."""
    def change(record: Record, all_lines: Lines) -> None:
        later = [r["uuid"] for i, r in _records(all_lines, _chained)]
        record["parentUuid"] = rng.choice(later[later.index(record["uuid"]):])
    return _edit(rng, lines, _not_first, change)


def logical_parent(rng: random.Random, lines: Lines) -> Lines | None:
    """The compact_boundary's logicalParentUuid (the pre-compaction tail) made dangling, null or missing, or its
    parentUuid set to that tail (the compaction bridged, not cut)."""
    def change(record: Record, _: Lines) -> None:
        choice = rng.randrange(4)
        if choice == 0:
            record["logicalParentUuid"] = _uuid(rng)
        elif choice == 1:
            record["logicalParentUuid"] = None
        elif choice == 2:
            del record["logicalParentUuid"]
        else:
            record["parentUuid"] = record["logicalParentUuid"]
    return _edit(rng, lines, lambda r: r.get("subtype") == "compact_boundary", change)


def duplicate_identical(rng: random.Random, lines: Lines) -> Lines | None:
    """A record re-appended unchanged, right after itself or at the end (the re-append bugs users report)."""
    found = _records(lines, _chained)
    if not found:
        return None
    index = rng.choice(found)[0]
    at = index + 1 if rng.random() < 0.5 else _body(lines)[-1] + 1
    return [*lines[:at], lines[index], *lines[at:]]


def duplicate_uuid(rng: random.Random, lines: Lines) -> Lines | None:
    """A later record takes the uuid of an earlier, different one."""
    found = _records(lines, _chained)
    if len(found) < 2:
        return None
    (_, first), (index, second) = sorted(rng.sample(found, 2), key=lambda pair: pair[0])
    second["uuid"] = first["uuid"]
    out = list(lines)
    out[index] = _dump(second)
    return out


def message_id_collision(rng: random.Random, lines: Lines) -> Lines | None:
    """A file-history-snapshot whose messageId is a message's uuid (the collision users report), inserted after it."""
    found = _records(lines, _message("user"))
    if not found:
        return None
    index, record = rng.choice(found)
    snapshot = {"type": "file-history-snapshot", "messageId": record["uuid"],
                "snapshot": {"messageId": record["uuid"], "trackedFileBackups": {},
                             "timestamp": record.get("timestamp")}, "isSnapshotUpdate": rng.random() < 0.5}
    return [*lines[:index + 1], _dump(snapshot), *lines[index + 1:]]


def unknown_type(rng: random.Random, lines: Lines) -> Lines | None:
    return _edit(rng, lines, _chained, lambda r, _: r.__setitem__("type", "mystery-record"))


def missing_field(rng: random.Random, lines: Lines) -> Lines | None:
    def change(record: Record, _: Lines) -> bool:
        fields = [f for f in ("message", "uuid", "type", "parentUuid", "sessionId", "timestamp") if f in record]
        if not fields:
            return False
        del record[rng.choice(fields)]
        return True
    return _edit(rng, lines, lambda r: r.get("type") in ("user", "assistant"), change)


def drop_bookkeeping(rng: random.Random, lines: Lines) -> Lines | None:
    """Every record that is not on the chain removed (api-request*, queue-operation, last-prompt, cost-state...)."""
    chained = {index for index, _ in _records(lines, _chained)}
    kept = [line for index, line in enumerate(lines) if index not in _body(lines) or index in chained]
    return kept if len(kept) < len(lines) else None


# ------------------------------------------------------------------ tools
def _blocks(record: Record, kind: str) -> list[Record]:
    return [b for b in record["message"]["content"] if isinstance(b, dict) and b.get("type") == kind]


def tool_result_id(rng: random.Random, lines: Lines) -> Lines | None:
    """A tool_result whose tool_use_id names no call."""
    def change(record: Record, _: Lines) -> None:
        rng.choice(_blocks(record, "tool_result"))["tool_use_id"] = "toolu_01" + _uuid(rng).replace("-", "")[:22]
    return _edit(rng, lines, _message("user", "tool_result"), change)


def tool_result_removed(rng: random.Random, lines: Lines) -> Lines | None:
    """A tool_use left without its result (the result block taken out of its record)."""
    def change(record: Record, _: Lines) -> None:
        record["message"]["content"].remove(rng.choice(_blocks(record, "tool_result")))
    return _edit(rng, lines, _message("user", "tool_result"), change)


def tool_use_removed(rng: random.Random, lines: Lines) -> Lines | None:
    """A tool_result left without its call (the tool_use block taken out of its record)."""
    def change(record: Record, _: Lines) -> None:
        record["message"]["content"].remove(rng.choice(_blocks(record, "tool_use")))
    return _edit(rng, lines, _message("assistant", "tool_use"), change)


def tool_result_record_deleted(rng: random.Random, lines: Lines) -> Lines | None:
    """The record holding a tool result deleted, its child relinked to its parent (a hand repair gone wrong)."""
    found = _records(lines, _message("user", "tool_result"))
    if not found:
        return None
    index, record = rng.choice(found)
    out = [*lines[:index], *lines[index + 1:]]
    for child_index, child in _records(out, lambda r: r.get("parentUuid") == record["uuid"]):
        child["parentUuid"] = record.get("parentUuid")
        out[child_index] = _dump(child)
    return out


def tool_results_swapped(rng: random.Random, lines: Lines) -> Lines | None:
    """The results of parallel calls in the other order: the two records' lines swapped, or the blocks of one
    record reversed."""
    users = _records(lines, _message("user", "tool_result"))
    pairs = [(a, b) for (a, ra), (b, rb) in itertools.pairwise(users)
             if b == a + 1 and ra.get("sourceToolAssistantUUID") != rb.get("sourceToolAssistantUUID")]
    multi = [(i, r) for i, r in users if len(_blocks(r, "tool_result")) > 1]
    if multi and (not pairs or rng.random() < 0.5):
        index, record = rng.choice(multi)
        record["message"]["content"].reverse()
        out = list(lines)
        out[index] = _dump(record)
        return out
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    out = list(lines)
    out[a], out[b] = out[b], out[a]
    return out


def api_error_flag(rng: random.Random, lines: Lines) -> Lines | None:
    """An assistant record marked as Claude Code's synthetic API-error message."""
    return _edit(rng, lines, _message("assistant"), lambda r, _: r.__setitem__("isApiErrorMessage", True))


def thinking_order(rng: random.Random, lines: Lines) -> Lines | None:
    """In a turn Claude Code split into one record per block (same message.id), the thinking record moved after the
    next block on the chain."""
    assistants = _records(lines, _message("assistant", "thinking"))
    by_parent = {r.get("parentUuid"): (i, r) for i, r in _records(lines, _message("assistant"))}
    options = [(i, r) for i, r in assistants if r["uuid"] in by_parent
               and by_parent[r["uuid"]][1]["message"].get("id") == r["message"].get("id")]
    if not options:
        return None
    index, thinking = rng.choice(options)
    next_index, following = by_parent[thinking["uuid"]]
    out = list(lines)
    for child_index, child in _records(lines, lambda r: r.get("parentUuid") == following["uuid"]):
        child["parentUuid"] = thinking["uuid"]
        out[child_index] = _dump(child)
    following["parentUuid"], thinking["parentUuid"] = thinking.get("parentUuid"), following["uuid"]
    out[index], out[next_index] = _dump(thinking), _dump(following)
    if rng.random() < 0.5:
        out[index], out[next_index] = out[next_index], out[index]
    return out


# ------------------------------------------------------------------ sessions, sidechains, leaves
def session_ids(rng: random.Random, lines: Lines) -> Lines | None:
    """Records of another session in the file: from some record on, or one record alone, a different sessionId."""
    found = _records(lines, lambda r: "sessionId" in r)
    if not found:
        return None
    other = _uuid(rng)
    out = list(lines)
    start = rng.randrange(len(found))
    for index, record in found[start:] if rng.random() < 0.5 else found[start:start + 1]:
        record["sessionId"] = other
        out[index] = _dump(record)
    return out


def sidechain_leak(rng: random.Random, lines: Lines) -> Lines | None:
    """A main-chain record flagged `isSidechain: true`."""
    return _edit(rng, lines, lambda r: _chained(r) and r.get("isSidechain") is False,
                 lambda r, _: r.__setitem__("isSidechain", True))


def sidechain_records(rng: random.Random, lines: Lines) -> Lines | None:
    """A subagent's records (isSidechain, agentId, a chain of their own) written into the main file."""
    seeds = [path for path in corpus() if companions(path)]
    transcript = next(iter(companions(seeds[0]).values())).split(b"\n") if seeds else []
    chained = [line for _, line in ((i, transcript[i]) for i, _ in _records(transcript, _chained))]
    if not chained:
        return None
    count = rng.randrange(1, len(chained) + 1)
    at = rng.choice(_body(lines)) + 1
    return [*lines[:at], *chained[:count], *lines[at:]]


def leaf_marker(rng: random.Random, lines: Lines) -> Lines | None:
    """A leaf marker naming an earlier message: last-prompt.leafUuid edited, or a summary record appended."""
    messages = [r["uuid"] for _, r in _records(lines, _chained)]
    if len(messages) < 2:
        return None
    target = rng.choice(messages[:-1])
    prompts = _records(lines, lambda r: r.get("type") == "last-prompt")
    if prompts and rng.random() < 0.5:
        index, record = prompts[-1]
        record["leafUuid"] = target
        out = list(lines)
        out[index] = _dump(record)
        return out
    summary = {"type": "summary", "summary": "Notes CLI work", "leafUuid": target}
    at = _body(lines)[-1] + 1 if rng.random() < 0.5 else 0
    return [*lines[:at], _dump(summary), *lines[at:]]


def meta_prompt(rng: random.Random, lines: Lines) -> Lines | None:
    """A typed prompt flagged isMeta (how Claude Code marks the messages it writes itself)."""
    return _edit(rng, lines, lambda r: _message("user")(r) and isinstance(r["message"].get("content"), str),
                 lambda r, _: r.__setitem__("isMeta", True))


# ------------------------------------------------------------------ targeted (issue 21's rules learnt from the CLI)
def _shifted(timestamp: Any, seconds: float) -> str | None:
    """An ISO `timestamp` moved by `seconds`, written as Claude Code writes it (milliseconds, `Z`)."""
    if not isinstance(timestamp, str):
        return None
    try:
        moment = datetime.fromisoformat(timestamp)
    except ValueError:
        return None
    return (moment + timedelta(seconds=seconds)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parent_dangling_timed(rng: random.Random, lines: Lines) -> Lines | None:
    """A dangling parentUuid on a record whose timestamp is also moved (an hour earlier, or 2, 7 or 30 s later):
    Claude Code links it to the record written last before it within 5 s, or starts the history there."""
    shift = rng.choice([-3600.0, 2.0, 7.0, 30.0])

    def change(record: Record, _: Lines) -> bool:
        moved = _shifted(record.get("timestamp"), shift)
        if moved is None:
            return False
        record["parentUuid"] = _uuid(rng)
        record["timestamp"] = moved
        return True
    return _edit(rng, lines, _not_first, change)


def parent_dangling_attachment(rng: random.Random, lines: Lines) -> Lines | None:
    """A dangling parentUuid on an attachment: attachments of one turn share an instant, so the link by time goes
    to the first of them in the file."""
    return _edit(rng, lines, lambda r: _not_first(r) and r.get("type") == "attachment",
                 lambda r, _: r.__setitem__("parentUuid", _uuid(rng)))


def uuid_missing(rng: random.Random, lines: Lines) -> Lines | None:
    """A chain record without its uuid: its child's parent dangles, and Claude Code's map keeps the row under no
    key, where the link by time still finds it."""
    return _edit(rng, lines, _not_first, lambda r, _: r.pop("uuid", None) and None)


def torn_bookkeeping(rng: random.Random, lines: Lines) -> Lines | None:
    """A bookkeeping line (one Claude Code writes starting with `{"type":`) cut short mid-file."""
    found = [i for i in _body(lines)[:-1] if lines[i].startswith(b'{"type":')]
    if not found:
        return None
    index = rng.choice(found)
    out = list(lines)
    out[index] = lines[index][:rng.randrange(1, len(lines[index]))]
    return out


KINDS: dict[str, Mutation] = {
    "torn-last-line": torn_last_line,
    "torn-last-message": torn_last_message,
    "torn-mid-line": torn_mid_line,
    "torn-glued": torn_glued,
    "glued-lines": glued_lines,
    "nul-padding": nul_padding,
    "blank-line": blank_line,
    "crlf": crlf,
    "garbage-line": garbage_line,
    "huge-line": huge_line,
    "empty-file": empty_file,
    "garbage-file": garbage_file,
    "delete-record": delete_record,
    "swap-lines": swap_lines,
    "parent-dangling": parent_dangling,
    "parent-null": parent_null,
    "parent-cycle": parent_cycle,
    "logical-parent": logical_parent,
    "duplicate-identical": duplicate_identical,
    "duplicate-uuid": duplicate_uuid,
    "messageId-collision": message_id_collision,
    "unknown-type": unknown_type,
    "missing-field": missing_field,
    "drop-bookkeeping": drop_bookkeeping,
    "tool-result-id": tool_result_id,
    "tool-result-removed": tool_result_removed,
    "tool-use-removed": tool_use_removed,
    "tool-result-record-deleted": tool_result_record_deleted,
    "tool-results-swapped": tool_results_swapped,
    "api-error-flag": api_error_flag,
    "thinking-order": thinking_order,
    "session-ids": session_ids,
    "sidechain-leak": sidechain_leak,
    "sidechain-records": sidechain_records,
    "leaf-marker": leaf_marker,
    "meta-prompt": meta_prompt,
}
TARGETED: dict[str, Mutation] = {
    "parent-dangling-timed": parent_dangling_timed,
    "parent-dangling-attachment": parent_dangling_attachment,
    "uuid-missing": uuid_missing,
    "torn-bookkeeping": torn_bookkeeping,
}
"""Kinds made for the rules learnt from the CLI (issue 21), generated after the others from their own seeded stream
so that adding one leaves the others' bytes (and the oracle's cache) as they were."""
TARGETED_PER_KIND = 10
TARGETED_SEED = 2121

ONCE = {"empty-file", "garbage-file"}
"""Kinds whose mutant does not depend on the seed's content: one file each is enough."""
HUGE_MAX = 4
"""At most this many huge-line mutants (each costs the CLI seconds)."""


def generate(count: int = MUTANTS, seed: int = SEED, seeds: list[Path] | None = None) -> list[Mutant]:
    """`count` mutants, kinds taken in turn, each from a seed file the seeded generator picks (a kind that does not
    apply to it, e.g. logical-parent on a file without a compaction, tries the next seed)."""
    rng = random.Random(seed)
    files = [(path, path.read_bytes().split(b"\n")) for path in (seeds if seeds is not None else corpus())]
    kinds = list(KINDS.items())
    out: list[Mutant] = []
    made: dict[str, int] = {}
    attempt = 0
    while len(out) < count and attempt < count * 20:
        kind, mutate = kinds[attempt % len(kinds)]
        attempt += 1
        if (kind in ONCE and made.get(kind)) or (kind == "huge-line" and made.get(kind, 0) >= HUGE_MAX):
            continue
        first = rng.randrange(len(files))
        for offset in range(len(files)):
            path, lines = files[(first + offset) % len(files)]
            mutated = mutate(rng, lines)
            if mutated is not None:
                made[kind] = made.get(kind, 0) + 1
                out.append(Mutant(f"{len(out):03d}-{kind}-{path.stem[:8]}", kind,
                                  str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
                                  b"\n".join(mutated)))
                break
    return out + _targeted(len(out), files)


def _targeted(start: int, files: list[tuple[Path, Lines]]) -> list[Mutant]:
    rng = random.Random(TARGETED_SEED)
    out: list[Mutant] = []
    for kind, mutate in TARGETED.items():
        for _ in range(TARGETED_PER_KIND):
            first = rng.randrange(len(files))
            for offset in range(len(files)):
                path, lines = files[(first + offset) % len(files)]
                mutated = mutate(rng, lines)
                if mutated is not None:
                    out.append(Mutant(f"{start + len(out):03d}-{kind}-{path.stem[:8]}", kind,
                                      str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
                                      b"\n".join(mutated)))
                    break
    return out
