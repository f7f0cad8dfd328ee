"""The link pass after an edit, from the previous result, where that is sure to give what `link` gives
(ARCHITECTURE.md, invariant 5). Typing in a record's text (a prompt, a thinking block, a tool's input or output, a
timestamp) changes only the digest of its row among its facts, and the digest matters only between rows declaring one
uuid (a re-appended copy or a different row): for a record with no such twin, the chain, the pairs and every issue
stay, and only the record's facts are replaced in the model. Any other change returns None, and `link` runs."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Sequence

import msgspec

from ..detect import FormatInfo
from ..results import LineResult, Linked, Options
from .facts import Facts
from .model import ClaudeModel, Record
from .session import ClaudeSession


def _line(record: Record) -> int:
    return record.line


def relink(previous: Linked, lines: Sequence[str], results: Sequence[LineResult], info: FormatInfo,
           options: Options, changed: Collection[int]) -> Linked | None:
    model = previous.model
    if not isinstance(model, ClaudeModel):
        return None
    records = model.records
    changes: dict[int, Facts] = {}
    twins: set[int] | None = None
    for line in changed:
        new = results[line].facts if 0 <= line < len(results) else None
        index = bisect_left(records, line, key=_line)
        if (index == len(records) or records[index].line != line
                or (index + 1 < len(records) and records[index + 1].line == line)):
            return None  # the line held no record, or several (a glued line)
        old = records[index].facts
        if type(new) is not Facts or msgspec.structs.replace(old, digest=new.digest) != new:
            return None
        if old == new:
            continue
        if twins is None:
            twins = {index for pair in model.duplicates for index in pair}
        if index in twins:
            return None
        changes[index] = new
    if not changes:
        return previous
    new = model.with_facts(changes)
    return Linked(new, list(previous.issues), ClaudeSession(new, info, options))
