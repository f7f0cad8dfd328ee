"""Every format's link model is a `results.LinkModel`: the features read a model's links through the protocol alone,
so a model that lacks a member, or names its parameters otherwise, breaks them; its structure they ask of the
document's session (`results.Session`, made by the link pass and bound to that model). Checked on real case
files."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from session_lsp.analysis import Options, analyze
from session_lsp.analysis.claude.model import ClaudeModel
from session_lsp.analysis.elyra import rename
from session_lsp.analysis.elyra.facts import EntryFacts
from session_lsp.analysis.elyra.model import ElyraModel
from session_lsp.analysis.results import LinkModel, Reference
from session_lsp.analysis.structure import Budget, Hint, Lens, OutlineNode, RenameTarget, Renumbering
from session_lsp.analysis.thndrs.model import ThndrsModel

CASES = Path(__file__).parent / "cases"
MODELS = [("elyra/ELY047-branched.jsonl", ElyraModel), ("elyra/valid-v1.jsonl", ElyraModel),
          ("thndrs/clean-full-session.jsonl", ThndrsModel), ("claude/clean-tool-call.jsonl", ClaudeModel),
          ("claude/CCD024-duplicate-uuid.jsonl", ClaudeModel)]
MEMBERS = [name for name in vars(LinkModel) if not name.startswith("_")]


def _parameters(function: Callable[..., object]) -> list[str]:
    return list(inspect.signature(function).parameters)


def test_the_protocol_has_the_members_the_features_read() -> None:
    assert MEMBERS == ["references_from", "references_to", "identity"]


@pytest.mark.parametrize(("case", "model_type"), MODELS)
def test_each_format_model_satisfies_the_protocol(case: str, model_type: type) -> None:
    model = analyze((CASES / case).read_text(encoding="utf-8"), Options()).linked.model
    assert type(model) is model_type
    assert isinstance(model, LinkModel)
    for name in MEMBERS:
        assert name in vars(model_type), f"{model_type.__name__}.{name} comes from no definition of its own"
        assert _parameters(getattr(model_type, name)) == _parameters(getattr(LinkModel, name)), name


@pytest.mark.parametrize(("case", "model_type"), MODELS)
def test_each_format_answers_in_the_neutral_shapes(case: str, model_type: type) -> None:
    document = analyze((CASES / case).read_text(encoding="utf-8"), Options())
    model, session = document.linked.model, document.session
    assert model is not None and session is document.linked.session
    size = len(document.lines)
    for line in range(size):
        assert all(type(r) is Reference and r.line == line for r in model.references_from(line))
        assert all(type(r) is Reference and r.target == line for r in model.references_to(line))
        assert all(type(row) is str for row in session.card_rows(line, {}))
        found = session.rename_target(line, ("id",), "x")
        assert found is None or (type(found) is RenameTarget and found.places[0][0] == line)
    budget = Budget(10_000)
    outline = session.outline(document.results, document.title, budget)
    stack = list(outline.nodes)
    assert stack and budget.cut == 0
    while stack:
        node = stack.pop()
        assert type(node) is OutlineNode and 0 <= node.first <= node.line <= node.last < size
        stack.extend(node.children)
    assert all(0 <= first < last < size for first, last in session.folds(document.results))
    assert all(type(lens) is Lens and 0 <= lens.line < size for lens in session.lenses())
    assert all(type(hint) is Hint and 0 <= hint.line < size for hint in session.hints(0, size - 1))
    assert type(session.renumbering()) is Renumbering


@pytest.mark.parametrize(("case", "model_type"), MODELS)
def test_the_session_holds_the_model_of_its_own_link_pass(case: str, model_type: type) -> None:
    """The session is the link pass's: after an edit that relinks, the document's session is a new one, bound to the
    new model (an edit that changes no facts keeps both)."""
    document = analyze((CASES / case).read_text(encoding="utf-8"), Options())
    before = document.session
    assert getattr(before, "model", None) is document.linked.model
    document.edit(len(document.lines) - 1, 0, len(document.lines) - 1, 0, "{}\n")
    after = document.session
    assert after is not before and getattr(after, "model", None) is document.linked.model
    assert type(after) is type(before)


def test_a_file_that_is_not_a_session_has_no_model_and_a_session_that_answers_nothing() -> None:
    text = (CASES / "plain" / "SLS001-ordinary-jsonl.jsonl").read_text(encoding="utf-8")
    document = analyze(text, Options())
    assert document.linked.model is None
    session, size = document.session, len(document.lines)
    assert session.outline(document.results, document.title, Budget(10_000)).nodes == []
    assert session.folds(document.results) == session.lenses() == session.hints(0, size - 1) == []
    assert all(session.card_rows(line, {}) == [] for line in range(size))
    assert session.renumbering() == Renumbering(0, ())
    tree = msgspec.json.decode(b"".join(session.tree(document.results, document.title)))
    context = session.context(document.lines, document.results, size - 1)
    assert tree["nodes"] == [] and msgspec.json.decode(msgspec.json.encode(context))["messages"] == []


@st.composite
def elyra_shapes(draw: st.DrawFn) -> str:
    """A v3 file of any tree shape: mostly each entry below the one before, as pi writes, and otherwise a parentId
    to any entry (later, itself, into a loop), null, dangling or repeated ids, with lines that are no entry (broken
    JSON) or an entry without an id (a JSON array) between them, and timestamps that reorder siblings."""
    lines = [json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"})]
    count = draw(st.integers(1, 30))
    for number in range(count):
        shape = draw(st.sampled_from(["above"] * 6 + ["any", "null", "dangling", "repeat", "broken", "junk"]))
        if shape in ("broken", "junk"):
            lines.append('{"type":' if shape == "broken" else "[]")
            continue
        parent = {"above": f"{number - 1:08x}" if number else None, "null": None, "dangling": "dddddddd"}.get(
            shape, f"{draw(st.integers(0, count - 1)):08x}")
        entry_id = f"{draw(st.integers(0, number)):08x}" if shape == "repeat" else f"{number:08x}"
        lines.append(json.dumps({"type": "message", "id": entry_id, "parentId": parent,
                                 "timestamp": f"2026-03-01T09:15:0{draw(st.integers(0, 3))}.000Z",
                                 "message": {"role": "user", "content": "hi", "timestamp": 1}}))
    return "\n".join(lines) + "\n"


@settings(max_examples=500, deadline=None)
@given(elyra_shapes())
def test_the_elyra_tree_columns_are_a_depth_first_walk(text: str) -> None:
    """`order`, `pre`, `end_at` and `depth_at` (built by runs of only children, see `ElyraModel._walk`) are those of a
    plain recursive walk from each root through its children in pi's order."""
    model = analyze(text, Options()).linked.model
    assert isinstance(model, ElyraModel)
    order: list[int] = []
    ends: dict[int, int] = {}
    depths: dict[int, int] = {}

    def visit(line: int, depth: int) -> None:
        order.append(line)
        depths[line] = depth
        for child in model.children(line):
            visit(child, depth + 1)
        ends[line] = len(order)

    for root in model.roots:
        visit(root, 0)
    assert list(model.order) == order
    assert list(model.pre) == [order.index(line) if line in depths else -1 for line in range(model.size)]
    assert list(model.end_at) == [ends[line] for line in order]
    assert list(model.depth_at) == [depths[line] for line in order]


@pytest.mark.parametrize("between", [0, 63, 64, 65, 200])
@pytest.mark.parametrize("role", ["assistant", "user"])
def test_an_unanswered_call_goes_on_when_the_next_message_below_it_is_not_the_users(between: int, role: str) -> None:
    """ELY072 is a warning when the first message entry after an unanswered `toolUse` call in its subtree is not the
    user's, however many other entries lie between them: the test reads a few entries ahead, and beyond that a
    table of the next message (`SCAN_LIMIT` entries: both ways are taken here)."""
    case = (CASES / "elyra/ELY072-unanswered-then-assistant.jsonl").read_text().splitlines()
    lines = case[:3]
    for number in range(between):
        lines.append(json.dumps({"type": "label", "id": f"b{number:07x}", "parentId": f"b{number - 1:07x}" if number
                                 else "a1000002", "timestamp": "2026-03-01T09:00:03.000Z", "targetId": "a1000001",
                                 "label": "x"}))
    last = json.loads(case[3])
    last["parentId"] = f"b{between - 1:07x}" if between else "a1000002"
    if role == "user":
        last["message"] = {"role": "user", "content": "go on", "timestamp": 1772355604000}
    lines.append(json.dumps(last))
    found = [diagnostic for diagnostic in analyze("\n".join(lines) + "\n", Options()).diagnostics()
             if diagnostic.code == "ELY072"]
    assert [(diagnostic.span.line, diagnostic.severity.name) for diagnostic in found] == \
        [(2, "WARNING" if role == "assistant" else "INFORMATION")]


@st.composite
def elyra_tool_trees(draw: st.DrawFn, result_ids: str = "ab", names: tuple[str, ...] = ("read",),
                     version: int = 3) -> str:
    """A file of tool calls and results whose ids repeat (two ids for every call; results may have ids no call has),
    mostly each entry below the one before and otherwise below any earlier entry, with compactions that keep from
    any earlier entry."""
    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
             "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
    lines = [json.dumps({"type": "session", "version": version, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"})]
    count = draw(st.integers(1, 40))
    for number in range(count):
        parent = None if not number else f"{number - 1:08x}" if draw(st.integers(0, 3)) else \
            f"{draw(st.integers(0, number - 1)):08x}"
        entry: dict[str, object] = {"id": f"{number:08x}", "parentId": parent, "timestamp": "2026-03-01T09:15:00.000Z"}
        kind = draw(st.sampled_from(["call", "call", "result", "result", "compaction", "user"]))
        if kind == "compaction" and number:
            entry |= {"type": "compaction", "summary": "s", "tokensBefore": 1,
                      "firstKeptEntryId": f"{draw(st.integers(0, number - 1)):08x}"}
        elif kind == "call":
            calls = [{"type": "toolCall", "id": draw(st.sampled_from("ab")), "name": draw(st.sampled_from(names)),
                      "arguments": {}}
                     for _ in range(draw(st.integers(1, 2)))]
            entry |= {"type": "message", "message": {"role": "assistant", "content": calls, "api": "x",
                                                     "provider": "x", "model": "x", "usage": usage,
                                                     "stopReason": "toolUse", "timestamp": 1}}
        elif kind == "result":
            entry |= {"type": "message", "message": {"role": "toolResult",
                                                     "toolCallId": draw(st.sampled_from(result_ids)),
                                                     "toolName": draw(st.sampled_from(names)), "content": [],
                                                     "isError": False,
                                                     "timestamp": 1}}
        else:
            entry |= {"type": "message", "message": {"role": "user", "content": "hi", "timestamp": 1}}
        lines.append(json.dumps(entry))
    return "\n".join(lines) + "\n"


def _calls_and_results(model: ElyraModel) -> tuple[list[tuple[int, int, str]], list[tuple[int, str]]]:
    """(line, block, id) of every call and (line, toolCallId) of every result, both on reachable lines."""
    calls, results = [], []
    for line in model.tool_lines:
        found = model.line_facts[line]
        if model.pre[line] == -1:
            continue
        calls += [(line, call.index, call.id) for call in found.tool_calls]
        if found.tool_call_id is not None:
            results.append((line, found.tool_call_id))
    return calls, results


@settings(max_examples=400, deadline=None)
@given(elyra_tool_trees())
def test_a_call_s_first_answer_is_the_first_result_below_it_with_its_id(text: str) -> None:
    """pi answers every call on a result's path with the result's toolCallId, the nearest and those it shadows:
    a call's first answer is the first such result in depth-first order."""
    model = analyze(text, Options()).linked.model
    assert isinstance(model, ElyraModel)
    calls, results = _calls_and_results(model)
    for line, block, call_id in calls:
        below = [result for result, answers in results
                 if answers == call_id and result != line and model.is_ancestor(line, result)]
        if below:
            assert model.first_results[line << 20 | block] == min(below, key=model.pre.__getitem__)


@settings(max_examples=400, deadline=None)
@given(elyra_tool_trees())
def test_a_compaction_is_flagged_for_each_kept_result_whose_call_it_cut(text: str) -> None:
    """ELY076: a result on the path from the compaction up to its first kept entry answers a call above that entry.
    The rule names the one nearest the kept entry and counts the others; here they are found by walking each path
    whole."""
    document = analyze(text, Options())
    model = document.linked.model
    assert isinstance(model, ElyraModel)
    expected = {}
    for line in model.special_lines:
        kept = model.first_kept(line)
        if model.line_facts[line].type != "compaction" or model.pre[line] == -1 or kept is None or kept == line \
                or not model.is_ancestor(kept, line):
            continue
        orphans, up = [], model.parent_of[line]
        while up != -1:
            call = model.result_calls.get(up)
            if call is not None and call >> 20 != kept and model.is_ancestor(call >> 20, kept):
                orphans.append(up)
            if up == kept:
                break
            up = model.parent_of[up]
        if orphans:
            expected[line] = (orphans[-1], len(orphans) - 1)
    found = {diagnostic.span.line: (diagnostic.related[0].span.line,
                                    int(diagnostic.message.split("(and ")[1].split(" ")[0])
                                    if "(and " in diagnostic.message else 0)
             for diagnostic in document.diagnostics() if diagnostic.code == "ELY076"}
    assert found == expected


@settings(max_examples=300, deadline=None)
@given(elyra_shapes())
def test_the_ancestor_at_a_depth_is_the_entry_that_many_parents_up(text: str) -> None:
    model = analyze(text, Options()).linked.model
    assert isinstance(model, ElyraModel)
    for line in model.order:
        depth, up = model.depth_at[model.pre[line]], line
        for level in range(depth, -1, -1):
            assert model.ancestor_at(line, level) == up
            up = model.parent_of[up]


@settings(max_examples=400, deadline=None)
@given(elyra_shapes())
def test_a_repeated_id_s_entry_is_given_the_children_written_between_it_and_the_next(text: str) -> None:
    """ELY040 on each later entry with a used id: its quick fix's `parent_lines` are the entries naming that id
    below it and above the id's next entry, and the message counts those between the one before and it, which now
    hang under it."""
    document = analyze(text, Options())
    model = document.linked.model
    assert isinstance(model, ElyraModel)
    facts = model.line_facts
    found = {diagnostic.span.line: diagnostic for diagnostic in document.diagnostics() if diagnostic.code == "ELY040"}
    for entry_id in {facts[line].id for line, _ in model.duplicates}:
        lines = [line for line in model.entry_lines if facts[line].id == entry_id]
        children = [line for line in model.entry_lines if facts[line].parent_id == entry_id]
        for index, line in enumerate(lines[1:], 1):
            until = lines[index + 1] if index + 1 < len(lines) else len(facts)
            earlier = [child for child in children if lines[index - 1] < child < line]
            assert (found[line].data or {}).get("parent_lines") == [child for child in children if line < child < until]
            if "so the earlier one and its subtree become unreachable" in found[line].message:
                written = f"{len(earlier)} entries written for the earlier one now hang" if len(earlier) > 1 \
                    else "1 entry written for the earlier one now hangs"
                assert (written in found[line].message) == bool(earlier)


def _nearest_unanswered_call(model: ElyraModel, line: int) -> int | None:
    """The plain reading of ELY070's suggestion: of every unanswered call with the orphan's tool name, on its path
    (v1: anywhere above it), the last in file order, the first block of a line."""
    name = model.line_facts[line].tool_name
    best: int | None = None
    for packed in model.unanswered:
        call_line = packed >> 20
        if call_line == line or model.call(packed).name != name:
            continue
        if (model.tree and not model.is_ancestor(call_line, line)) or (not model.tree and call_line > line):
            continue
        if best is None or call_line > best >> 20:
            best = packed
    return best


@settings(max_examples=600, deadline=None)
@given(st.integers(1, 3).flatmap(lambda version: elyra_tool_trees(result_ids="abc", names=("read", "bash"),
                                                                   version=version)))
def test_an_orphan_result_is_pointed_at_the_nearest_unanswered_call_above_it_with_its_name(text: str) -> None:
    """ELY070's suggested call, found for every orphan in one sweep, is the plain reading's."""
    document = analyze(text, Options())
    model = document.linked.model
    assert isinstance(model, ElyraModel)
    suggested = {diagnostic.span.line: (diagnostic.data or {}).get("suggested_call")
                 for diagnostic in document.diagnostics() if diagnostic.code == "ELY070"}
    expected: dict[int, str | None] = {}
    for line in model.orphans:
        packed = _nearest_unanswered_call(model, line)
        expected[line] = model.call(packed).id if packed is not None else None
    assert suggested == expected


@st.composite
def elyra_repeated_ids(draw: st.DrawFn) -> str:
    """A v3 file whose entries repeat a few ids and name them in every field a new id follows."""
    pool = [f"{n:08x}" for n in range(4)]
    lines = [json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2026-03-01T09:15:00.000Z"})]
    for _ in range(draw(st.integers(1, 30))):
        entry: dict[str, object] = {"id": draw(st.sampled_from(pool)), "parentId": draw(st.sampled_from([None, *pool])),
                                    "timestamp": "2026-03-01T09:15:00.000Z"}
        kind = draw(st.sampled_from(["user", "label", "branch_summary", "compaction", "junk"]))
        if kind == "junk":
            lines.append(draw(st.sampled_from(["[]", "null", "{}"])))
            continue
        named = draw(st.sampled_from(pool))
        fields: dict[str, dict[str, object]] = {
            "user": {"type": "message", "message": {"role": "user", "content": "hi", "timestamp": 1}},
            "label": {"type": "label", "targetId": named, "label": "x"},
            "branch_summary": {"type": "branch_summary", "fromId": named, "summary": "s"},
            "compaction": {"type": "compaction", "summary": "s", "tokensBefore": 1, "firstKeptEntryId": named}}
        entry |= fields[kind]
        lines.append(json.dumps(entry))
    return "\n".join(lines) + "\n"


def _plain_reid(model: ElyraModel, line: int) -> tuple[tuple[int, tuple[str, ...]], ...] | None:
    """The places a duplicate id's fix renames, read line by line: the id, and each of the four fields naming it on
    the lines below, up to the next entry declaring it."""
    old = model.entry_id(line)
    if old is None:
        return None
    places: list[tuple[int, tuple[str, ...]]] = [(line, ("id",))]
    fields = (("parent_id", "parentId"), ("target_id", "targetId"), ("from_id", "fromId"),
              ("first_kept_id", "firstKeptEntryId"))
    for number in range(line + 1, model.size):
        found = model.line_facts[number]
        if type(found) is not EntryFacts:
            continue
        if found.id == old:
            break
        places += [(number, (key,)) for attr, key in fields if getattr(found, attr) == old]
    return tuple(places)


@settings(max_examples=400, deadline=None)
@given(elyra_repeated_ids())
def test_a_new_id_follows_the_names_of_the_id_up_to_its_next_declaration(text: str) -> None:
    model = analyze(text, Options()).linked.model
    assert isinstance(model, ElyraModel)
    for line in range(model.size):
        target = rename.reid(model, line)
        assert (target.places if target is not None else None) == _plain_reid(model, line)
