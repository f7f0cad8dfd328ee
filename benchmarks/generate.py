"""Writes two large, realistic, deterministic session files for the benchmarks (and small ones for tests).

* Elyra (pi) v3: user / assistant / toolResult turns with thinking and tool calls, text of realistic sizes with a
  few very large tool outputs, branches with branch summaries, labels, compactions whose firstKeptEntryId lies on
  their path, model and thinking-level changes. Default 100,000 entries, about 45 MB.
* thndrs: turns of user, prompt metadata, reasoning, tool start/finish pairs, file writes, shell runs, usage and the
  closing assistant record, with seq 0, 1, 2, ... Default 100,000 records.

* A folder of many Elyra sessions laid out as pi keeps them (`sessions/--<cwd>--/<time>_<id>.jsonl`), with sizes
  drawn from a log-normal spread like a real pi sessions folder: most a few tens of KB (a question or two), a tail
  of long working sessions of several MB. Default 2,000 files, about 190 MB.

Both are meant to be clean sessions (what the real programs write), so a check measures the cost of reading good
data, not of reporting problems. The same seed always gives the same bytes.

    python benchmarks/generate.py [--entries N] [--records N] [--seed S] [--out DIR]
    python benchmarks/generate.py --folder [--files N]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import string
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
ELYRA_ENTRIES = 100_000
THNDRS_RECORDS = 100_000
SEED = 20260301
START = datetime(2026, 3, 1, 9, 0, 0, tzinfo=UTC)

WORDS = (
    "the a of to in and is for that it with on as this be are by from at or an not we can which file function "
    "test parser value return error line session entry message tool result call branch summary token model "
    "context output input change update fix check read write edit run build module import class type field "
    "string number list index path node tree parent child root leaf first last next previous before after "
    "should would could will need want look search find replace remove add keep move rename split join case "
    "config option flag default argument command shell process exit code status pass fail warning debug log"
).split()
MODELS = (("anthropic", "claude-sonnet-4-5", "anthropic-messages"), ("openai", "gpt-5", "openai-responses"),
          ("anthropic", "claude-opus-4-1", "anthropic-messages"), ("google", "gemini-2.5-pro", "google-generative-ai"))
TOOLS = ("read", "bash", "edit", "write", "grep", "ls")
THINKING_LEVELS = ("low", "medium", "high")
ALNUM = string.ascii_letters + string.digits


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Text:
    """Deterministic prose and code-ish output of a requested size, times `scale` (1: the default sizes; larger:
    the longer messages and outputs of real sessions, whose lines average 1-2.4 KB)."""

    def __init__(self, rng: random.Random, scale: int = 1) -> None:
        self.rng = rng
        self.scale = scale

    def words(self, count: int) -> str:
        choice = self.rng.choice
        return " ".join(choice(WORDS) for _ in range(count)).capitalize() + "."

    def prose(self, low: int, high: int) -> str:
        """Sentences totalling about low..high words."""
        target = self.rng.randint(low, high) * self.scale
        sentences: list[str] = []
        while target > 0:
            size = min(target, self.rng.randint(6, 18))
            sentences.append(self.words(size))
            target -= size
        return " ".join(sentences)

    def output(self, lines: int) -> str:
        """Tool output: numbered source-like lines."""
        rng = self.rng
        return "".join(f"{n:5d}  {'    ' * rng.randint(0, 3)}{self.words(rng.randint(2, 8))}\n"
                       for n in range(1, lines * self.scale + 1))

    def token(self, size: int) -> str:
        return "".join(self.rng.choice(ALNUM) for _ in range(size))


class Clock:
    """Wall clock that moves forward; entry timestamps in ISO form with ms, message timestamps in ms."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.now = START

    def tick(self, low: float, high: float) -> None:
        self.now += timedelta(seconds=self.rng.uniform(low, high))

    def iso(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"

    def ms(self) -> int:
        return int(self.now.timestamp() * 1000)

    def seconds(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------------------------
# Elyra (pi) v3


class ElyraSession:
    def __init__(self, seed: int, scale: int = 1) -> None:
        self.rng = random.Random(seed)
        self.text = Text(self.rng, scale)
        self.clock = Clock(self.rng)
        self.ids: set[str] = set()
        self.path: list[str] = []
        """The current root-to-leaf path: the leaf is where the next entry attaches."""
        self.turn_starts: list[int] = []
        """Indexes into `path` of the user messages on it: branch and compaction points."""
        self.model = MODELS[0]
        self.session_id = self._uuid()
        self.count = 0

    def _uuid(self) -> str:
        value = f"{self.rng.getrandbits(128):032x}"
        return f"{value[:8]}-{value[8:12]}-7{value[13:16]}-a{value[17:20]}-{value[20:]}"

    def _id(self) -> str:
        while True:
            value = f"{self.rng.getrandbits(32):08x}"
            if value not in self.ids:
                self.ids.add(value)
                return value

    def _entry(self, kind: str, fields: dict[str, object]) -> str:
        entry_id = self._id()
        self.clock.tick(0.01, 0.2)
        entry = {"type": kind, "id": entry_id, "parentId": self.path[-1] if self.path else None,
                 "timestamp": self.clock.iso(), **fields}
        self.path.append(entry_id)
        self.count += 1
        return _compact(entry)

    def _message(self, message: dict[str, object]) -> str:
        message["timestamp"] = self.clock.ms()
        return self._entry("message", {"message": message})

    def _usage(self) -> dict[str, object]:
        rng = self.rng
        tokens = {"input": rng.randint(500, 8000), "output": rng.randint(20, 2000), "cacheRead": rng.randint(0, 90000),
                  "cacheWrite": rng.randint(0, 4000)}
        cost = {key: round(value * rng.uniform(1e-7, 4e-6), 6) for key, value in tokens.items()}
        cost["total"] = round(sum(cost.values()), 6)
        return {**tokens, "totalTokens": sum(tokens.values()), "cost": cost}

    def _assistant(self, content: list[dict[str, object]], stop: str) -> str:
        provider, model, api = self.model
        return self._message({"role": "assistant", "content": content, "api": api, "provider": provider,
                              "model": model, "usage": self._usage(), "stopReason": stop})

    def _tool_output(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.0002:
            return self.text.output(rng.randint(1500, 4000))  # a whole log or a big file: 0.1-0.2 MB
        if roll < 0.012:
            return self.text.output(rng.randint(20, 80))
        return self.text.output(rng.randint(1, 3))

    def _call(self) -> dict[str, object]:
        rng = self.rng
        name = rng.choice(TOOLS)
        arguments: dict[str, object] = {"path": f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py"}
        if name == "bash":
            arguments = {"command": self.text.words(rng.randint(2, 6))}
        return {"type": "toolCall", "id": "toolu_" + self.text.token(24), "name": name, "arguments": arguments}

    def turn(self) -> Iterator[str]:
        """A user message, a few rounds of tool calls (sometimes two in parallel) each answered by its results,
        and a closing assistant message."""
        rng, text = self.rng, self.text
        self.clock.tick(5, 90)
        self.turn_starts.append(len(self.path))
        yield self._message({"role": "user", "content": text.prose(3, 30)})
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
            self.clock.tick(1, 20)
            calls = [self._call() for _ in range(2 if rng.random() < 0.3 else 1)]
            content: list[dict[str, object]] = []
            if rng.random() < 0.4:
                content.append({"type": "thinking", "thinking": text.prose(4, 24),
                                "thinkingSignature": text.token(32)})
            if rng.random() < 0.4:
                content.append({"type": "text", "text": text.prose(3, 15)})
            yield self._assistant(content + calls, "toolUse")
            for call in calls:
                self.clock.tick(0.05, 8)
                yield self._message({"role": "toolResult", "toolCallId": call["id"], "toolName": call["name"],
                                     "content": [{"type": "text", "text": self._tool_output()}],
                                     "isError": rng.random() < 0.05})
        self.clock.tick(1, 30)
        content = [{"type": "text", "text": text.prose(4, 36)}]
        if rng.random() < 0.4:
            content.insert(0, {"type": "thinking", "thinking": text.prose(4, 24), "thinkingSignature": text.token(32)})
        yield self._assistant(content, "stop")

    def branch(self) -> str:
        """Go back a few turns, as `/tree` does, and leave a summary of the abandoned branch."""
        back = self.rng.randint(2, min(6, len(self.turn_starts) - 1))
        point = self.turn_starts[-back] - 1  # the end of the turn before: an assistant message
        from_id = self.path[-1]
        del self.path[point + 1:]
        del self.turn_starts[-back:]
        return self._entry("branch_summary", {"fromId": from_id, "summary": self.text.prose(40, 200),
                                              "details": {"readFiles": ["src/main.py"], "modifiedFiles": []}})

    def label(self) -> str:
        target = self.path[self.rng.randrange(len(self.path))]
        return self._entry("label", {"targetId": target, "label": f"checkpoint-{self.count}"})

    def compaction(self) -> str:
        keep = self.turn_starts[-self.rng.randint(2, min(8, len(self.turn_starts)))]
        return self._entry("compaction", {"summary": self.text.prose(150, 600), "firstKeptEntryId": self.path[keep],
                                          "tokensBefore": self.rng.randint(120_000, 180_000),
                                          "details": {"readFiles": ["src/main.py", "src/cli.py"],
                                                      "modifiedFiles": ["src/cli.py"]}})

    def model_change(self) -> str:
        self.model = self.rng.choice([m for m in MODELS if m != self.model])
        return self._entry("model_change", {"provider": self.model[0], "modelId": self.model[1]})

    def lines(self, entries: int) -> Iterator[str]:
        yield _compact({"type": "session", "version": 3, "id": self.session_id, "timestamp": self.clock.iso(),
                        "cwd": "/home/dev/project"})
        yield self.model_change()
        yield self._entry("thinking_level_change", {"thinkingLevel": "medium"})
        yield self._entry("session_info", {"name": "Benchmark session"})
        rng = self.rng
        while self.count < entries:
            yield from self.turn()
            roll = rng.random()
            if len(self.turn_starts) > 8 and roll < 0.004:
                yield self.branch()
            elif len(self.turn_starts) > 8 and roll < 0.009:
                yield self.compaction()
            elif roll < 0.013:
                yield self.label()
            elif roll < 0.016:
                yield self.model_change()
            elif roll < 0.018:
                yield self._entry("thinking_level_change", {"thinkingLevel": rng.choice(THINKING_LEVELS)})

    def file_name(self) -> str:
        return START.strftime("%Y-%m-%dT%H-%M-%S-000Z") + f"_{self.session_id}.jsonl"


# ---------------------------------------------------------------------------------------------------------------
# thndrs


class ThndrsSession:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed + 1)
        self.text = Text(self.rng)
        self.clock = Clock(self.rng)
        self.seq = 0
        self.session_id = START.strftime("session-%Y%m%d-%H%M%S")

    def _record(self, kind: str, fields: dict[str, object]) -> str:
        record = {"type": kind, "schema_version": 1, "seq": self.seq, "time": self.clock.seconds(), **fields}
        self.seq += 1
        return _compact(record)

    def _hash(self) -> int:
        return self.rng.getrandbits(64)

    def turn(self, number: int) -> Iterator[str]:
        rng, text = self.rng, self.text
        turn_id = f"turn_{number}"
        self.clock.tick(5, 90)
        yield self._record("user", {"turn_id": turn_id, "text": text.prose(5, 60)})
        yield self._record("prompt_metadata", {"turn_id": turn_id, "metadata": {
            "model": "claude-sonnet-4-5", "provider": "anthropic", "search_mode": "off", "date": "2026-03-01",
            "cwd": "/home/dev/project", "context_sources": [], "tool_catalog_size": len(TOOLS),
            "tool_names": list(TOOLS), "skill_catalog_size": 0, "history_reuse": number > 1,
            "prev_context_hash": None, "transcript_tail_size": 2 * (number - 1), "has_user_turn": True}})
        self.clock.tick(1, 10)
        yield self._record("reasoning_finished", {"turn_id": turn_id, "text": text.prose(10, 80)})
        for call in range(1, rng.choice((1, 2, 2, 3, 4)) + 1):
            name = rng.choice(TOOLS)
            call_id = f"call_{call}"
            self.clock.tick(1, 15)
            yield self._record("tool_started", {"turn_id": turn_id, "call_id": call_id, "name": name,
                                                "arguments": _compact({"path": f"src/{rng.choice(WORDS)}.rs"})})
            if name in ("edit", "write"):
                created = name == "write" and rng.random() < 0.5
                yield self._record("file_write", {
                    "turn_id": turn_id, "op": "create" if created else "edit", "path": f"src/{rng.choice(WORDS)}.rs",
                    "before_hash": None if created else self._hash(),
                    "before_bytes": None if created else rng.randint(100, 20000),
                    "after_hash": self._hash(), "after_bytes": rng.randint(100, 20000), "status": "Ok"})
            if name == "bash":
                self.clock.tick(0.5, 20)
                yield self._record("shell_exec", {
                    "turn_id": turn_id, "command": text.words(rng.randint(2, 6)), "cwd": "/home/dev/project",
                    "process_status": "ok", "exit_code": 0, "elapsed_ms": rng.randint(10, 60000),
                    "kind": "one-shot"})
            output = text.output(rng.randint(1, 40)).splitlines()
            yield self._record("tool_finished", {"turn_id": turn_id, "call_id": call_id,
                                                 "status": "Failed" if rng.random() < 0.05 else "Ok",
                                                 "output": output})
        yield self._record("usage", {"input_tokens": rng.randint(500, 9000), "output_tokens": rng.randint(20, 2000)})
        self.clock.tick(1, 30)
        yield self._record("assistant_finished", {"turn_id": turn_id, "text": text.prose(20, 160)})

    def lines(self, records: int) -> Iterator[str]:
        yield self._record("session_meta", {
            "session_id": self.session_id, "cwd": "/home/dev/project", "title": "Benchmark session",
            "provider": "anthropic", "model": "claude-sonnet-4-5", "websearch": "off", "app_version": "0.1.0",
            "config": {"session_dir": "/home/dev/project/.thndrs/sessions"}})
        number = 0
        while self.seq < records:
            number += 1
            yield from self.turn(number)

    def file_name(self) -> str:
        return f"{self.session_id}.jsonl"


# ---------------------------------------------------------------------------------------------------------------


def write(path: Path, lines: Iterator[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for line in lines:
            handle.write(line + "\n")
    return path


def generate(out: Path = OUT, entries: int = ELYRA_ENTRIES, records: int = THNDRS_RECORDS,
             seed: int = SEED) -> tuple[Path, Path]:
    """Writes both files into `out` and returns their paths (Elyra, thndrs)."""
    elyra = ElyraSession(seed)
    thndrs = ThndrsSession(seed)
    return (write(out / elyra.file_name(), elyra.lines(entries)),
            write(out / thndrs.file_name(), thndrs.lines(records)))


FOLDER_FILES = 2_000
FOLDER_MEDIAN_BYTES = 30_000
FOLDER_SIGMA = 1.5
"""Log-normal sizes: half the files under 30 KB, one in six above 135 KB, one in forty above 600 KB."""
FOLDER_BOUNDS = (2_000, 8_000_000)
BYTES_PER_ENTRY = 506
"""The mean entry size of `ElyraSession` (50.6 MB for 100,000 entries): turns a target size into an entry count."""
PROJECTS = 40


def folder_path(files: int = FOLDER_FILES, seed: int = SEED, out: Path = OUT) -> Path:
    return out / f"folder-{files}-{seed}"


def folder_sizes(files: int, seed: int) -> list[int]:
    """The target size of each file, in bytes."""
    rng = random.Random(seed)
    low, high = FOLDER_BOUNDS
    return [min(high, max(low, round(rng.lognormvariate(math.log(FOLDER_MEDIAN_BYTES), FOLDER_SIGMA))))
            for _ in range(files)]


def generate_folder(files: int = FOLDER_FILES, seed: int = SEED, out: Path = OUT) -> Path:
    """Writes the sessions folder once; a stamp naming its parameters makes later calls reuse it."""
    root = folder_path(files, seed, out)
    stamp = root / ".complete"
    wanted = _compact({"files": files, "seed": seed, "median": FOLDER_MEDIAN_BYTES, "sigma": FOLDER_SIGMA})
    if stamp.exists() and stamp.read_text() == wanted:
        return root
    for number, size in enumerate(folder_sizes(files, seed)):
        session = ElyraSession(seed * 7919 + number)
        project = root / "sessions" / f"--home-dev-project{number % PROJECTS}--"
        write(project / session.file_name(), session.lines(max(4, size // BYTES_PER_ENTRY)))
    stamp.write_text(wanted)
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description="Write large deterministic Elyra and thndrs session files.")
    parser.add_argument("--entries", type=int, default=ELYRA_ENTRIES, help="Elyra entries (default 100000)")
    parser.add_argument("--records", type=int, default=THNDRS_RECORDS, help="thndrs records (default 100000)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--folder", action="store_true", help="write the folder of many sessions instead")
    parser.add_argument("--files", type=int, default=FOLDER_FILES, help="files in the folder (default 2000)")
    args = parser.parse_args()
    if args.folder:
        root = generate_folder(args.files, args.seed, args.out)
        sizes = [path.stat().st_size for path in root.rglob("*.jsonl")]
        print(f"{root}: {len(sizes)} files, {sum(sizes) / 1e6:.1f} MB, largest {max(sizes) / 1e6:.1f} MB")
        return
    for path in generate(args.out, args.entries, args.records, args.seed):
        print(f"{path}: {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
