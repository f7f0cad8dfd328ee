"""Hostile input to the language server over stdio (issue 10): malformed frames, messages that are not JSON-RPC,
requests before `initialize`, edits and requests at impossible positions, every request on a URI that is not open,
`sessionLsp/analyzeFile` on paths that are not files, renames to awkward names, floods of changes and cancels.

One server serves every case that leaves it usable; after each, it must still hover correctly on a known document,
no session file on disk may have changed, and its stderr must hold no traceback. Each case has a wall-clock bound
(`BOUND`, generous for a loaded 2-core box: it catches hangs, not slowness) that the client's reads enforce.

Malformed frames cost what they must and no more: a header block without a usable Content-Length (missing,
negative, not a number, over the 2 GiB limit) is logged and its body skipped, and the server picks up at the next
`Content-Length` header even when it is glued to the skipped body; a length shorter than the body is answered with
a parse error for the cut-off part; a length longer than the body swallows the start of the next message (the
server cannot know better), so that message is lost too, and the one after it is served.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from attack.wire_client import ServerTimeout, WireClient, checksums, encode, frame
from session_lsp.analysis import Options, analyze, features

BOUND = 30.0
"""Seconds a case may take before the server counts as hung."""

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
NOT_INITIALIZED, REQUEST_FAILED, CANCELLED = -32002, -32803, -32800
MAX_UINTEGER = 2**31 - 1


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def _message(id_: str, parent: str | None, second: int, role: str, text: str) -> dict[str, Any]:
    body: dict[str, Any] = {"role": role, "content": [{"type": "text", "text": text}], "timestamp": 1772355600000}
    if role == "assistant":
        body.update(api="anthropic-messages", provider="anthropic", model="claude-sonnet-4-5", stopReason="stop",
                    usage={"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                           "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}})
    return {"type": "message", "id": id_, "parentId": parent, "timestamp": f"2026-03-01T09:00:{second:02d}.000Z",
            "message": body}


LINES = [
    _line({"type": "session", "version": 3, "id": "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
           "timestamp": "2026-03-01T09:00:00.000Z", "cwd": "/home/dev/project"}),
    _line(_message("a1b2c3d4", None, 1, "user", "Where is the parser?")),
    _line(_message("b2c3d4e5", "a1b2c3d4", 2, "assistant", "In src/parse.ts.")),
]
TEXT = "\n".join(LINES) + "\n"
"""A clean Elyra v3 session: header, a question, its answer (ASCII, so UTF-16 columns are code points)."""

PROBE_LINE = 2
PROBE_COL = LINES[2].index('"parentId":"a1b2c3d4"') + len('"parentId":"') + 3
"""Inside the answer's `parentId`: its hover is the card of the question on line 2 (1-based)."""


@dataclass
class Workspace:
    folder: Path
    good: str
    """The URI of the document every check hovers in; never edited."""
    scratch: str
    """The URI of a document the edit cases change (the editor's copy; the file on disk stays as it is)."""
    sums: dict[str, str]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    folder = tmp_path_factory.mktemp("sessions")
    for name in ("good.jsonl", "scratch.jsonl"):
        (folder / name).write_text(TEXT)
    return Workspace(folder, (folder / "good.jsonl").as_uri(), (folder / "scratch.jsonl").as_uri(),
                     checksums(folder))


def _open(client: WireClient, uri: str, text: str = TEXT, version: int = 1) -> None:
    client.notify("textDocument/didOpen",
                  {"textDocument": {"uri": uri, "languageId": "jsonl", "version": version, "text": text}})


def _start(folder: Path, name: str) -> WireClient:
    return WireClient(folder / f"{name}.stderr", BOUND)


@pytest.fixture(scope="module")
def server(workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WireClient]:
    client = _start(tmp_path_factory.mktemp("logs"), "shared")
    try:
        client.initialize()
        _open(client, workspace.good)
        _open(client, workspace.scratch)
        yield client
    finally:
        client.close()


def assert_still_serving(client: WireClient, workspace: Workspace) -> None:
    """The checks after every case: a correct hover, no file changed on disk, no traceback, no stray answers."""
    with client.bound(BOUND):
        hover = client.result("textDocument/hover", {"textDocument": {"uri": workspace.good},
                                                     "position": {"line": PROBE_LINE, "character": PROBE_COL}})
    assert hover is not None
    card = hover["contents"]["value"]
    assert "**message · user** (line 2)" in card and "id `a1b2c3d4`" in card and "Where is the parser?" in card
    assert checksums(workspace.folder) == workspace.sums
    assert "Traceback" not in client.stderr()
    assert client.stray() == {}


# malformed frames ------------------------------------------------------------------------------------------------

SHUTDOWN = encode({"jsonrpc": "2.0", "id": 900, "method": "shutdown"})
"""A body that would end the session if the server took it for a message."""
UNKNOWN_URI = {"textDocument": {"uri": "file:///nowhere/unknown.jsonl"}, "position": {"line": 0, "character": 0}}


def _request(msg_id: Any, method: Any = "textDocument/hover", params: Any = UNKNOWN_URI, **extra: Any) -> bytes:
    return encode({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params, **extra})


@dataclass(frozen=True)
class Frame:
    name: str
    data: bytes
    answer: tuple[int | str | None, int] | None
    """(id, error code) of the answer the server owes, or None when it owes none."""


FRAMES = [
    Frame("garbage header", b"GARBAGE\r\n\r\n", None),
    Frame("binary garbage glued to the next header", b"\x00\xff\xfe\x80 not a header", None),
    Frame("missing Content-Length", b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + SHUTDOWN,
          None),
    Frame("negative Content-Length", b"Content-Length: -5\r\n\r\n" + SHUTDOWN, None),
    Frame("non-numeric Content-Length", b"Content-Length: twelve\r\n\r\n" + SHUTDOWN, None),
    Frame("Content-Length over the limit", b"Content-Length: 100000000000\r\n\r\n" + SHUTDOWN, None),
    Frame("Content-Length past 64 bits", b"Content-Length: 99999999999999999999999\r\n\r\n" + SHUTDOWN, None),
    Frame("Content-Length 0", frame(b""), (None, PARSE_ERROR)),
    Frame("Content-Length shorter than the body", frame(SHUTDOWN, 10), (None, PARSE_ERROR)),
    Frame("Content-Length longer than the body", frame(SHUTDOWN, len(SHUTDOWN) + 10)
          + frame(encode({"jsonrpc": "2.0", "method": "$/swallowed"})), (None, PARSE_ERROR)),
    Frame("lower-case header name", b"content-length: %d\r\n\r\n" % len(_request("lc")) + _request("lc"), None),
    Frame("body not JSON", frame(b"not json at all"), (None, PARSE_ERROR)),
    Frame("body not UTF-8", frame(b'{"jsonrpc":"2.0","method":"\xff\xfe"}'), (None, PARSE_ERROR)),
    Frame("body a JSON array", frame(b"[1,2,3]"), (None, INVALID_REQUEST)),
    Frame("body a JSON number", frame(b"42"), (None, INVALID_REQUEST)),
    Frame("body a JSON string", frame(b'"hover"'), (None, INVALID_REQUEST)),
    Frame("object without jsonrpc", frame(b'{"id":7,"method":"shutdown"}'), (7, INVALID_REQUEST)),
    Frame("wrong jsonrpc version", frame(_request(8, jsonrpc="1.0")), (8, INVALID_REQUEST)),
    Frame("jsonrpc version a number", frame(_request(9, jsonrpc=2)), (9, INVALID_REQUEST)),
    Frame("method not a string", frame(_request(10, method=["shutdown"])), (10, INVALID_REQUEST)),
    Frame("id an object", frame(_request({"n": 1})), (None, INVALID_REQUEST)),
    Frame("id a boolean", frame(_request(True)), (None, INVALID_REQUEST)),
    Frame("params a string", frame(_request(11, params="file:///x")), (11, INVALID_REQUEST)),
    Frame("params of the wrong shape", frame(_request(12, params={"textDocument": 5, "position": "x"})),
          (12, INVALID_PARAMS)),
    Frame("unknown method", frame(_request(13, method="sessionLsp/noSuchThing")), (13, METHOD_NOT_FOUND)),
    Frame("neither request nor response", frame(b'{"jsonrpc":"2.0","id":14}'), (14, INVALID_REQUEST)),
    Frame("response to nothing", frame(b'{"jsonrpc":"2.0","id":"never-asked","result":null}'), None),
]


@pytest.mark.parametrize("case", FRAMES, ids=[case.name for case in FRAMES])
def test_a_malformed_frame_costs_only_itself(server: WireClient, workspace: Workspace, case: Frame) -> None:
    with server.bound(BOUND):
        server.send_raw(case.data)
        if case.answer is not None:
            msg_id, code = case.answer
            assert server.response(msg_id)["error"]["code"] == code
        if case.name == "lower-case header name":
            assert server.response("lc")["result"] is None
    assert_still_serving(server, workspace)


def test_the_stream_ending_inside_a_body_ends_the_server(tmp_path: Path) -> None:
    """A body cut off by the end of input is logged, and the server ends (with no one left to answer)."""
    client = _start(tmp_path, "cut")
    try:
        client.initialize()
        client.send_raw(frame(SHUTDOWN, len(SHUTDOWN) + 100))
        assert client.process.stdin is not None
        client.process.stdin.close()
        assert client.wait_exit(BOUND) is not None
        assert "the stream ended inside a message body" in client.stderr()
        assert "Traceback" not in client.stderr()
    finally:
        client.close()


# lifecycle -------------------------------------------------------------------------------------------------------

def test_requests_before_initialize_are_refused_and_notifications_dropped(tmp_path: Path,
                                                                          workspace: Workspace) -> None:
    client = _start(tmp_path, "early")
    try:
        with client.bound(BOUND):
            for method, params in [("textDocument/hover", UNKNOWN_URI), ("shutdown", None),
                                   ("sessionLsp/analyzeFile", {"path": str(workspace.folder / "good.jsonl")})]:
                assert client.request(method, params)["error"]["code"] == NOT_INITIALIZED
            _open(client, workspace.good)  # dropped: the server does not know it yet
            client.initialize()
            assert client.result("sessionLsp/tree", {"textDocument": {"uri": workspace.good}}) is None
            _open(client, workspace.good)
        assert_still_serving(client, workspace)
    finally:
        client.close()


@pytest.mark.parametrize(("shutdown", "status"), [(False, 1), (True, 0)], ids=["exit alone", "shutdown, exit"])
def test_exit_ends_the_server(tmp_path: Path, workspace: Workspace, shutdown: bool, status: int) -> None:
    """LSP: exit after shutdown is status 0, exit without it status 1, either at once."""
    client = _start(tmp_path, "exit")
    try:
        with client.bound(BOUND):
            client.initialize()
            _open(client, workspace.good)
            if shutdown:
                assert client.result("shutdown") is None
        client.notify("exit")
        assert client.wait_exit(BOUND) == status
        assert "Traceback" not in client.stderr()
    finally:
        client.close()


# documents: changes to unknown URIs and at impossible positions --------------------------------------------------

NEW_ENTRY = _line(_message("c3d4e5f6", "b2c3d4e5", 3, "user", "And the lexer?"))


def _change(start: tuple[int, int], end: tuple[int, int], text: str) -> dict[str, Any]:
    return {"range": {"start": {"line": start[0], "character": start[1]},
                      "end": {"line": end[0], "character": end[1]}}, "text": text}


@dataclass(frozen=True)
class Edit:
    name: str
    change: dict[str, Any]
    text: str | None
    """The text the document holds after the change, or None when the change is dropped (it does not fit LSP's
    types: positions are unsigned 31-bit integers)."""


END = (MAX_UINTEGER, MAX_UINTEGER)
EDITS = [
    Edit("insert past the end", _change((10**6, 0), (10**6, 0), NEW_ENTRY + "\n"), TEXT + NEW_ENTRY + "\n"),
    Edit("range to the largest position", _change((3, 0), END, NEW_ENTRY + "\n"), TEXT + NEW_ENTRY + "\n"),
    Edit("character past the end of a line", _change((1, 10**6), (1, 10**7), "\n"), "\n".join(
        [LINES[0], LINES[1], "", LINES[2]]) + "\n"),
    Edit("reversed range (taken as its normal form)", _change((2, 0), (1, 0), ""),
         "\n".join([LINES[0], LINES[2]]) + "\n"),
    Edit("reversed range within a line", _change((1, 20), (1, 10), ""),
         "\n".join([LINES[0], LINES[1][:10] + LINES[1][20:], LINES[2]]) + "\n"),
    Edit("negative line", _change((-1, 0), (0, 5), "x"), None),
    Edit("negative character", _change((0, -3), (0, 5), "x"), None),
    Edit("line past 31 bits", _change((2**31, 0), (2**31, 0), "x"), None),
    Edit("character past 63 bits", _change((0, 2**64), (0, 2**64), "x"), None),
]


def _tree(text: str, uri: str) -> Any:
    path = uri.removeprefix("file://")
    return features.tree(analyze(text, Options(path=path, exists=os.path.exists)))


@pytest.mark.parametrize("case", EDITS, ids=[case.name for case in EDITS])
def test_a_change_at_impossible_positions_is_clamped_or_dropped(server: WireClient, workspace: Workspace,
                                                                case: Edit) -> None:
    """Positions past a line or the document mean its end (LSP); a reversed range is its normal form; a position
    outside LSP's unsigned integers makes the change invalid, and it is dropped, leaving the text as it was."""
    uri = workspace.scratch
    version = server.next_id()
    with server.bound(BOUND):
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": TEXT}]})
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version + 1},
                                                 "contentChanges": [case.change]})
        tree = server.result("sessionLsp/tree", {"textDocument": {"uri": uri}})
    expected = TEXT if case.text is None else case.text
    assert tree == _tree(expected, uri)
    assert_still_serving(server, workspace)


def test_changes_to_a_document_that_is_not_open_are_ignored(server: WireClient, workspace: Workspace) -> None:
    uri = (workspace.folder / "never-opened.jsonl").as_uri()
    with server.bound(BOUND):
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [_change((0, 0), (0, 0), NEW_ENTRY)]})
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        assert server.result("sessionLsp/tree", {"textDocument": {"uri": uri}}) is None
    assert_still_serving(server, workspace)


def test_a_burst_of_changes_then_a_request_sees_them_all(server: WireClient, workspace: Workspace) -> None:
    """200 one-character edits sent at once (each appends to the question's text); the request after them sees
    the text they leave, and answers within the bound."""
    uri = workspace.scratch
    version = server.next_id()
    at = LINES[1].index("Where is the parser?") + len("Where is the parser")
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": TEXT}]})
    for n in range(200):
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version + 1 + n},
                                                 "contentChanges": [_change((1, at + n), (1, at + n), "!")]})
    with server.bound(BOUND):
        tree = server.result("sessionLsp/tree", {"textDocument": {"uri": uri}})
    expected = TEXT.replace("parser?", "parser" + "!" * 200 + "?")
    assert tree == _tree(expected, uri)
    assert_still_serving(server, workspace)


# every request on a URI that is not open, and at impossible positions ------------------------------------------

def _at(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


def _span(line: int, character: int) -> dict[str, Any]:
    return {"start": _at(0, 0), "end": _at(line, character)}


REQUESTS: list[tuple[str, Callable[[int, int], dict[str, Any]]]] = [
    ("textDocument/hover", lambda ln, col: {"position": _at(ln, col)}),
    ("textDocument/definition", lambda ln, col: {"position": _at(ln, col)}),
    ("textDocument/references", lambda ln, col: {"position": _at(ln, col), "context": {"includeDeclaration": True}}),
    ("textDocument/prepareRename", lambda ln, col: {"position": _at(ln, col)}),
    ("textDocument/rename", lambda ln, col: {"position": _at(ln, col), "newName": "fresh-id"}),
    ("textDocument/completion", lambda ln, col: {"position": _at(ln, col)}),
    ("textDocument/selectionRange", lambda ln, col: {"positions": [_at(ln, col), _at(0, 0)]}),
    ("textDocument/codeAction", lambda ln, col: {"range": _span(ln, col), "context": {"diagnostics": []}}),
    ("textDocument/inlayHint", lambda ln, col: {"range": _span(ln, col)}),
    ("textDocument/documentSymbol", lambda ln, col: {}),
    ("textDocument/foldingRange", lambda ln, col: {}),
    ("textDocument/codeLens", lambda ln, col: {}),
    ("sessionLsp/tree", lambda ln, col: {}),
    ("sessionLsp/context", lambda ln, col: {"line": ln}),
]
NO_DOCUMENT: dict[str, Any] = {"textDocument/diagnostic": {"kind": "full", "items": []}}
"""What a request on a URI that is not open returns when it is not null."""
POSITIONED = {method for method, make in REQUESTS if make(1, 1) != make(0, 0)}


def _positions(value: Any) -> Iterator[tuple[int, int]]:
    if isinstance(value, dict):
        if set(value) == {"line", "character"}:
            yield value["line"], value["character"]
        for item in value.values():
            yield from _positions(item)
    elif isinstance(value, list):
        for item in value:
            yield from _positions(item)


@pytest.mark.parametrize(("method", "make"), [*REQUESTS, ("textDocument/diagnostic", lambda ln, col: {})],
                         ids=[method for method, _ in REQUESTS] + ["textDocument/diagnostic"])
def test_every_request_on_a_uri_that_is_not_open(server: WireClient, workspace: Workspace, method: str,
                                                 make: Callable[[int, int], dict[str, Any]]) -> None:
    params = {"textDocument": {"uri": "file:///nowhere/unknown.jsonl"}, **make(1, 1)}
    with server.bound(BOUND):
        assert server.result(method, params) == NO_DOCUMENT.get(method)
    assert_still_serving(server, workspace)


@pytest.mark.parametrize("where", [(MAX_UINTEGER, MAX_UINTEGER), (1, MAX_UINTEGER), (10**6, 0)],
                         ids=["largest position", "past the end of a line", "past the last line"])
@pytest.mark.parametrize(("method", "make"), REQUESTS, ids=[method for method, _ in REQUESTS])
def test_every_request_past_the_end(server: WireClient, workspace: Workspace, method: str,
                                    make: Callable[[int, int], dict[str, Any]], where: tuple[int, int]) -> None:
    """A position past a line or the document means its end; whatever comes back lies inside the document."""
    with server.bound(BOUND):
        answer = server.request(method, {"textDocument": {"uri": workspace.good}, **make(*where)})
    if method == "textDocument/rename" and "error" in answer:
        assert answer["error"]["code"] == REQUEST_FAILED  # nothing renamable at the end of the file
    else:
        assert "error" not in answer, answer
        lines = TEXT.split("\n")
        for line, character in _positions(answer["result"]):
            assert 0 <= line < len(lines) and 0 <= character <= len(lines[line]), (line, character)
    assert_still_serving(server, workspace)


@pytest.mark.parametrize("where", [(-1, 0), (0, -1), (2**31, 0)], ids=["negative line", "negative character",
                                                                       "line past 31 bits"])
@pytest.mark.parametrize("method", sorted(POSITIONED - {"sessionLsp/context"}))
def test_a_position_outside_lsp_integers_is_invalid_params(server: WireClient, workspace: Workspace, method: str,
                                                           where: tuple[int, int]) -> None:
    make = dict(REQUESTS)[method]
    with server.bound(BOUND):
        answer = server.request(method, {"textDocument": {"uri": workspace.good}, **make(*where)})
    assert answer["error"]["code"] == INVALID_PARAMS
    assert_still_serving(server, workspace)


@pytest.mark.parametrize("line", [-5, 10**12], ids=["negative", "huge"])
def test_context_for_a_line_that_is_not_an_entry_is_the_leafs(server: WireClient, workspace: Workspace,
                                                               line: int) -> None:
    with server.bound(BOUND):
        context = server.result("sessionLsp/context", {"textDocument": {"uri": workspace.good}, "line": line})
    assert context["leaf"] == 2 and [m["role"] for m in context["messages"]] == ["user", "assistant"]
    assert_still_serving(server, workspace)


@pytest.mark.parametrize(("arguments", "code"), [
    (["file:///nowhere/unknown.jsonl", 3], None),
    (["file:///nowhere/unknown.jsonl"], INVALID_PARAMS),
    ([], INVALID_PARAMS),
    ([5, "three"], INVALID_PARAMS),
], ids=["unknown URI", "missing line", "no arguments", "wrong types"])
def test_reveal_line_with_odd_arguments(server: WireClient, workspace: Workspace, arguments: list[Any],
                                        code: int | None) -> None:
    """This client cannot show documents, so a well-formed command answers false; a malformed one is refused."""
    with server.bound(BOUND):
        answer = server.request("workspace/executeCommand",
                                {"command": "sessionLsp.revealLine", "arguments": arguments})
    assert (answer["error"]["code"] if code is not None else answer["result"]) == (code or False)
    assert_still_serving(server, workspace)


def test_an_unknown_command_is_invalid_params(server: WireClient, workspace: Workspace) -> None:
    with server.bound(BOUND):
        answer = server.request("workspace/executeCommand", {"command": "sessionLsp.noSuchCommand"})
    assert answer["error"]["code"] == INVALID_PARAMS
    assert_still_serving(server, workspace)


# sessionLsp/analyzeFile on paths that are not files ----------------------------------------------------------

@pytest.mark.parametrize("kind", ["directory", "/dev/zero", "FIFO", "missing file", "empty path", "not a string",
                                  "a NUL in the path", "a lone surrogate in the path"])
def test_analyze_file_refuses_at_once(server: WireClient, workspace: Workspace, tmp_path: Path, kind: str) -> None:
    """Each answers with an error well within the bound: nothing blocks on a FIFO nobody writes or reads forever. A
    path no file can have (a NUL, a surrogate no file name decodes to) is invalid params, not an internal error."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    path: Any = {"directory": str(tmp_path), "/dev/zero": "/dev/zero", "FIFO": str(fifo),
                 "missing file": str(tmp_path / "missing.jsonl"), "empty path": "", "not a string": 7,
                 "a NUL in the path": workspace.folder.joinpath("good.jsonl\0x").as_posix(),
                 "a lone surrogate in the path": str(tmp_path / "\ud800.jsonl")}[kind]
    with server.bound(BOUND):
        answer = server.request("sessionLsp/analyzeFile", {"path": path})
    code = REQUEST_FAILED if kind in ("directory", "/dev/zero", "FIFO", "missing file") else INVALID_PARAMS
    assert answer["error"]["code"] == code
    assert_still_serving(server, workspace)


# rename to awkward names ---------------------------------------------------------------------------------------

def _apply(text: str, edits: list[dict[str, Any]]) -> str:
    """Apply LSP text edits (ASCII text, so UTF-16 columns are code points), last first."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                       reverse=True):
        start, end = edit["range"]["start"], edit["range"]["end"]
        joined = lines[start["line"]][:start["character"]] + edit["newText"] + lines[end["line"]][end["character"]:]
        lines[start["line"]:end["line"] + 1] = joined.split("\n")
    return "\n".join(lines)


@pytest.mark.parametrize("new_name", ['say "hi"', "back\\slash", "two\nlines", "tab\there", "\u2028", "a" * 5000,
                                      "'; DROP TABLE", "}\n{"],
                         ids=["quotes", "backslash", "newline", "tab", "line separator", "long", "sql", "braces"])
def test_rename_writes_the_name_as_a_json_string(server: WireClient, workspace: Workspace, new_name: str) -> None:
    """Any string is an id pi can use; the edit writes it escaped, so every line stays one JSON object and the id
    and the reference to it both read back as exactly the new name."""
    col = LINES[1].index("a1b2c3d4") + 2
    with server.bound(BOUND):
        edit = server.result("textDocument/rename", {"textDocument": {"uri": workspace.good},
                                                     "position": _at(1, col), "newName": new_name})
    (change,) = edit["documentChanges"]
    assert change["textDocument"] == {"uri": workspace.good, "version": 1}
    records = [json.loads(line) for line in _apply(TEXT, change["edits"]).split("\n") if line]
    assert len(records) == len(LINES)
    assert records[1]["id"] == new_name and records[2]["parentId"] == new_name
    assert_still_serving(server, workspace)


@pytest.mark.parametrize("new_name", ["", "b2c3d4e5", "root", "\ud800"],
                         ids=["empty", "an existing id", "root", "lone surrogate"])
def test_rename_refuses_a_name_that_would_break_the_file(server: WireClient, workspace: Workspace,
                                                         new_name: str) -> None:
    col = LINES[1].index("a1b2c3d4") + 2
    with server.bound(BOUND):
        answer = server.request("textDocument/rename", {"textDocument": {"uri": workspace.good},
                                                        "position": _at(1, col), "newName": new_name})
    assert answer["error"]["code"] == REQUEST_FAILED
    assert_still_serving(server, workspace)


# cancellation --------------------------------------------------------------------------------------------------

def test_a_flood_of_cancels_for_unknown_ids(server: WireClient, workspace: Workspace) -> None:
    for n in range(300):
        server.notify("$/cancelRequest", {"id": 10**6 + n if n % 2 else f"nobody-{n}"})
    server.notify("$/cancelRequest", {"id": None})
    server.notify("$/cancelRequest", {})
    assert_still_serving(server, workspace)


def test_cancelling_requests_in_flight(server: WireClient, workspace: Workspace) -> None:
    """Every cancelled request still gets its answer (LSP): a result, or RequestCancelled; and edits queued behind
    a cancelled read still apply in order."""
    uri = workspace.scratch
    version = server.next_id()
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": TEXT}]})
    reads = [(method, make) for method, make in REQUESTS if method != "textDocument/rename"]
    started = []
    for n in range(60):
        method, make = reads[n % len(reads)]
        started.append(server.start(method, {"textDocument": {"uri": uri}, **make(1, 5)}))
        server.notify("$/cancelRequest", {"id": started[-1]})
        if n % 10 == 0:
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version + 1 + n},
                                                     "contentChanges": [_change((1, 0), (1, 0), " ")]})
    with server.bound(BOUND):
        for msg_id in started:
            answer = server.response(msg_id)
            assert "result" in answer or answer["error"]["code"] == CANCELLED, answer
        tree = server.result("sessionLsp/tree", {"textDocument": {"uri": uri}})
    expected = TEXT.replace(LINES[1], " " * 6 + LINES[1])
    assert tree == _tree(expected, uri)
    assert_still_serving(server, workspace)


def test_a_hung_server_fails_the_case_instead_of_hanging_it(tmp_path: Path) -> None:
    """The bound itself: a server that never answers (stopped) is a ServerTimeout within the bound."""
    client = _start(tmp_path, "stopped")
    try:
        client.initialize()
        os.kill(client.process.pid, signal.SIGSTOP)
        with client.bound(1.0), pytest.raises(ServerTimeout):
            client.request("textDocument/hover", UNKNOWN_URI)
    finally:
        client.close()


# the end of a session: after shutdown, and while a first analysis runs -------------------------------------------

def _long_session(entries: int) -> str:
    """A clean session of `entries` messages in one chain: a first analysis of a second or so."""
    lines = [LINES[0]]
    for n in range(1, entries + 1):
        lines.append(_line(_message(f"{n:08x}", f"{n - 1:08x}" if n > 1 else None, n % 60,
                                    "user" if n % 2 else "assistant", f"message {n} " + "lorem ipsum " * 20)))
    return "\n".join(lines) + "\n"


def test_requests_after_shutdown_are_invalid_request(tmp_path: Path, workspace: Workspace) -> None:
    """LSP: after `shutdown` every request but `exit` is answered with InvalidRequest (pygls left them unanswered,
    so a client waited forever), notifications are dropped, and `exit` still ends the server with status 0."""
    client = _start(tmp_path, "after-shutdown")
    try:
        with client.bound(BOUND):
            client.initialize()
            _open(client, workspace.good)
            assert client.result("shutdown") is None
            client.notify("textDocument/didChange", {"textDocument": {"uri": workspace.good, "version": 2},
                                                     "contentChanges": [{"text": ""}]})
            document = {"textDocument": {"uri": workspace.good}}
            for method, params in [("textDocument/hover", {**document, "position": _at(PROBE_LINE, PROBE_COL)}),
                                   ("textDocument/documentSymbol", document), ("sessionLsp/tree", document),
                                   ("sessionLsp/noSuchThing", {}), ("shutdown", None)]:
                answer = client.request(method, params)
                assert answer["error"]["code"] == INVALID_REQUEST, (method, answer)
                assert "after shutdown" in answer["error"]["message"]
        client.notify("exit")
        assert client.wait_exit(BOUND) == 0
        assert "Traceback" not in client.stderr()
        assert client.stray() == {}
    finally:
        client.close()


@pytest.mark.parametrize(("shutdown", "ending", "status"), [
    (False, "exit", 1), (True, "exit", 0), (False, "end of input", 1), (True, "end of input", 0),
], ids=["exit", "shutdown, exit", "end of input", "shutdown, end of input"])
def test_the_end_during_a_first_analysis(tmp_path: Path, shutdown: bool, ending: str, status: int) -> None:
    """`exit` or the end of the input while a large file's first analysis runs: the documented status (LSP: 0 after
    `shutdown`, else 1), at most one line on stderr, and no traceback (the cancelled analysis used to raise inside
    an event loop callback)."""
    uri = (tmp_path / "long.jsonl").as_uri()
    client = _start(tmp_path, "first-analysis")
    try:
        with client.bound(BOUND):
            client.initialize()
            opening = encode({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "jsonl", "version": 1, "text": _long_session(30_000)}}})
            closing = [encode({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})] if shutdown else []
            if ending == "exit":
                closing.append(encode({"jsonrpc": "2.0", "method": "exit"}))
            client.send_raw(b"".join(frame(body) for body in [opening, *closing]))
            if shutdown:
                assert client.response("bye")["result"] is None
            if ending == "end of input":
                assert client.process.stdin is not None
                client.process.stdin.close()
        assert client.wait_exit(BOUND) == status
        stderr = client.stderr()
        assert "Traceback" not in stderr and len(stderr.splitlines()) <= 1, stderr
        if ending == "end of input" and not shutdown:
            assert "without shutdown and exit" in stderr
    finally:
        client.close()


# lone surrogates: the server's text stays the editor's ---------------------------------------------------------

def _saved(buffer: str) -> str:
    """The editor's buffer as the server should hold it: a valid surrogate pair is its character, a lone surrogate
    U+FFFD (what the editor writes for it when it saves as UTF-8)."""
    return buffer.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _client_units(text: str, col: int, encoding: str) -> int:
    """A code-point column of text without surrogates in the client's units (counted here, not by the server)."""
    head = text[:col]
    return {"utf-16": len(head.encode("utf-16-le")) // 2, "utf-8": len(head.encode("utf-8")), "utf-32": len(head)}[
        encoding]


def _buffer_units(buffer: str, index: int, encoding: str) -> int:
    """An index into the editor's buffer in the client's units (a UTF-16 buffer holds one unit per index)."""
    if encoding == "utf-16":
        return index
    head = buffer[:index]
    return len(head.encode("utf-8", "surrogatepass")) if encoding == "utf-8" else len(head)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_lone_surrogates_keep_the_text_and_the_diagnostics(tmp_path: Path, encoding: str) -> None:
    """A UTF-16 client can send a lone surrogate (`"\\ud800"` in its JSON). Every edit on its line must land where
    it lands in the editor (they were dropped: the server's text went its own way), and diagnostics must keep
    coming (publishing raised): after each edit, the tree and the published diagnostics are those of the editor's
    text as it would be saved, with positions counted in the client's units."""
    uri = (tmp_path / "surrogates.jsonl").as_uri()
    text = TEXT.replace("Where is the parser?", "Where \ud800 is the \U0001f600 parser?")
    # the editor's buffer: for a UTF-16 client one index per UTF-16 unit (an astral character is two), else code
    # points; json.dumps writes either as the same escapes
    units = text.encode("utf-16-le", "surrogatepass")
    buffer = "".join(chr(int.from_bytes(units[i:i + 2], "little")) for i in range(0, len(units), 2)) \
        if encoding == "utf-16" else text
    lines = buffer.split("\n")
    client = _start(tmp_path, f"surrogates-{encoding}")
    try:
        with client.bound(BOUND):
            assert client.initialize(encoding)["capabilities"]["positionEncoding"] == encoding
            _open(client, uri, buffer)
            version = 1
            client.diagnostics(uri, version)
            edits = [("after the surrogate", "\ud800 ", 1, 0, "X"),
                     ("the closing quote", 'parser?"', 7, 1, ""),
                     ("the quote again", "parser?", 7, 0, '"'),
                     ("a second surrogate", "parser", 0, 0, "\udfff"),
                     ("the first surrogate away", "\ud800", 0, 1, "")]
            if encoding == "utf-16":
                edits.append(("between the halves of an emoji", "\ude00", 0, 0, "Y"))
            for name, needle, offset, length, new in edits:
                line = lines[1]
                start = line.index(needle) + offset
                at = {"line": 1, "character": _buffer_units(line, start, encoding)}
                end = {"line": 1, "character": _buffer_units(line, start + length, encoding)}
                lines[1] = line[:start] + new + line[start + length:]
                version += 1
                client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [{"range": {"start": at, "end": end},
                                                                             "text": new}]})
                saved = _saved("\n".join(lines))
                published = client.diagnostics(uri, version)
                assert client.result("sessionLsp/tree", {"textDocument": {"uri": uri}}) == _tree(saved, uri), name
                path = uri.removeprefix("file://")
                saved_lines = saved.split("\n")
                expected = sorted(
                    (d.code, d.span.line, _client_units(saved_lines[d.span.line], d.span.start, encoding),
                     d.span.end_line, _client_units(saved_lines[d.span.end_line], d.span.end, encoding))
                    for d in analyze(saved, Options(path=path, exists=os.path.exists)).diagnostics()
                    if d.code != "SLS001")
                assert sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                               d["range"]["end"]["line"], d["range"]["end"]["character"])
                              for d in published) == expected, name
        assert "Traceback" not in client.stderr()
    finally:
        client.close()


# invalid UTF-8 on disk: an edited document says what a fresh open of its text says -----------------------------

def _shape(diagnostics: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"],
                   d["range"]["end"]["line"], d["range"]["end"]["character"], d["message"]) for d in diagnostics)


def test_invalid_utf8_follows_edits_as_a_fresh_open_sees_it(tmp_path: Path) -> None:
    """The editor shows the file's invalid bytes as U+FFFD. ELY006 used to vanish after any edit, even one undone
    at once, while a fresh server opening the same text reported it. Now a line of the editor's text that is a line
    of the disk as the editor decoded it carries ELY006, edited or not, undone or not, in the open document as in a
    fresh open; once the editor saves (valid UTF-8, U+FFFD written), neither reports it."""
    path = tmp_path / "bad.jsonl"
    data = TEXT.encode().replace(b"the parser", b"the p\xffrser").replace(b"src/parse", b"src/p\xc3(rse")
    path.write_bytes(data)
    shown = data.decode("utf-8", "replace")  # what the editor decodes and sends
    uri = path.as_uri()
    editor, fresh = _start(tmp_path, "incremental"), _start(tmp_path, "fresh")
    try:
        with editor.bound(BOUND):
            editor.initialize()
            fresh.initialize()
            lines = shown.split("\n")
            versions = iter(range(1, 100))

            def fresh_open() -> list[tuple[Any, ...]]:
                version = next(versions)
                _open(fresh, uri, "\n".join(lines), version)
                found = fresh.diagnostics(uri, version)
                fresh.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
                return _shape(found)

            _open(editor, uri, shown)
            opened = editor.diagnostics(uri, 1)
            assert _shape(opened) == fresh_open()
            (utf8,) = [d for d in opened if d["code"] == "ELY006"]
            start = utf8["range"]["start"]
            assert (start["line"], start["character"]) == (1, lines[1].index("\ufffd"))
            assert "the editor shows each invalid byte sequence as U+FFFD" in utf8["message"]
            assert "saving writes that character" in utf8["message"]
            version = 1
            cwd = lines[0].index("/project") + len("/project")
            at = lines[1].index("\ufffd") + 1
            steps = [("an edit elsewhere", 0, cwd, 0, "x", {1, 2}), ("its undo", 0, cwd, 1, "", {1, 2}),
                     ("an edit of a decoded line", 1, at, 0, "y", {2}), ("its undo", 1, at, 1, "", {1, 2})]
            for name, line, col, length, new, marked in steps:
                version += 1
                editor.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                         "contentChanges": [_change((line, col), (line, col + length),
                                                                                    new)]})
                lines[line] = lines[line][:col] + new + lines[line][col + length:]
                found = _shape(editor.diagnostics(uri, version))
                assert found == fresh_open(), name
                reports = [d for d in editor.diagnostics(uri, version) if d["code"] == "ELY006"]
                related = {r["location"]["range"]["start"]["line"]
                           for d in reports for r in d.get("relatedInformation", [])}
                assert {d["range"]["start"]["line"] for d in reports} | related == marked, name
            pushes = len(editor.published)
            path.write_text("\n".join(lines), encoding="utf-8")  # the editor saves: U+FFFD is written
            editor.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
            deadline = time.monotonic() + BOUND
            while len(editor.published) == pushes:
                assert time.monotonic() < deadline, "no diagnostics after the save"
                time.sleep(0.05)
            saved = _shape(editor.published[-1]["diagnostics"])
            assert saved == fresh_open() and not [d for d in saved if d[0] == "ELY006"]
        assert "Traceback" not in editor.stderr() + fresh.stderr()
    finally:
        editor.close()
        fresh.close()
