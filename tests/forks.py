"""Forked processes in tests: counting those the code under test forks (`forked.fork`), and a stand-in for one
that runs the work at once, in this process."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Generic, TypeVar

import pytest

T = TypeVar("T")


class Forks:
    """A forked process adds nothing to the count this one sees."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        fork = os.fork

        def counted() -> int:
            self.count += 1
            return fork()

        monkeypatch.setattr(os, "fork", counted)


class Here(Generic[T]):
    """`forked.fork` without the fork: a split text checked on every file cheaply (`Document(elsewhere=Here)`)."""

    def __init__(self, work: Callable[[], T]) -> None:
        self.value = work()

    def result(self) -> T:
        return self.value
