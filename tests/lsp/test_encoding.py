"""Position encodings: Neovim negotiates UTF-8, VS Code 1.65 gets UTF-16. Columns after non-ASCII text (an
accented letter and an emoji, which is 2 UTF-16 units and 4 UTF-8 bytes) must land where the client counts them."""

from __future__ import annotations

import json

from lsp_harness import Editor, problems, shape, units
from lsp_sessions import elyra_entries
from lsprotocol import types

from session_lsp.analysis.text import Encoding

URI = "file:///work/sessions/encoding.jsonl"
TEXT = "naïve question 😀 about the parser"


def _session() -> tuple[str, str]:
    entries = elyra_entries(TEXT)
    entries[1]["extraKey"] = 1  # ELY034 unknown-field, after the non-ASCII text on the same line
    lines = [json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in entries]
    return "\n".join(lines) + "\n", lines[1]


async def test_negotiated_encoding_is_the_clients_first_choice(editor: Editor) -> None:
    capabilities = editor.client.capabilities
    assert capabilities is not None
    offered = capabilities.general.position_encodings if capabilities.general else None
    expected = offered[0] if offered else types.PositionEncodingKind.Utf16
    assert editor.encoding.value == (expected.value if isinstance(expected, types.PositionEncodingKind) else expected)
    assert editor.encoding is (Encoding.UTF8 if editor.name == "neovim" else Encoding.UTF16)


async def test_diagnostic_columns_after_an_emoji(editor: Editor) -> None:
    text, line = _session()
    found = await editor.open(URI, text)
    unknown = [d for d in found if d.code == "ELY034" and d.range.start.line == 1]
    assert len(unknown) == 1, found
    col = line.index('"extraKey"')
    assert col > line.index("😀")
    start = unknown[0].range.start.character
    assert start == units(line, col, editor.encoding)
    assert start != col  # the emoji and the ï really shift the column in both encodings
    assert unknown[0].range.end.character == units(line, col + len('"extraKey"'), editor.encoding)


async def test_edits_after_an_emoji_land_where_the_client_means(editor: Editor) -> None:
    text, line = _session()
    await editor.open(URI, text)
    start = line.index(',"extraKey":1')
    end = start + len(',"extraKey":1')
    # Delete the unknown member, addressing it in the client's own units.
    rng = types.Range(types.Position(1, units(line, start, editor.encoding)),
                      types.Position(1, units(line, end, editor.encoding)))
    editor.texts[URI][1] = line[:start] + line[end:]
    editor.versions[URI] += 1
    editor.client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=URI, version=editor.versions[URI]),
        [types.TextDocumentContentChangePartial(range=rng, text="")]))
    assert problems(await editor.diagnostics(URI)) == []
    # Insert right after the emoji: the text must go between the emoji and the space after it.
    emoji_end = line.index("😀") + 1
    after = await editor.edit(URI, 1, emoji_end, 1, emoji_end, "\\u00e9")
    assert problems(after) == [] and shape(after) == editor.expected(URI)
    broken = await editor.edit(URI, 1, emoji_end, 1, emoji_end, '"')
    assert broken and shape(broken) == editor.expected(URI)
