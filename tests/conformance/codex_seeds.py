"""Seed rollouts the real Codex writes inside the suite (issue 23, "Conformance suite"): one turn with several tools
(parallel calls, a failing command, apply_patch), a rollout resumed twice (three turns), a compaction (a small
`model_auto_compact_token_limit`: Codex compacts before the turn and again in its middle), and a turn killed
mid-stream. Each is one or more CLI runs against scripted answers of the fake API; a later run starts from the
rollout an earlier one wrote. The oracle records every run on its inputs, so the seeds are written once per CLI
version and their bytes stay stable (the suite resumes them like the corpus files)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from . import codex_oracle as oracle
from .codex_oracle import EXEC, SESSIONS, Case, Result

P = oracle.PROJECT
NOTES_PY = '''"""notes: a tiny command-line note keeper."""
import json
import sys
from pathlib import Path

NOTES = Path("notes.json")


def load():
    if not NOTES.exists():
        return []
    return json.loads(NOTES.read_text())


def save(notes):
    NOTES.write_text(json.dumps(notes, indent=2))


def count_words(notes):
    return sum(len(n.split(" ")) for n in notes)


def main(argv):
    notes = load()
    if argv[:1] == ["add"]:
        notes.append(" ".join(argv[1:]))
        save(notes)
    elif argv[:1] == ["list"]:
        for number, note in enumerate(notes, 1):
            print(number, note)
    elif argv[:1] == ["stats"]:
        print(len(notes), "notes,", count_words(notes), "words")


if __name__ == "__main__":
    main(sys.argv[1:])
'''
TEST_NOTES_PY = '''import unittest

from notes import count_words


class CountWords(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(count_words(["a b", "c"]), 3)

    def test_extra_spaces(self):
        self.assertEqual(count_words(["a  b"]), 2)


if __name__ == "__main__":
    unittest.main()
'''
PROJECT_FILES = {"project/notes.py": NOTES_PY.encode(), "project/test_notes.py": TEST_NOTES_PY.encode(),
                 "project/README.md": b"# notes\n\nA tiny command-line note keeper.\n\n"
                                      b"Notes are stored in `notes.json` in the current directory.\n"}
GREET_PY = ('import sys\n\n\ndef main():\n    name = sys.argv[1] if len(sys.argv) > 1 else "world"\n'
            '    print(f"Hello, {name}!")\n\n\nif __name__ == "__main__":\n    main()\n')


def _patch(text: str) -> str:
    return f"*** Begin Patch\n{text}*** End Patch"


def _sh(command: str) -> list[Any]:
    return ["tool", "exec_command", {"cmd": command, "workdir": P}]


TOOLS = ("Write greet.py, a Python script", [
    [["think", "**Creating greet.py**\n\nAdd it with apply_patch, then run it."],
     ["text", "I'll add `greet.py`, then run it and list the files."],
     ["patch", _patch("*** Add File: greet.py\n" + "".join(f"+{line}\n" for line in GREET_PY.splitlines()))]],
    [["think", "**Running the script and listing files**\n\nIndependent: run them in parallel."],
     _sh("python3 greet.py Ada"), _sh("ls -la")],
    [["think", "**Checking for a tests directory**"], _sh("ls tests")],
    [["patch", _patch('*** Update File: greet.py\n@@ def main():\n-    print(f"Hello, {name}!")\n'
                      '+    print(f"Hello, {name}! Nice to meet you.")\n')]],
    [["text", "Added `greet.py`; `python3 greet.py Ada` prints `Hello, Ada! Nice to meet you.` There is no "
              "`tests/` directory."]],
])
OVERVIEW = ("Give me a quick overview of this repository", [
    [["think", "**Reading the repository**"], _sh("cat README.md"), _sh("sed -n '1,80p' notes.py")],
    [["text", "This repo is **notes**, a tiny note keeper with `add`, `list` and `stats` commands."]],
])
FIX = ("Run the unit tests and fix whatever fails", [
    [["think", "**Running tests**"], _sh("python3 -m unittest -v test_notes")],
    [["think", "**Fixing count_words**\n\n`split(\" \")` counts empty strings; use `split()`."],
     ["patch", _patch('*** Update File: notes.py\n@@ def count_words(notes):\n'
                      '-    return sum(len(n.split(" ")) for n in notes)\n'
                      '+    return sum(len(n.split()) for n in notes)\n')]],
    [_sh("python3 -m unittest -v test_notes")],
    [["text", "`test_extra_spaces` failed; `count_words` now uses `str.split()` and both tests pass."]],
])
DOCUMENT = ("Document the command-line usage in README.md", [
    [["think", "**Updating README**"],
     ["patch", _patch("*** Update File: README.md\n@@\n Notes are stored in `notes.json` in the current directory.\n"
                      "+\n+## Usage\n+\n+    python3 notes.py add TEXT\n+    python3 notes.py list\n")]],
    [["text", "Added a **Usage** section to `README.md`."]],
])
COUNT = ("Count the lines in every Python file here", [
    [_sh("wc -l *.py")],
    [["text", "`notes.py`: 36 lines, `test_notes.py`: 15 lines."]],
])
WHICH = ("Which function counts words", [
    [["think", "**Locating the word counter**"], _sh("grep -n 'def count_words' *.py")],
    [["text", "`count_words` in `notes.py`."]],
])
DELETE = ("Add a delete subcommand to notes.py", [
    [["think", "**Inspecting main()**"], _sh("sed -n '20,40p' notes.py")],
    [["think", "**Planning the delete branch**\n\nAdd `delete N` to main()."], ["hang", 60]],
])
SCRIPTS = [TOOLS, OVERVIEW, FIX, DOCUMENT, COUNT, WHICH, DELETE]


def _case(name: str, prompt: str, rollouts: dict[str, bytes] | None = None, resume: str | None = None,
          extra: list[str] | None = None, timeout: int = 40) -> Case:
    files = {**PROJECT_FILES, **{f"{SESSIONS}/{path}": data for path, data in (rollouts or {}).items()}}
    args = [*EXEC, *(extra or []), *(["resume", resume] if resume else []), prompt]
    return Case(name, files, args, script=[list(item) for item in SCRIPTS], timeout=timeout)


def _rollout(result: Result, before: dict[str, bytes] | None = None) -> tuple[str, bytes]:
    """The rollout a run wrote or appended to (relative to SESSIONS) and its bytes."""
    before = before or {}
    changed = [path for path, data in result.files.items() if data != before.get(path)]
    if len(changed) != 1:
        raise RuntimeError(f"seed run {result.name} wrote {changed or 'no rollout'} (exit {result.exit}): "
                           f"{result.stdout[-500:]} {result.stderr[-500:]}")
    return changed[0], result.files[changed[0]]


class Seed(msgspec.Struct, frozen=True):
    kind: str
    """What the real CLI was driven to do."""
    rollout: str
    """Its path relative to SESSIONS (`YYYY/MM/DD/rollout-<time>-<id>.jsonl`)."""
    data: bytes


def write(run: Callable[[list[Case]], list[Result]] = oracle.run) -> list[Seed]:
    """Drives the real CLI through every seed kind; independent runs go out together (two CLIs at a time)."""
    tools, overview, count, killed = run([
        _case("seed-tools", "Write greet.py, a Python script that greets the name given on the command line; run it "
              "with the name Ada and list the project files."),
        _case("seed-overview", "Give me a quick overview of this repository."),
        _case("seed-count", "Count the lines in every Python file here."),
        _case("seed-killed", "Add a delete subcommand to notes.py.", timeout=8),
    ])
    seeds = [Seed(kind, *_rollout(result)) for kind, result in (("tools", tools), ("killed", killed))]
    path, data = _rollout(overview)
    fixed = run([_case("seed-fix", "Run the unit tests and fix whatever fails.", {path: data},
                       oracle.thread_id(path))])[0]
    path, data = _rollout(fixed, {path: data})
    documented = run([_case("seed-document", "Document the command-line usage in README.md.", {path: data},
                            oracle.thread_id(path))])[0]
    seeds.append(Seed("resume", *_rollout(documented, {path: data})))
    path, data = _rollout(count)
    compacted = run([_case("seed-compact", "Which function counts words?", {path: data}, oracle.thread_id(path),
                           ["-c", "model_auto_compact_token_limit=5000"])])[0]
    seeds.append(Seed("compact", *_rollout(compacted, {path: data})))
    return seeds
