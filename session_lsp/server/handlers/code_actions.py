"""textDocument/codeAction: quick fixes for the diagnostics under the cursor or selection, and the "fix all safe
problems" source action (`source.fixAll.session-lsp`), both from the core's fixes (the ones `session-lsp fix`
applies). The server never writes the file: every action is a WorkspaceEdit the editor applies.

The fixes are computed from the document's current diagnostics (not the possibly stale copies the client sends
back), each action naming the LSP diagnostics it resolves.
"""

from __future__ import annotations

from lsprotocol import types

from ...analysis import Document, features
from ...analysis.rule_filter import RuleFilter
from ...analysis.text import Encoding
from .. import convert
from ..app import SessionServer
from ..diagnostics import shown

OPTIONS = types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll,
                                                     features.FIX_ALL])


def _wanted(kind: str, only: list[str] | None) -> bool:
    return not only or any(kind == wanted or kind.startswith(wanted + ".") for wanted in only)


def _actions(doc: Document, version: int, uri: str, rng: types.Range, rules: RuleFilter, encoding: Encoding,
             versioned: bool, only: list[str] | None) -> list[types.CodeAction]:
    span = convert.from_range(doc.lines, rng, encoding)
    current = shown(doc, rules)
    actions = features.code_actions(doc, span, current) if _wanted("quickfix", only) else []
    # unasked (a cursor move), "fix all" is offered only where a quick fix is: it re-analyses the whole file
    if _wanted(features.FIX_ALL, only) and (only or any(action.is_preferred for action in actions)):
        whole = features.fix_all(doc, lambda found: rules.apply(found))
        if whole is not None:
            actions.append(whole)
    out: list[types.CodeAction] = []
    for action in actions:
        fixed = [convert.diagnostic(doc.lines, uri, d, encoding) for d in current
                 if d.code in action.diagnostic_codes and d.span.line <= span.end_line and d.span.end_line >= span.line]
        out.append(types.CodeAction(
            title=action.title,
            kind=action.kind,
            diagnostics=fixed or None,
            is_preferred=action.is_preferred or None,
            edit=convert.workspace_edit(doc.lines, uri, version, action.edits, encoding, versioned),
        ))
    return out


async def code_action(ls: SessionServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    only = [str(kind.value if isinstance(kind, types.CodeActionKind) else kind)
            for kind in params.context.only] if params.context.only else None
    return await ls.read(uri, _actions, uri, params.range, ls.rules_for(uri), ls.encoding, ls.versioned_edits, only,
                         versioned=True)


def register(server: SessionServer) -> None:
    server.feature(types.TEXT_DOCUMENT_CODE_ACTION, OPTIONS)(code_action)
