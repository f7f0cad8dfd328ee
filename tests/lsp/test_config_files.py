"""Configuration files in the server: each document reads the closest `.session-lsp.toml` or `[tool.session-lsp]`
above it, as `session-lsp check` does, and the editor's `sessionLsp` settings override it key by key."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from lsp_harness import TIMEOUT, Editor, codes
from lsp_sessions import elyra_broken
from lsprotocol import types
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


async def _files_changed(editor: Editor, uri: str, *changes: tuple[Path, types.FileChangeType]) -> list[
        types.Diagnostic]:
    """Tell the server what the editor's file watcher saw, and return the diagnostics of `uri` once they change."""
    before = len(editor.pushes(uri))
    editor.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(path.as_uri(), kind) for path, kind in changes]))
    if not editor.pull:
        return list((await editor.next_push(uri, before)).diagnostics)
    deadline = time.monotonic() + TIMEOUT  # this client declares no refresh: it sees the change on its next pull
    while time.monotonic() < deadline:
        report = await editor.pull_report(uri)
        if isinstance(report, types.RelatedFullDocumentDiagnosticReport):
            return list(report.items)
        await asyncio.sleep(0.05)
    raise AssertionError("the configuration file's change never reached the diagnostics")


async def test_configuration_files_are_watched_when_the_client_allows(editor: Editor, tmp_path: Path) -> None:
    capabilities = editor.client.capabilities
    assert capabilities is not None and capabilities.workspace is not None
    watched = capabilities.workspace.did_change_watched_files
    await editor.open((tmp_path / "a.jsonl").as_uri(), NULL_FIRST)  # by now `initialized` has been handled
    registered = [r for r in editor.client.registrations  # type: ignore[attr-defined]
                  if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert bool(registered) == bool(watched and watched.dynamic_registration)
    for registration in registered:
        assert [w["globPattern"] for w in registration.register_options["watchers"]] == [
            "**/pyproject.toml", "**/.session-lsp.toml"]


async def test_a_changed_configuration_file_is_read_again_and_republished(editor: Editor, tmp_path: Path) -> None:
    """Created, changed, deleted: each time the documents below the file are analysed again for the release it
    names and get their diagnostics again; a document elsewhere is left alone."""
    uri = (tmp_path / "project" / "old.jsonl").as_uri()
    assert codes(await editor.open(uri, NULL_FIRST)) == {"ELY003", "ELY011", "ELY047"}  # pi 1.6, no file yet
    elsewhere = (tmp_path / "elsewhere.jsonl").as_uri()
    await editor.open(elsewhere, NULL_FIRST)
    pushes_elsewhere = len(editor.pushes(elsewhere))

    dotfile = tmp_path / "project" / ".session-lsp.toml"
    dotfile.parent.mkdir(exist_ok=True)
    dotfile.write_text('pi-version = "0.73"\nignore = ["ELY047"]\n')
    after = await _files_changed(editor, uri, (dotfile, types.FileChangeType.Created))
    assert codes(after) == {"ELY003", "ELY010"}  # analysed again for pi 0.73

    dotfile.write_text('pi-version = "0.73"\n')
    after = await _files_changed(editor, uri, (dotfile, types.FileChangeType.Changed))
    assert codes(after) == {"ELY003", "ELY010", "ELY047"}

    dotfile.unlink()
    after = await _files_changed(editor, uri, (dotfile, types.FileChangeType.Deleted))
    assert codes(after) == {"ELY003", "ELY011", "ELY047"}
    await editor.settle()
    if not editor.pull:
        assert len(editor.pushes(elsewhere)) == pushes_elsewhere  # not below the configuration file's folder


async def test_the_editor_still_overrides_a_changed_configuration_file(editor: Editor, tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.session-lsp]\nignore = ["ELY047"]\n')
    uri = (tmp_path / "a.jsonl").as_uri()
    await editor.open(uri, NULL_FIRST)
    assert codes(await _reconfigure(editor, {"piVersion": "1.6"}, uri)) == {"ELY003", "ELY011"}
    pyproject.write_text('[tool.session-lsp]\npi-version = "0.73"\n')
    after = await _files_changed(editor, uri, (pyproject, types.FileChangeType.Changed))
    assert codes(after) == {"ELY003", "ELY011", "ELY047"}  # the file's ignore is gone; the editor's release holds
