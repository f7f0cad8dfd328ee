"""`sessionLsp/analyzeFile`: the server reads a file from disk without opening it as a document."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from lsp_features import plain
from lsp_harness import CORPUS, Editor
from lsp_sessions import elyra_broken, thndrs
from lsprotocol import types

from session_lsp.files import ZSTD_MAGIC

if sys.version_info >= (3, 14):
    from compression.zstd import compress
else:
    from backports.zstd import compress

ANALYZE = "sessionLsp/analyzeFile"


async def _analyze(editor: Editor, path: Path | str) -> dict:
    result = await editor.client.protocol.send_request_async(ANALYZE, {"path": str(path)})
    return plain(result)




async def test_broken_elyra_file_with_invalid_utf8(editor: Editor, tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    text = elyra_broken()
    data = text.encode("utf-8").replace(b"Where is", b"Wh\xffre is", 1)
    path.write_bytes(data)
    result = await _analyze(editor, path)
    assert result["format"] == "Elyra v3"
    assert result["kind"] == "elyra" and result["version"] == 3
    by_code: dict[str, list[dict[str, Any]]] = {}
    for d in result["diagnostics"]:
        by_code.setdefault(d["code"], []).append(d)
        assert d["source"] == "session-lsp"
        assert d["data"]["code"] == d["code"]
        assert set(d["range"]) == {"start", "end"}
    assert [d["range"]["start"]["line"] for d in by_code["ELY001"]] == [2]
    # Line 3's parent is the lost line 2; line 4's parent never existed.
    assert [d["range"]["start"]["line"] for d in by_code["ELY042"]] == [3, 4]
    assert [d["range"]["start"]["line"] for d in by_code["ELY006"]] == [1]
    assert by_code["ELY001"][0]["severity"] == 1
    assert isinstance(result["tree"], dict)
    assert editor.pushes(path.as_uri()) == []  # analysed, not opened


async def test_real_file_with_two_records_on_one_line(editor: Editor) -> None:
    result = await _analyze(editor, CORPUS / "elyra" / "pi-mono__session__v1__has-concatenated-line.jsonl")
    assert result["kind"] == "elyra"
    glued = [d["range"]["start"]["line"] for d in result["diagnostics"] if d["code"] == "ELY002"]
    assert glued == [439]


async def test_compressed_codex_rollout(editor: Editor, tmp_path: Path) -> None:
    """A `.jsonl.zst` is analysed as the rollout it holds: the real Codex rollout's turns, an orphan output found at
    its line in a compressed broken copy."""
    name = "rollout-2026-12-05T08-14-35-01a24544-ef77-76d2-ad46-9e07c57223d1.jsonl"
    path = tmp_path / f"{name}.zst"
    path.write_bytes(compress((CORPUS / "codex-0.171.0-written" / name).read_bytes()))
    assert path.read_bytes()[:4] == ZSTD_MAGIC
    result = await _analyze(editor, path)
    assert result["kind"] == "codex" and result["format"] == "Codex"
    assert [d for d in result["diagnostics"] if d["severity"] <= 2] == []
    assert [node["kind"] for node in result["tree"]["nodes"]] == ["record", "turn", "turn", "turn"]
    broken = tmp_path / "broken.jsonl.zst"
    cases = Path(__file__).parent.parent / "cases" / "codex"
    broken.write_bytes(compress((cases / "CDX020-orphan-output.jsonl").read_bytes()))
    result = await _analyze(editor, broken)
    assert [(d["code"], d["range"]["start"]["line"]) for d in result["diagnostics"]] == [("CDX020", 4)]


async def test_thndrs_file(editor: Editor, tmp_path: Path) -> None:
    path = tmp_path / "session-20260301-091500.jsonl"
    path.write_text(thndrs(), encoding="utf-8")
    result = await _analyze(editor, path)
    assert result["format"] == "thndrs" and result["diagnostics"] == []


@pytest.mark.parametrize("params", [{"path": "/does/not/exist.jsonl"}, {"path": 42}, {}])
async def test_bad_requests_are_errors(editor: Editor, params: dict) -> None:
    with pytest.raises(Exception) as caught:
        await editor.client.protocol.send_request_async(ANALYZE, params)
    assert "exist" in str(caught.value) or "path" in str(caught.value)


async def test_only_regular_files_within_the_size_setting_are_read(editor: Editor, tmp_path: Path) -> None:
    """A directory, a FIFO (whose open would block a reader) and /dev/zero (which never ends) are refused at once,
    and so is a file over `sessionLsp.analyzeFileMaxBytes`; the server still answers afterwards."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path in (tmp_path, fifo, Path("/dev/zero")):
        with pytest.raises(Exception) as caught:
            await asyncio.wait_for(editor.client.protocol.send_request_async(ANALYZE, {"path": str(path)}), 10)
        assert "not a regular file" in str(caught.value)
    big = tmp_path / "big.jsonl"
    big.write_text(thndrs(), encoding="utf-8")
    editor.client.set_configuration({"analyzeFileMaxBytes": 100}, section="sessionLsp")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        try:
            await _analyze(editor, big)
        except Exception as error:
            assert "over the limit of 100" in str(error)
            break
        assert asyncio.get_running_loop().time() < deadline, "the size setting never applied"
        await asyncio.sleep(0.05)
    editor.client.set_configuration({}, section="sessionLsp")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(200):
        try:
            assert (await _analyze(editor, big))["format"] == "thndrs"
            break
        except Exception:
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("the default size limit never came back")
