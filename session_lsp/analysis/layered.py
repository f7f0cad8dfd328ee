"""A mapping a relink changes without copying: a large table of the old model, shared and never changed, under the
few entries the relink changed. Copying a 30,000-entry dict per edit (and freeing the old one) cost more than the
rest of a relink."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
_GONE: object = object()
FLATTEN_AT = 4096
"""Changed entries past which the next relink copies the whole table again, so lookups stay two dict probes and
the changes stay small."""


class Layered(MutableMapping[K, V], Generic[K, V]):
    """`base` with `changes` over it (a key mapped to `_GONE` is deleted). Only `changes` is ever written."""

    __slots__ = ("_base", "_changes", "_size")

    def __init__(self, base: Mapping[K, V], changes: dict[K, object], size: int) -> None:
        self._base = base
        self._changes = changes
        self._size = size

    @classmethod
    def over(cls, table: Mapping[K, V]) -> MutableMapping[K, V]:
        """A copy of `table` to change: its changes over the same base when it is layered already (a plain dict once
        they are many), else a layer over it."""
        if isinstance(table, Layered):
            if len(table._changes) >= FLATTEN_AT:
                return dict(table.items())
            return cls(table._base, dict(table._changes), table._size)
        return cls(table, {}, len(table))

    def __getitem__(self, key: K) -> V:
        found = self._changes.get(key, self)
        if found is self:
            return self._base[key]
        if found is _GONE:
            raise KeyError(key)
        return found  # type: ignore[return-value]

    def get(self, key: K, default: V | None = None) -> V | None:  # type: ignore[override]
        found = self._changes.get(key, self)
        if found is self:
            return self._base.get(key, default)
        return default if found is _GONE else found  # type: ignore[return-value]

    def __contains__(self, key: object) -> bool:
        found = self._changes.get(key, self)  # type: ignore[arg-type]
        return key in self._base if found is self else found is not _GONE

    def __setitem__(self, key: K, value: V) -> None:
        if key not in self:
            self._size += 1
        self._changes[key] = value

    def __delitem__(self, key: K) -> None:
        if key not in self:
            raise KeyError(key)
        self._size -= 1
        self._changes[key] = _GONE

    def __iter__(self) -> Iterator[K]:
        changes = self._changes
        for key in self._base:
            if key not in changes:
                yield key
        for key, value in changes.items():
            if value is not _GONE:
                yield key

    def __len__(self) -> int:
        return self._size
