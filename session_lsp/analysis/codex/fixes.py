"""The repairs of Codex rollouts: none yet (the shared ones are in `fixing.generic`)."""

from __future__ import annotations

from ..fixing import Fixers

FIXERS: Fixers = {}
"""Codex's rules with a fix: the phase it runs in and the fixer."""
