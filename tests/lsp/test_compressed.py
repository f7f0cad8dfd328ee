"""A `.jsonl.zst` in an editor: `sessionLsp/decompress` gives the bytes it holds (for VS Code, which cannot decompress
it), and a document under `session-lsp-zst:` (the scheme VS Code's extension shows it under) is the file at the URI's
path: its name, its folder and what is beside it count as they do for a `file:` URI. Neovim, Vim and Emacs
decompress it themselves and open it as a `file:` URI (tests/editors/test_agents.py)."""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

from lsp_features import plain
from lsp_harness import CORPUS, Editor
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from session_lsp.analysis.payload_types import COMPRESSED_SCHEME, DECOMPRESS

if sys.version_info >= (3, 14):
    from compression.zstd import compress
else:
    from backports.zstd import compress

ROLLOUTS = CORPUS / "codex-0.171.0-written"
CHILD = "rollout-2026-12-05T08-14-35-01a24544-ef77-76d2-ad46-9e07c57223d1.jsonl"
PARENT = "rollout-2026-12-05T08-14-24-01a24544-c378-7cc2-ae2e-a71a17407cd4.jsonl"


async def _decompress(editor: Editor, path: Path | str) -> dict[str, object]:
    result = await editor.client.protocol.send_request_async(DECOMPRESS, {"path": str(path)})
    return dict(plain(result))


async def test_decompress_gives_the_bytes_of_every_frame(editor: Editor, tmp_path: Path) -> None:
    data = (ROLLOUTS / CHILD).read_bytes()
    path = tmp_path / f"{CHILD}.zst"
    half = len(data) // 2
    path.write_bytes(compress(data[:half]) + compress(data[half:]))  # two frames, as a file appended to is
    result = await _decompress(editor, path)
    assert base64.b64decode(str(result["base64"])) == data and result["size"] == len(data)
    plain_file = tmp_path / CHILD
    plain_file.write_bytes(data)
    assert base64.b64decode(str((await _decompress(editor, plain_file))["base64"])) == data  # not compressed: as is


async def test_decompress_refuses_what_it_cannot_read(editor: Editor, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl.zst"
    cut.write_bytes(compress((ROLLOUTS / CHILD).read_bytes())[:-20])
    fifo = tmp_path / "pipe.jsonl.zst"
    os.mkfifo(fifo)
    for path, says in ((cut, "cut short"), (fifo, "not a regular file"), (tmp_path / "gone.jsonl.zst", "cannot read")):
        try:
            await _decompress(editor, path)
        except JsonRpcException as error:
            assert says in str(error), error
        else:
            raise AssertionError(f"{path} was read")


async def test_a_compressed_rollout_opened_under_its_scheme(editor: Editor, tmp_path: Path) -> None:
    """Its diagnostics and hover as for the plain file, and its forked_from_id goes to the parent rollout beside it:
    the server reads the scheme's path as the file's."""
    rows = [json.loads(line) for line in (ROLLOUTS / CHILD).read_text(encoding="utf-8").splitlines()]
    rows[0]["payload"]["forked_from_id"] = "01a24544-c378-7cc2-ae2e-a71a17407cd4"
    rows[34]["payload"]["call_id"] = "call_00000000deadbeef00000000"
    text = "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
    path = tmp_path / f"{CHILD}.zst"
    path.write_bytes(compress(text.encode("utf-8")))
    (tmp_path / PARENT).write_bytes((ROLLOUTS / PARENT).read_bytes())
    uri = f"{COMPRESSED_SCHEME}:{path.as_uri()[len('file:'):]}"
    diagnostics = await editor.open(uri, text)
    assert sorted((d.range.start.line, d.code) for d in diagnostics) == [(31, "CDX021"), (34, "CDX020")]

    line, col = editor.find(uri, '"forked_from_id":"')
    at = types.TextDocumentPositionParams(types.TextDocumentIdentifier(uri), editor.position(uri, line, col + 20))
    found = await editor.client.text_document_definition_async(types.DefinitionParams(at.text_document, at.position))
    assert isinstance(found, list) and [location.uri for location in found] == [(tmp_path / PARENT).as_uri()], found

    line, col = editor.find(uri, '"call_id":"', 46)
    hover = await editor.client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), editor.position(uri, line, col + 14)))
    assert hover is not None and "call_id` → line 44" in str(hover.contents), hover
