"""Copying a game's frozen state on the replay hot path.

``dataclasses.replace`` re-runs ``__init__`` over every field, and a fold makes one copy
per event. A frozen dataclass *without* slots keeps its fields in an instance dictionary
that its ``__setattr__`` does not guard, so a copy is two dictionary updates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def replaced(obj: T, changes: Mapping[str, Any]) -> T:
    """A copy of the frozen (non-slotted) dataclass instance ``obj`` with ``changes``.

    Fields are not checked: the caller names only fields of ``obj``'s class.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class P:
    ...     x: int
    ...     y: int
    >>> replaced(P(1, 2), {"y": 3})
    P(x=1, y=3)
    """
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return new
