"""The `sessionLsp` settings: select / ignore / severity, fetched with workspace/configuration."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from lsp_harness import TIMEOUT, Editor, codes
from lsp_sessions import elyra_broken
from lsprotocol import types

URI = "file:///work/sessions/settings.jsonl"


async def _reconfigure(editor: Editor, settings: dict[str, Any], uri: str = URI) -> list[types.Diagnostic]:
    """Change the client's settings, tell the server, and return the diagnostics of `uri` once they reflect it."""
    before = len(editor.pushes(uri))
    editor.client.set_configuration(settings, section="sessionLsp")
    editor.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    if not editor.pull:
        return list((await editor.next_push(uri, before)).diagnostics)
    # This client declares no diagnostic refresh, so it learns of the change on its next pull.
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        report = await editor.pull_report(uri)
        if isinstance(report, types.RelatedFullDocumentDiagnosticReport):
            return list(report.items)
        await asyncio.sleep(0.05)
    raise AssertionError("the settings change never reached the diagnostics")


async def test_ignore_prefix_republishes_without_those_codes(editor: Editor) -> None:
    found = await editor.open(URI, elyra_broken())
    assert {"ELY001", "ELY042"} <= codes(found)
    after = await _reconfigure(editor, {"ignore": ["ELY04"]})
    assert "ELY042" not in codes(after)
    assert "ELY001" in codes(after)
    restored = await _reconfigure(editor, {})
    assert codes(restored) == codes(found)


async def test_select_keeps_only_matching_codes(editor: Editor) -> None:
    await editor.open(URI, elyra_broken())
    after = await _reconfigure(editor, {"select": ["ELY04"]})
    assert after and all(str(d.code).startswith("ELY04") for d in after)


async def test_severity_override_and_off(editor: Editor) -> None:
    await editor.open(URI, elyra_broken())
    after = await _reconfigure(editor, {"severity": {"ELY001": "hint", "ELY042": "off"}})
    assert "ELY042" not in codes(after)
    assert {d.severity for d in after if d.code == "ELY001"} == {types.DiagnosticSeverity.Hint}


async def test_bad_settings_are_logged_and_the_rest_applies(editor: Editor) -> None:
    await editor.open(URI, elyra_broken())
    after = await _reconfigure(editor, {"ignore": ["ELY042", "NOPE9"], "severity": {"ELY001": "loud"}})
    assert "ELY042" not in codes(after)
    assert {d.severity for d in after if d.code == "ELY001"} == {types.DiagnosticSeverity.Error}
    messages = [m.message for m in editor.client.log_messages]
    assert any("NOPE9" in m for m in messages), messages
    assert any("loud" in m for m in messages), messages


async def test_configuration_changes_are_registered_for_when_the_client_allows(editor: Editor) -> None:
    capabilities = editor.client.capabilities
    assert capabilities is not None and capabilities.workspace is not None
    dynamic = bool(capabilities.workspace.did_change_configuration
                   and capabilities.workspace.did_change_configuration.dynamic_registration)
    await editor.open(URI, elyra_broken())  # by now `initialized` has been handled
    registered = [r for r in editor.client.registrations  # type: ignore[attr-defined]
                  if r.method == types.WORKSPACE_DID_CHANGE_CONFIGURATION]
    assert bool(registered) == dynamic
    for registration in registered:
        assert registration.register_options["section"] == "sessionLsp"


NO_NEWLINE = ('{"type":"session","version":3,"id":"s1","timestamp":"2026-03-01T09:00:00.000Z","cwd":"/"}\n'
              '{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z",'
              '"message":{"role":"user","content":"hi","timestamp":1772355600000}}')


async def test_pi_version_changes_what_the_messages_state(editor: Editor) -> None:
    """`piVersion` re-analyses open documents: a missing final newline is repaired by pi 1.6 (information) and loses
    records in pi 0.73 (warning). A version without its own row is read as the newest known release before it (and
    the log says so); a value that is no version is logged and the newest release stays."""
    found = [d for d in await editor.open(URI, NO_NEWLINE) if d.code == "ELY005"]
    assert [d.severity for d in found] == [types.DiagnosticSeverity.Information]
    assert "pi 1.6 adds the missing newline" in found[0].message
    old = [d for d in await _reconfigure(editor, {"piVersion": "0.73"}) if d.code == "ELY005"]
    assert [d.severity for d in old] == [types.DiagnosticSeverity.Warning]
    assert "pi 0.73 appends its next entry" in old[0].message
    back = [d for d in await _reconfigure(editor, {"piVersion": "9.9"}) if d.code == "ELY005"]
    assert [d.severity for d in back] == [types.DiagnosticSeverity.Information]
    between = [d for d in await _reconfigure(editor, {"piVersion": "1.2.3"}) if d.code == "ELY005"]
    assert [d.severity for d in between] == [types.DiagnosticSeverity.Warning]
    nonsense = [d for d in await _reconfigure(editor, {"piVersion": "latest"}) if d.code == "ELY005"]
    assert [d.severity for d in nonsense] == [types.DiagnosticSeverity.Information]
    messages = [m.message for m in editor.client.log_messages]
    assert any("pi 9.9 is not a release session-lsp knows: it is read as pi 1.6" in m for m in messages), messages
    assert any("pi 1.2.3 is not a release session-lsp knows: it is read as pi 0.73" in m for m in messages), messages
    assert any("got 'latest'; using 1.6" in m for m in messages), messages
