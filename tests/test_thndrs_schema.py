"""The thndrs 0.1.0 schema: the 27 variants, presence rules, enum spellings, integer bounds, writer round trip."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from msgspec import inspect as mi

from session_lsp.analysis import validate
from session_lsp.analysis.detect import Kind
from session_lsp.analysis.formats import detect
from session_lsp.analysis.thndrs import schema as s

DECODER = msgspec.json.Decoder(s.Record)
CLEAN = Path(__file__).parent / "cases" / "thndrs" / "clean-full-session.jsonl"


def _line(record_type: str, **fields: object) -> str:
    return json.dumps({"type": record_type, "schema_version": 1, "seq": 3, "time": "2026-04-27T08:10:29Z", **fields})


def _structs() -> list[type[msgspec.Struct]]:
    seen: list[type[msgspec.Struct]] = []

    def walk(t: mi.Type) -> None:
        if isinstance(t, mi.StructType):
            if t.cls in seen:
                return
            seen.append(t.cls)
            for field in t.fields:
                walk(field.type)
        elif isinstance(t, mi.Metadata):
            walk(t.type)
        elif isinstance(t, mi.UnionType):
            for member in t.types:
                walk(member)
        elif isinstance(t, (mi.ListType, mi.DictType)):
            walk(t.item_type if isinstance(t, mi.ListType) else t.value_type)

    walk(mi.type_info(s.Record))
    return seen


def test_the_27_variants_of_0_1_0_and_other_builds_types_are_detected() -> None:
    assert len(s.RECORD_TYPES) == 27
    assert not set(s.RECORD_TYPES) & set(s.OTHER_BUILD_TYPES)
    for tag in [*s.RECORD_TYPES, *s.OTHER_BUILD_TYPES]:
        assert detect([_line(tag)]).kind is Kind.THNDRS, tag
    assert detect([_line("started")]).kind is Kind.UNKNOWN  # the headless event stream's type


def test_every_struct_forbids_unknown_fields() -> None:
    structs = _structs()
    assert len(structs) > 40
    for cls in structs:
        assert cls.__struct_config__.forbid_unknown_fields, cls.__name__


def test_every_record_starts_with_the_envelope_and_is_tagged_by_type() -> None:
    for tag, cls in s.RECORD_TYPES.items():
        assert cls.__struct_fields__[:3] == ("schema_version", "seq", "time"), tag
        assert cls.__struct_config__.tag_field == "type"
        assert cls.__struct_config__.tag == tag


def test_the_clean_session_uses_every_record_type() -> None:
    lines = CLEAN.read_text(encoding="utf-8").splitlines()
    assert {type(DECODER.decode(line)) for line in lines} == set(s.RECORD_TYPES.values())


def test_writer_shaped_lines_re_encode_to_themselves() -> None:
    """What makes the duplicate-key check free: field order and omission follow thndrs's writer. (A shell record
    with a null exit_code is the one known exception: that struct both omits and writes optional fields.)"""
    encoder = msgspec.json.Encoder()
    lines = CLEAN.read_text(encoding="utf-8").splitlines()
    exact = [line for line in lines if encoder.encode(DECODER.decode(line)) == line.encode()]
    others = [line for line in lines if line not in exact]
    assert len(exact) == len(lines) - 2
    assert all('"type":"shell_exec"' in line and '"exit_code":null' in line for line in others)


@pytest.mark.parametrize("status", ["Running", "Ok", "Failed", "Cancelled"])
def test_tool_status_is_pascal_case(status: str) -> None:
    record = DECODER.decode(_line("tool_finished", turn_id="t", call_id="c", status=status, output=[]))
    assert isinstance(record, s.ToolFinished) and record.status == status


@pytest.mark.parametrize("status", ["ok", "OK", "running", "cancelled", "Canceled"])
def test_other_spellings_of_tool_status_are_rejected(status: str) -> None:
    with pytest.raises(msgspec.ValidationError):
        DECODER.decode(_line("tool_finished", turn_id="t", call_id="c", status=status, output=[]))


def test_option_fields_accept_absent_and_null() -> None:
    absent = DECODER.decode(_line("tool_started", turn_id="t", call_id="c", name="read", arguments="{}"))
    null = DECODER.decode(_line("tool_started", turn_id="t", call_id="c", name="read", arguments="{}", mcp=None))
    assert isinstance(absent, s.ToolStarted) and isinstance(null, s.ToolStarted)
    assert absent.mcp is None and null.mcp is None


def test_fields_written_as_null_may_also_be_absent() -> None:
    record = DECODER.decode(_line("file_write", turn_id="t", op="create", path="a", after_hash=1, after_bytes=2,
                                  status="Ok"))
    assert isinstance(record, s.FileWrite) and record.before_hash is None and record.before_bytes is None


def test_defaulted_fields_take_their_default_but_reject_null() -> None:
    line = _line("skill_activated", name="n", path="p", content_hash=1, byte_count=2, loaded_references=[])
    record = DECODER.decode(line)
    assert isinstance(record, s.SkillActivated) and record.rendered_content_hash == 0
    with pytest.raises(msgspec.ValidationError):
        DECODER.decode(line[:-1] + ', "rendered_byte_count": null}')


def test_required_fields_are_required() -> None:
    with pytest.raises(msgspec.ValidationError, match="websearch"):
        DECODER.decode(_line("session_meta", session_id="s", cwd="/", title="t", provider="p", model="m",
                             app_version="0.1.0"))


def test_u64_fields_carry_the_bound_validate_checks() -> None:
    value = json.loads(_line("usage", input_tokens=2**64 - 1, output_tokens=0))
    assert validate.check(value, s.Usage) == []
    value["input_tokens"] = 2**64
    issues = validate.check(value, s.Usage)
    assert [(issue.kind, issue.path) for issue in issues] == [(validate.IssueKind.RANGE, ("input_tokens",))]


def test_signed_and_32_bit_bounds() -> None:
    shell = dict(turn_id="t", command="c", cwd="/", process_status="ok", elapsed_ms=1, kind="one-shot")
    record = DECODER.decode(_line("shell_exec", exit_code=-(2**31), **shell))
    assert isinstance(record, s.ShellExec) and record.exit_code == -(2**31)
    with pytest.raises(msgspec.ValidationError):
        DECODER.decode(_line("shell_exec", exit_code=2**31, **shell))
    with pytest.raises(msgspec.ValidationError):
        DECODER.decode(_line("usage", input_tokens=1, output_tokens=2).replace('"schema_version": 1',
                                                                                 f'"schema_version": {2**32}'))


def test_the_type_tag_may_appear_anywhere() -> None:
    line = '{"schema_version":1,"seq":1,"time":"2026-04-27T08:10:29Z","turn_id":"t","text":"x","type":"user"}'
    assert isinstance(DECODER.decode(line), s.User)


def test_provenance_is_tagged_by_kind() -> None:
    value = msgspec.json.decode(b'{"value":1,"provenance":{"kind":"derived","rule":"r","version":"1"}}',
                                type=s.MeasuredValue)
    assert isinstance(value.provenance, s.Derived)
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"value":1,"provenance":{"kind":"guessed"}}', type=s.MeasuredValue)
