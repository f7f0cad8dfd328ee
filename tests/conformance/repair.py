"""The repair proof: every conformance mutant, fixed by `session-lsp fix --unsafe-fixes` (the function the command
runs, `session_lsp.fixer.repair`), then opened by the real pi release it is judged for.

A mutant is repaired when pi opens the fixed file without refusing it, throwing, hanging or dropping a line, and
`check` reports no error in it. Its content is lost when a message pi sent for the damaged file is not in what it
sends for the fixed one; a message is compared by role and content (a relinked tool result keeps its content under
a new toolCallId), and what pi sent but could not have delivered is not content: the synthetic "No result provided"
results and a tool result without its call (providers reject the request). The table:
`python -m tests.conformance.repair` (after `bash tests/conformance/install.sh`).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from session_lsp.analysis import Options, Severity
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.rule_filter import RuleFilter
from session_lsp.fixer import repair

from . import mutants, suite

COMMAND = "session-lsp fix --unsafe-fixes --pi-version RELEASE FILE"


class Repaired(msgspec.Struct):
    name: str
    kind: str
    release: str
    failed: list[str]
    """Why the fixed file is not repaired: "refused", "threw", "hang", "dropped-line", "error" (empty: repaired)."""
    errors: list[str]
    """The codes of the errors `check` still reports in the fixed file."""
    lost: list[str]
    """The messages pi sent for the damaged file that the fixed file no longer holds (role: first characters)."""
    off_path: list[str]
    """The messages pi sent for the damaged file that the fixed file holds on a branch pi does not resume."""
    fixes: int


def _delivered(sent_json: str | None) -> list[dict[str, Any]]:
    """The messages of a request that carry content: no synthetic result, no result without its call, no message
    without content (a context_edit whose replacement pi cannot read leaves its target so; providers reject it)."""
    if not sent_json:
        return []
    calls: set[str] = set()
    out: list[dict[str, Any]] = []
    for message in json.loads(sent_json):
        content = message.get("content")
        if not isinstance(content, str | list):
            continue
        if message.get("role") == "assistant" and isinstance(content, list):
            calls.update(str(block["id"]) for block in content if isinstance(block, dict)
                         and block.get("type") == "toolCall" and isinstance(block.get("id"), str))
        if message.get("role") == "toolResult":
            synthetic = message.get("timestamp") == 0 and message.get("isError") and isinstance(content, list) \
                and content[:1] and isinstance(content[0], dict) and content[0].get("text") == "No result provided"
            if synthetic or message.get("toolCallId") not in calls:
                continue
        out.append(message)
    return out


def _key(message: dict[str, Any]) -> str:
    return json.dumps([message.get("role"), message.get("content")], sort_keys=True)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for key, item in value.items() if key not in ("type", "id") for text in _strings(item)]
    return []


def _held(message: dict[str, Any], text: str) -> bool:
    """Whether the file still holds the message's content (every string of it, as JSON writes it): a message
    entry, or the summary of a compaction or branch summary, a custom message, wherever it sits in the tree."""
    return all(json.dumps(piece, ensure_ascii=False)[1:-1] in text for piece in _strings(message.get("content")))


def _blocks(content: Any) -> list[Any]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])


def _within(message: dict[str, Any], sent: list[dict[str, Any]], left: Counter[str]) -> str | None:
    """The key of a message still to be matched in `sent`, of the same role, whose content holds every block of
    `message`'s in order (an edited assistant message that got its tool calls back sends its text and more)."""
    wanted = [json.dumps(block, sort_keys=True) for block in _blocks(message.get("content"))]
    for other in sent:
        key = _key(other)
        if not left[key] or other.get("role") != message.get("role"):
            continue
        have = iter(json.dumps(block, sort_keys=True) for block in _blocks(other.get("content")))
        if all(block in have for block in wanted):
            return key
    return None


def lost(damaged: dict[str, Any], fixed: dict[str, Any], fixed_data: bytes) -> tuple[list[str], list[str]]:
    """Messages of the damaged file's request missing from the fixed file's (as a multiset; a message sent within
    a larger one counts as sent): those the fixed file no longer holds at all (lost), and those it holds on a
    branch pi does not resume (off the path: pi 0.73 and 1.6 read a tree file with version 0 or 1 as v1 and chain
    every entry into one line, abandoned branches included, which the fix to version 3 undoes)."""
    sent = _delivered(fixed.get("sent_json"))
    left = Counter(_key(message) for message in sent)
    text = fixed_data.decode("utf-8", "replace")
    gone: list[str] = []
    off_path: list[str] = []
    for message in _delivered(damaged.get("sent_json")):
        key = _key(message)
        shown = f"{message.get('role')}: {json.dumps(message.get('content'))[:60]}"
        if left[key]:
            left[key] -= 1
        elif (wider := _within(message, sent, left)) is not None:
            left[wider] -= 1
        elif _held(message, text):
            off_path.append(shown)
        else:
            gone.append(shown)
    return gone, off_path


def judge(mutant: mutants.Mutant, release: str, fixed_data: bytes, fixes: int, damaged: dict[str, Any],
          fixed: dict[str, Any]) -> Repaired:
    failed: list[str] = []
    if fixed.get("hang"):
        failed.append("hang")
    if fixed["outcome"] in ("refused", "threw"):
        failed.append(fixed["outcome"])
    if fixed.get("context_error"):
        failed.append("threw")
    kept = set(fixed.get("kept_lines") or [])
    lines = fixed_data.split(b"\n")
    if fixed["outcome"] == "loaded" and any(line.strip() and i not in kept for i, line in enumerate(lines)):
        failed.append("dropped-line")
    document = analyze_bytes(fixed_data, Options(path=mutant.name, pi_version=release))
    errors = sorted({d.code for d in document.diagnostics() if d.severity is Severity.ERROR})
    if errors:
        failed.append("error")
    gone, off_path = lost(damaged, fixed, fixed_data)
    return Repaired(mutant.name, mutant.kind, release, failed, errors, gone, off_path, fixes)


def run(release: str, count: int = mutants.MUTANTS_PER_RELEASE) -> list[Repaired]:
    """Every mutant `mutants.generate` yields, damaged and fixed, through the real release (one oracle run)."""
    made = mutants.generate(count)
    everything = RuleFilter([], [])
    outcomes = [repair(m.name, m.data, everything, release, unsafe=True) for m in made]
    fixed_data = [o.new if o.new is not None else m.data for m, o in zip(made, outcomes, strict=True)]
    with tempfile.TemporaryDirectory(prefix="repair-") as folder:
        files: list[Path] = []
        for side, datas in (("damaged", [m.data for m in made]), ("fixed", fixed_data)):
            (Path(folder) / side).mkdir()
            for mutant, data in zip(made, datas, strict=True):
                target = Path(folder) / side / mutant.name
                target.write_bytes(data)
                files.append(target)
        reports = suite.run_oracle(release, files)
    damaged, fixed = reports[:len(made)], reports[len(made):]
    return [judge(m, release, data, len(o.applied), d, f)
            for m, data, o, d, f in zip(made, fixed_data, outcomes, damaged, fixed, strict=True)]


def table(results: Sequence[Repaired]) -> str:
    """Per release: mutants, repaired, still erroring, lost content; then the kinds where anything is left."""
    rows = ["| pi | mutants | fixes applied | repaired | still erroring | refused, hung or dropped a line | "
            "lost content | sent before, now on a branch pi does not resume |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for release in sorted({r.release for r in results}):
        mine = [r for r in results if r.release == release]
        rows.append(f"| {release} | {len(mine)} | {sum(r.fixes for r in mine)} | "
                    f"{sum(1 for r in mine if not r.failed)} | {sum(1 for r in mine if r.errors)} | "
                    f"{sum(1 for r in mine if set(r.failed) - {'error'})} | {sum(len(r.lost) for r in mine)} | "
                    f"{sum(len(r.off_path) for r in mine)} |")
    left: dict[tuple[str, str], list[Repaired]] = defaultdict(list)
    for r in results:
        if r.failed or r.lost or r.off_path:
            left[r.release, r.kind].append(r)
    for (release, kind), group in sorted(left.items()):
        reasons = Counter(reason for r in group for reason in r.failed)
        codes = Counter(code for r in group for code in r.errors)
        rows.append(f"\npi {release} {kind}: {sum(1 for r in group if r.failed)} not repaired {dict(reasons)}, "
                    f"errors left {dict(codes)}, messages lost {sum(len(r.lost) for r in group)}, now on a branch "
                    f"pi does not resume {sum(len(r.off_path) for r in group)}")
    return "\n".join(rows)


def main() -> int:
    problem = suite.install_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    results: list[Repaired] = []
    for release in suite.RUNTIMES:
        results += run(release)
    print(f"`{COMMAND}` on every conformance mutant, then the real pi:\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
