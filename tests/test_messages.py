"""Messages a user of pi, thndrs or Claude Code can act on: no word from the checker's or the agents' insides
("serde", "u64", "2^53", "context walk"), and every error says what repairs it (or names the quick fix). Read
from the registry and from every diagnostic the case files, the fix cases and the corpus give, for each pi
release."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from session_lsp.analysis import Options, Severity
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.formats import FORMATS
from session_lsp.analysis.registry import RULES

ROOT = Path(__file__).parent
JARGON = re.compile(r"serde|\bu64\b|\bu32\b|\busize\b|2\^53|2\*\*53|context walk|branch walk|model selection, "
                    r"rendering, cost", re.IGNORECASE)
REPAIR = re.compile(r"quick fix|session-lsp (fix|new)|[;:,.] (then )?(add|change|complete|correct|delete|give|keep|"
                    r"move|nest|point|remove|renumber|repair|replace|restore|save|set|split|start|write)\b",
                    re.IGNORECASE)


def _messages() -> list[tuple[str, Severity, str, str]]:
    """(code, severity, message, file) of every diagnostic of every file, once per distinct message."""
    files = [*sorted((ROOT / "cases").rglob("*.jsonl")), *sorted((ROOT / "fix_cases").rglob("*.jsonl")),
             *sorted((ROOT / "corpus").rglob("*.jsonl"))]
    releases = sorted({release for face in FORMATS.values() if face.release_option == "pi" for release in
                       face.releases})
    seen: dict[str, tuple[str, Severity, str, str]] = {}
    for path in files:
        data = path.read_bytes()
        for release in releases:
            for found in analyze_bytes(data, Options(path=str(path), pi_version=release)).diagnostics():
                seen.setdefault(found.message, (found.code, found.severity, found.message, path.name))
    return list(seen.values())


MESSAGES = _messages()


def test_the_files_give_many_messages() -> None:
    assert len(MESSAGES) > 300
    assert sum(severity is Severity.ERROR for _, severity, _, _ in MESSAGES) > 60


@pytest.mark.parametrize("rule", RULES.values(), ids=lambda rule: rule.code)
def test_no_rule_speaks_jargon(rule: object) -> None:
    text = f"{rule.summary} {rule.reason}"  # type: ignore[attr-defined]
    assert not JARGON.search(text), text


def test_no_message_speaks_jargon() -> None:
    spoken = [f"{code} ({name}): {message}" for code, _, message, name in MESSAGES if JARGON.search(message)]
    assert spoken == []


def test_every_error_says_what_repairs_it() -> None:
    silent = [f"{code} ({name}): {message}" for code, severity, message, name in MESSAGES
              if severity is Severity.ERROR and not REPAIR.search(message)]
    assert silent == []


def test_the_patterns_bite() -> None:
    assert JARGON.search("serde rejects the record") and JARGON.search("pi's context walk stops here")
    assert not REPAIR.search("Claude Code drops the call on resume (the model never sees it was made)")
    assert REPAIR.search("the record is lost; delete the line")
