"""Codex rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`): the line pass (`line_pass`), the link
pass (`link_pass`) and the history Codex rebuilds on resume (`model`, `context`). `FORMAT` (`face.py`) is the
package's one face to the rest of the core."""

from __future__ import annotations

from .face import FORMAT

__all__ = ["FORMAT"]
