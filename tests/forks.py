"""Counting the processes the code under test forks (`forked.fork`): a forked process adds nothing to the count
this one sees."""

from __future__ import annotations

import os

import pytest


class Forks:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        fork = os.fork

        def counted() -> int:
            self.count += 1
            return fork()

        monkeypatch.setattr(os, "fork", counted)
