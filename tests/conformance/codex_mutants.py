"""Seeded mutants of rollouts the real Codex 0.171.0 wrote (the corpus copy and the suite's own seeds), one function
per kind of damage: issue 23's classes (the first line not `session_meta`, glued and partial lines, `call_id`
pairing, duplicates, ordinals missing, repeated or going backwards, `replacement_history` and its metadata of
different lengths, `thread_rolled_back`, timestamps that are not RFC 3339 strings, unknown types and payload kinds)
and what the Codex issue tracker reports (a final record without an ordinal, invalid replayed reasoning, NUL
padding). The line-level kinds Claude Code's suite already has (torn, glued, garbage, blank, CRLF) are its
functions. Deterministic: the same seed files and seed give the same bytes, so the oracle's record holds."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .claude_mutants import (
    _body,
    _edit,
    _records,
    blank_line,
    crlf,
    empty_file,
    garbage_file,
    garbage_line,
    glued_lines,
    nul_padding,
    swap_lines,
    torn_glued,
    torn_last_line,
    torn_mid_line,
)
from .mutants import CORPUS, Mutant, _dump

CODEX_DIR = "codex-0.171.0-written"
SEED = 23
MUTANTS = 330

Lines = list[bytes]
Record = dict[str, Any]
Mutation = Callable[[random.Random, Lines], Lines | None]
CALLS = ("function_call", "custom_tool_call", "local_shell_call")
OUTPUTS = ("function_call_output", "custom_tool_call_output")


def corpus() -> list[Path]:
    return sorted((CORPUS / CODEX_DIR).glob("*.jsonl"))


def rollout_path(name: str) -> str:
    """Where Codex keeps a rollout of this file name, relative to its sessions folder (`YYYY/MM/DD/...`)."""
    date = name.removeprefix("rollout-")[:10]
    return f"{date[:4]}/{date[5:7]}/{date[8:10]}/{name}"


def _item(kind: str | tuple[str, ...] | None = None) -> Callable[[Record], bool]:
    kinds = (kind,) if isinstance(kind, str) else kind

    def where(record: Record) -> bool:
        payload = record.get("payload")
        return record.get("type") == "response_item" and isinstance(payload, dict) \
            and (kinds is None or payload.get("type") in kinds)
    return where


def _typed(kind: str) -> Callable[[Record], bool]:
    return lambda record: record.get("type") == kind


def _delete(rng: random.Random, lines: Lines, where: Callable[[Record], bool]) -> Lines | None:
    found = _records(lines, where)
    if not found:
        return None
    index = rng.choice(found)[0]
    return [*lines[:index], *lines[index + 1:]]


# ------------------------------------------------------------------ the first line
def meta_removed(rng: random.Random, lines: Lines) -> Lines | None:
    """The `session_meta` line deleted: Codex refuses ("does not start with session metadata")."""
    return lines[1:] if _records(lines[:1], _typed("session_meta")) else None


def meta_moved(rng: random.Random, lines: Lines) -> Lines | None:
    """The `session_meta` line moved below the next few lines."""
    if not _records(lines[:1], _typed("session_meta")):
        return None
    at = rng.randrange(1, min(6, len(_body(lines))))
    return [*lines[1:at + 1], lines[0], *lines[at + 1:]]


def meta_damaged(rng: random.Random, lines: Lines) -> Lines | None:
    """A field of `session_meta`'s payload that resume reads, removed or of the wrong type."""
    def change(record: Record, _: Lines) -> bool | None:
        payload = record["payload"]
        field = rng.choice(["id", "cwd", "timestamp", "base_instructions", "cli_version", "history_mode"])
        if field not in payload:
            return False
        if rng.random() < 0.5:
            del payload[field]
        else:
            payload[field] = rng.choice([None, 42, [], {"x": 1}])
        return None
    return _edit(rng, lines, lambda r: _typed("session_meta")(r) and isinstance(r.get("payload"), dict), change)


# ------------------------------------------------------------------ lines
def delete_line(rng: random.Random, lines: Lines) -> Lines:
    index = rng.choice(_body(lines)[1:])
    return [*lines[:index], *lines[index + 1:]]


def duplicate_line(rng: random.Random, lines: Lines) -> Lines:
    """A line written twice (a retried append): a response item among them is sent twice."""
    index = rng.choice(_body(lines)[1:])
    return [*lines[:index + 1], lines[index], *lines[index + 1:]]


def duplicate_item(rng: random.Random, lines: Lines) -> Lines | None:
    found = _records(lines, _item())
    if not found:
        return None
    index = rng.choice(found)[0]
    at = rng.randrange(index + 1, len(_body(lines)) + 1)
    return [*lines[:at], lines[index], *lines[at:]]


def torn_last_message(rng: random.Random, lines: Lines) -> Lines | None:
    """Codex died while writing its last assistant message: the file ends inside it."""
    found = _records(lines, lambda r: _item("message")(r) and r["payload"].get("role") == "assistant")
    if not found:
        return None
    index = found[-1][0]
    return [*lines[:index], lines[index][:rng.randrange(10, len(lines[index]) - 1)]]


def delete_turn_context(rng: random.Random, lines: Lines) -> Lines | None:
    return _delete(rng, lines, _typed("turn_context"))


def delete_event(rng: random.Random, lines: Lines) -> Lines | None:
    return _delete(rng, lines, _typed("event_msg"))


# ------------------------------------------------------------------ call_id pairing
def orphan_output(rng: random.Random, lines: Lines) -> Lines | None:
    """A call deleted: its output stays (Codex drops it and logs an orphan)."""
    return _delete(rng, lines, _item(CALLS))


def call_without_output(rng: random.Random, lines: Lines) -> Lines | None:
    """An output deleted: its call stays (Codex sends a synthetic "aborted" output)."""
    return _delete(rng, lines, _item(OUTPUTS))


def call_id_edited(rng: random.Random, lines: Lines) -> Lines | None:
    """An output's `call_id` changed to one no call has (or to a wrong type)."""
    def change(record: Record, _: Lines) -> None:
        record["payload"]["call_id"] = rng.choice(["call_" + format(rng.getrandbits(96), "x"), None, 7, ""])
    return _edit(rng, lines, _item(OUTPUTS), change)


def output_before_call(rng: random.Random, lines: Lines) -> Lines | None:
    """An output moved above its call."""
    outputs = _records(lines, _item(OUTPUTS))
    calls = {r["payload"].get("call_id"): i for i, r in _records(lines, _item(CALLS))}
    pairs = [(calls[r["payload"].get("call_id")], i) for i, r in outputs if r["payload"].get("call_id") in calls]
    if not pairs:
        return None
    call, output = rng.choice(pairs)
    out = list(lines)
    line = out.pop(output)
    out.insert(call, line)
    return out


# ------------------------------------------------------------------ ordinals
def ordinal_missing(rng: random.Random, lines: Lines) -> Lines | None:
    """A line without `ordinal` (openai/codex#45150: the final record of paginated history without one)."""
    found = _records(lines, lambda r: "ordinal" in r)
    if not found:
        return None
    index, record = found[-1] if rng.random() < 0.4 else rng.choice(found)
    del record["ordinal"]
    return [*lines[:index], _dump(record), *lines[index + 1:]]


def ordinal_repeated(rng: random.Random, lines: Lines) -> Lines | None:
    """A line with the ordinal of the line before it (#35746, #38341: paginated history reuses ordinals)."""
    found = _records(lines, lambda r: isinstance(r.get("ordinal"), int) and r["ordinal"] > 0)
    if not found:
        return None
    index, record = rng.choice(found)
    record["ordinal"] -= 1
    return [*lines[:index], _dump(record), *lines[index + 1:]]


def ordinal_backwards(rng: random.Random, lines: Lines) -> Lines | None:
    """A line whose ordinal goes back several steps (a second writer, or an append after a restore)."""
    found = _records(lines, lambda r: isinstance(r.get("ordinal"), int) and r["ordinal"] > 3)
    if not found:
        return None
    index, record = rng.choice(found)
    record["ordinal"] = rng.randrange(0, record["ordinal"] - 2)
    return [*lines[:index], _dump(record), *lines[index + 1:]]


def ordinal_wrong_type(rng: random.Random, lines: Lines) -> Lines | None:
    def change(record: Record, _: Lines) -> None:
        record["ordinal"] = rng.choice([str(record["ordinal"]), -1, 1.5, None])
    return _edit(rng, lines, lambda r: isinstance(r.get("ordinal"), int), change)


# ------------------------------------------------------------------ compaction and rollback
def replacement_history_mismatch(rng: random.Random, lines: Lines) -> Lines | None:
    """A `compacted` record whose `replacement_history` and `replacement_history_metadata` differ in length."""
    def change(record: Record, _: Lines) -> bool | None:
        payload = record["payload"]
        field = rng.choice(["replacement_history", "replacement_history_metadata"])
        listed = payload.get(field)
        if not isinstance(listed, list) or not listed:
            return False
        if rng.random() < 0.5:
            del listed[rng.randrange(len(listed))]
        else:
            listed.insert(rng.randrange(len(listed) + 1), listed[rng.randrange(len(listed))])
        return None
    return _edit(rng, lines, lambda r: _typed("compacted")(r) and isinstance(r.get("payload"), dict), change)


def replacement_history_damaged(rng: random.Random, lines: Lines) -> Lines | None:
    """An item of a `compacted` record's `replacement_history` of an unknown kind or without its fields."""
    def change(record: Record, _: Lines) -> bool | None:
        listed = record["payload"].get("replacement_history")
        if not isinstance(listed, list) or not listed:
            return False
        at = rng.randrange(len(listed))
        listed[at] = rng.choice([{"type": "mystery_item"}, {}, None, "text"]) if rng.random() < 0.5 \
            else {**listed[at], "type": "mystery_item"}
        return None
    return _edit(rng, lines, lambda r: _typed("compacted")(r) and isinstance(r.get("payload"), dict), change)


def compacted_removed(rng: random.Random, lines: Lines) -> Lines | None:
    return _delete(rng, lines, _typed("compacted"))


def thread_rolled_back(rng: random.Random, lines: Lines) -> Lines | None:
    """A `thread_rolled_back` event (what /undo-style rollbacks write): Codex drops the last `num_turns` user turns
    before it from the history it rebuilds."""
    starts = _records(lines, lambda r: _typed("event_msg")(r) and isinstance(r.get("payload"), dict)
                      and r["payload"].get("type") == "task_started")
    if not starts:
        return None
    at = rng.choice([*(index for index, _ in starts[1:]), len(_body(lines))])
    template = next(record for _, record in _records(lines, _typed("event_msg")))
    event = {"timestamp": template.get("timestamp"), "type": "event_msg",
             "payload": {"type": "thread_rolled_back", "num_turns": rng.choice([1, 1, 2, 5, 0])}}
    if "ordinal" in template:
        event = {"timestamp": event["timestamp"], "ordinal": at, "type": "event_msg", "payload": event["payload"]}
    return [*lines[:at], _dump(event), *lines[at:]]


# ------------------------------------------------------------------ fields
def bad_timestamp(rng: random.Random, lines: Lines) -> Lines | None:
    """A line `timestamp` that is not an RFC 3339 string."""
    def change(record: Record, _: Lines) -> None:
        choice = rng.choice(["number", "text", "missing", "null", "date"])
        if choice == "missing":
            del record["timestamp"]
        else:
            record["timestamp"] = {"number": 1764921600, "text": "yesterday", "null": None,
                                   "date": "2026-12-05 08:14:24"}[choice]
    return _edit(rng, lines, lambda r: "timestamp" in r, change)


def unknown_type(rng: random.Random, lines: Lines) -> Lines | None:
    """A line whose top-level `type` no release writes (a newer Codex, or damage)."""
    def change(record: Record, _: Lines) -> None:
        record["type"] = rng.choice(["agent_state", "response_itemz", "checkpoint"])
    return _edit(rng, lines, lambda r: r.get("type") != "session_meta", change)


def unknown_item_kind(rng: random.Random, lines: Lines) -> Lines | None:
    def change(record: Record, _: Lines) -> None:
        record["payload"]["type"] = rng.choice(["web_search_result", "memory_item", "function_callx"])
    return _edit(rng, lines, _item(), change)


def unknown_event_kind(rng: random.Random, lines: Lines) -> Lines | None:
    def change(record: Record, _: Lines) -> None:
        record["payload"]["type"] = rng.choice(["turn_paused", "agent_thought", "task_startedx"])
    return _edit(rng, lines, lambda r: _typed("event_msg")(r) and isinstance(r.get("payload"), dict), change)


def unknown_role(rng: random.Random, lines: Lines) -> Lines | None:
    def change(record: Record, _: Lines) -> None:
        record["payload"]["role"] = rng.choice(["tool", "critic", "", None])
    return _edit(rng, lines, _item("message"), change)


def payload_field_missing(rng: random.Random, lines: Lines) -> Lines | None:
    """A field a response item needs, removed (a call's `name` or `arguments`, an output's `output`, a message's
    `content`)."""
    needs = {"function_call": ["name", "arguments", "call_id"], "custom_tool_call": ["name", "input", "call_id"],
             "function_call_output": ["output"], "custom_tool_call_output": ["output"],
             "message": ["content", "role"], "reasoning": ["summary"]}

    def change(record: Record, _: Lines) -> bool | None:
        fields = [f for f in needs.get(record["payload"].get("type"), []) if f in record["payload"]]
        if not fields:
            return False
        del record["payload"][rng.choice(fields)]
        return None
    return _edit(rng, lines, _item(tuple(needs)), change)


def payload_not_object(rng: random.Random, lines: Lines) -> Lines | None:
    def change(record: Record, _: Lines) -> None:
        record["payload"] = rng.choice([None, "text", [1, 2], 42])
    return _edit(rng, lines, lambda r: r.get("type") != "session_meta", change)


def reasoning_damaged(rng: random.Random, lines: Lines) -> Lines | None:
    """A reasoning item Codex replays that the provider rejects (openai/codex#36551): its encrypted content or
    summary removed or of the wrong type."""
    def change(record: Record, _: Lines) -> None:
        payload = record["payload"]
        choice = rng.choice(["no-encrypted", "encrypted-null", "summary-text", "content-text"])
        if choice == "no-encrypted":
            payload.pop("encrypted_content", None)
        elif choice == "encrypted-null":
            payload["encrypted_content"] = None
        elif choice == "summary-text":
            payload["summary"] = "a summary"
        else:
            payload["content"] = "raw reasoning"
    return _edit(rng, lines, _item("reasoning"), change)


KINDS: dict[str, Mutation] = {
    "meta-removed": meta_removed,
    "meta-moved": meta_moved,
    "meta-damaged": meta_damaged,
    "empty-file": empty_file,
    "garbage-file": garbage_file,
    "torn-last-line": torn_last_line,
    "torn-last-message": torn_last_message,
    "torn-mid-line": torn_mid_line,
    "torn-glued": torn_glued,
    "glued-lines": glued_lines,
    "nul-padding": nul_padding,
    "blank-line": blank_line,
    "crlf": crlf,
    "garbage-line": garbage_line,
    "delete-line": delete_line,
    "duplicate-line": duplicate_line,
    "duplicate-item": duplicate_item,
    "swap-lines": swap_lines,
    "delete-turn-context": delete_turn_context,
    "delete-event": delete_event,
    "orphan-output": orphan_output,
    "call-without-output": call_without_output,
    "call-id-edited": call_id_edited,
    "output-before-call": output_before_call,
    "ordinal-missing": ordinal_missing,
    "ordinal-repeated": ordinal_repeated,
    "ordinal-backwards": ordinal_backwards,
    "ordinal-wrong-type": ordinal_wrong_type,
    "replacement-history-mismatch": replacement_history_mismatch,
    "replacement-history-damaged": replacement_history_damaged,
    "compacted-removed": compacted_removed,
    "thread-rolled-back": thread_rolled_back,
    "bad-timestamp": bad_timestamp,
    "unknown-type": unknown_type,
    "unknown-item-kind": unknown_item_kind,
    "unknown-event-kind": unknown_event_kind,
    "unknown-role": unknown_role,
    "payload-field-missing": payload_field_missing,
    "payload-not-object": payload_not_object,
    "reasoning-damaged": reasoning_damaged,
}
ONCE = {"empty-file", "garbage-file"}
"""Kinds whose mutant does not depend on the seed's content: one file each is enough."""


def generate(seeds: list[tuple[str, bytes]], count: int = MUTANTS, seed: int = SEED) -> list[Mutant]:
    """`count` mutants, kinds taken in turn, each from a seed rollout (name, bytes) the seeded generator picks (a
    kind that does not apply to it, e.g. replacement-history-mismatch on a rollout without a compaction, tries the
    next one). A mutant's `seed` is its seed's name."""
    rng = random.Random(seed)
    files = [(name, data.split(b"\n")) for name, data in seeds]
    kinds = list(KINDS.items())
    out: list[Mutant] = []
    made: dict[str, int] = {}
    attempt = 0
    while len(out) < count and attempt < count * 20:
        kind, mutate = kinds[attempt % len(kinds)]
        attempt += 1
        if kind in ONCE and made.get(kind):
            continue
        first = rng.randrange(len(files))
        for offset in range(len(files)):
            name, lines = files[(first + offset) % len(files)]
            mutated = mutate(rng, lines)
            if mutated is not None:
                made[kind] = made.get(kind, 0) + 1
                out.append(Mutant(f"{len(out):03d}-{kind}", kind, name, b"\n".join(mutated)))
                break
    return out
