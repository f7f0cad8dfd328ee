"""`PlainResults`: the per-line results of a document, kept as their parts.

Most lines of a session are a plain result: a kind and facts, no issues. A list of `LineResult`s spends a 40-byte
object and a pointer on each; here such a line is its facts in the format's store (Elyra's: integer columns) and a
byte for its kind, and only the few other results (with issues or parts) are kept whole. Indexing and iterating
give `LineResult`s equal to the ones stored, made when asked for. No line has a title here: a document makes a
title when a feature reads it (`Document.titled`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, cast

from .line_store import ByLine
from .lines import LineKind
from .results import FactStore, LineResult, line_result

_KINDS = tuple(LineKind)
_CODE = {kind: code for code, kind in enumerate(_KINDS)}
_OBJECT = LineKind.OBJECT
_OBJECT_CODE = _CODE[_OBJECT]
"""Most lines are objects: their code is read without hashing the enum (a Python-level `__hash__`)."""
IN_STORE = LineResult(_OBJECT, None)
"""What a file pass yields for an object line whose facts it has written into the facts store itself (see
`PlainResults`): a plain result, its facts already the store's next line."""


class PlainResults(ByLine[LineResult]):
    """Filled once, in line order, by `append` and `extend` (and mended by `replace`); never changed afterwards: an
    edit makes a new one (`spliced`), since the link model of the text before reads these facts as they are.
    `facts` is where the facts go: a list, or a format's store of them (its line pass's `fact_store`), which takes
    `append`, `__setitem__` and indexing as a list does and into which the file pass may write a line's facts
    itself, yielding `IN_STORE`."""

    __slots__ = ("_facts", "_kinds", "_whole")

    def __init__(self, facts: FactStore | None = None) -> None:
        self._facts: FactStore = [] if facts is None else facts
        self._kinds = bytearray()
        self._whole: dict[int, LineResult] = {}
        """The results that are more than a kind and facts, by line."""

    def append(self, result: LineResult) -> None:
        self.extend((result,))

    def extend(self, results: Iterable[LineResult]) -> None:
        """`append` of each result, in order: a file's results, without a call a line."""
        whole, facts, kinds, codes = self._whole, self._facts, self._kinds, _CODE
        add_facts, add_kind = facts.append, kinds.append
        plain, stored = LineResult, IN_STORE
        for result in results:
            if result is stored:
                add_kind(_OBJECT_CODE)
                continue
            if result.__class__ is not plain or result.issues:
                whole[len(kinds)] = result
            add_facts(result.facts)
            kind = result.kind
            add_kind(_OBJECT_CODE if kind is _OBJECT else codes[kind])

    def join(self, later: PlainResults) -> None:
        """Append `later`, the results of the lines after these read by a line pass of its own (`Document.streamed`
        of a file a reader splits): its lines numbered after these, its facts appended to this store (`extend`)."""
        shift = len(self._kinds)
        self._whole.update({number + shift: result for number, result in later._whole.items()})
        self._kinds += later._kinds
        self._facts.extend(later._facts)

    def replace(self, number: int, result: LineResult) -> None:
        """Line `number`'s result, once the file's line pass has found more about it (a line too long to hold,
        known once the stream has passed it); before anything reads the results."""
        self._whole[number] = result
        self._facts[number] = result.facts
        self._kinds[number] = _CODE[result.kind]

    def spliced(self, start: int, stop: int, results: Sequence[LineResult]) -> PlainResults:
        """These results with lines `start` to `stop` (exclusive) replaced by `results`, any number of them (an edit):
        a new store; this one, and the facts a link model reads of it, stay as they are. The facts' store is
        copied (Elyra's columns: the columns shared until a run of lines changes length) and the kinds (a byte a
        line); the whole results after the edit move by the change in length."""
        new = PlainResults.__new__(PlainResults)
        shift = len(results) - (stop - start)
        new._whole = {number if number < start else number + shift: result
                      for number, result in self._whole.items() if not start <= number < stop}
        for number, result in enumerate(results, start):
            if result.__class__ is not LineResult or result.issues:
                new._whole[number] = result
        new._kinds = self._kinds[:start] + bytes(_CODE[result.kind] for result in results) + self._kinds[stop:]
        new._facts = self._facts.copy()
        new._facts[start:stop] = [result.facts for result in results]
        return new

    @property
    def facts(self) -> FactStore:
        """Every line's facts, in order: the store itself (not a copy), which the caller must not change; a link
        model keeps it as it is instead of a second list of the same pointers."""
        return self._facts

    def __len__(self) -> int:
        return len(self._kinds)

    def _read(self, index: int) -> LineResult:
        facts = self._facts[index]
        found = self._whole.get(index)
        return found if found is not None else LineResult(_KINDS[self._kinds[index]], facts)

    def named(self, index: int) -> LineResult:
        """Line `index`'s result as a title reads it (`Document.title`): with the lighter facts its store makes for
        a title when it has a way to (`named`: Elyra's columns), else as indexing gives it."""
        named = getattr(self._facts, "named", None)
        if named is None:
            return self._read(index)
        found = self._whole.get(index)
        return found if found is not None else LineResult(_KINDS[self._kinds[index]], named(index))

    def __iter__(self) -> Iterator[LineResult]:
        whole, kinds = self._whole, _KINDS
        for number, (code, facts) in enumerate(zip(self._kinds, self._facts, strict=True)):
            found = whole.get(number)
            yield found if found is not None else LineResult(kinds[code], facts)

    def of_kind(self, kind: LineKind) -> list[int]:
        """The lines whose result is of `kind`, in order, found in the column of kinds at C speed."""
        kinds, code = self._kinds, _CODE[kind]
        found: list[int] = []
        number = -1
        while (number := kinds.find(code, number + 1)) >= 0:
            found.append(number)
        return found

    def with_issues(self) -> list[int]:
        """The lines whose results have issues, in order."""
        return sorted(number for number, result in self._whole.items() if result.issues)


def facts_of(results: Sequence[LineResult]) -> Sequence[Any]:
    """Every line's facts, in order, without a `LineResult` made a line: of `PlainResults` their own store (not a
    copy, which the caller must not change)."""
    if type(results) is PlainResults:
        return cast("Sequence[Any]", results.facts)  # a list, or a format's store, which is a sequence too
    return [result.facts for result in results]


def lines_of_kind(results: Sequence[LineResult], kind: LineKind) -> list[int]:
    """The lines whose result is of `kind`, in order (of `PlainResults`, without a `LineResult` made a line)."""
    if type(results) is PlainResults:
        return results.of_kind(kind)
    return [number for number, result in enumerate(results) if result.kind is kind]


class TitledResults(ByLine[LineResult]):
    """A document's results with their titles, each made when a line is read (`Document.titled`): what outlines,
    trees and completion read. The last line read is kept, since a feature often reads a line's facts and then its
    title; no more, so a tree of every line holds no title it has passed."""

    __slots__ = ("_last", "_results", "_title")

    def __init__(self, results: Sequence[LineResult], title: Callable[[int], str]) -> None:
        self._results, self._title = results, title
        self._last: tuple[int, LineResult] | None = None

    def __len__(self) -> int:
        return len(self._results)

    def _read(self, index: int) -> LineResult:
        if self._last is not None and self._last[0] == index:
            return self._last[1]
        result = self._results[index]
        found = line_result(result.kind, result.facts, result.issues, self._title(index), result.parts)
        self._last = (index, found)
        return found
