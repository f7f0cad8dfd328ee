"""`Forwarded`: a read-only attribute of a facts Struct that lives in its `special` sub-struct.

Both formats keep the fields only a few record kinds have in one shared sub-struct, so that each of a large file's
ordinary lines holds one slot for them instead of one per field; readers still write `facts.label`.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Forwarded(Generic[T]):
    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type) -> Forwarded[T]: ...

    @overload
    def __get__(self, instance: object, owner: type) -> T: ...

    def __get__(self, instance: Any, owner: type) -> Any:
        if instance is None:
            return self
        return getattr(instance.special, self.name)
