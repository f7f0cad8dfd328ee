"""Sessions the real agents wrote, each damaged in one place, as every editor must show them: one `Case` a format (and
one for a `.jsonl.zst`), read by the format-agnostic editor scripts (neovim/check.lua, emacs/check.el, vim/check.vim,
vscode/e2e.js) through their probe, and by test_agents.py's assertions.

A case names a file from tests/corpus (bytes as the agent wrote them) and the one edit that damages it; everything
else the editors must show (the diagnostics' lines, the hover's card, where definition goes, the tree's and the
outline's labels) is written here once, for every editor.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .conftest import ROOT

if sys.version_info >= (3, 14):
    from compression.zstd import compress
else:
    from backports.zstd import compress

CORPUS = ROOT / "tests" / "corpus"


@dataclass(frozen=True)
class Case:
    name: str
    source: Path
    """The file the real agent wrote."""
    damage: Callable[[list[str]], None]
    """Edits the file's lines in place: the one damage the editors must show."""
    diagnostics: list[tuple[int, str]]
    """(0-based line, code) of every diagnostic, in line order."""
    message: str
    """A part of the first diagnostic's message."""
    hover_on: tuple[int, str]
    """The hover (and definition) probe: a line and the reference on it (the text before the cursor's value)."""
    hover_texts: tuple[str, ...]
    """What the hover shows (markdown's ` and * removed)."""
    definition: int
    """The line definition goes to from the hover's place."""
    tree_head: str
    """How the tree view's first line (the header) starts, in Neovim and Emacs."""
    tree_texts: tuple[str, ...]
    """Labels in the tree (every editor's) and the outline."""
    status: str
    """What the VS Code status bar names the format."""
    folds: tuple[tuple[int, int], ...] = ()
    """Folding ranges that must be among the server's."""
    leaf_message: str | None = None
    """What :SessionLeaf says (Neovim) when the format has no active leaf; None: it goes to the leaf."""
    actions: tuple[str, ...] = ()
    """The titles of the code actions with an edit offered on the first diagnostic's line (checked in Emacs)."""
    compressed: bool = False
    """Open the damaged file compressed, as `<name>.zst` (Zstandard)."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def file_name(self) -> str:
        return self.source.name + (".zst" if self.compressed else "")

    def lines(self) -> list[str]:
        lines = self.source.read_text(encoding="utf-8").split("\n")
        self.damage(lines)
        return lines

    def write(self, folder: Path) -> Path:
        """The damaged copy in `folder`, under the agent's own name for the file (compressed when the case says)."""
        data = "\n".join(self.lines()).encode("utf-8")
        target = folder / self.file_name
        target.write_bytes(compress(data) if self.compressed else data)
        return target

    def hover_position(self) -> tuple[int, int]:
        line, before = self.hover_on
        return line, self.lines()[line].index(before) + len(before) + 2

    def probe(self) -> dict[str, Any]:
        """What the editor scripts read from $SESSION_LSP_PROBE: where to hover, the line with the first diagnostic
        (its code actions), the line the tree's jump goes to."""
        return {"hover": list(self.hover_position()), "action_line": self.diagnostics[0][0],
                "jump_line": self.definition, **self.extra}

    def check_hover(self, text: Any) -> None:
        value = text.get("value") if isinstance(text, dict) else text
        assert isinstance(value, str), f"no hover: {text!r}"
        shown = value.replace("`", "").replace("*", "")
        for expected in self.hover_texts:
            assert expected in shown, f"{expected!r} is not in the hover: {value}"


def _claude_damage(lines: list[str]) -> None:
    """The `parentUuid` of the record on line 22 names no record (CCD020: Claude Code links it to the record
    written last before it)."""
    lines[21] = re.sub(r'"parentUuid":"[^"]+"', '"parentUuid":"00000000-dead-4bad-8bad-000000000000"', lines[21],
                       count=1)


def _codex_damage(lines: list[str]) -> None:
    """The output on line 35 names a call_id no call has: Codex drops it on resume (CDX020), and its call on line 32
    is left without an output (CDX021, Codex answers it "aborted")."""
    lines[34] = lines[34].replace("call_iNmNL7EX3tNvQsqbDnZr4NGi", "call_00000000deadbeef00000000")


CLAUDE = Case(
    name="claude-code",
    source=CORPUS / "claude-code-2.1.332-written" / "d4e1977c-4507-4cf2-8923-34a626a3b3be.jsonl",
    damage=_claude_damage,
    diagnostics=[(21, "CCD020")],
    message="links it to the record written last before it (line 21, by `timestamp`)",
    hover_on=(23, '"tool_use_id":"'),
    hover_texts=("tool_use_id → line 23", "tool call Write", "answered by line 24"),
    definition=22,
    tree_head="Claude Code, 34 entries",
    tree_texts=("user: Create a small Python script greet.py", "Write call"),
    status="Claude Code",
    folds=((2, 44), (47, 57)),  # the two turns
    # the quick fix on the broken link points it where Claude Code links it (analysis/claude/fixes.py)
    actions=('Set parentUuid to "d41cea18-f973-4751-9f10-a19961097692" (the record Claude Code links it to, written '
             'last before it, line 21) (unsafe fix)',),
)

_ROLLOUT = CORPUS / "codex-0.171.0-written" / "rollout-2026-12-05T08-14-35-01a24544-ef77-76d2-ad46-9e07c57223d1.jsonl"

CODEX = Case(
    name="codex",
    source=_ROLLOUT,
    damage=_codex_damage,
    diagnostics=[(31, "CDX021"), (34, "CDX020")],
    message="Codex sends a synthetic output \"aborted\" right after it",
    hover_on=(46, '"call_id":"'),
    hover_texts=("call_id → line 44", "function_call", "call exec_command call_KY1rDF4TdUiBLG7tiZQwIwTr: output on "
                 "line 47"),
    definition=43,
    tree_head="Codex, 70 entries",
    tree_texts=("user: Give me a quick overview of this repository.", "user: Run the unit tests and fix whatever "
                "fails.", "user: Document the command-line usage in README.md."),
    status="Codex",
    folds=((1, 24), (25, 53), (54, 69)),  # the three turns, each to the line before the next
    leaf_message="a Codex session is a flat log with no active leaf",
)

CODEX_ZST = Case(**{**CODEX.__dict__, "name": "codex-zst", "compressed": True})
"""The same rollout compressed (`.jsonl.zst`, as Codex can write it): the editor shows its text and the same
diagnostics, hover and tree."""

CASES = {case.name: case for case in (CLAUDE, CODEX, CODEX_ZST)}
