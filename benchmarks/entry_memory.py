"""Where a document's memory goes, per entry: the per-line results (by field: each object reachable from a
line's result is counted once, under the first field that reaches it, so a string two lines share is counted
once; of `check`'s Elyra facts columns, each column's allocation) and the link model (traced allocations of the
link pass, less the diagnostics it returns); and, phase by phase of an Elyra link pass (the model's construction,
then the rules), what is held when it starts, the most held while it runs and what is held when it ends: where the
peak of a large `check` comes from.

Measures the document as `check` builds it (the file streamed) and as the server builds it for a file opened in an
editor (its text store apart), on the generated 100,000-entry Elyra session (benchmarks/generate.py) or on `--file`.

    python benchmarks/entry_memory.py [--file PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import bytecode
import msgspec
from lsp_bench import benchmark_file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from session_lsp.analysis import Document, Options
from session_lsp.analysis.elyra import link_pass
from session_lsp.analysis.elyra.fact_columns import FactColumns
from session_lsp.analysis.elyra.model import ElyraModel
from session_lsp.analysis.line_store import LineStore
from session_lsp.analysis.result_store import PlainResults
from session_lsp.analysis.results import LineResult
from session_lsp.files import FileLines

ATOMS = (str, int, float, bytes)


def by_field(results: Sequence[Any]) -> Counter[str]:
    """Bytes of the results, per field path ("facts.timestamp", "facts.tool_calls[].id", ...)."""
    seen: set[int] = set()
    sizes: Counter[str] = Counter()

    def walk(value: Any, where: str) -> None:
        if value is None or value is True or value is False or id(value) in seen:
            return
        seen.add(id(value))
        sizes[where] += sys.getsizeof(value)
        if isinstance(value, msgspec.Struct):
            for field in value.__struct_fields__:
                walk(getattr(value, field), f"{where}.{field}" if where else field)
        elif isinstance(value, tuple):
            for item in value:
                walk(item, where + "[]")

    if isinstance(results, PlainResults) and isinstance(results.facts, FactColumns):
        # a kind byte a line, the facts in columns, the few other results whole
        store = results.facts
        sizes["PlainResults (kind byte)"] = sys.getsizeof(results._kinds)
        for name in ("codes", "ids", "parents", "stamps", "tool_at", "call_keys", "call_marks", "call_ids",
                     "id_starts"):
            sizes[f"columns: {name}"] = sys.getsizeof(getattr(store, name))
        sizes["columns: names (list)"] = sys.getsizeof(store.names)
        for item in store.names:
            walk(item, "columns: names[]")
        sizes["facts kept whole (dict)"] = sys.getsizeof(store.objects)
        for facts in store.objects.values():
            walk(facts, "facts kept whole")
        for result in results._whole.values():
            sizes["PlainResults (results kept whole)"] += 8
            walk(result, "")
    elif isinstance(results, PlainResults):  # a facts pointer and a kind byte a line; the few other results whole
        sizes["PlainResults (facts pointer and kind byte)"] = 9 * len(results)
        for result in results:
            if type(result) is LineResult and not result.issues:
                walk(result.facts, "facts")
            else:
                sizes["PlainResults (facts pointer and kind byte)"] += 8  # its slot in the dict of whole results
                walk(result, "")
    else:
        for result in results:
            sizes["results list (a pointer a line)"] += 8
            walk(result, "")
    sizes["LineResult"] = sizes.pop("", 0)
    return sizes


PHASES: tuple[tuple[Any, tuple[str, ...]], ...] = (
    (ElyraModel, ("_scan", "_siblings", "_walk", "_find_cycles", "_resolve_specials", "_pair_calls")),
    (link_pass._Checker, ("file_rules", "id_rules", "reference_rules", "v1_rules", "order_rules", "tool_rules",
                          "leaf_rule")),
)
"""The steps of the Elyra link pass, in the order it runs them."""

Phase = tuple[str, int, int, int]
"""A phase's name, and the traced bytes held when it started, at its peak and when it ended."""


@contextmanager
def phases(found: list[Phase], between: list[int]) -> Iterator[None]:
    """Each step of `PHASES` noted in `found` as it runs; `between`: the peaks between the steps (the peak is reset
    as each starts)."""
    originals = [(owner, name, getattr(owner, name)) for owner, names in PHASES for name in names]

    def noted(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            held, peak = tracemalloc.get_traced_memory()
            between.append(peak)
            tracemalloc.reset_peak()
            try:
                return original(*args, **kwargs)
            finally:
                after, peak = tracemalloc.get_traced_memory()
                found.append((name, held, peak, after))
                tracemalloc.reset_peak()
        return step

    for owner, name, original in originals:
        setattr(owner, name, noted(name, original))
    try:
        yield
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


def text_store(document: Document) -> int:
    """The bytes of the lines' strings in an opened document's `LineStore`, as they are before the server compresses
    them: the text store, which the figures leave apart."""
    lines = document.lines
    assert isinstance(lines, LineStore)
    return sys.getsizeof(lines._blocks) + sum(
        sys.getsizeof(block) + sys.getsizeof(block.lines) + sum(map(sys.getsizeof, block.lines or ()))
        for block in lines._blocks)


def measure(path: Path, label: str, opened: bool) -> None:
    """`opened`: the server's document of the file opened in an editor, its text store apart; else `check`'s, the
    file streamed (its line offsets counted with the results)."""
    options = Options(path=str(path), exists=os.path.exists)
    text = path.read_text(encoding="utf-8", errors="replace") if opened else ""
    gc.collect()
    tracemalloc.start()
    found: list[Phase] = []
    between: list[int] = []
    with contextlib.ExitStack() as stack:
        before = tracemalloc.get_traced_memory()[0]
        if opened:
            document = Document(text, options)
            before += text_store(document)
        else:
            document = Document.streamed(stack.enter_context(FileLines(str(path))), options)
        after_lines, lines_peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        with phases(found, between):
            linked = document.linked
        link_peak = tracemalloc.get_traced_memory()[1]
        gc.collect()  # what is retained, not the garbage a collection would free (when one runs varies)
        after_link = tracemalloc.get_traced_memory()[0]
        link_peak = max([link_peak, *between, *(peak for _, _, peak, _ in found)])
        count = len(document.results)
        issues = len(linked.issues)
    tracemalloc.stop()
    fields = by_field(document.results)
    total = sum(fields.values())
    print(f"{label}: {count} lines, {path.stat().st_size / count:.0f} bytes a line in the file")
    print(f"  traced: line pass (results and line offsets) {(after_lines - before) / count:.0f} B/line, "
          f"link model {(after_link - after_lines) / count:.0f} B/line ({issues} link issues), peak while linking "
          f"{(link_peak - before) / count:.0f} B/line in all")
    print(f"  peak while the line pass ran: {(lines_peak - before) / count:.0f} B/line")
    if found:
        print("  the link pass by step, B/line held from the document's start: when it starts, at its peak, when it "
              "ends")
        for name, held, peak, after in found:
            print(f"    {name:20} {(held - before) / count:6.0f} {(peak - before) / count:6.0f} "
                  f"{(after - before) / count:6.0f}")
    print(f"  results by field: {total / count:.0f} B/line")
    for name, size in fields.most_common():
        if size / count >= 0.5:
            print(f"    {name:44} {size / count:6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=None)
    args = parser.parse_args()
    print(bytecode.state())
    path = args.file or benchmark_file("elyra")
    measure(path, "check (streamed)", opened=False)
    measure(path, "server (opened, the text store apart)", opened=True)


if __name__ == "__main__":
    main()
