"""Our own requests: `sessionLsp/analyzeFile`, `sessionLsp/tree`, `sessionLsp/context`, `sessionLsp/decompress`.

pygls hands unknown methods' params over as namedtuples (or dicts), so fields are read defensively and a bad
request gets InvalidParams rather than an internal error. Results go out as `Encoded` JSON, the Structs of
`analysis.payload_types` encoded by the features (a tree in parts), so pygls never serializes a large tree again.
"""

from __future__ import annotations

import base64
import time
from typing import Any

import msgspec
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.uris import from_fs_path

from ...analysis import Document, features
from ...analysis.payload_types import (
    ANALYZE_FILE,
    CONTEXT,
    DECOMPRESS,
    TREE,
    AnalyzeFileResult,
    DecompressResult,
    around_last,
)
from ...analysis.rule_filter import RuleFilter
from ...analysis.text import Encoding
from ...files import NotReadable, read_uncompressed, unusable
from ..app import Encoded, SessionServer
from ..diagnostics import for_client
from ..documents import Releases, read_file


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _uri(params: Any) -> str:
    uri = _get(_get(params, "textDocument"), "uri")
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams("expected {textDocument: {uri: string}}")
    return uri


def _analysis(doc: Document, uri: str, rules: RuleFilter, encoding: Encoding) -> Encoded:
    diagnostics = msgspec.json.encode(for_client(doc, uri, rules, encoding))
    before, after = around_last(AnalyzeFileResult(doc.format.label, doc.format.kind.value, doc.format.version,
                                                  msgspec.Raw(diagnostics), msgspec.Raw(b"null")))
    return Encoded([before, *features.encode_tree(doc), after])


def _analyze_path(path: str, releases: Releases, max_bytes: int, rules: RuleFilter,
                  encoding: Encoding) -> Encoded:
    with read_file(path, releases, max_bytes) as doc:
        return _analysis(doc, from_fs_path(path) or path, rules, encoding)


def _path(params: Any) -> str:
    path = _get(params, "path")
    if not isinstance(path, str) or not path:
        raise JsonRpcInvalidParams("expected {path: string}")
    reason = unusable(path)
    if reason is not None:
        raise JsonRpcInvalidParams(f"{path!r} names no file: {reason}")
    return path


async def analyze_file(ls: SessionServer, params: Any) -> Encoded:
    """Analyse a file on disk without opening it: for files too large for the editor to sync (VS Code does not
    sync files over 50 MB) and for tree views of files that are not open."""
    path = _path(params)
    await ls.settings_loaded()
    try:
        chosen = ls.configs.settings_for(path, ls.settings, ls.editor_value)
        return await ls.run(_analyze_path, path, chosen.releases, chosen.analyze_file_max_bytes, chosen.rules,
                            ls.encoding)
    except NotReadable as error:
        raise JsonRpcException(f"{path} is not analysed: {error} (sessionLsp.analyzeFileMaxBytes sets the limit)",
                               code=types.LSPErrorCodes.RequestFailed.value) from error
    except OSError as error:
        raise JsonRpcException(f"cannot read {path}: {error.strerror or error}",
                               code=types.LSPErrorCodes.RequestFailed.value) from error


def _decompress(path: str, max_bytes: int) -> Encoded:
    data = read_uncompressed(path, max_bytes)
    return Encoded([msgspec.json.encode(DecompressResult(base64.b64encode(data).decode("ascii"), len(data)))])


async def decompress(ls: SessionServer, params: Any) -> Encoded:
    """The bytes a `.jsonl.zst` holds, for an editor that cannot decompress it (VS Code, whose extension shows them
    read-only): the reader `check` uses, limited by `sessionLsp.analyzeFileMaxBytes`."""
    path = _path(params)
    await ls.settings_loaded()
    try:
        chosen = ls.configs.settings_for(path, ls.settings, ls.editor_value)
        return await ls.run(_decompress, path, chosen.analyze_file_max_bytes)
    except NotReadable as error:
        raise JsonRpcException(f"{path} is not read: {error} (sessionLsp.analyzeFileMaxBytes sets the limit)",
                               code=types.LSPErrorCodes.RequestFailed.value) from error
    except OSError as error:
        raise JsonRpcException(f"cannot read {path}: {error.strerror or error}",
                               code=types.LSPErrorCodes.RequestFailed.value) from error


def _tree(doc: Document) -> Encoded:
    return Encoded(features.encode_tree(doc))


async def tree(ls: SessionServer, params: Any) -> Encoded | None:
    return await ls.read(_uri(params), _tree)


def _context(doc: Document, line: int) -> Encoded:
    """What the agent sends resuming the file now (what Claude Code does with a turn an API error ended depends on
    the error's age)."""
    return Encoded([features.encode_context(doc, line, time.time() * 1000)])


async def context(ls: SessionServer, params: Any) -> Encoded | None:
    line = _get(params, "line")
    if line is None:
        line = _get(_get(params, "position"), "line")
    if not isinstance(line, int) or isinstance(line, bool):
        raise JsonRpcInvalidParams("expected {textDocument: {uri}, line: number} or {textDocument, position}")
    return await ls.read(_uri(params), _context, line)


def register(server: SessionServer) -> None:
    server.feature(ANALYZE_FILE)(analyze_file)
    server.feature(TREE)(tree)
    server.feature(CONTEXT)(context)
    server.feature(DECOMPRESS)(decompress)
