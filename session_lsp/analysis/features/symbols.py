"""Document symbols: the outline the format's model builds (Elyra: the conversation tree, nested only where it
branches, the active branch first; thndrs: one symbol per turn holding its records). Past `limit` symbols a last
symbol says how many entries were left out, so a huge file is never cut silently.

Turned into symbols without recursion (a tree can be as deep as the file is long).
"""

from __future__ import annotations

from ..anchors import line_span
from ..diagnostics import Span
from ..document import Document
from ..structure import Budget, OutlineNode
from .types import Symbol


def _symbols(doc: Document, nodes: list[OutlineNode]) -> list[Symbol]:
    """Post-order, iteratively: every child becomes a Symbol before its parent does."""
    done: dict[int, Symbol] = {}
    stack: list[tuple[OutlineNode, bool]] = [(node, False) for node in reversed(nodes)]
    while stack:
        node, expanded = stack.pop()
        if not expanded:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.children))
            continue
        kids = tuple(done.pop(id(child)) for child in node.children)
        done[id(node)] = Symbol(node.name, node.detail, node.kind, *_spans(doc, node), kids)
    return [done[id(node)] for node in nodes]


def _spans(doc: Document, node: OutlineNode) -> tuple[Span, Span]:
    """(span, selection span), each line measured once: most nodes are one line, which is both."""
    first = line_span(doc.lines, node.first)
    if node.first == node.last == node.line:
        return first, first
    last = line_span(doc.lines, node.last)
    named = first if node.line == node.first else line_span(doc.lines, node.line)
    return Span(node.first, first.start, node.last, last.end), named


def document_symbols(doc: Document, limit: int = 5000) -> list[Symbol]:
    model = doc.linked.model
    if model is None:
        return []
    budget = Budget(limit)
    outline = doc.session.outline(doc.results, doc.title, budget)
    nodes = outline.nodes
    if budget.cut:
        last = len(doc.lines) - 1
        nodes.append(OutlineNode(f"… {budget.cut:,} more {outline.noun} not shown",
                                 f"the outline stops at {limit:,} symbols", "null", last, last, last))
    return _symbols(doc, nodes)
