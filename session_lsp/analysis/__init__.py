"""The analysis core: text in, a model and diagnostics out.

Invariants: no I/O, no pygls/lsprotocol import, and no exception on any input: every line yields a result.
"""

from .detect import FormatInfo, Kind
from .diagnostics import Diagnostic, Related, Severity, Span
from .document import Document, analyze
from .formats import detect
from .registry import RULES, Rule, rule
from .results import Options

__all__ = [
    "RULES", "Diagnostic", "Document", "FormatInfo", "Kind", "Options", "Related", "Rule", "Severity", "Span",
    "analyze", "detect", "rule",
]
