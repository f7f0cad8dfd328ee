"""Every reader of the core takes any JSON value in any field (tests/attack/confusion.py builds the inputs).

A deterministic sweep replaces every field of every entry shape of real files (Elyra from pi 0.73 and 1.6, v1 to
v3; thndrs) by each JSON kind, and runs the diagnostics (as `check` streams them and as the server holds them),
the context from every line, the tree, the outline, folds, lenses, hints, cards and quick fixes, and the positional
features (hover, definition, references, rename, completion, selection) at the mutated value and its key.
Hypothesis then mutates up to three places at once and runs the positional features at every token of every
mutated line and at every token start of the others, for either pi release.
"""

from __future__ import annotations

import subprocess
import sys
import traceback
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attack.confusion import (
    FILES,
    KINDS,
    ROOT,
    Mutation,
    around,
    exercise,
    mutate,
    mutations,
    paths,
    positions,
    sweep_plan,
)
from session_lsp.analysis import analyze, features
from session_lsp.analysis.text import split_lines

HEADER = '{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}'
USER = ('{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z",'
        '"message":{"role":"user","content":"hi","timestamp":1767225601000}}')
ASSISTANT = ('{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-01-01T00:00:02.000Z",'
             '"message":{"role":"assistant","content":[{"type":"text","text":"yo"}],"api":"x","provider":"p",'
             '"model":"m","usage":{},"stopReason":"stop","timestamp":1767225602000}}')


@cache
def plan() -> dict[Path, set[tuple[int, tuple[str | int, ...]]]]:
    return sweep_plan()


def _failure(mutation: Mutation | str, error: BaseException) -> str:
    where = traceback.extract_tb(error.__traceback__)[-1]
    return f"{mutation}: {type(error).__name__}: {error} at {where.filename}:{where.lineno}"


@pytest.mark.parametrize("role_or_stop", [("role", [1]), ("role", {"a": 1}), ("stopReason", ["error"]),
                                          ("stopReason", {"x": "aborted"})], ids=str)
def test_the_context_takes_a_role_or_stop_reason_of_the_wrong_type(role_or_stop: tuple[str, Any]) -> None:
    """ELY033 reports these; pi compares them with strings, so such a message is not sent (a role matches no
    branch of convertToLlm) or kept (a stop reason is neither error nor aborted)."""
    key, value = role_or_stop
    message = msgspec.json.decode(ASSISTANT)
    message["message"][key] = value
    if key == "role":  # pi 1.x fills a missing content by role: the role is looked up
        message["message"]["content"] = None
    document = analyze("\n".join([HEADER, USER, msgspec.json.encode(message).decode(), ""]))
    assert "ELY033" in {d.code for d in document.diagnostics()}
    roles = [m["role"] for m in features.context(document, 2)["messages"]]
    assert roles == (["user"] if key == "role" else ["user", "assistant"])


def test_session_lsp_context_prints_such_a_file(tmp_path: Path) -> None:
    message = msgspec.json.decode(ASSISTANT)
    message["message"]["stopReason"] = ["error"]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([HEADER, USER, msgspec.json.encode(message).decode(), ""]))
    run = subprocess.run([sys.executable, "-m", "session_lsp", "context", str(path)], capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert "sends 2 messages" in run.stdout


def test_the_sweep_covers_every_field_shape_of_the_files() -> None:
    """Not vacuous: thousands of mutations, over both formats, nested message fields and content blocks."""
    places = sum(len(places) for places in plan().values())
    assert places * len(KINDS) > 5000
    nested = {where for places in plan().values() for _, where in places if len(where) >= 3}
    assert ("message", "usage", "cost") in {where[:3] for where in nested}
    assert any(where[:2] == ("message", "content") and isinstance(where[2], int) for where in nested)
    assert any("thndrs" in str(path) and places for path, places in plan().items())


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_field_shape_replaced_by_every_json_kind(path: Path) -> None:
    failures: list[str] = []
    for mutation, text in mutations(path, plan()[path]):
        try:
            exercise(text, around(text, mutation.line, mutation.path))
        except Exception as error:  # collected, so one run lists every failing mutation of the file
            failures.append(_failure(mutation, error))
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} failures)"


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str, dict[int, list[int]]]:
    path = draw(st.sampled_from(FILES))
    lines = split_lines(path.read_bytes().decode())
    decoded = {}
    for number, line in enumerate(lines):
        try:
            decoded[number] = msgspec.json.decode(line)
        except msgspec.DecodeError:
            continue
    touched: list[str] = []
    mutated_lines: set[int] = set()
    for _ in range(draw(st.integers(1, 3))):
        number = draw(st.sampled_from(sorted(decoded)))
        where = draw(st.sampled_from([(), *paths(decoded[number])]))
        kind = draw(st.sampled_from(sorted(KINDS)))
        text = mutate(lines, number, decoded[number], where, KINDS[kind])
        lines = split_lines(text)
        decoded[number] = msgspec.json.decode(lines[number])
        touched.append(str(Mutation(path.name, number, where, kind)))
        mutated_lines.add(number)
    probes = {number: positions(line) if number in mutated_lines else
              sorted({col for col in positions(line)[::3]}) for number, line in enumerate(lines)}
    return "; ".join(touched), "\n".join(lines), probes


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated(), st.sampled_from(("0.73", "1.6")))
def test_several_fields_of_any_kind_at_every_position(case: tuple[str, str, dict[int, list[int]]],
                                                       release: str) -> None:
    name, text, probes = case
    try:
        exercise(text, probes, pi_versions=(release,))
    except Exception as error:
        raise AssertionError(_failure(name, error)) from error


def test_the_server_answers_the_context_of_such_a_file(tmp_path: Path) -> None:
    """sessionLsp/context answered -32603 (and logged a traceback) for a stop reason that is an array."""
    from attack.wire_client import WireClient

    message = msgspec.json.decode(ASSISTANT)
    message["message"]["stopReason"] = {"x": 1}
    uri = (tmp_path / "s.jsonl").as_uri()
    client = WireClient(tmp_path / "server.stderr", 60)
    try:
        client.initialize()
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "jsonl", "version": 1,
            "text": "\n".join([HEADER, USER, msgspec.json.encode(message).decode(), ""])}})
        result = client.result("sessionLsp/context", {"textDocument": {"uri": uri}, "line": 2})
        assert [m["role"] for m in result["messages"]] == ["user", "assistant"]
        assert "Traceback" not in client.stderr()
    finally:
        client.close()
