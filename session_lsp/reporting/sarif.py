"""SARIF 2.1.0, the format code-scanning services read (GitHub's among them): one run whose tool lists every rule
(its summary, what the agent does, its documentation link, default level and fix), a result per diagnostic with its
region in code points (`columnKind`) and, where the rule has one, the fix the editor's quick fix makes, as SARIF
`fixes` (artifact changes: the regions replaced and the text put in their place). The run's `artifacts` are the
files it checked (their size and SHA-256, taken as they were read), and its `invocations` the command line, the
exit code, the start and end, and a notification for each file that could not be read."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from .. import __version__
from ..analysis import RULES, Severity, Span
from ..analysis.fixing import Fix
from .machine import encode
from .paths import uri
from .report import Checked, Report, Shown
from .rules import FIX_WORDS, docs_base, docs_url

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note",
          Severity.HINT: "note"}
ROOT = "%SRCROOT%"
RULE_INDEX = {code: index for index, code in enumerate(RULES)}
EXIT_CODES = {0: "nothing at or above --fail-on was found", 1: "something at or above --fail-on was found",
              2: "a usage error, or a file that could not be read or written"}
"""What `check` and `fix` exit with (the CLI's EXIT_CLEAN, EXIT_FOUND and EXIT_USAGE)."""


def _region(span: Span) -> dict[str, int]:
    return {"startLine": span.line + 1, "startColumn": span.start + 1, "endLine": span.end_line + 1,
            "endColumn": span.end + 1}


def _location(path: str) -> dict[str, str]:
    address = uri(path)
    return {"uri": address} if address.startswith("file:") else {"uri": address, "uriBaseId": ROOT}


def _fix(location: dict[str, Any], fix: Fix) -> dict[str, Any]:
    return {"description": {"text": f"{fix.title} ({fix.applicability.value})"},
            "artifactChanges": [{"artifactLocation": location, "replacements": [
                {"deletedRegion": _region(edit.span), "insertedContent": {"text": edit.new_text}}
                for edit in fix.edits]}]}


def rule_descriptors() -> list[dict[str, Any]]:
    descriptors = []
    for rule in RULES.values():
        descriptor = {
            "id": rule.code, "name": rule.name, "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.reason},
            "help": {"text": f"{rule.summary}. What the agent does: {rule.reason}. "
                             f"Fix: {FIX_WORDS[rule.fix.value if rule.fix else None]}. "
                             f"`session-lsp rule {rule.code}` shows an example."},
            "defaultConfiguration": {"level": LEVELS[rule.severity]},
            "properties": {"severity": rule.severity.label, "fix": rule.fix.value if rule.fix else None}}
        if (url := docs_url(rule.code)) is not None:
            descriptor["helpUri"] = url
        descriptors.append(descriptor)
    return descriptors


def _time(moment: datetime) -> str:
    """SARIF's dates: UTC, ISO 8601 with a `Z` (§3.9)."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class SarifReport(Report):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._results: list[dict[str, Any]] = []
        self._artifacts: list[dict[str, Any]] = []
        self._indexes: dict[str, int] = {}

    def _artifact(self, path: str, checked: Checked | None = None) -> dict[str, Any]:
        """The artifact location of a file, with its index into the run's `artifacts` (added the first time)."""
        index = self._indexes.get(path)
        if index is None:
            index = self._indexes[path] = len(self._artifacts)
            artifact: dict[str, Any] = {"location": _location(path), "roles": ["analysisTarget"]}
            if checked is not None:
                if checked.length is not None:
                    artifact["length"] = checked.length
                if checked.sha256 is not None:
                    artifact["hashes"] = {"sha-256": checked.sha256}
                artifact["properties"] = {"format": checked.label, "lines": checked.line_count}
            self._artifacts.append(artifact)
        return {**_location(path), "index": index}

    def file(self, path: str, checked: Checked, shown_ones: Sequence[Shown]) -> None:
        location = self._artifact(path, checked)
        for one in shown_ones:
            diagnostic = one.diagnostic
            result: dict[str, Any] = {
                "ruleId": diagnostic.code, "ruleIndex": RULE_INDEX[diagnostic.code],
                "level": LEVELS[diagnostic.severity], "message": {"text": diagnostic.message},
                "locations": [{"physicalLocation": {"artifactLocation": location,
                                                    "region": _region(diagnostic.span)}}],
                "properties": {"severity": diagnostic.severity.label}}
            if one.fixes:
                result["fixes"] = [_fix(location, fix) for fix in one.fixes]
            self._results.append(result)

    def _invocation(self, root: str) -> dict[str, Any]:
        notifications = []
        for message, path in self.problems:
            notification: dict[str, Any] = {"level": "error", "message": {"text": message}}
            if path is not None:
                notification["locations"] = [{"physicalLocation": {"artifactLocation": self._artifact(path)}}]
            notifications.append(notification)
        return {"commandLine": shlex.join(["session-lsp", *self.command]), "arguments": list(self.command),
                "executionSuccessful": self.successful, "exitCode": self.exit_code,
                "exitCodeDescription": EXIT_CODES.get(self.exit_code, "interrupted"),
                "startTimeUtc": _time(self.started), "endTimeUtc": _time(self.ended),
                "workingDirectory": {"uri": root}, "toolExecutionNotifications": notifications}

    def end(self) -> None:
        root = uri(os.getcwd()).rstrip("/") + "/"
        invocation = self._invocation(root)  # first: a file that could not be read becomes an artifact too
        driver: dict[str, Any] = {"name": "session-lsp", "version": __version__, "rules": rule_descriptors()}
        if (base := docs_base()) is not None:
            driver["informationUri"] = base.partition("#")[0]
        log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [{
            "tool": {"driver": driver},
            "invocations": [invocation],
            "originalUriBaseIds": {ROOT: {"uri": root}},
            "artifacts": self._artifacts,
            "columnKind": "unicodeCodePoints",
            "results": self._results}]}
        self.out.write(msgspec.json.format(encode(log), indent=2).decode("utf-8") + "\n")
