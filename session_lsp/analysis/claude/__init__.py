"""Claude Code transcripts (`~/.claude/projects/<cwd>/<session>.jsonl`, and its subagents'
`<session>/subagents/agent-<id>.jsonl`): the line pass (`line_pass`), the link pass (`link_pass`) and the chain
Claude Code resumes (`model`). `FORMAT` (`face.py`) is the package's one face to the rest of the core."""

from __future__ import annotations

from .face import FORMAT

__all__ = ["FORMAT"]
