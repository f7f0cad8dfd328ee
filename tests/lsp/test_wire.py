"""Diagnostics go out as msgspec-encoded JSON (`convert.WireDiagnostic`), not as lsprotocol objects: the JSON must be
exactly what lsprotocol's own converter makes of the same diagnostic, in both position encodings, so a client reads
the same fields, names and values either way."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from lsprotocol import types
from lsprotocol.converters import get_converter

from session_lsp.analysis import analyze
from session_lsp.analysis.text import Encoding
from session_lsp.server import convert

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "broken").glob("*.jsonl"))
CONVERTER = get_converter()


@pytest.mark.parametrize("encoding", [Encoding.UTF16, Encoding.UTF8])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_the_wire_json_is_lsprotocols(path: Path, encoding: Encoding) -> None:
    text = path.read_text(encoding="utf-8")
    doc = analyze(text)
    wire = msgspec.to_builtins(convert.diagnostics(doc.lines, "file:///s.jsonl", doc.diagnostics(), encoding))
    typed = CONVERTER.structure(wire, list[types.Diagnostic])
    assert wire == CONVERTER.unstructure(typed, list[types.Diagnostic])
    assert any(item.get("relatedInformation") for item in wire), "the examples have related information"
    assert all(isinstance(item["severity"], int) and item["source"] == "session-lsp" for item in wire)
