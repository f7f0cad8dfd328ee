"""Hand-crafting fixtures: `session-lsp new --format F` prints a minimal session its agent reads without a
warning, and `session-lsp schema F` prints the JSON Schema of one line, generated from the types the checker
decodes with, which accepts every line the real agents wrote."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import msgspec
import pytest

from session_lsp import cli
from session_lsp.analysis import Options, Severity, analyze
from session_lsp.analysis.formats import FORMATS

ROOT = Path(__file__).parent
NEW = sorted(cli.format_names(cli._is_session))
SCHEMAS = sorted(cli.format_names(cli._has_schema))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert cli.main(list(args)) == cli.EXIT_CLEAN
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_every_format_with_a_schema_offers_a_new_session() -> None:
    assert {face.kind for face in cli.format_names(cli._is_session).values()} == \
        {kind for kind, face in FORMATS.items() if face.schema_root is not None}
    assert all(face.sample(datetime.now(UTC)) for face in cli.format_names(cli._is_session).values())
    assert {"pi", "thndrs", "claude"} <= set(NEW)


@pytest.mark.parametrize("name", NEW)
def test_new_prints_a_session_that_checks_without_a_warning(name: str, capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    text = _run(capsys, "new", "--format", name)
    face = cli.format_names(cli._is_session)[name]
    document = analyze(text, Options())
    assert document.format.kind is face.kind
    assert len(document.lines) > 2 and text.endswith("\n")
    assert [d for d in document.diagnostics() if d.severity <= Severity.WARNING] == []
    target = tmp_path / "new.jsonl"
    target.write_text(text)
    assert cli.main(["check", "--fail-on", "warning", str(target)]) == cli.EXIT_CLEAN  # the named file, too
    capsys.readouterr()


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_is_a_valid_json_schema_that_accepts_new(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    schema = json.loads(_run(capsys, "schema", name))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for line in _run(capsys, "new", "--format", name).splitlines():
        assert validator.is_valid(json.loads(line)), line
    assert not validator.is_valid({"type": "no-such-record"})


def _validators() -> dict[object, jsonschema.Draft202012Validator]:
    return {kind: jsonschema.Draft202012Validator(msgspec.json.schema(face.schema_root))
            for kind, face in FORMATS.items() if face.schema_root is not None}


def _objects(path: Path) -> list[tuple[int, str, dict[str, object]]]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").split("\n")):
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):  # a case nested deeper than Python's json reads
            continue
        if isinstance(value, dict):
            out.append((number, line, value))
    return out


def test_the_schemas_accept_every_line_the_real_agents_wrote() -> None:
    validators = _validators()
    files = sorted((ROOT / "corpus").rglob("*.jsonl")) + sorted((ROOT.parent / "examples" / "clean").glob("*.jsonl"))
    files += sorted((ROOT / "cases").rglob("clean-*.jsonl"))
    checked = dict.fromkeys(validators, 0)
    for path in files:
        document = analyze(path.read_text(encoding="utf-8", errors="replace"), Options(path=str(path)))
        validator = validators.get(document.format.kind)
        if validator is None:
            continue
        for number, _line, value in _objects(path):
            problem = next(validator.iter_errors(value), None)
            assert problem is None, f"{path.name}:{number + 1}: {problem.message if problem else ''}"
            checked[document.format.kind] += 1
    assert all(checked.values()), checked  # every format's schema met real lines


def test_a_line_the_schema_refuses_is_one_the_checker_refuses_too() -> None:
    """Agreement with the typed decoder on every case file, broken ones included: the schema never refuses a line
    the checker reads as valid."""
    validators = _validators()
    refused = 0
    for path in sorted((ROOT / "cases").rglob("*.jsonl")):
        document = analyze(path.read_text(encoding="utf-8", errors="replace"), Options(path=str(path)))
        face = document.face
        validator = validators.get(document.format.kind)
        if validator is None:
            continue
        for number, line, value in _objects(path):
            if validator.is_valid(value):
                continue
            refused += 1
            with pytest.raises(msgspec.ValidationError):
                msgspec.json.decode(line.encode(), type=face.schema_root)
            assert document.diagnostics(), f"{path.name}:{number + 1}"
    assert refused > 20
