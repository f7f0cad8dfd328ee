"""Judges session-lsp against the real Codex CLI 0.171.0: for every corpus rollout, every seed the suite has the CLI
write (codex_seeds.py) and every seeded mutant (codex_mutants.py), what Codex sends when it resumes the rollout
(`codex exec --skip-git-repo-check resume ID PROMPT`), or the error it stops with, against session-lsp's `context`
and `check`.

The request holds more than the file: `sent` strips exactly what does not come from it (its first item, the
developer message with the instructions Codex renders from its model metadata, and the items of the new turn at the
end, which the resume appends to the file); the rest must equal the `item` of each message session-lsp predicts.
Checks, each applied when Codex's behaviour calls for it:
- refused: Codex sent nothing and exited with an error -> `refused` says so and `check` has an error.
- resumed: Codex sent a request -> `refused` is null.
- context: the items session-lsp predicts are those Codex sends, byte for byte as JSON values.
- dropped-line: an item the clean seed's request has (by id) is missing from the mutant's, and the line that held it
  (found by the item's id) is damaged (no line of the clean seed has its bytes) -> an error on that line.
- lost: Codex sends fewer items than for the clean seed, or a synthetic "aborted" output -> `check` has an error.
  Not applied when the mutant holds a `thread_rolled_back` event the seed does not: pruning what the user rolled
  back is no loss (the context check holds session-lsp to the pruning).
- clean: Codex sends exactly what it sends for the clean seed -> `check` has no error.
- quiet: a rollout the real CLI wrote (corpus, seeds) -> no error or warning at all.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from session_lsp.analysis import Options, Severity
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.features import payloads

from . import codex_mutants, codex_oracle, codex_seeds
from .codex_oracle import Case, Result
from .mutants import ROOT, Mutant
from .suite import Verdict

RELEASE = codex_oracle.VERSION
CHECKS = ("refused", "resumed", "context", "dropped-line", "lost", "clean", "quiet")
ABORTED = "aborted"
"""The output Codex puts in for a call whose output is not in the rollout."""
ROLLBACK = b'"thread_rolled_back"'
install_problem = codex_oracle.install_problem


class Rollout(msgspec.Struct, frozen=True):
    """A clean rollout the real CLI wrote: a corpus file or a seed."""
    name: str
    path: str
    """Relative to Codex's sessions folder."""
    data: bytes


def rollouts() -> list[Rollout]:
    """The corpus rollouts and the seeds the real CLI writes here (from the record once written)."""
    out = [Rollout(str(path.relative_to(ROOT)), codex_mutants.rollout_path(path.name), path.read_bytes())
           for path in codex_mutants.corpus()]
    return out + [Rollout(f"seed-{seed.kind}", seed.rollout, seed.data) for seed in codex_seeds.write()]


def sent(result: Result, rollout: str, before: bytes) -> list[Any] | None:
    """What Codex sent from the file in its first request: its input without the first item (the model
    instructions) and without the items the resume appended to the file (the new turn, found by their ids: the
    file's copy of the new prompt has fields the request does not). None when it sent nothing."""
    if not result.inputs:
        return None
    items = list(result.inputs[0][1:])
    after = result.files.get(rollout, b"")
    appended = after[len(before):] if after.startswith(before) else b""
    added: set[str] = set()
    for line in appended.split(b"\n"):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("type") == "response_item" and isinstance(record["payload"], dict):
            added.add(str(record["payload"].get("id")))
    while items and isinstance(items[-1], dict) and items[-1].get("id") in added:
        items.pop()
    return items


class Prediction(msgspec.Struct):
    diagnostics: list[Any]
    refused: str | None
    items: list[Any] | None
    """The input items as session-lsp says Codex sends them; None when its payload lists none."""


def predict(data: bytes, name: str) -> Prediction:
    """session-lsp's core, in-process, on the rollout as Codex finds it (`rollout-<time>-<id>.jsonl`)."""
    document = analyze_bytes(data, Options(path=name))
    payload = payloads.context(document, -1)
    listed = payload.get("messages")
    items = None
    if isinstance(listed, list) and all(isinstance(m, dict) and "item" in m for m in listed):
        items = [m["item"] for m in listed]
    refused = payload.get("refused")
    return Prediction(document.diagnostics(), refused if isinstance(refused, str) else None, items)


def _ident(item: Any) -> str:
    """An item's id (sent with the item as the file has it), or the item itself when it has none."""
    ident = item.get("id") if isinstance(item, dict) else None
    return ident if isinstance(ident, str) else json.dumps(item, sort_keys=True)


def _damaged_holders(data: bytes, seed: bytes, item: Any) -> list[int]:
    """The damaged lines of the mutant that hold an item's id (lines no line of the seed equals)."""
    ident = item.get("id") if isinstance(item, dict) else None
    if not isinstance(ident, str) or not ident:
        return []
    needle = json.dumps(ident).encode()
    intact = set(seed.split(b"\n"))
    return [index for index, line in enumerate(data.split(b"\n")) if needle in line and line not in intact]


class Clean(msgspec.Struct, frozen=True):
    """A clean rollout and what Codex sends for it."""
    data: bytes
    sent: list[Any]


def judge(name: str, kind: str, data: bytes, rollout: str, result: Result, clean: Clean | None) -> Verdict:
    """One file's verdict. `clean` is the file's clean seed and what Codex sends for it (None for a rollout the
    real CLI wrote, which is its own seed)."""
    predicted = predict(data, Path(rollout).name)
    errors = [d for d in predicted.diagnostics if d.severity is Severity.ERROR]
    problems = [d for d in predicted.diagnostics if d.severity <= Severity.WARNING]
    failed: list[str] = []
    applied: list[str] = []

    def check(check_name: str, ok: bool) -> None:
        applied.append(check_name)
        if not ok:
            failed.append(check_name)

    real = sent(result, rollout, data)
    if real is None:
        check("refused", predicted.refused is not None and bool(errors))
        return Verdict(name, kind, RELEASE, failed, applied)
    check("resumed", predicted.refused is None)
    check("context", predicted.items == real)
    if clean is None:
        check("quiet", not problems)
        return Verdict(name, kind, RELEASE, failed, applied)
    missing = Counter(map(_ident, clean.sent)) - Counter(map(_ident, real))
    holders = {line for item in clean.sent if _ident(item) in missing
               for line in _damaged_holders(data, clean.data, item)}
    if holders:
        error_lines = {line for d in errors for line in range(d.span.line, d.span.end_line + 1)}
        check("dropped-line", holders <= error_lines)
    rolled_back = ROLLBACK in data and ROLLBACK not in clean.data
    if (len(real) < len(clean.sent) or _aborted(real) > _aborted(clean.sent)) and not rolled_back:
        check("lost", bool(errors))
    elif real == clean.sent:
        check("clean", not errors)
    return Verdict(name, kind, RELEASE, failed, applied)


def _aborted(items: list[Any]) -> int:
    return sum(1 for item in items if isinstance(item, dict) and item.get("output") == ABORTED
               and str(item.get("type", "")).endswith("_output"))


def cases(clean: Sequence[Rollout], made: Sequence[Mutant]) -> list[Case]:
    by_name = {rollout.name: rollout for rollout in clean}
    return [*(codex_oracle.resume_case(r.name, r.path, r.data) for r in clean),
            *(codex_oracle.resume_case(m.name, by_name[m.seed].path, m.data) for m in made)]


def run(count: int = codex_mutants.MUTANTS) -> list[Verdict]:
    """Every corpus rollout, every seed the CLI writes here, and `count` mutants of them, each resumed by the real
    Codex (two at a time, recorded) and judged."""
    clean = rollouts()
    made = codex_mutants.generate([(r.name, r.data) for r in clean], count)
    results = codex_oracle.run(cases(clean, made))
    verdicts: list[Verdict] = []
    sent_clean: dict[str, Clean | None] = {}
    for rollout, result in zip(clean, results, strict=False):
        request = sent(result, rollout.path, rollout.data)
        sent_clean[rollout.name] = None if request is None else Clean(rollout.data, request)
        kind = "seed" if rollout.name.startswith("seed-") else "corpus"
        verdicts.append(judge(rollout.name, kind, rollout.data, rollout.path, result, None))
    by_name = {rollout.name: rollout for rollout in clean}
    for mutant, result in zip(made, results[len(clean):], strict=True):
        verdicts.append(judge(mutant.name, mutant.kind, mutant.data, by_name[mutant.seed].path, result,
                              sent_clean[mutant.seed]))
    return verdicts


def dump(folder: Path, count: int = codex_mutants.MUTANTS) -> None:
    """Writes each mutant and what Codex did with it (its request's items from the file, exit, stderr) as JSON
    files beside it, for reading by hand."""
    folder.mkdir(parents=True, exist_ok=True)
    clean = rollouts()
    made = codex_mutants.generate([(r.name, r.data) for r in clean], count)
    by_name = {rollout.name: rollout for rollout in clean}
    for mutant, result in zip(made, codex_oracle.run(cases(clean, made))[len(clean):], strict=True):
        path = by_name[mutant.seed].path
        (folder / f"{mutant.name}.jsonl").write_bytes(mutant.data)
        predicted = predict(mutant.data, Path(path).name)
        record = {"case": mutant.name, "kind": mutant.kind, "seed": mutant.seed, "rollout": path,
                  "exit": result.exit, "stderr_tail": result.stderr[-1500:], "requests": len(result.inputs),
                  "sent_from_file": sent(result, path, mutant.data), "predicted": predicted.items,
                  "refused": predicted.refused,
                  "diagnostics": [f"{d.span.line + 1}: {d.code} {d.severity.name} {d.message}"
                                  for d in predicted.diagnostics]}
        (folder / f"{mutant.name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False))
