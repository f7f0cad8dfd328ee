"""Judges session-lsp against the real Claude Code 2.1.332: for every corpus file, every seed the suite has the CLI
write (claude_seeds.py) and every seeded mutant (claude_mutants.py), what Claude Code sends when it resumes the file
(`claude -p PROMPT --resume ID`), or the error it stops with, against session-lsp's `context` and `check`.

The request holds more than the file: `sent` strips exactly what does not come from it (the new prompt, the
attachments Claude Code renders for the new turn, `cache_control`); the rest must equal the `content` of each
message session-lsp predicts. Checks, each applied when Claude Code's behaviour calls for it:
- refused: Claude Code sent nothing and exited with an error -> `refused` says so and `check` has an error.
- resumed: Claude Code sent a request -> `refused` is null.
- context: the messages session-lsp predicts are those Claude Code sends, role and content blocks byte for byte.
- lost: Claude Code sends less of the file than for the clean seed (a cut, a dropped record or pair, a placeholder
  such as "No response requested.") -> `check` has an error.
- clean: Claude Code sends exactly what it sends for the clean seed -> `check` has no error.
- quiet: a file the real CLI wrote (corpus, seeds) -> no error or warning at all.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from session_lsp.analysis import Options, Severity
from session_lsp.analysis.claude.model import epoch_ms
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.features import payloads

from . import claude_mutants, claude_oracle, claude_seeds
from .claude_oracle import RESUME_PROMPT, Case, Result
from .mutants import ROOT, Mutant
from .suite import Verdict

RELEASE = claude_oracle.VERSION
CHECKS = ("refused", "resumed", "context", "lost", "clean", "quiet")
PLACEHOLDERS = ("No response requested.", "(no content)", "[Orphaned tool result removed due to conversation resume]",
                "[Tool call interrupted")
"""Texts Claude Code puts in place of what it could not take from the file."""
install_problem = claude_oracle.install_problem
Oracle = Callable[[list[Case]], list[Result]]


def _appended_renders(result: Result, session_id: str, before: bytes) -> list[str]:
    """The texts of the attachments Claude Code wrote to the file for the resume's own turn."""
    after = result.files.get(f"{session_id}.jsonl", b"")
    added = after[len(before):] if after.startswith(before) else b""
    texts = []
    for line in added.split(b"\n"):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("type") == "attachment" and isinstance(record.get("rendered"), list):
            texts += [item["content"] for item in record["rendered"]
                      if isinstance(item, dict) and isinstance(item.get("content"), str)]
    return texts


def _is_prompt(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and block.get("text") == RESUME_PROMPT


def sent(result: Result, session_id: str, before: bytes) -> list[dict[str, Any]] | None:
    """What Claude Code sent from the file in its first request: its messages up to the new prompt, without the
    prompt, the attachments rendered for the new turn and `cache_control`. None when it sent no request."""
    if not result.requests:
        return None
    messages: list[dict[str, Any]] = [{"role": m.get("role"), "content": copy.deepcopy(m.get("content"))}
                                      for m in result.requests[0].get("messages", [])]
    for message in messages:
        if isinstance(message["content"], list):
            for block in message["content"]:
                if isinstance(block, dict):
                    block.pop("cache_control", None)
    at = next((i for i in range(len(messages) - 1, -1, -1) if messages[i]["role"] == "user"
               and (messages[i]["content"] == RESUME_PROMPT
                    or (isinstance(messages[i]["content"], list) and any(map(_is_prompt, messages[i]["content"]))))),
              None)
    if at is None:
        return messages
    content = messages[at]["content"]
    kept: list[Any] = [] if isinstance(content, str) else content[:next(
        i for i in range(len(content) - 1, -1, -1) if _is_prompt(content[i]))]
    renders = _appended_renders(result, session_id, before)
    while kept and isinstance(kept[-1], dict) and kept[-1].get("type") == "text" \
            and kept[-1].get("text", "").removesuffix("\n") in renders:
        renders.remove(kept.pop()["text"].removesuffix("\n"))
    return messages[:at] + ([{"role": "user", "content": kept}] if kept else [])


class Prediction(msgspec.Struct):
    diagnostics: list[Any]
    refused: str | None
    messages: list[dict[str, Any]] | None
    """[{role, content}] as session-lsp says Claude Code sends them; None when its payload has no content."""


def resumed_at(result: Result, session_id: str, before: bytes) -> float | None:
    """When Claude Code resumed the file (Unix ms): the first time it wrote into it, or None. What it does with a
    turn that ended in an API error depends on the error's age then (context.py's STALE_MS), so the prediction is
    made for that moment: a cached run and a live one are judged alike."""
    after = result.files.get(f"{session_id}.jsonl", b"")
    for line in (after[len(before):] if after.startswith(before) else b"").split(b"\n"):
        try:
            record = json.loads(line)
        except ValueError:
            continue
        stamp = record.get("timestamp") if isinstance(record, dict) else None
        if isinstance(stamp, str):
            return epoch_ms(stamp)
    return None


def predict(data: bytes, session_id: str, now: float | None = None) -> Prediction:
    """session-lsp's core, in-process, on the file as Claude Code finds it (`<session id>.jsonl`), resumed at
    `now`."""
    document = analyze_bytes(data, Options(path=f"{session_id}.jsonl", now=now))
    payload = payloads.context(document, -1)
    listed = payload.get("messages")
    messages = None
    if isinstance(listed, list) and all(isinstance(m, dict) and "content" in m for m in listed):
        messages = [{"role": m.get("role"), "content": m.get("content")} for m in listed]
    return Prediction(document.diagnostics(), payload.get("refused"), messages)


def _lost(real: list[dict[str, Any]], clean: list[dict[str, Any]]) -> bool:
    def placeholders(messages: list[dict[str, Any]]) -> int:
        text = json.dumps([m["content"] for m in messages])
        return sum(text.count(json.dumps(p)[1:-1]) for p in PLACEHOLDERS)
    return len(real) < len(clean) or placeholders(real) > placeholders(clean)


def judge(name: str, kind: str, data: bytes, session_id: str, result: Result,
          clean: list[dict[str, Any]] | None) -> Verdict:
    """One file's verdict. `clean` is what Claude Code sends for the file's clean seed (None for a file the real CLI
    wrote, which is its own seed)."""
    predicted = predict(data, session_id, resumed_at(result, session_id, data))
    errors = [d for d in predicted.diagnostics if d.severity is Severity.ERROR]
    problems = [d for d in predicted.diagnostics if d.severity <= Severity.WARNING]
    failed: list[str] = []
    applied: list[str] = []

    def check(check_name: str, ok: bool) -> None:
        applied.append(check_name)
        if not ok:
            failed.append(check_name)

    real = sent(result, session_id, data)
    if real is None:
        check("refused", predicted.refused is not None and bool(errors))
    else:
        check("resumed", predicted.refused is None)
        check("context", predicted.messages == real)
        if clean is None:
            check("quiet", not problems)
        elif _lost(real, clean):
            check("lost", bool(errors))
        elif real == clean:
            check("clean", not errors)
    return Verdict(name, kind, RELEASE, failed, applied)


def _resume(name: str, session_id: str, files: dict[str, bytes]) -> Case:
    return claude_oracle.resume_case(name, session_id, files)


def cases(count: int = claude_mutants.MUTANTS, oracle: Oracle = claude_oracle.run
          ) -> tuple[list[Path], list[claude_seeds.Seed], list[Mutant], list[Case]]:
    """The suite's files (the corpus, the seeds the CLI writes through `oracle`, `count` mutants of the corpus) and
    the case resuming each, in that order."""
    corpus = claude_mutants.corpus()
    seeds = claude_seeds.write(oracle)
    made = claude_mutants.generate(count)
    resumed: list[Case] = []
    for path in corpus:
        resumed.append(_resume(path.name, path.stem, {path.name: path.read_bytes(), **claude_mutants.companions(path)}))
    for seed in seeds:
        resumed.append(_resume(f"seed-{seed.kind}", seed.session_id, seed.files))
    for mutant in made:
        path = ROOT / mutant.seed
        resumed.append(_resume(mutant.name, path.stem, {path.name: mutant.data, **claude_mutants.companions(path)}))
    return corpus, seeds, made, resumed


def run(count: int = claude_mutants.MUTANTS) -> list[Verdict]:
    """Every corpus file, every seed the CLI writes here, and `count` mutants of the corpus, each resumed by the
    real Claude Code (two at a time, cached) and judged."""
    corpus, seeds, made, resumed = cases(count)
    results = claude_oracle.run(resumed)
    verdicts: list[Verdict] = []
    clean: dict[str, list[dict[str, Any]] | None] = {}
    for path, result in zip(corpus, results, strict=False):
        data = path.read_bytes()
        clean[str(path.relative_to(ROOT))] = sent(result, path.stem, data)
        verdicts.append(judge(path.name, "corpus", data, path.stem, result, None))
    for seed, result in zip(seeds, results[len(corpus):], strict=False):
        data = seed.files[f"{seed.session_id}.jsonl"]
        verdicts.append(judge(f"seed-{seed.kind}", "seed", data, seed.session_id, result, None))
    for mutant, result in zip(made, results[len(corpus) + len(seeds):], strict=True):
        path = ROOT / mutant.seed
        verdicts.append(judge(mutant.name, mutant.kind, mutant.data, path.stem, result, clean[mutant.seed]))
    return verdicts


def dump(folder: Path, mutants: Sequence[Mutant]) -> None:
    """Writes each mutant and what Claude Code did with it (request, exit, what it appended) as JSON files, for
    reading by hand (the notes on what Claude Code adds and removes were written from them)."""
    folder.mkdir(parents=True, exist_ok=True)
    cases = [_resume(m.name, (ROOT / m.seed).stem, {(ROOT / m.seed).name: m.data,
                                                    **claude_mutants.companions(ROOT / m.seed)}) for m in mutants]
    for mutant, result in zip(mutants, claude_oracle.run(cases), strict=True):
        session_id = (ROOT / mutant.seed).stem
        (folder / f"{mutant.name}.jsonl").write_bytes(mutant.data)
        after = result.files.get(f"{session_id}.jsonl", b"")
        record = {"case": mutant.name, "kind": mutant.kind, "session_file": f"{mutant.name}.jsonl",
                  "seed": mutant.seed, "session_id": session_id, "resume_prompt": RESUME_PROMPT, "exit": result.exit,
                  "stdout_tail": result.stdout[-1500:], "stderr_tail": result.stderr[-1500:],
                  "requests": len(result.requests), "request": result.requests[0] if result.requests else None,
                  "sent_from_file": sent(result, session_id, mutant.data),
                  "appended": after[len(mutant.data):].decode(errors="replace")
                  if after.startswith(mutant.data) else None,
                  "file_rewritten": not after.startswith(mutant.data)}
        (folder / f"{mutant.name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False))
