"""The table of formats: every `Kind` has a face, and each face keeps the `Format` protocol with facts that hold
for its own files (its schema reads them, it recognises them and no other face does, its codes are rules)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest

from session_lsp.analysis import analyze
from session_lsp.analysis.detect import Kind
from session_lsp.analysis.diagnostics import Severity
from session_lsp.analysis.document import TwoPassAnalyzer
from session_lsp.analysis.editing import ObjectTemplate
from session_lsp.analysis.formats import FORMATS, Format, detect, format_for
from session_lsp.analysis.lines import decode
from session_lsp.analysis.registry import RULES, rule
from session_lsp.analysis.results import Options, Session

TESTS = Path(__file__).parent
GOOD = {
    Kind.ELYRA: TESTS / "corpus" / "elyra-pi-written" / "linear.jsonl",
    Kind.THNDRS: TESTS / "cases" / "thndrs" / "clean-full-session.jsonl",
    Kind.CLAUDE: TESTS / "corpus" / "claude-code-2.1.332-written" / "d4e1977c-4507-4cf2-8923-34a626a3b3be.jsonl",
    Kind.CODEX: TESTS / "corpus" / "codex-0.171.0-written"
    / "rollout-2026-12-05T08-14-35-01a24544-ef77-76d2-ad46-9e07c57223d1.jsonl",
    Kind.UNKNOWN: TESTS / "cases" / "plain" / "SLS001-ordinary-jsonl.jsonl",
}
SESSIONS = (Kind.ELYRA, Kind.THNDRS, Kind.CLAUDE, Kind.CODEX)
TEMPLATED = (Kind.ELYRA, Kind.THNDRS, Kind.CLAUDE)
"""The formats whose faces offer line templates (Codex offers none yet: `first_line`/`new_lines` answer nothing)."""
MEMBERS = sorted(name for name in vars(Format) if not name.startswith("_"))
SESSION_MEMBERS = sorted(name for name in vars(Session) if not name.startswith("_"))
NOW = datetime(2026, 3, 1, 9, 15, tzinfo=UTC)


def _parameters(function: Callable[..., object]) -> list[str]:
    return list(inspect.signature(function).parameters)


def _lines(kind: Kind) -> list[str]:
    return [line for line in GOOD[kind].read_text(encoding="utf-8").splitlines() if line.strip()]


def _fields(root: object) -> set[str]:
    """Every JSON key some object of the schema can have."""
    found: set[str] = set()
    seen: set[type] = set()

    def walk(t: msgspec.inspect.Type) -> None:
        if isinstance(t, msgspec.inspect.StructType):
            if t.cls in seen:
                return
            seen.add(t.cls)
            for field in t.fields:
                found.add(field.encode_name)
                walk(field.type)
        elif isinstance(t, msgspec.inspect.Metadata):
            walk(t.type)
        elif isinstance(t, msgspec.inspect.UnionType):
            for member in t.types:
                walk(member)
        elif isinstance(t, msgspec.inspect.ListType):
            walk(t.item_type)

    walk(msgspec.inspect.type_info(root))
    return found


def test_the_table_covers_every_kind_once() -> None:
    assert set(FORMATS) == set(Kind)
    for kind in Kind:
        assert format_for(kind).kind is kind
    assert len({id(face) for face in FORMATS.values()}) == len(Kind)


@pytest.mark.parametrize("kind", list(Kind), ids=lambda kind: kind.value)
def test_each_face_has_every_member_of_the_protocol(kind: Kind) -> None:
    face = format_for(kind)
    missing = [name for name in MEMBERS if not hasattr(face, name)]
    assert missing == []
    assert len(MEMBERS) > 25
    methods = [name for name in MEMBERS if inspect.isfunction(getattr(Format, name))]
    renamed = [name for name in methods if not inspect.isfunction(getattr(type(face), name, None))
               or _parameters(getattr(type(face), name)) != _parameters(getattr(Format, name))]
    assert renamed == []


@pytest.mark.parametrize("kind", list(Kind), ids=lambda kind: kind.value)
def test_each_file_s_session_has_every_member_of_the_protocol(kind: Kind) -> None:
    """The link pass of each format's good file gives its own session class (the null one for a plain file), with
    every `Session` member under the protocol's parameter names."""
    session = analyze("\n".join(_lines(kind)) + "\n").session
    assert type(session).__module__ == ("session_lsp.analysis.plain" if kind is Kind.UNKNOWN
                                        else f"session_lsp.analysis.{kind.name.lower()}.session")
    assert len(SESSION_MEMBERS) > 15
    renamed = [name for name in SESSION_MEMBERS if not inspect.isfunction(getattr(type(session), name, None))
               or _parameters(getattr(type(session), name)) != _parameters(getattr(Session, name))]
    assert renamed == []


@pytest.mark.parametrize("protocol", [Format, Session], ids=lambda protocol: protocol.__name__)
def test_no_protocol_member_takes_a_model(protocol: type) -> None:
    """Features never hand a link model back: a face is static, a session holds its own typed model."""
    taking = [name for name in vars(protocol) if inspect.isfunction(vars(protocol)[name])
              and "model" in _parameters(vars(protocol)[name])]
    assert taking == []
    assert "model" in _parameters(lambda self, model: None)  # the check sees a parameter so named


@pytest.mark.parametrize("kind", SESSIONS, ids=lambda kind: kind.value)
def test_the_schema_root_decodes_every_line_of_a_good_file(kind: Kind) -> None:
    root = format_for(kind).schema_root
    for line in _lines(kind):
        decoded = msgspec.json.decode(line, type=root)
        assert type(decoded).__struct_config__.tag == decode(line).value["type"]


@pytest.mark.parametrize("kind", list(Kind), ids=lambda kind: kind.value)
def test_a_good_file_is_recognised_by_its_own_face_only(kind: Kind) -> None:
    first = decode(_lines(kind)[0]).value
    verdicts = {other: face.recognise(first, 0) for other, face in FORMATS.items()}
    assert {other for other, info in verdicts.items() if info is not None} == ({kind} if kind in SESSIONS else set())
    assert detect(_lines(kind)).kind is kind


@pytest.mark.parametrize("kind", SESSIONS, ids=lambda kind: kind.value)
def test_the_face_s_passes_check_a_good_file_clean(kind: Kind) -> None:
    lines = [*_lines(kind), ""]
    info = detect(lines)
    analyzer = TwoPassAnalyzer(info, Options(), format_for(kind))
    results = [analyzer.line(line) for line in lines]
    assert [issue for result in results[:-1] for issue in result.issues] == []  # the last is the end of the file
    linked = analyzer.link(lines, results)
    assert linked.model is not None
    severities = [issue.severity or rule(issue.code).severity for issue in linked.issues]
    assert [severity for severity in severities if severity < Severity.INFORMATION] == []


def test_the_sessions_codes_are_rules_of_their_own_prefix() -> None:
    for kind, prefix in ((Kind.ELYRA, "ELY"), (Kind.THNDRS, "THN")):
        face = format_for(kind)
        assert face.utf8_issue is not None
        code, message = face.utf8_issue
        assert code in RULES and code.startswith(prefix) and "UTF-8" in message
        for field in _fields(face.schema_root):
            what, rule_code = face.dangling(field, None)
            assert what and (rule_code == "" or (rule_code in RULES and rule_code.startswith(prefix)))
    assert format_for(Kind.UNKNOWN).utf8_issue is None


@pytest.mark.parametrize("kind", list(Kind), ids=lambda kind: kind.value)
def test_every_fixer_s_rule_declares_its_applicability(kind: Kind) -> None:
    face = format_for(kind)
    assert [code for code in (*face.fixers, *face.renumbered) if rule(code).fix is None] == []


@pytest.mark.parametrize("kind", SESSIONS, ids=lambda kind: kind.value)
def test_the_fields_a_face_names_are_in_its_schema(kind: Kind) -> None:
    face = format_for(kind)
    fields = _fields(face.schema_root)
    named = {*face.file_fields, *face.renamed_with_id}
    for tag in {str(decode(line).value["type"]) for line in _lines(kind)}:
        required, stale = face.required_fields(3, tag)
        named |= required | stale
    assert named <= fields


def test_only_elyra_has_tree_fields_and_a_byte_order_mark_issue() -> None:
    elyra, thndrs = format_for(Kind.ELYRA), format_for(Kind.THNDRS)
    assert elyra.required_fields(3, "message")[0] == {"id", "parentId"}
    assert elyra.required_fields(1, "message") == (frozenset(), frozenset())
    assert thndrs.required_fields(3, "user") == (frozenset(), frozenset())
    for key in elyra.releases:
        issue = elyra.bom_issue(Options(pi_version=key), "\ufeff")
        assert issue is not None and issue.code == "ELY008" and key in issue.message
    assert thndrs.bom_issue(Options(), "\ufeff") is None


def test_each_pi_release_binds_its_own_line_pass() -> None:
    """A null line is what 0.73 and 1.6 read differently; each release's line pass says its own release's words."""
    elyra = format_for(Kind.ELYRA)
    assert set(elyra.releases) >= {"0.73", "1.6"}
    header = _lines(Kind.ELYRA)[0]
    for key in elyra.releases:
        found = [d for d in analyze(header + "\nnull\n", Options(pi_version=key)).diagnostics() if d.code == "ELY003"]
        assert [d.span.line for d in found] == [1]
        assert f"pi {key}" in found[0].message


@pytest.mark.parametrize("kind", TEMPLATED, ids=lambda kind: kind.value)
def test_the_first_line_template_names_a_variant_of_the_schema(kind: Kind) -> None:
    face = format_for(kind)
    template = face.first_line(NOW, None)
    assert template is not None
    tag_values = {str(tag) for tag in (decode(line).value["type"] for line in _lines(kind))}
    assert template.line.tags["type"] in tag_values
    assert face.recognise({**template.line.tags, **template.line.fixed}, 0) is not None
    assert format_for(Kind.UNKNOWN).first_line(NOW, None) is None


@pytest.mark.parametrize("kind", TEMPLATED, ids=lambda kind: kind.value)
def test_new_line_templates_at_the_end_of_a_good_file_continue_it(kind: Kind) -> None:
    document = analyze("\n".join(_lines(kind)) + "\n")
    face = document.face
    assert face is format_for(kind)
    templates = document.session.new_lines(document.results, len(document.lines) - 1, NOW)
    assert len(templates) > 5
    assert all(isinstance(template.line, ObjectTemplate) for template in templates)
    if kind is Kind.THNDRS:
        last_seq = max(decode(line).value["seq"] for line in _lines(kind))
        assert {template.line.fixed["seq"] for template in templates} == {last_seq + 1}
    elif kind is Kind.CLAUDE:
        last_uuid = next(value["uuid"] for value in map(lambda line: decode(line).value, reversed(_lines(kind)))
                         if "parentUuid" in value)
        assert {template.line.fixed["parentUuid"] for template in templates
                if "parentUuid" in template.line.fixed} == {last_uuid}
    else:
        last_id = decode(_lines(kind)[-1]).value["id"]
        assert {template.line.fixed["parentId"] for template in templates} == {last_id}


@pytest.mark.parametrize("tag", [[], {}, 3, None], ids=repr)
def test_a_first_object_whose_type_is_no_string_is_no_face_s(tag: object) -> None:
    envelope = {"schema_version": 1, "seq": 0, "time": "2026-03-01T09:15:00Z", "id": "a", "parentId": None}
    for face in FORMATS.values():
        assert face.recognise({"type": tag, **envelope}, 0) is None
