"""Type confusion: a real session file with one field of one entry replaced by a value of another JSON kind, then
every reader of the core run over it. `check` reports such a value (ELY033, THN007, ...); nothing that reads the
file afterwards (the diagnostics, the context builder, the tree, the outline, hover cards, lenses, hints, rename,
completion, the payloads) may raise on it.

`mutations` lists every (line, path, kind) of a file: every key of every object of every line, recursively
(nested message fields and content blocks too; the first `ITEMS` items of an array), and the line itself, each
replaced by each of `KINDS`. `exercise` runs the readers over one mutated text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from session_lsp.analysis import Document, Options, Span, features, jsonscan
from session_lsp.analysis.document import StreamedLines
from session_lsp.analysis.features import cards
from session_lsp.analysis.text import split_lines

ROOT = Path(__file__).resolve().parents[2]

KINDS: dict[str, Any] = {
    "null": None, "bool": True, "int": 7, "float": -2.5, "huge int": 2**80, "string": "zz", "empty string": "",
    "array": [1, "a"], "object": {"k": 1},
}
"""One value of each JSON kind; the huge integer is past 64 bits (msgspec keeps it a Python int)."""

ITEMS = 3
"""Items of an array whose members are mutated in turn (content arrays repeat one shape)."""

FILES = (
    *sorted((ROOT / "tests/corpus/elyra-pi-1.6-written").glob("*.jsonl")),
    *sorted((ROOT / "tests/corpus/elyra-pi-written").glob("*.jsonl")),
    *sorted((ROOT / "tests/corpus/confusables").glob("*.jsonl")),
    ROOT / "tests/cases/thndrs/clean-full-session.jsonl",
    ROOT / "tests/cases/thndrs/clean-fixture-generator-shape.jsonl",
    *(ROOT / f"tests/cases/elyra/valid-v{version}.jsonl" for version in (1, 2, 3)),
)
"""Real files (pi 1.6 and 0.73 Elyra, thndrs) and v1/v2 cases: every entry type and role they write."""

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

Step = str | int


class Mutation(msgspec.Struct, frozen=True):
    file: str
    line: int
    path: tuple[Step, ...]
    kind: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line + 1} {'.'.join(map(str, self.path)) or '<line>'} := {self.kind}"


def paths(value: Any, prefix: tuple[Step, ...] = ()) -> Iterator[tuple[Step, ...]]:
    """Every key of every object below `value`, depth first, and the first `ITEMS` items of every array."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*prefix, key)
            yield from paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:ITEMS]):
            yield (*prefix, index)
            yield from paths(inner, (*prefix, index))


def replaced(value: Any, path: Sequence[Step], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = replaced(copy[head], rest, new)  # type: ignore[index]  # an object's step is a key, an array's an index
    return copy


def shape(value: Any, path: Sequence[Step]) -> tuple[Any, ...]:
    """What a mutation at `path` of the line `value` is like: the entry's type and role and the path, each array
    index replaced by the item's own `type` (a text block's `text` is one field, wherever the block sits)."""
    out: list[Any] = []
    node = value
    for step in path:
        item = node[step]
        out.append(item["type"] if isinstance(step, int) and isinstance(item, dict)
                   and isinstance(item.get("type"), str) else "#" if isinstance(step, int) else step)
        node = node[step]
    message = value.get("message") if isinstance(value, dict) else None
    role = message.get("role") if isinstance(message, dict) else None
    kind = value.get("type") if isinstance(value, dict) else None
    return (kind if isinstance(kind, str) else None, role if isinstance(role, str) else None, *out)


def _values(path: Path) -> Iterator[tuple[int, Any]]:
    """Each line of the file that is JSON, decoded."""
    for number, line in enumerate(split_lines(path.read_bytes().decode())):
        try:
            yield number, msgspec.json.decode(line)
        except msgspec.DecodeError:
            continue


def sweep_plan() -> dict[Path, set[tuple[int, tuple[Step, ...]]]]:
    """For each file, the (line, path)s whose shape no earlier place (in `FILES` order) has: every field of every
    entry shape once, not the hundredth `usage.cost.input` of one more assistant message."""
    seen: set[tuple[Any, ...]] = set()
    plan: dict[Path, set[tuple[int, tuple[Step, ...]]]] = {}
    for path in FILES:
        plan[path] = set()
        for number, value in _values(path):
            for where in ((), *paths(value)):
                key = shape(value, where)
                if key not in seen:
                    seen.add(key)
                    plan[path].add((number, where))
    return plan


def mutate(lines: Sequence[str], number: int, value: Any, where: Sequence[Step], new: Any) -> str:
    text = msgspec.json.encode(replaced(value, where, new)).decode()
    return "\n".join([*lines[:number], text, *lines[number + 1:]])


def mutations(path: Path, only: set[tuple[int, tuple[Step, ...]]] | None = None) -> Iterator[tuple[Mutation, str]]:
    """Every mutation of the file (with `only`, at those places), with the mutated text."""
    lines = split_lines(path.read_bytes().decode())
    name = str(path.relative_to(ROOT))
    for number, value in _values(path):
        for where in ((), *paths(value)):
            if only is not None and (number, where) not in only:
                continue
            for kind, new in KINDS.items():
                yield Mutation(name, number, where, kind), mutate(lines, number, value, where, new)


def around(text: str, line: int, path: Sequence[Step]) -> dict[int, list[int]]:
    """The columns of the mutated value on its line: its start, one inside, its end, and its key's start."""
    row = split_lines(text)[line]
    cols = {0}
    span = jsonscan.value_span(row, tuple(path))
    if span is not None:
        cols.update((span[0], min(span[0] + 1, span[1]), span[1]))
    key = jsonscan.key_span(row, tuple(path)) if path else None
    if key is not None:
        cols.update((key[0], key[0] + 1))
    return {line: sorted(cols)}


class MemoryLines(StreamedLines):
    """A text handed over line by line, as `check` streams a file."""

    def __init__(self, text: str) -> None:
        self._lines = split_lines(text)

    def stream(self) -> Iterator[str]:
        return iter(self._lines)

    @property
    def invalid_utf8(self) -> Sequence[Span]:
        return ()

    def __len__(self) -> int:
        return len(self._lines)

    def _read(self, index: int) -> str:
        return self._lines[index]


_TOKEN = re.compile(r'[{\[]|"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null')


def positions(line: str) -> list[int]:
    """Where a cursor can land on a line: each token's start, one column inside it, its end, the line's end."""
    out = {0, len(line)}
    for match in _TOKEN.finditer(line):
        out.update((match.start(), min(match.start() + 1, match.end()), match.end()))
    return sorted(out)


def exercise(text: str, probes: dict[int, list[int]] | None = None, pi_versions: Sequence[str] = ("1.6",)) -> int:
    """Run every reader over `text`; the number of calls made. Positional features run at `probes` (line: columns;
    when None, at every token of every line); the diagnostics, cards, the context at every line, the tree and the
    whole-file features always run."""
    calls = 0
    for release in pi_versions:
        streamed = Document.streamed(MemoryLines(text), Options(path="s.jsonl", pi_version=release))
        streamed.diagnostics()
        calls += 1
        document = Document(text, Options(path="s.jsonl", pi_version=release, exists=lambda _: True))
        diagnostics = document.diagnostics()
        features.encode_tree(document)
        features.tree(document)
        features.document_symbols(document)
        features.folding_ranges(document)
        features.code_lenses(document)
        features.inlay_hints(document, 0, len(document.lines))
        calls += 7
        for number in range(len(document.lines)):
            features.context(document, number)
            cards.card(document, number)
            cards.card(document, number, incoming=True)
            calls += 3
        features.context(document, -1)
        features.context(document, len(document.lines) + 5)
        calls += 2
        for diagnostic in diagnostics:
            features.code_actions(document, diagnostic.span, diagnostics)
            calls += 1
        for number, cols in (probes or {row: positions(document.lines[row])
                                        for row in range(len(document.lines))}).items():
            features.selection_ranges(document, [(number, col) for col in cols])
            calls += 1
            for col in cols:
                features.hover(document, number, col)
                features.definition(document, number, col)
                features.references(document, number, col)
                features.prepare_rename(document, number, col)
                features.rename(document, number, col, "renamed-id")
                features.completions(document, number, col, NOW)
                calls += 6
    return calls

