"""Seed sessions the real Claude Code writes inside the suite (issue 21, "Driving richer sessions"): tools with
parallel and failing calls, a resume, a fork, /compact, a background subagent, an API error, a killed run. Each
is one or more CLI runs against scripted answers of the fake API; a later run starts from the files an earlier one
wrote. The oracle caches every run on its inputs, so the seeds are written once per CLI version and their bytes
stay stable (the suite resumes them like the corpus files)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from . import claude_oracle as oracle
from .claude_oracle import PROJECTS, Case, Result

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


def count_words(notes):
    return sum(len(n.split(" ")) for n in notes)


if __name__ == "__main__":
    print(count_words(load()))
'''
PROJECT_FILES = {"project/notes.py": NOTES_PY.encode(),
                 "project/README.md": b"# notes\n\nA tiny command-line note keeper.\n"}
TOOLS = ["--allowedTools", "Bash", "Read", "Write", "Edit", "Agent"]
PRINT = ["--output-format", "json"]

GREET_PY = "import sys\nprint(f'Hello, {sys.argv[1]}!')\n"
GREET = ("Create greet.py that prints a greeting", [
    [["think", "Write the script first."], ["text", "I'll create `greet.py`."],
     ["tool", "Write", {"file_path": P + "/greet.py", "content": GREET_PY}]],
    [["think", "Run it and list the files: independent, so in parallel."],
     ["tool", "Bash", {"command": "python3 greet.py Ada", "description": "Run greet.py"}],
     ["tool", "Bash", {"command": "ls", "description": "List files"}]],
    [["tool", "Bash", {"command": "ls tests", "description": "Look for tests"}]],
    [["text", "Created `greet.py`; `python3 greet.py Ada` prints `Hello, Ada!`. There is no tests/ directory."]],
])
FRIENDLIER = ("Make the greeting friendlier", [
    [["tool", "Edit", {"file_path": P + "/greet.py", "old_string": "Hello, {sys.argv[1]}!",
                       "new_string": "Hello, {sys.argv[1]}! Nice to meet you."}]],
    [["tool", "Read", {"file_path": P + "/greet.py"}]],
    [["text", "Done: it now says `Hello, Ada! Nice to meet you.`"]],
])
FORK = ("Put the greeting in a function instead", [
    [["think", "A fork of the session: rewrite greet.py with a function."],
     ["tool", "Write", {"file_path": P + "/greet.py",
                        "content": "import sys\n\n\ndef greet(name):\n    return f'Hello, {name}!'\n\n\n"
                                   "print(greet(sys.argv[1]))\n"}]],
    [["text", "`greet.py` now has a `greet(name)` function."]],
])
AFTER_COMPACT = ("Which file has the word counter", [
    [["tool", "Bash", {"command": "grep -n 'def count_words' *.py", "description": "Find count_words"}]],
    [["text", "`count_words` is in `notes.py`."]],
])
REVIEW = ("Review the notes.py file for bugs", [
    [["tool", "Read", {"file_path": P + "/notes.py"}]],
    [["text", "Findings: `count_words` splits on a single space, so repeated spaces count empty words."]],
])
SUBAGENT = ("Use a subagent to review notes.py", [
    [["tool", "Agent", {"description": "Review notes.py", "subagent_type": "general-purpose",
                        "prompt": "Review the notes.py file for bugs and report them with line numbers."}]],
    [["text", "A review agent is running in the background; I'll report when it is done."]],
])
NOTIFIED = ("<task-notification>", [[["text", "The review found one bug: `count_words` counts empty words."]]])
API_ERROR = ("Add a search command", [
    [["tool", "Bash", {"command": "grep -n 'def ' notes.py", "description": "List functions"}]],
    [["error", 529, "overloaded_error", "Overloaded"]],
])
KILLED = ("Add a delete command", [
    [["tool", "Read", {"file_path": P + "/notes.py"}]],
    [["think", "I'll add a delete branch."], ["hang", 60]],
])


def _write(name: str, prompt: str, script: list[tuple[str, list[Any]]],
           files: dict[str, bytes] | None = None, extra: list[str] | None = None,
           env: dict[str, str] | None = None, timeout: int = 40) -> Case:
    return Case(name, {**PROJECT_FILES, **(files or {})}, ["-p", prompt, *(extra or []), *TOOLS, *PRINT],
                script=[list(item) for item in script], env=env or {}, timeout=timeout)


def _session(result: Result, before: dict[str, bytes] | None = None) -> tuple[str, dict[str, bytes]]:
    """The session a run wrote (the main .jsonl that is new or grew) and every session file after it."""
    before = before or {}
    changed = [path for path, data in result.files.items() if "/" not in path and data != before.get(path)]
    if len(changed) != 1:
        raise RuntimeError(f"seed run {result.name} wrote {changed or 'no session'} (exit {result.exit}): "
                           f"{result.stdout[-500:]} {result.stderr[-500:]}")
    return changed[0][:-len(".jsonl")], result.files


def _at_home(files: dict[str, bytes]) -> dict[str, bytes]:
    """A later run's files: the sessions an earlier run wrote, and greet.py as the first run left it (only the
    session files are carried over from a run; the project is rebuilt)."""
    return {"project/greet.py": GREET_PY.encode(), **{f"{PROJECTS}/{path}": data for path, data in files.items()}}


class Seed(msgspec.Struct, frozen=True):
    kind: str
    """What the real CLI was driven to do."""
    session_id: str
    files: dict[str, bytes]
    """The session file `<id>.jsonl` and its companions, relative to the project's session folder."""


def write(run: Callable[[list[Case]], list[Result]] = oracle.run) -> list[Seed]:
    """Drives the real CLI through every seed kind; independent runs go out together (two CLIs at a time)."""
    scripts = [GREET, FRIENDLIER, FORK, AFTER_COMPACT]
    first = run([
        _write("seed-tools", "Create greet.py that prints a greeting for the name given, run it with Ada, and "
               "list the project.", [GREET]),
        _write("seed-subagent", "Use a subagent to review notes.py for bugs, then summarize what it found.",
               [SUBAGENT, REVIEW, NOTIFIED], timeout=60),
        _write("seed-api-error", "Add a search command to notes.py.", [API_ERROR],
               env={"CLAUDE_CODE_MAX_RETRIES": "0"}),
        _write("seed-killed", "Add a delete command to notes.py.", [KILLED], timeout=12),
    ])
    tools_id, tools_files = _session(first[0])
    seeds = [Seed("tools", tools_id, tools_files)]
    for kind, result in zip(("subagent", "api-error", "killed"), first[1:], strict=True):
        session_id, files = _session(result)
        seeds.append(Seed(kind, session_id, files))
    resumed = run([_write("seed-resume", "Make the greeting friendlier and show the file.", scripts,
                          _at_home(tools_files), ["--resume", tools_id])])[0]
    resume_id, resume_files = _session(resumed, tools_files)
    seeds.append(Seed("resume", resume_id, {f"{resume_id}.jsonl": resume_files[f"{resume_id}.jsonl"]}))
    forked, compacted = run([
        _write("seed-fork", "Put the greeting in a function instead.", scripts, _at_home(resume_files),
               ["--resume", resume_id, "--fork-session"]),
        _write("seed-compact", "/compact", scripts, _at_home(resume_files), ["--resume", resume_id]),
    ])
    fork_id, fork_files = _session(forked, resume_files)
    seeds.append(Seed("fork", fork_id, {f"{fork_id}.jsonl": fork_files[f"{fork_id}.jsonl"]}))
    compact_id, compact_files = _session(compacted, resume_files)
    after = run([_write("seed-after-compact", "Which file has the word counter?", scripts,
                        _at_home(compact_files), ["--resume", compact_id])])[0]
    after_id, after_files = _session(after, compact_files)
    seeds.append(Seed("compact", after_id, {f"{after_id}.jsonl": after_files[f"{after_id}.jsonl"]}))
    return seeds
