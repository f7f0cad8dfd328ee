"""The test side of the end-to-end server tests: a pytest-lsp client that records every push, and `Editor`,
which hides whether this client pulls or is pushed diagnostics: `open`/`edit` return the diagnostics the client
ends up with for that version either way.

Positions in the client's units are counted here by encoding the text before them (UTF-8 bytes, UTF-16 code
units), never with the server's conversion helpers, so a wrong conversion in the server cannot hide itself: the
edits the tests send and the ranges they expect are both computed independently of it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from session_lsp.analysis import Options, analyze
from session_lsp.analysis.text import Encoding

SERVER = [sys.executable, "-m", "session_lsp.server", "--stdio"]
CLIENTS = ("neovim", "visual-studio-code")
DELAY_MS = 30
"""The server's debounce in these tests (its default is longer)."""
TIMEOUT = 20.0
CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def units(text: str, col: int, encoding: Encoding) -> int:
    """A code-point column of `text` in the client's units, counted by encoding the text before it (a lone
    surrogate, which a UTF-16 client can hold, is one UTF-16 unit and the 3 bytes a UTF-8 client holds for it)."""
    head = text[:col]
    if encoding is Encoding.UTF8:
        return len(head.encode("utf-8", "surrogatepass"))
    if encoding is Encoding.UTF16:
        return len(head.encode("utf-16-le", "surrogatepass")) // 2
    return len(head)


def saved(text: str) -> str:
    """The editor's text as it writes it to a UTF-8 file: a lone surrogate becomes U+FFFD."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def column(text: str, count: int, encoding: Encoding) -> int:
    """The code-point column at `count` client units into `text` (the end of the line past it)."""
    if encoding is Encoding.UTF32:
        return min(count, len(text))
    seen = 0
    for index, char in enumerate(text):
        if seen >= count:
            return index
        seen += len(char.encode("utf-8")) if encoding is Encoding.UTF8 else len(char.encode("utf-16-le")) // 2
    return len(text)


def _record_publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)  # type: ignore[attr-defined]
    client.arrived.set()  # type: ignore[attr-defined]


def _register_capability(client: LanguageClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)  # type: ignore[attr-defined]


def make_client() -> LanguageClient:
    """pytest-lsp's client, plus a record of every publish (with its version) and of dynamic registrations."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # type: ignore[attr-defined]
    client.arrived = asyncio.Event()  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_publish
    features[types.CLIENT_REGISTER_CAPABILITY] = _register_capability
    register_lsp_features(client, features)
    return client


class Editor:
    """What a test does through an editor: open, edit, ask; diagnostics whichever way this client gets them."""

    def __init__(self, client: LanguageClient, name: str, result: types.InitializeResult) -> None:
        self.client = client
        self.name = name
        self.result = result
        self.pull = result.capabilities.diagnostic_provider is not None
        self.encoding = Encoding(str(result.capabilities.position_encoding.value
                                     if isinstance(result.capabilities.position_encoding, types.PositionEncodingKind)
                                     else result.capabilities.position_encoding or "utf-16"))
        self.texts: dict[str, list[str]] = {}
        self.versions: dict[str, int] = {}
        self.result_ids: dict[str, str | None] = {}

    # positions -------------------------------------------------------------------------------------------------

    def units(self, uri: str, line: int, col: int) -> int:
        """A code-point column on `line` of the editor's text, in this client's units."""
        return units(self.texts[uri][line], col, self.encoding)

    def position(self, uri: str, line: int, col: int) -> types.Position:
        return types.Position(line, self.units(uri, line, col))

    def find(self, uri: str, needle: str, line: int | None = None) -> tuple[int, int]:
        """(line, code-point column) of the first occurrence of `needle`."""
        lines = self.texts[uri]
        numbers = range(len(lines)) if line is None else [line]
        for number in numbers:
            col = lines[number].find(needle)
            if col != -1:
                return number, col
        raise AssertionError(f"{needle!r} not in {uri}")

    # documents -------------------------------------------------------------------------------------------------

    async def open(self, uri: str, text: str, version: int = 1) -> list[types.Diagnostic]:
        self.texts[uri] = text.split("\n")
        self.versions[uri] = version
        self.result_ids[uri] = None
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="jsonl", version=version, text=text)))
        return await self.diagnostics(uri)

    def send_edit(self, uri: str, line: int, col: int, end_line: int, end_col: int, text: str) -> int:
        """Send one incremental change (code-point columns, converted to the client's units here) without
        waiting; returns the new version."""
        lines = self.texts[uri]
        rng = types.Range(self.position(uri, line, col), self.position(uri, end_line, end_col))
        merged = lines[line][:col] + text + lines[end_line][end_col:]
        lines[line : end_line + 1] = merged.split("\n")
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangePartial(range=rng, text=text)]))
        return self.versions[uri]

    async def edit(self, uri: str, line: int, col: int, end_line: int, end_col: int,
                   text: str) -> list[types.Diagnostic]:
        self.send_edit(uri, line, col, end_line, end_col, text)
        return await self.diagnostics(uri)

    async def replace_all(self, uri: str, text: str) -> list[types.Diagnostic]:
        self.texts[uri] = text.split("\n")
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))
        return await self.diagnostics(uri)

    def text(self, uri: str) -> str:
        return "\n".join(self.texts[uri])

    # diagnostics -----------------------------------------------------------------------------------------------

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics for the editor's current version of `uri`."""
        if self.pull:
            return await self.pull_diagnostics(uri)
        return list((await self.published_for(uri, self.versions[uri])).diagnostics)

    async def pull_diagnostics(self, uri: str) -> list[types.Diagnostic]:
        report = await self.pull_report(uri)
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport), report
        return list(report.items)

    async def pull_report(self, uri: str) -> types.DocumentDiagnosticReport:
        report = await asyncio.wait_for(self.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
            types.TextDocumentIdentifier(uri), previous_result_id=self.result_ids.get(uri))), TIMEOUT)
        self.result_ids[uri] = report.result_id
        return report

    async def published_for(self, uri: str, version: int) -> types.PublishDiagnosticsParams:
        """Wait for a push for exactly this version of `uri`."""
        async def wait() -> types.PublishDiagnosticsParams:
            while True:
                for params in reversed(self.client.published):  # type: ignore[attr-defined]
                    if params.uri == uri and params.version == version:
                        return params
                self.client.arrived.clear()  # type: ignore[attr-defined]
                await self.client.arrived.wait()  # type: ignore[attr-defined]
        return await asyncio.wait_for(wait(), TIMEOUT)

    def pushes(self, uri: str) -> list[types.PublishDiagnosticsParams]:
        return [params for params in self.client.published if params.uri == uri]  # type: ignore[attr-defined]

    async def next_push(self, uri: str, after: int) -> types.PublishDiagnosticsParams:
        """The first push for `uri` after the first `after` of them."""
        async def wait() -> types.PublishDiagnosticsParams:
            while True:
                pushes = self.pushes(uri)
                if len(pushes) > after:
                    return pushes[after]
                self.client.arrived.clear()  # type: ignore[attr-defined]
                await self.client.arrived.wait()  # type: ignore[attr-defined]
        return await asyncio.wait_for(wait(), TIMEOUT)

    async def settle(self, seconds: float = 0.3) -> None:
        """Give the server time to (wrongly) publish something more."""
        await asyncio.sleep(seconds)

    # what the core says ----------------------------------------------------------------------------------------

    def expected(self, uri: str, hidden: Sequence[str] = ("SLS001",)) -> list[tuple[str, int, int, int, int, int]]:
        """(code, severity, range in this client's units) of a fresh analysis of the editor's text."""
        lines = self.texts[uri]
        out = []
        options = Options(path=uri.removeprefix("file://"), exists=os.path.exists)  # what the server knows of it
        for d in analyze(saved(self.text(uri)), options).diagnostics():
            if d.code in hidden:
                continue
            span = d.span
            out.append((d.code, int(d.severity), span.line, units(lines[span.line], span.start, self.encoding),
                        span.end_line, units(lines[span.end_line], span.end, self.encoding)))
        return sorted(out)


def shape(diagnostics: Sequence[types.Diagnostic]) -> list[tuple[str, int, int, int, int, int]]:
    """Diagnostics as comparable tuples: (code, severity, start line, start char, end line, end char)."""
    return sorted((str(d.code), int(d.severity or 0), d.range.start.line, d.range.start.character,
                   d.range.end.line, d.range.end.character) for d in diagnostics)


def codes(diagnostics: Sequence[types.Diagnostic]) -> set[str]:
    return {str(d.code) for d in diagnostics}


def problems(diagnostics: Sequence[types.Diagnostic]) -> list[types.Diagnostic]:
    """Errors and warnings: what a clean session has none of (an Elyra file always has its ELY047 leaf note)."""
    return [d for d in diagnostics if d.severity in (types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning)]


