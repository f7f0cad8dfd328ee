"""The repairs of thndrs files: the shared ones (`fixing.generic`) for thndrs's rule codes, and the record numbers
renumbered in line order (`RENUMBERED`: one fix for every seq diagnostic, from the session's `renumbering`)."""

from __future__ import annotations

from ..fixing import LINES, Fixers, generic

FIXERS: Fixers = {
    "THN002": (LINES, generic.utf8),
    "THN001": (LINES, generic.split_glued_line),
    "THN071": (LINES, generic.torn_tail),
    "THN003": (LINES, generic.drop_line("line, which holds no record")),
    "THN070": (LINES, generic.drop_line("blank line")),
}
"""thndrs's rules with a fix: the phase it runs in and the fixer."""

RENUMBERED = frozenset({"THN030", "THN031", "THN032", "THN033"})
"""The seq rules: one renumbering of the whole file repairs them all."""
