"""Selection ranges grow from the value under the cursor through its member and enclosing objects to the line."""

from __future__ import annotations

from session_lsp.analysis import Span, analyze
from session_lsp.analysis.features import SelectionRange, selection_ranges


def chain(found: SelectionRange) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    current: SelectionRange | None = found
    while current is not None:
        assert current.span.line == current.span.end_line
        out.append((current.span.start, current.span.end))
        current = current.parent
    return out


LINE = '  {"type":"message","message":{"role":"user","content":["a",{"x":1}]}}  '


def test_value_member_objects_line() -> None:
    doc = analyze(LINE + "\n")
    [found] = selection_ranges(doc, [(0, LINE.index('"user"') + 2)])
    role = LINE.index('"role"')
    message = LINE.index('"message":{')
    inner = LINE.index('{"role"')
    assert chain(found) == [
        (LINE.index('"user"'), LINE.index('"user"') + 6),
        (role, LINE.index('"user"') + 6),
        (inner, len(LINE.rstrip()) - 1),
        (message, len(LINE.rstrip()) - 1),
        (2, len(LINE.rstrip())),
        (0, len(LINE)),
    ]
    assert found.span == Span(0, LINE.index('"user"'), 0, LINE.index('"user"') + 6)


def test_array_items_and_keys() -> None:
    doc = analyze(LINE + "\n")
    key_col = LINE.index('"x"') + 1
    [found] = selection_ranges(doc, [(0, key_col)])
    spans = chain(found)
    assert spans[0] == (LINE.index('"x"'), LINE.index('"x"') + 3)
    assert spans[1] == (LINE.index('"x"'), LINE.index('"x"') + 5)
    assert spans[2] == (LINE.index('{"x"'), LINE.index('{"x"') + 7)
    assert spans[3] == (LINE.index('["a"'), LINE.index('}]') + 2)


def test_glued_line_selects_within_its_record() -> None:
    glued = '{"a":1}{"b":"two"}'
    doc = analyze('{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n'
                  + glued + "\n")
    [found] = selection_ranges(doc, [(1, glued.index('"two"') + 1)])
    start = glued.index('"two"')
    assert chain(found) == [(start, start + 5), (glued.index('"b"'), start + 5), (7, len(glued)), (0, len(glued))]


def test_outside_json_is_the_line() -> None:
    doc = analyze("not json at all\n")
    assert [chain(found) for found in selection_ranges(doc, [(0, 3), (5, 0)])] == [[(0, 15)], [(0, 0)]]
