"""Runs the real pi releases (tests/conformance/oracle.mjs) and session-lsp's core over the corpus and the
mutants, and judges each file: what pi did must be what session-lsp's diagnostics, path and context say.

Checks, each applied when pi's behaviour calls for it:
- hang: pi spun (a parent cycle) while opening the file or building its context -> an error.
- threw: pi threw while opening it or building its context -> an error.
- refused: pi refused the file ("not a valid pi session") -> an error that says pi refuses it.
- rewritten: pi rewrote the file (more than the missing final newline 1.6 adds) -> a diagnostic that says so.
- dropped-line: a non-blank line pi did not keep -> an error on that line.
- shrunk: the path or the context is shorter than the clean seed's -> an error or warning.
- clean: pi treats the mutant exactly as its clean seed (same lines kept, path, tree, and the same request to the
  provider byte for byte) -> no error.
- context: the roles session-lsp's model context lists are those pi sends (synthetic results included).
- path: session-lsp's active path has pi's length.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from session_lsp.analysis import Options, Severity
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.elyra.context import build_context
from session_lsp.analysis.elyra.model import ElyraModel

from . import mutants
from .mutants import ROOT, Mutant

HERE = Path(__file__).resolve().parent
INSTALL_COMMAND = "bash tests/conformance/install.sh"
RUNTIMES = {"0.73": ("node", "pi073"), "1.6": (str(HERE / "node_modules" / "node22" / "bin" / "node"), "pi16")}
"""Each release and the node that runs it (0.73.1 on the system's node >= 20, 1.6.0 on Node 22 from npm)."""
CHECKS = ("hang", "threw", "refused", "rewritten", "dropped-line", "shrunk", "clean", "context", "path")


class Verdict(msgspec.Struct):
    name: str
    kind: str
    release: str
    failed: list[str]
    """The checks that disagree (empty: agreement)."""
    applied: list[str]


def install_problem() -> str | None:
    """Why the suite cannot run here, with the command that fixes it; None when the releases are installed."""
    missing = [name for _, name in RUNTIMES.values() if not (HERE / "node_modules" / name / "package.json").exists()]
    if not (HERE / "node_modules" / "node22" / "bin" / "node").exists():
        missing.append("node22")
    if shutil.which("node") is None:
        return "the conformance suite needs node >= 20 on PATH for pi 0.73.1"
    if missing:
        return (f"the real pi releases are not installed ({', '.join(missing)} missing from tests/conformance/"
                f"node_modules): run `{INSTALL_COMMAND}`")
    return None


def _timeout_ms(size: int) -> int:
    return 800 + size // 1000


def run_oracle(release: str, files: Sequence[Path]) -> list[dict[str, Any]]:
    """What the real release does with each file (oracle.mjs, one node process for all of them)."""
    node, package = RUNTIMES[release]
    listing: list[dict[str, Any]] = [{"path": str(path), "timeoutMs": _timeout_ms(path.stat().st_size)}
                                     for path in files]
    bound = sum(item["timeoutMs"] for item in listing) // 1000 + 60
    with tempfile.TemporaryDirectory(prefix="pi-home-") as home:
        done = subprocess.run(["timeout", "-s", "KILL", str(bound), node, str(HERE / "oracle.mjs"),
                               str(HERE / "node_modules" / package)], input=json.dumps(listing).encode(),
                              capture_output=True, env={**os.environ, "HOME": home}, check=False)
    reports = [json.loads(line) for line in done.stdout.decode().splitlines() if line.strip()]
    if len(reports) != len(files):
        raise RuntimeError(f"pi {release} oracle stopped after {len(reports)} of {len(files)} files "
                           f"(exit {done.returncode}): {done.stderr.decode()[-2000:]}")
    return reports


class Prediction(msgspec.Struct):
    diagnostics: list[Any]
    path_length: int
    sent: list[str]


def predict(data: bytes, name: str, release: str) -> Prediction:
    """session-lsp's core, in-process: diagnostics, active path and model context for the release."""
    document = analyze_bytes(data, Options(path=name, pi_version=release))
    model = document.linked.model
    if not isinstance(model, ElyraModel):
        return Prediction(document.diagnostics(), 0, [])
    context = build_context(document.lines, model, None, release)
    sent = [m.role + ("*" if m.note.startswith("synthetic result") else "") for m in context]
    return Prediction(document.diagnostics(), len(model.active_path), sent)


def _sent(report: dict[str, Any]) -> list[str] | None:
    sent = report.get("sent")
    return None if sent is None else [m["role"] + ("*" if m["synthetic"] else "") for m in sent]


_SAYS_REFUSED = re.compile(r"refus|not a valid", re.I)
_SAYS_REWRITTEN = re.compile(r"rewrit|overwrit|destroy|migrat|re-?id", re.I)


def judge(mutant: Mutant, release: str, real: dict[str, Any], clean: dict[str, Any] | None) -> Verdict:
    predicted = predict(mutant.data, mutant.name, release)
    errors = [d for d in predicted.diagnostics if d.severity is Severity.ERROR]
    warnings = [d for d in predicted.diagnostics if d.severity <= Severity.WARNING]
    failed: list[str] = []
    applied: list[str] = []

    def check(name: str, ok: bool) -> None:
        applied.append(name)
        if not ok:
            failed.append(name)

    hang = real.get("hang") in ("open", "context")
    if hang:
        check("hang", bool(errors))
    if real["outcome"] == "threw" or (real.get("context_error") and not hang):
        check("threw", bool(errors))
    if real["outcome"] == "refused":
        check("refused", any(_SAYS_REFUSED.search(d.message) for d in errors))
    if real.get("rewritten") and not real.get("newline_added"):
        check("rewritten", any(_SAYS_REWRITTEN.search(d.message) for d in predicted.diagnostics))
    lines = mutant.data.split(b"\n")
    # pi replaced the file by a bare header: what it held in memory for that run no longer matters
    non_blank = sum(1 for line in lines if line.strip())
    destroyed = bool(real.get("rewritten")) and real.get("lines_after", 0) <= 1 < non_blank
    kept = None if destroyed else real.get("kept_lines")
    dropped: list[int] = []
    if kept is not None:
        kept_set = set(kept)
        dropped = [i for i, line in enumerate(lines) if line.strip() and i not in kept_set]
        if dropped:
            error_lines = {line for d in errors for line in range(d.span.line, d.span.end_line + 1)}
            check("dropped-line", all(i in error_lines for i in dropped))
    sent = _sent(real)
    if clean is not None and real["outcome"] == "loaded" and not hang and not destroyed:
        shorter = (len(real.get("path_lines") or []) < len(clean.get("path_lines") or [])
                   or (sent is not None and len(sent) < len(_sent(clean) or [])))
        if shorter:
            check("shrunk", bool(warnings))
        same = (not real.get("rewritten") or real.get("newline_added")) and not real.get("context_error") \
            and not dropped and real.get("sent_json") == clean.get("sent_json") \
            and len(kept or []) == len(clean.get("kept_lines") or []) \
            and len(real.get("path_lines") or []) == len(clean.get("path_lines") or []) \
            and real.get("tree_roots") == clean.get("tree_roots") and "hang" not in real
        if same:
            check("clean", not errors)
    if real["outcome"] == "loaded" and not hang and not destroyed and not real.get("context_error") \
            and sent is not None:
        check("context", predicted.sent == sent)
        check("path", predicted.path_length == len(real.get("path_lines") or []))
    return Verdict(mutant.name, mutant.kind, release, failed, applied)


def run(release: str, count: int = mutants.MUTANTS_PER_RELEASE) -> list[Verdict]:
    """Every corpus file and `count` seeded mutants, through the release and through session-lsp."""
    corpus = [Mutant(str(path.relative_to(ROOT)), "corpus", "", path.read_bytes()) for path in mutants.corpus()]
    made = mutants.generate(count)
    with tempfile.TemporaryDirectory(prefix="conformance-") as folder:
        files: list[Path] = []
        for mutant in made:
            target = Path(folder) / mutant.name
            target.write_bytes(mutant.data)
            files.append(target)
        reports = run_oracle(release, [ROOT / m.name for m in corpus] + files)
    seeds = reports[:len(corpus)]
    by_seed = {m.name: report for m, report in zip(corpus, seeds, strict=True)}
    verdicts = [judge(m, release, report, None) for m, report in zip(corpus, seeds, strict=True)]
    verdicts += [judge(m, release, report, by_seed[m.seed])
                 for m, report in zip(made, reports[len(corpus):], strict=True)]
    return verdicts
