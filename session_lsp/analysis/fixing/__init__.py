"""What a repair is, below the format packages: `Fix` and `TextEdit`, the document a fixer reads (`FixDoc`, which
`document.Document` satisfies), the helpers that build edits (`edits`), and the repairs every format shares
(`generic`: split a glued line, delete a line, CRLF to LF, salvage or cut a torn line, the final newline, a byte
order mark, invalid UTF-8, a fresh id for a duplicate). Each format declares its own fixers in its package
(`Format.fixers`: rule code -> (phase, fixer)); `features/fixes.py` applies them and names no rule."""

from __future__ import annotations

from .edits import (
    FILE,
    IDS,
    LINES,
    PARENTS,
    REFERENCES,
    FileWide,
    Fix,
    FixDoc,
    Fixer,
    Fixers,
    TextEdit,
    delete_line,
    fix,
    insert_line_after,
    insert_members,
    json_text,
    remove_value,
    replace_line,
    replace_value,
)

__all__ = ["FILE", "IDS", "LINES", "PARENTS", "REFERENCES", "FileWide", "Fix", "FixDoc", "Fixer", "Fixers", "TextEdit",
           "delete_line", "fix", "insert_line_after", "insert_members", "json_text", "remove_value",
           "replace_line", "replace_value"]
