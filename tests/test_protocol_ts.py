"""vscode-extension/src/protocol.ts stays true: it is generated from the Structs of analysis/payload_types.py, and
those Structs are what the server sends."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from session_lsp.analysis import analyze, features, payload_types

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures" / "features"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_protocol_ts", ROOT / "tools" / "gen_protocol_ts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_protocol_ts_is_generated_from_the_structs() -> None:
    text = (ROOT / "vscode-extension" / "src" / "protocol.ts").read_text(encoding="utf-8")
    assert generator().render() == text, "protocol.ts is out of date: run `python tools/gen_protocol_ts.py`"


def test_a_field_some_structs_lack_is_optional_and_types_merge() -> None:
    rendered = generator().render()
    assert "  line: number;\n" in rendered.split("export interface TreeNode {")[1]
    assert '  kind?: "turn" | "record";\n' in rendered
    assert "  children?: number[];\n" in rendered
    assert "  nodes: TreeNode[];\n" in rendered  # an OtherTree's always empty nodes add nothing
    assert "  diagnostics: Diagnostic[];\n" in rendered


def test_an_array_is_encoded_in_chunks_as_one_array() -> None:
    records = [payload_types.ThndrsRecord(line, None, f"record {line}") for line in range(2 * payload_types.CHUNK + 3)]
    for count in (0, 1, payload_types.CHUNK, payload_types.CHUNK + 1, len(records)):
        assert b"".join(payload_types.array(records[:count])) == msgspec.json.encode(records[:count])


def test_a_value_goes_around_its_last_field() -> None:
    tree = payload_types.OtherTree("unknown", None, "not a session", 0, ())
    before, after = payload_types.around_last(payload_types.AnalyzeFileResult(
        "not a session", "unknown", None, msgspec.Raw(b"[]"), msgspec.Raw(b"null")))
    assert msgspec.json.decode(before + msgspec.json.encode(tree) + after) == {
        "format": "not a session", "kind": "unknown", "version": None, "diagnostics": [],
        "tree": {"format": "unknown", "version": None, "label": "not a session", "entry_count": 0, "nodes": []}}


@pytest.mark.parametrize(("text", "tree", "context"), [
    ((FIXTURES / "elyra-branched.jsonl").read_text(encoding="utf-8"), payload_types.ElyraTree,
     payload_types.ElyraContext),
    ((FIXTURES / "thndrs-session.jsonl").read_text(encoding="utf-8"), payload_types.ThndrsTree,
     payload_types.TurnContext),
    ('{"a": 1}\n', payload_types.OtherTree, payload_types.TurnContext),
], ids=["elyra", "thndrs", "not a session"])
def test_the_payloads_are_the_structs(text: str, tree: type[msgspec.Struct], context: type[msgspec.Struct]) -> None:
    """What the features encode decodes as the Struct the TypeScript is generated from, and encodes back to the same
    bytes: no field more, none less."""
    doc = analyze(text)
    for encoded, kind in ((b"".join(features.encode_tree(doc)), tree), (features.encode_context(doc, 1), context)):
        assert msgspec.json.encode(msgspec.json.decode(encoded, type=kind)) == encoded


def test_the_extension_names_the_compressed_scheme_as_the_server_does() -> None:
    """A `.jsonl.zst` is shown in VS Code under the scheme the server reads as the file's path."""
    from session_lsp.analysis.payload_types import COMPRESSED_SCHEME

    source = (ROOT / "vscode-extension" / "src" / "compressed.ts").read_text(encoding="utf-8")
    assert f'export const COMPRESSED_SCHEME = "{COMPRESSED_SCHEME}";' in source
    manifest = (ROOT / "vscode-extension" / "package.json").read_text(encoding="utf-8")
    assert f'"onFileSystem:{COMPRESSED_SCHEME}"' in manifest
