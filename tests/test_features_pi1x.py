"""The editor features on what pi 1.x added (spec §7.1): `usage` and `context_edit` entries and the `system` role,
for both targets. pi 1.6 writes them; pi 0.73 keeps them and ignores them, and the features say which."""

from __future__ import annotations

import re

import pytest

from session_lsp.analysis import Options, analyze, features
from session_lsp.analysis.document import Document

NOW = "2026-03-01T09:00:05.000Z"
HEADER = ('{"type":"session","version":3,"id":"019dcd91-86ff-737d-86b6-08c8e5ec7284",'
          '"timestamp":"2026-03-01T09:00:00.000Z","cwd":"/p"}')
LINES = [
    HEADER,
    '{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z","message":'
    '{"role":"system","content":"You are pi.","sections":{"tools":"bash"},"timestamp":1772355601000}}',
    '{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2026-03-01T09:00:02.000Z","message":'
    '{"role":"user","content":"hi","timestamp":1772355602000}}',
    '{"type":"usage","id":"a0000003","parentId":"a0000002","timestamp":"2026-03-01T09:00:03.000Z",'
    '"kind":"cache_warm","provider":"anthropic","model":"claude","usage":{"input":1,"output":2,"cacheRead":0,'
    '"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}',
    '{"type":"context_edit","id":"a0000004","parentId":"a0000003","timestamp":"2026-03-01T09:00:04.000Z",'
    '"targetId":"a0000002","replacement":{"content":"hello"}}',
]

# (line, the value hovered, the card's heading, fields the card lists, the title in the outline and the tree)
KINDS = [
    (1, '"system"', "**role `system`**", ["sections", "toolsAdded", "toolsRemoved"], "system: You are pi."),
    (3, '"usage"', "**type `usage`**", ["kind", "provider", "model", "usage"],
     "usage cache_warm (hidden in pi's /tree)"),
    (4, '"context_edit"', "**type `context_edit`**", ["targetId", "replacement"], "context_edit edits a0000002"),
]


def document(pi_version: str | None = None, extra: str | None = None) -> Document:
    lines = LINES if extra is None else [*LINES, extra]
    return analyze("\n".join(lines) + "\n", Options(pi_version=pi_version))


@pytest.mark.parametrize(("line", "value", "heading", "fields", "title"), KINDS)
def test_hover_on_the_type_or_role_lists_its_fields(line: int, value: str, heading: str, fields: list[str],
                                                     title: str) -> None:
    card = features.hover(document(), line, LINES[line].index(value) + 1)
    assert card is not None and card.markdown.startswith(heading)
    for field in fields:
        assert f"- `{field}`:" in card.markdown


@pytest.mark.parametrize(("line", "value", "heading", "fields", "title"), KINDS)
def test_outline_and_tree_title_each_kind(line: int, value: str, heading: str, fields: list[str], title: str) -> None:
    doc = document()
    assert title in [symbol.name for symbol in features.document_symbols(doc)]
    assert {"line": line, "title": title} == {key: node[key] for node in features.tree(doc)["nodes"]
                                             if node["line"] == line for key in ("line", "title")}


def test_the_leaf_lens_and_hint_stand_on_a_context_edit() -> None:
    doc = document()
    assert [(lens.span.line, lens.title) for lens in features.code_lenses(doc)] == [
        (4, "● leaf: pi resumes from this entry (the last line, not the deepest or newest)")]
    assert [(hint.line, hint.label) for hint in features.inlay_hints(doc, 0, 5)] == [(4, "● leaf")]


def labels_and_details(pi_version: str | None, typed: str) -> dict[str, str]:
    doc = document(pi_version, typed)
    items = features.completions(doc, len(LINES), len(typed), NOW)
    return {item.label: item.detail for item in items}


TYPE_PREFIX = '{"type":"'
ROLE_PREFIX = ('{"type":"message","id":"a0000005","parentId":"a0000004","timestamp":"2026-03-01T09:00:05.000Z",'
               '"message":{"role":"')


@pytest.mark.parametrize(("typed", "value"), [(TYPE_PREFIX, "usage"), (TYPE_PREFIX, "context_edit"),
                                              (ROLE_PREFIX, "system")])
def test_completion_offers_the_new_values_and_marks_them_for_pi_073(typed: str, value: str) -> None:
    newest = labels_and_details(None, typed)
    old = labels_and_details("0.73", typed)
    assert value in newest and "ignores" not in newest[value]
    assert old[value].endswith("(pi 0.73 ignores it: pi 1.x's)")
    assert "ignores" not in old["message" if typed == TYPE_PREFIX else "user"]


@pytest.mark.parametrize(("key", "newest", "old"), [
    ("thinkingLevel", ["off", "minimal", "low", "medium", "high", "xhigh", "max"],
     ["off", "minimal", "low", "medium", "high", "xhigh"]),
    ("stopReason", ["stop", "length", "toolUse", "error", "aborted", "deferred"],
     ["stop", "length", "toolUse", "error", "aborted"]),
])
def test_levels_and_stop_reasons_are_the_targets(key: str, newest: list[str], old: list[str]) -> None:
    """`pending` is never offered: pi 1.6 knows it but never writes it (ELY068)."""
    typed = ('{"type":"message","id":"a0000005","parentId":"a0000004","timestamp":"2026-03-01T09:00:05.000Z",'
             f'"message":{{"role":"assistant","{key}":"')
    assert list(labels_and_details(None, typed)) == newest
    assert list(labels_and_details("0.73", typed)) == old


_PLACEHOLDER = re.compile(r"\$\{\d+:([^}]*)\}|\$\{\d+\|([^,|]*)[^}]*\}|\$\d+")


def expand(snippet: str) -> str:
    """What the editor inserts when every placeholder keeps its default (a choice: its first option)."""
    return _PLACEHOLDER.sub(lambda found: found.group(1) or found.group(2) or "", snippet)


@pytest.mark.parametrize("label", ["system message entry", "usage entry", "context_edit entry"])
@pytest.mark.parametrize("pi_version", [None, "0.73"])
def test_new_entry_snippets_write_entries_the_target_reads(label: str, pi_version: str | None) -> None:
    doc = document(pi_version, "")
    item = next(item for item in features.completions(doc, len(LINES), 0, NOW) if item.label == label)
    assert item.is_snippet
    assert item.detail.endswith("(pi 0.73 ignores it: pi 1.x's)") == (pi_version == "0.73")
    written = document(pi_version, expand(item.insert_text))
    on_it = {d.code for d in written.diagnostics() if d.span.line == len(LINES)}
    expected = {"ELY047"}  # the new line is the leaf
    if pi_version == "0.73":
        expected.add("ELY060" if label.startswith("system") else "ELY030")
    if label == "context_edit entry" and pi_version is None:
        expected.add("ELY058")  # the default targetId is the entry above, itself a context_edit (pi 0.73 ignores
        # the whole entry: ELY030)
    assert on_it == expected
