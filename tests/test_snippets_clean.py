"""Every whole-line snippet the server offers writes a line the agent reads without a warning, when it is accepted
as offered (each tab stop keeping its default, a choice its first value): the values the agent writes in a
field, the entry or call a reference can name from there, the fields the format requires although the schema
leaves them optional. A snippet is tried where a user would write it: after `session-lsp new`'s session and
after every clean stretch of the case files; a line that opens something (a tool call) may need the snippet
that closes it next."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from session_lsp.analysis import Options, Severity, analyze, features
from session_lsp.analysis.formats import FORMATS

ROOT = Path(__file__).parent
NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
_PLACEHOLDER = re.compile(r"\$\{\d+:((?:[^}\\]|\\.)*)\}|\$\{\d+\|((?:[^,|\\]|\\.)*)[^}]*\}|\$\d+")
_ESCAPED = re.compile(r"\\([\\$}])")


def expand(snippet: str) -> str:
    """What the editor inserts when every placeholder keeps its default (a choice: its first option)."""
    parts: list[str] = []
    last = 0
    for found in _PLACEHOLDER.finditer(snippet):
        parts.append(_ESCAPED.sub(r"\1", snippet[last:found.start()]))
        parts.append(_ESCAPED.sub(r"\1", found.group(1) or found.group(2) or ""))
        last = found.end()
    parts.append(_ESCAPED.sub(r"\1", snippet[last:]))
    return "".join(parts)


def _warnings(text: str, name: str) -> list[str]:
    return [f"{d.code} {d.message}" for d in analyze(text, Options(path=name)).diagnostics()
            if d.severity <= Severity.WARNING]


def _offered(text: str, name: str) -> list[tuple[str, str]]:
    document = analyze(text, Options(path=name))
    line = len(document.lines) - 1
    return [(item.label, expand(item.insert_text)) for item in features.completions(document, line, 0, NOW)
            if item.is_snippet]


def _bases() -> list[tuple[object, str, str]]:
    """(format, file name, text) of every clean place to append a line: an empty file (None: before any format),
    `new`'s sessions, and each prefix of a case file that has no warning."""
    out: list[tuple[object, str, str]] = [
        (None, name, "") for name in ("empty.jsonl", "session-20260301-093000.jsonl",
                                      "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f.jsonl")]  # the first line, by name
    for kind, face in FORMATS.items():
        lines = face.sample(NOW)
        if lines:
            out.append((kind, "new.jsonl", "\n".join(lines) + "\n"))
    for path in sorted((ROOT / "cases").rglob("*.jsonl")):
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")[:-1]
        for end in range(1, len(lines) + 1):
            text = "\n".join(lines[:end]) + "\n"
            if _warnings(text, path.name):
                break
            out.append((analyze(text, Options(path=path.name)).format.kind, path.name, text))
    return out


def test_every_line_snippet_accepted_as_offered_writes_a_line_without_a_warning() -> None:
    offered: dict[object, set[str]] = {}
    clean: dict[object, set[str]] = {}
    opened: list[tuple[object, str, str, str]] = []
    for kind, name, text in _bases():
        for label, body in _offered(text, name):
            offered.setdefault(kind, set()).add(label)
            if label in clean.get(kind, set()):
                continue
            written = text + body + "\n"
            if _warnings(written, name):
                opened.append((kind, name, written, label))
            else:
                clean.setdefault(kind, set()).add(label)
    for kind, name, written, label in opened:  # a line that opens something, closed by the next snippet
        if label in clean.get(kind, set()):
            continue
        for closer, body in _offered(written, name):
            if not _warnings(written + body + "\n", name):
                clean.setdefault(kind, set()).update((label, closer))
    # every format that offers line templates (Codex offers none yet) is tried from its `new` session
    assert {kind for kind, face in FORMATS.items()
            if face.sample(NOW) and face.first_line(NOW, None) is not None} | {None} <= set(offered)
    missing = {str(kind): sorted(labels - clean.get(kind, set())) for kind, labels in offered.items()}
    assert all(not labels for labels in missing.values()), missing


def test_a_choice_default_is_the_first_known_value() -> None:
    """pi's stop reason: a choice whose first value is one the targeted release writes."""
    elyra = next(face for face in FORMATS.values() if face.release_option == "pi")
    text = "\n".join(elyra.sample(NOW)) + "\n"
    snippet = next(body for label, body in _offered(text, "s.jsonl") if label == "assistant message entry")
    assert '"stopReason":"stop"' in snippet

