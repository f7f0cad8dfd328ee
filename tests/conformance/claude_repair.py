"""The repair proof for Claude Code (issue 22, as repair.py does it for pi): every Claude Code mutant, fixed by
`session-lsp fix --unsafe-fixes` (the function the command runs, `session_lsp.fixer.repair`), then resumed by the
real Claude Code 2.1.332 (`claude -p PROMPT --resume ID`, the conformance oracle, cached).

A mutant is repaired when Claude Code resumes the fixed file (it does not stop with "No conversation found") and
`check` reports no error in it. Its content is lost when a message Claude Code sent for the damaged file is not in
what it sends for the fixed one (role and content compared, block by block: the message may come back grown, or
with the same blocks reordered; the placeholders Claude Code puts in place of what it could not take from the file
are not content) and the fixed file no longer holds its text anywhere; a message whose text the fixed file still
holds, off the resumed chain, is counted apart. The table:
`python -m tests.conformance.claude_repair` (Claude Code's answers from the committed record or the local cache; a
case in neither runs the CLI, as root, after `bash tests/conformance/install.sh`).
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from session_lsp.analysis import Options, Severity
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.rule_filter import RuleFilter
from session_lsp.fixer import Outcome, repair

from . import claude_mutants, claude_oracle, claude_suite
from .claude_oracle import Case
from .mutants import ROOT, Mutant
from .repair import Repaired, _strings

COMMAND = "session-lsp fix --unsafe-fixes FILE"


def _content(message: dict[str, Any]) -> bool:
    """Whether a message Claude Code sent carries the file's content (not one of its placeholders, nor the empty
    system message it sends when the first turn has none)."""
    text = json.dumps(message.get("content"))
    return bool(message.get("content")) and not any(json.dumps(placeholder)[1:-1] in text
                                                    for placeholder in claude_suite.PLACEHOLDERS)


def _blocks(message: dict[str, Any]) -> list[str]:
    """A message's content as blocks to compare: a string is one text block (a system message's, the texts Claude
    Code joined with blank lines, one block each), and a text loses the "\n" Claude Code ends every text block but
    the last of a user message with (which block is last changes when the fix gives a message back)."""
    content = message.get("content")
    if isinstance(content, str):
        pieces = content.split("\n\n") if message.get("role") == "system" else [content]
        items: Any = [{"type": "text", "text": piece} for piece in pieces]
    else:
        items = content
    if not isinstance(items, list):
        return []
    return [json.dumps({**item, "text": item["text"].removesuffix("\n")} if isinstance(item, dict)
                       and item.get("type") == "text" and isinstance(item.get("text"), str) else item, sort_keys=True)
            for item in items]


def _key(message: dict[str, Any]) -> str:
    return json.dumps([message.get("role"), _blocks(message)])


def lost(damaged: list[dict[str, Any]] | None, fixed: list[dict[str, Any]] | None,
         fixed_data: bytes) -> tuple[list[str], list[str]]:
    """Messages of the damaged file's request missing from the fixed file's (as a multiset): those the fixed file
    no longer holds at all, and those it holds off the chain Claude Code resumes."""
    left = Counter(_key(message) for message in fixed or [])
    text = fixed_data.decode("utf-8", "replace")
    gone: list[str] = []
    off_path: list[str] = []
    for message in damaged or []:
        if not _content(message):
            continue
        key = _key(message)
        shown = f"{message.get('role')}: {json.dumps(message.get('content'))[:60]}"
        if left[key]:
            left[key] -= 1
        elif any(_within(message, other) for other in fixed or []):
            continue  # the fix gave the message back more of the file (a glued line's records split)
        elif any(_reordered(message, other) for other in fixed or []):
            continue  # the same blocks, thinking first (a response whose thinking a broken link had put later)
        elif _held(message, text):
            off_path.append(shown)
        else:
            gone.append(shown)
    return gone, off_path


def _within(message: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether `other` is the same message grown: the same role, every block of `message` in it, in order."""
    if message.get("role") != other.get("role"):
        return False
    mine, theirs = _blocks(message), iter(_blocks(other))
    return bool(mine) and all(block in theirs for block in mine)


def _reordered(message: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether `other` holds every block of `message` (and maybe more), in another order."""
    mine, theirs = Counter(_blocks(message)), Counter(_blocks(other))
    return message.get("role") == other.get("role") and bool(mine) and not mine - theirs


def _held(message: dict[str, Any], text: str) -> bool:
    """Whether the file still holds every string of the message (Claude Code ends each text block but the last of a
    merged user message with a "\n" the file does not hold)."""
    return all(json.dumps(piece.removesuffix("\n"), ensure_ascii=False)[1:-1] in text
               for piece in _strings(message.get("content")))


def cases(count: int = claude_mutants.MUTANTS) -> tuple[list[Mutant], list[Outcome], list[bytes], list[Case]]:
    """Every mutant, its repair, its fixed bytes, and the cases resuming the damaged files, then the fixed ones."""
    made = claude_mutants.generate(count)
    everything = RuleFilter([], [])
    names = [(ROOT / m.seed).name for m in made]
    outcomes = [repair(name, m.data, everything, "", unsafe=True) for m, name in zip(made, names, strict=True)]
    fixed_data = [o.new if o.new is not None else m.data for m, o in zip(made, outcomes, strict=True)]
    resumed = []
    for data_list in ([m.data for m in made], fixed_data):
        for mutant, data in zip(made, data_list, strict=True):
            path = ROOT / mutant.seed
            resumed.append(claude_oracle.resume_case(mutant.name, path.stem,
                                                     {path.name: data, **claude_mutants.companions(path)}))
    return made, outcomes, fixed_data, resumed


def run(count: int = claude_mutants.MUTANTS) -> list[Repaired]:
    """Every Claude Code mutant, damaged and fixed, resumed by the real CLI (one oracle run, cached)."""
    made, outcomes, fixed_data, resumed = cases(count)
    names = [(ROOT / m.seed).name for m in made]
    results = claude_oracle.run(resumed)
    damaged, fixed = results[:len(made)], results[len(made):]
    out: list[Repaired] = []
    for mutant, name, data, outcome, before, after in zip(made, names, fixed_data, outcomes, damaged, fixed,
                                                            strict=True):
        session = (ROOT / mutant.seed).stem
        sent_before = claude_suite.sent(before, session, mutant.data)
        sent_after = claude_suite.sent(after, session, data)
        failed = ["refused"] if sent_after is None and sent_before is not None else []
        document = analyze_bytes(data, Options(path=name))
        errors = sorted({d.code for d in document.diagnostics() if d.severity is Severity.ERROR})
        if errors:
            failed.append("error")
        gone, off_path = lost(sent_before, sent_after, data)
        out.append(Repaired(mutant.name, mutant.kind, claude_oracle.VERSION, failed, errors, gone, off_path,
                            len(outcome.applied)))
    return out


def fixed_contexts(count: int = claude_mutants.MUTANTS) -> list[tuple[str, Any, Any]]:
    """(mutant, what session-lsp's `context` predicts, what Claude Code sent) for every fixed file it resumed."""
    made, _, fixed_data, resumed = cases(count)
    results = claude_oracle.run(resumed)[len(made):]
    out: list[tuple[str, Any, Any]] = []
    for mutant, data, result in zip(made, fixed_data, results, strict=True):
        session = (ROOT / mutant.seed).stem
        real = claude_suite.sent(result, session, data)
        if real is not None:
            predicted = claude_suite.predict(data, session, claude_suite.resumed_at(result, session, data))
            out.append((mutant.name, predicted.messages, real))
    return out


def table(results: Sequence[Repaired]) -> str:
    """Mutants, fixes, repaired, still erroring, refused, lost content; then the kinds where anything is left."""
    rows = ["| Claude Code | mutants | fixes applied | repaired | still erroring | refused after the fix | "
            "lost content | sent before, now off the resumed chain |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
            f"| {claude_oracle.VERSION} | {len(results)} | {sum(r.fixes for r in results)} | "
            f"{sum(1 for r in results if not r.failed)} | {sum(1 for r in results if r.errors)} | "
            f"{sum(1 for r in results if 'refused' in r.failed)} | {sum(len(r.lost) for r in results)} | "
            f"{sum(len(r.off_path) for r in results)} |"]
    left: dict[str, list[Repaired]] = defaultdict(list)
    for r in results:
        if r.failed or r.lost or r.off_path:
            left[r.kind].append(r)
    for kind, group in sorted(left.items()):
        codes = Counter(code for r in group for code in r.errors)
        rows.append(f"\n{kind}: {sum(1 for r in group if r.failed)} not repaired, errors left {dict(codes)}, "
                    f"messages lost {sum(len(r.lost) for r in group)} "
                    f"({', '.join(r.name for r in group if r.lost) or '-'}), now off the resumed chain "
                    f"{sum(len(r.off_path) for r in group)}")
    return "\n".join(rows)


def main() -> int:
    try:
        results = run()
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"`{COMMAND}` on every Claude Code conformance mutant, then the real Claude Code:\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
