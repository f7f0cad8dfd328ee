"""The shape of a Claude Code conversation for the editor: its turns (a prompt and every record up to the next one),
the responses inside them (the records of one `message.id` and the results of their calls), the tool_result lines
that answer each call, and the points where the conversation branches (a resume from an earlier record, a rewind).
Read from the link model once per model and kept in its `views`; folds, hints, lenses and call cards use it.

Claude Code writes one record a content block, so one response is several records in a row, and each result of
parallel calls hangs below its own call's record: a "branch" of one child per call is not a branch. What counts as
one is a second child that is neither the next record of the same response nor a result of the parent's own calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..structure import Hint, Lens
from .model import CHAIN_TAGS, ClaudeModel, use_paths


class Turn:
    """One prompt (or compaction boundary) and what follows it, up to the next prompt: record indices."""

    __slots__ = ("calls", "first", "last", "responses")

    def __init__(self, first: int) -> None:
        self.first = first
        self.last = first
        self.responses = 0
        self.calls = 0


class Layout:
    """What the structural features read of a model, derived from it once."""

    __slots__ = ("answers", "branches", "responses", "turn_at", "turns")

    def __init__(self, model: ClaudeModel) -> None:
        records = model.records
        self.answers: dict[str, list[int]] = {}
        """A tool_use id -> the lines of the tool_result blocks naming it (file order)."""
        self.turns: list[Turn] = []
        self.turn_at: dict[int, Turn] = {}
        """The line of each turn's first record -> the turn."""
        self.responses: dict[str, tuple[int, int]] = {}
        """A response's `message.id` -> (first, last line) of its records and of the results of its calls."""
        children: dict[int, list[int]] = {}
        calls: dict[str, list[str]] = {}
        turn: Turn | None = None
        seen_responses: set[str] = set()
        for index, record in enumerate(records):
            f = record.facts
            if f.tag == "user":
                for call in f.results:
                    self.answers.setdefault(call, []).append(record.line)
            mine = f.tag in CHAIN_TAGS and f.sidechain == model.subagent and (
                f.uuid is None or model.by_uuid.get(f.uuid) == index)
            if not mine:
                continue
            if is_prompt(f.tag, f.subtype, bool(f.results), f.meta, f.compact_summary):
                turn = Turn(index)
                self.turns.append(turn)
                self.turn_at[record.line] = turn
            elif turn is not None:
                turn.last = index
                if f.tag == "assistant":
                    turn.calls += len(f.uses)
                    if f.message_id is None or f.message_id not in seen_responses:
                        turn.responses += 1
            if f.tag == "assistant" and f.message_id is not None:
                seen_responses.add(f.message_id)
                first, last = self.responses.get(f.message_id, (record.line, record.line))
                self.responses[f.message_id] = (first, max(last, record.line))
                calls.setdefault(f.message_id, []).extend(f.uses)
            parent = model.by_uuid.get(f.parent) if f.parent is not None else None
            if parent is not None and parent != index and not _continues(model, parent, index):
                children.setdefault(parent, []).append(index)
        for message_id, (first, last) in list(self.responses.items()):
            ends = [line for call in calls.get(message_id, ()) for line in self.answers.get(call, ())
                    if line > first]
            self.responses[message_id] = (first, max([last, *ends]))
        self.branches = {parent: kids for parent, kids in children.items() if len(kids) > 1}
        """A record index -> its children (record indices), where it has more than one."""


def is_prompt(tag: str, subtype: str | None, results: bool, meta: bool, compact_summary: bool) -> bool:
    """A record that opens a turn: a prompt the user typed (not a tool result, a system reminder or a compaction's
    summary), or a compaction boundary."""
    return (tag == "user" and not results and not meta and not compact_summary) or subtype == "compact_boundary"


def _continues(model: ClaudeModel, parent: int, child: int) -> bool:
    """The child is the parent's response going on (its next record), or a result of the parent's own calls."""
    p, c = model.records[parent].facts, model.records[child].facts
    if c.tag == "assistant" and c.message_id is not None and c.message_id == p.message_id:
        return True
    return c.tag == "user" and bool(c.results) and all(call in p.uses for call in c.results)


def layout(model: ClaudeModel) -> Layout:
    found = model.views.get("layout")
    if not isinstance(found, Layout):
        found = model.views["layout"] = Layout(model)
    return found


def folds(model: ClaudeModel) -> list[tuple[int, int]]:
    """Each turn, from its prompt to its last conversation record (the bookkeeping lines inside it fold with it),
    and inside it each response of more than one line with the results of its calls. A response that would cross
    its turn's end or another response is left out: folds nest or stand apart."""
    shape = layout(model)
    out: list[tuple[int, int]] = []
    spans = sorted(shape.responses.values())
    for turn in shape.turns:
        first, last = model.records[turn.first].line, model.records[turn.last].line
        if last <= first:
            continue
        out.append((first, last))
        end = first
        for start, stop in spans:
            if first < start and stop <= last and start > end and stop > start:
                out.append((start, stop))
                end = stop
    out.sort()
    return out


def turn_text(turn: Turn) -> str:
    return (f"{turn.responses} response{'s' if turn.responses != 1 else ''} · "
            f"{turn.calls} tool call{'s' if turn.calls != 1 else ''}")


def hints(model: ClaudeModel, first: int, last: int) -> list[Hint]:
    """At the end of a line: on a prompt, what its turn holds; on a tool_use, the line of its result (or that there
    is none); on a tool_result, the call it answers; the resume leaf; a conversation record Claude Code does not
    send on resume."""
    shape = layout(model) if first <= last else None
    out: list[Hint] = []
    leaf = model.records[model.leaf].line if model.leaf is not None else None
    for line in range(first, last + 1):
        record = model.at_line.get(line)
        if record is None or shape is None:
            continue
        f = record.facts
        turn = shape.turn_at.get(line)
        if turn is not None:
            out.append(Hint(line, f"⟶ {turn_text(turn)}", "what Claude Code and the model did for this prompt"))
        for call, name in zip(f.uses, _names(f.tool_names, len(f.uses)), strict=True):
            if call in f.server_results:
                continue
            answers = shape.answers.get(call, [])
            if answers:
                out.append(Hint(line, f"{name} → line {answers[0] + 1}", f"tool_use `{call}`: its tool_result is on "
                                f"line {', '.join(str(a + 1) for a in answers)}"))
            else:
                out.append(Hint(line, f"{name} → no result", f"tool_use `{call}`: no tool_result in this file names "
                                "it; Claude Code drops the call on resume"))
        for call in f.results:
            use = model.uses.get(call)
            if use is not None:
                caller = model.records[use].facts
                names = dict(zip(caller.uses, _names(caller.tool_names, len(caller.uses)), strict=True))
                out.append(Hint(line, f"← {names.get(call, 'call')} (line {model.records[use].line + 1})",
                                f"tool_result of `{call}`"))
        if line == leaf:
            out.append(Hint(line, "● leaf", "Claude Code resumes from this record (`claude --resume`)"))
        elif (f.tag in ("user", "assistant") and f.uuid is not None and not f.sidechain
              and model.by_uuid.get(f.uuid) is not None and model.by_uuid[f.uuid] not in model.on_chain):
            out.append(Hint(line, "○ not sent", "not on the chain Claude Code resumes: it does not send this record"))
    return out


def _names(names: Sequence[str], count: int) -> list[str]:
    """The tool names of a record's calls, padded when the record was read without its schema."""
    return [*names[:count], *["call"] * (count - len(names[:count]))]


def branch_lenses(model: ClaudeModel) -> list[Lens]:
    """At each record the conversation branches from: how many branches, and which one Claude Code resumes."""
    out: list[Lens] = []
    for parent, kids in sorted(layout(model).branches.items()):
        active = next((number for number, kid in enumerate(kids, 1) if kid in model.on_chain), None)
        count = f"⎇ {len(kids)} branches"
        if active is None:
            out.append(Lens(model.records[parent].line, f"{count} (none leads to the record Claude Code resumes)"))
        else:
            line = model.records[kids[active - 1]].line
            out.append(Lens(model.records[parent].line, f"{count} · resumed: branch {active} (line {line + 1})",
                            line))
    return out


def call_card(model: ClaudeModel, line: int, call_id: str, chain_row: str | None) -> tuple[str, list[str]] | None:
    """The tool_use with this id on `line`, where its record sits (`chain_row`), and the results that answer it."""
    record = model.at_line.get(line)
    if record is None or call_id not in record.facts.uses:
        return None
    f = record.facts
    names = dict(zip(f.uses, _names(f.tool_names, len(f.uses)), strict=True))
    block = next((path[2] for path, value in use_paths(f) if value == call_id), None)
    rows = [f"in the assistant record on line {line + 1}" + (f", content block {block}" if block is not None else "")]
    if chain_row:
        rows.append(chain_row)
    answers = layout(model).answers.get(call_id, [])
    if call_id in f.server_results:
        rows.append("a server tool: its result is in the same response")
    elif answers:
        rows.append("answered by line " + ", ".join(str(a + 1) for a in answers))
        agents = {model.at_line[a].facts.agent_result for a in answers if a in model.at_line} - {None}
        rows.extend(f"subagent transcript: `subagents/agent-{agent}.jsonl`" for agent in sorted(agents, key=str))
    else:
        rows.append("no tool_result answers it: Claude Code drops the call on resume (the model never sees it was "
                    "made)")
    return f"tool call `{names[call_id]}`", rows
