"""textDocument/diagnostic: pull diagnostics, for clients that declare them (the others get pushes)."""

from __future__ import annotations

import msgspec
from lsprotocol import types

from ..app import Encoded, SessionServer
from ..convert import WireDiagnostic
from ..diagnostics import for_client, result_id

OPTIONS = types.DiagnosticOptions(identifier="session-lsp", inter_file_dependencies=False,
                                  workspace_diagnostics=False)


class FullReport(msgspec.Struct, rename="camel", omit_defaults=True):
    """A `RelatedFullDocumentDiagnosticReport` as its JSON (see `convert.WireDiagnostic`)."""

    kind: str
    items: list[WireDiagnostic]
    result_id: str | None = None


async def diagnostic(ls: SessionServer,
                     params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport | Encoded:
    entry = ls.store.get(params.text_document.uri)
    if entry is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    await ls.settings_loaded()
    async with entry.lock:
        if entry.doc is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        rid = result_id(entry, ls.settings_generation)
        if params.previous_result_id == rid:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
        items = await ls.run(for_client, entry.doc, entry.uri, ls.rules_for(entry.uri), ls.encoding)
    ls.settle_later(entry)
    return Encoded([msgspec.json.encode(FullReport("full", items, rid))])


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, OPTIONS)(diagnostic)
