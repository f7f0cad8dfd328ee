"""The structure of a Claude Code file in the editor: folding ranges (a turn, a response with its calls' results),
inlay hints (what a turn holds, where a call is answered, the call a result answers, the resume leaf, what is not
sent), code lenses where the conversation branches, and the card of a tool call."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from claude_records import assistant, bookkeeping, call, prompt, result, text, text_of

from session_lsp.analysis import Document, Options, analyze, features

CORPUS = Path(__file__).parent / "corpus" / "claude-code-2.1.332-written"
LINEAR = CORPUS / "d4e1977c-4507-4cf2-8923-34a626a3b3be.jsonl"
SUBAGENT = CORPUS / "55eeea85-f327-48fb-9202-1c370ec15cd0.jsonl"
NAME = "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f.jsonl"

REWOUND = [
    bookkeeping(),                                   # 0
    prompt("u1", None, "List the files."),           # 1
    assistant("a1", "u1", "msg_1", call("t1")),      # 2
    result("r1", "a1", "t1"),                        # 3
    assistant("a2", "r1", "msg_2", text()),          # 4
    prompt("u2", "a2", "first try"),                 # 5
    assistant("a3", "u2", "msg_3", text()),          # 6
    prompt("u3", "a2", "second try"),                # 7: the user rewound to a2 and asked again
    assistant("a4", "u3", "msg_4", call("t2", "Read")),  # 8: the leaf; its call has no result
]
"""A conversation rewound after its first turn: the record on line 5 branches, the later branch is resumed."""


def _open(path: Path) -> tuple[Document, list[str]]:
    source = path.read_text(encoding="utf-8")
    return analyze(source, Options(path=str(path), exists=os.path.exists)), source.split("\n")


def _hints(document: Document) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for hint in features.inlay_hints(document, 0, len(document.lines) - 1):
        out.setdefault(hint.line, []).append(hint.label)
    return out


def test_a_turn_folds_from_its_prompt_and_a_response_with_the_results_of_its_calls() -> None:
    document, _ = _open(LINEAR)
    folds = [(fold.start_line, fold.end_line) for fold in features.folding_ranges(document)]
    # turn 1: the prompt on line 3 to the final text on line 45 (the next prompt's queue lines stay out); its
    # responses: Write and its result, the parallel Bash calls and both results, Bash, Read; turn 2 likewise
    assert folds == [(2, 44), (20, 23), (29, 33), (35, 37), (40, 42), (47, 57), (50, 52), (54, 55)]


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.jsonl")) + sorted(CORPUS.glob("*/subagents/*.jsonl")),
                         ids=lambda path: path.name[:13])
def test_folds_nest_and_hints_name_real_lines_on_every_file_claude_code_wrote(path: Path) -> None:
    document, lines = _open(path)
    folds = [(fold.start_line, fold.end_line) for fold in features.folding_ranges(document)]
    assert folds, "every session has a turn"
    for first, last in folds:
        assert 0 <= first < last < len(lines)
    for number, a in enumerate(folds):  # sorted: each later one is inside this one or after it
        assert all(b[0] > a[0] and (b[1] <= a[1] or b[0] > a[1]) for b in folds[number + 1:])
    for hint in features.inlay_hints(document, 0, len(lines) - 1):
        if " → line " in hint.label:  # the result it points at answers a call of this line
            target = int(hint.label.rsplit(" ", 1)[1]) - 1
            assert '"tool_result"' in lines[target] and '"tool_use"' in lines[hint.line]
        elif hint.label.startswith("← "):
            target = int(hint.label.rsplit("line ", 1)[1].rstrip(")")) - 1
            assert '"tool_use"' in lines[target] and '"tool_result"' in lines[hint.line]
    assert not any("no result" in label for labels in _hints(document).values() for label in labels) or \
        path.name.startswith("a2fde69b")  # only the killed run left a call unanswered


def test_hints_say_what_a_turn_holds_where_calls_are_answered_and_where_claude_code_resumes() -> None:
    document, _ = _open(LINEAR)
    hints = _hints(document)
    assert hints[2] == ["⟶ 5 responses · 5 tool calls"]
    assert hints[22] == ["Write → line 24"] and hints[23] == ["← Write (line 23)"]
    assert hints[30] == ["Bash → line 33"] and hints[31] == ["Bash → line 34"]  # parallel calls
    assert hints[57] == ["● leaf"]
    assert set(features.inlay_hints(document, 20, 23)) == {h for h in features.inlay_hints(document, 0, 60)
                                                          if 20 <= h.line <= 23}


def test_a_rewound_conversation_branches_where_it_was_rewound_and_resumes_the_later_branch() -> None:
    document = analyze(text_of(REWOUND), Options(path=NAME))
    lenses = {lens.span.line: lens for lens in features.code_lenses(document)}
    assert lenses[4].title == "⎇ 2 branches · resumed: branch 2 (line 8)"
    assert lenses[4].arguments == (7,)  # the lens moves the cursor to the resumed branch
    assert "leaf" in lenses[8].title
    hints = _hints(document)
    assert hints[5] == ["⟶ 1 response · 0 tool calls", "○ not sent"] and hints[6] == ["○ not sent"]
    assert hints[8] == ["Read → no result", "● leaf"]
    folds = [(fold.start_line, fold.end_line) for fold in features.folding_ranges(document)]
    assert folds == [(1, 4), (2, 3), (5, 6), (7, 8)]


def test_parallel_results_are_not_branches() -> None:
    document, _ = _open(LINEAR)  # line 31's parallel call has its own result below it, beside the next call
    assert not any("branches" in lens.title for lens in features.code_lenses(document))


def test_a_tool_call_s_card_says_where_it_is_answered_from_the_call_and_from_its_result() -> None:
    document, lines = _open(LINEAR)
    on_call = features.hover(document, 22, lines[22].index('"toolu_01hsrHoaZk91KMwFLSGDPTTU"') + 2)
    on_result = features.hover(document, 23, lines[23].index('"toolu_01hsrHoaZk91KMwFLSGDPTTU"') + 2)
    assert on_call is not None and on_result is not None
    for card in (on_call.markdown, on_result.markdown):
        assert "**tool call `Write`** `toolu_01hsrHoaZk91KMwFLSGDPTTU`" in card
        assert "- answered by line 24" in card and "- on the resumed chain (13 of 34)" in card
    assert on_result.markdown.startswith("`tool_use_id` → line 23")


def test_an_unanswered_call_s_card_says_what_claude_code_does() -> None:
    document = analyze(text_of(REWOUND), Options(path=NAME))
    line = document.lines[8]
    card = features.hover(document, 8, line.index('"t2"') + 1)
    assert card is not None and "**tool call `Read`** `t2`" in card.markdown
    assert "no tool_result answers it: Claude Code drops the call on resume" in card.markdown


def test_a_subagent_call_s_card_names_its_transcript() -> None:
    document, lines = _open(SUBAGENT)
    line = next(n for n, row in enumerate(lines) if '"type":"tool_use"' in row and '"name":"Agent"' in row)
    call_id = lines[line].split('"type":"tool_use","id":"', 1)[1].split('"', 1)[0]
    card = features.hover(document, line, lines[line].index(f'"{call_id}"') + 2)
    assert card is not None and "subagent transcript: `subagents/agent-a2e180325bc055689.jsonl`" in card.markdown


def test_a_record_s_card_says_when_it_was_written_and_by_which_model() -> None:
    document, lines = _open(LINEAR)
    card = features.hover(document, 21, lines[21].index('"parentUuid":"') + 16)  # names the thinking on line 21
    assert card is not None
    assert "- model `claude-opus-5-5`\n- time 2026-12-05T08:11:56.400Z\n- on the resumed chain (11 of 34)" in \
        card.markdown


def test_the_session_tree_follows_what_claude_code_sends_and_branches_only_where_the_conversation_does() -> None:
    document, _ = _open(LINEAR)
    tree = features.tree(document)
    nodes = {node["line"]: node for node in tree["nodes"]}
    assert not [line for line, node in nodes.items() if len(node["children"]) > 1]
    # the parallel calls on (0-based) lines 30 and 31 and their results on 32 and 33, one below the other as they
    # are sent, although the file hangs the result on 32 below the call on 30
    assert [nodes[line]["parent"] for line in (31, 32, 33)] == [30, 31, 32]
    assert nodes[30]["children"] == [31] and nodes[31]["children"] == [32] and nodes[33]["children"] == [35]
    rewound = features.tree(analyze(text_of(REWOUND), Options(path=NAME)))
    branch = next(node for node in rewound["nodes"] if node["line"] == 4)
    assert branch["children"] == [7, 5]  # the resumed branch first, then the one left behind
