"""SARIF 2.1.0, the format code-scanning services read (GitHub's among them): one run whose tool lists every rule
(its summary, what the agent does, its documentation link, default level and fix), a result per diagnostic with its
region in code points (`columnKind`) and, where the rule has one, the fix the editor's quick fix makes, as SARIF
`fixes` (artifact changes: the regions replaced and the text put in their place)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import msgspec

from .. import __version__
from ..analysis import RULES, Severity, Span
from ..analysis.features import Fix
from .machine import encode
from .paths import uri
from .report import Checked, Report, Shown
from .rules import DOCS, FIX_WORDS, docs_url

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note",
          Severity.HINT: "note"}
ROOT = "%SRCROOT%"
RULE_INDEX = {code: index for index, code in enumerate(RULES)}


def _region(span: Span) -> dict[str, int]:
    return {"startLine": span.line + 1, "startColumn": span.start + 1, "endLine": span.end_line + 1,
            "endColumn": span.end + 1}


def _location(path: str) -> dict[str, str]:
    address = uri(path)
    return {"uri": address} if address.startswith("file:") else {"uri": address, "uriBaseId": ROOT}


def _fix(path: str, fix: Fix) -> dict[str, Any]:
    return {"description": {"text": f"{fix.title} ({fix.applicability.value})"},
            "artifactChanges": [{"artifactLocation": _location(path), "replacements": [
                {"deletedRegion": _region(edit.span), "insertedContent": {"text": edit.new_text}}
                for edit in fix.edits]}]}


def rule_descriptors() -> list[dict[str, Any]]:
    return [{"id": rule.code, "name": rule.name, "shortDescription": {"text": rule.summary},
             "fullDescription": {"text": rule.reason}, "helpUri": docs_url(rule.code),
             "help": {"text": f"{rule.summary}. What the agent does: {rule.reason}. "
                              f"Fix: {FIX_WORDS[rule.fix.value if rule.fix else None]}."},
             "defaultConfiguration": {"level": LEVELS[rule.severity]},
             "properties": {"severity": rule.severity.label, "fix": rule.fix.value if rule.fix else None}}
            for rule in RULES.values()]


class SarifReport(Report):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._results: list[dict[str, Any]] = []

    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        location = _location(path)
        for one in shown_ones:
            diagnostic = one.diagnostic
            result: dict[str, Any] = {
                "ruleId": diagnostic.code, "ruleIndex": RULE_INDEX[diagnostic.code],
                "level": LEVELS[diagnostic.severity], "message": {"text": diagnostic.message},
                "locations": [{"physicalLocation": {"artifactLocation": location,
                                                    "region": _region(diagnostic.span)}}],
                "properties": {"severity": diagnostic.severity.label}}
            if one.fixes:
                result["fixes"] = [_fix(path, fix) for fix in one.fixes]
            self._results.append(result)

    def end(self) -> None:
        root = uri(os.getcwd()).rstrip("/") + "/"
        log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [{
            "tool": {"driver": {"name": "session-lsp", "version": __version__, "informationUri": DOCS,
                                "rules": rule_descriptors()}},
            "originalUriBaseIds": {ROOT: {"uri": root}},
            "columnKind": "unicodeCodePoints",
            "results": self._results}]}
        self.out.write(msgspec.json.format(encode(log), indent=2).decode("utf-8") + "\n")
