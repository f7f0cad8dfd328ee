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
from session_lsp.analysis.line_store import LineStore
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


@pytest.mark.parametrize("encoding", list(Encoding))
def test_columns_from_the_line_store_are_those_of_each_line_s_text(encoding: Encoding) -> None:
    """A publish asks the store once which lines are beyond ASCII (`LineStore.wide_lines`); a plain list of the
    same lines has each converted from its text: the columns must be the same, before and after compression and
    after an edit adds a wide character to a line with diagnostics."""
    header = '{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:15:00.000Z","cwd":"/w"}'
    lines = [header, *(f'{{"type":"custom","id":"{n:08x}","parentId":"{max(n - 1, 0):08x}","data":"Étape 😀 {n}",'
                       f'"timestamp":"bad"}}' if n % 3 else f'{{"type":"x","id":"{n:08x}","data":"{n}","n":1e999}}'
                       for n in range(1, 300))]
    doc = analyze("\n".join(lines) + "\n")

    def same() -> None:
        plain = list(doc.lines)
        assert convert.diagnostics(doc.lines, "file:///s.jsonl", doc.diagnostics(), encoding) == \
            convert.diagnostics(plain, "file:///s.jsonl", doc.diagnostics(), encoding)

    same()
    assert isinstance(doc.lines, LineStore)
    doc.lines.compact()
    same()
    doc.edit(3, 0, 3, 0, "😀")
    same()
