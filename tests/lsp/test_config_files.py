"""Configuration files in the server: each document reads the closest `.session-lsp.toml` or `[tool.session-lsp]`
above it, as `session-lsp check` does, and the editor's `sessionLsp` settings override it key by key."""

from __future__ import annotations

from pathlib import Path

from lsp_harness import Editor, codes
from lsp_sessions import elyra_broken
from test_settings import _reconfigure

NULL_FIRST = (Path(__file__).parent.parent / "cases" / "elyra" / "ELY003-null-first-line-pi073.jsonl").read_text()
"""pi 0.73 throws on the null first line (ELY010), pi 1.6 skips it (ELY011)."""


async def test_a_documents_configuration_file_applies(editor: Editor, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.session-lsp]\nignore = ["ELY04"]\n'
                                             'severity = { ELY001 = "hint" }\n'
                                             '"per-file-ignores" = { "fixtures/*" = ["ELY001"] }\n')
    found = await editor.open((tmp_path / "a.jsonl").as_uri(), elyra_broken())
    assert "ELY001" in codes(found) and not any(str(d.code).startswith("ELY04") for d in found)
    assert {d.severity for d in found if d.code == "ELY001"} == {4}  # hint
    fixture = await editor.open((tmp_path / "fixtures" / "b.jsonl").as_uri(), elyra_broken())
    assert "ELY001" not in codes(fixture) and fixture == [d for d in fixture if d.code != "ELY001"]
    elsewhere = await editor.open("file:///work/sessions/config-none.jsonl", elyra_broken())
    assert {"ELY001", "ELY042"} <= codes(elsewhere)


async def test_the_release_comes_from_the_file_and_the_editor_overrides_it(editor: Editor, tmp_path: Path) -> None:
    (tmp_path / ".session-lsp.toml").write_text('pi-version = "0.73"\nignore = ["ELY047"]\n')
    uri = (tmp_path / "old.jsonl").as_uri()
    found = await editor.open(uri, NULL_FIRST)
    assert codes(found) == {"ELY003", "ELY010"}
    after = await _reconfigure(editor, {"piVersion": "1.6"}, uri)
    assert codes(after) == {"ELY003", "ELY011"}  # the editor's release; the file's ignore still holds
    after = await _reconfigure(editor, {"piVersion": "", "ignore": []}, uri)  # empty: the editor's default
    assert codes(after) == {"ELY003", "ELY010"}


async def test_a_bad_configuration_file_is_logged_and_left_out(editor: Editor, tmp_path: Path) -> None:
    (tmp_path / ".session-lsp.toml").write_text('ignore = ["ELY04"]\nselct = ["ELY"]\n')
    found = await editor.open((tmp_path / "a.jsonl").as_uri(), elyra_broken())
    assert {"ELY001", "ELY042"} <= codes(found)
    messages = [m.message for m in editor.client.log_messages]
    assert any(".session-lsp.toml: selct: unknown key" in m for m in messages), messages
