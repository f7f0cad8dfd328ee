"""Where a streamed document's memory goes, per entry: the per-line results (by field: each object reachable from a
line's result is counted once, under the first field that reaches it, so a string two lines share is counted
once; of `check`'s Elyra facts columns, each column's allocation) and the link model (traced allocations of the
link pass, less the diagnostics it returns).

Measures the document as `check` builds it (no titles) and as the server's `sessionLsp/analyzeFile` builds it (with
titles), on the generated 100,000-entry Elyra session (benchmarks/generate.py) or on `--file`.

    python benchmarks/entry_memory.py [--file PATH]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import bytecode
import msgspec
from lsp_bench import benchmark_file

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from session_lsp.analysis import Document, Options
from session_lsp.analysis.elyra.fact_columns import FactColumns
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
        for name in ("codes", "ids", "parents", "stamps", "tool_at", "call_starts", "call_marks", "call_ids"):
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


def measure(path: Path, options: Options, label: str) -> None:
    gc.collect()
    tracemalloc.start()
    with FileLines(str(path)) as lines:
        before = tracemalloc.get_traced_memory()[0]
        document = Document.streamed(lines, options)
        after_lines = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        linked = document.linked
        after_link, link_peak = tracemalloc.get_traced_memory()
        count = len(document.results)
        issues = len(linked.issues)
    tracemalloc.stop()
    fields = by_field(document.results)
    total = sum(fields.values())
    print(f"{label}: {count} lines, {path.stat().st_size / count:.0f} bytes a line in the file")
    print(f"  traced: line pass (results and line offsets) {(after_lines - before) / count:.0f} B/line, "
          f"link model {(after_link - after_lines) / count:.0f} B/line ({issues} link issues), peak while linking "
          f"{(link_peak - before) / count:.0f} B/line in all")
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
    check = Options(path=str(path), exists=os.path.exists, titles=False)
    server = Options(path=str(path), exists=os.path.exists)
    measure(path, check, "check (no titles)")
    measure(path, server, "server (titles)")


if __name__ == "__main__":
    main()
