"""A long first analysis runs off the event loop: a small document opened after a large one is served first."""

from __future__ import annotations

import asyncio
import json

from lsp_harness import Editor
from lsp_sessions import elyra, elyra_entries

BIG = "file:///work/sessions/big.jsonl"
SMALL = "file:///work/sessions/small.jsonl"


def _big(entries: int) -> str:
    header, first, *_ = elyra_entries()
    lines = [json.dumps(header)]
    parent = None
    for number in range(entries):
        entry = dict(first, id=f"{number:08x}", parentId=parent)
        entry["message"] = dict(first["message"], content=f"question {number} " + "words " * 40)
        lines.append(json.dumps(entry, separators=(",", ":")))
        parent = entry["id"]
    return "\n".join(lines) + "\n"


async def test_small_document_is_answered_while_a_large_one_is_analysed(editor: Editor) -> None:
    finished: list[str] = []

    async def open_and_wait(uri: str, text: str) -> None:
        await editor.open(uri, text)
        finished.append(uri)

    big = asyncio.ensure_future(open_and_wait(BIG, _big(80_000)))
    await asyncio.sleep(0)  # the big didOpen goes out first
    small = asyncio.ensure_future(open_and_wait(SMALL, elyra()))
    await asyncio.gather(big, small)
    assert finished == [SMALL, BIG]
