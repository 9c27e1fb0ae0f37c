"""Copying a game's frozen state on the replay hot path.

``dataclasses.replace`` re-runs ``__init__`` over every field, and a fold makes one copy
per event. A frozen dataclass *without* slots keeps its fields in an instance dictionary
that its ``__setattr__`` does not guard, so a copy is two dictionary updates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")
E = TypeVar("E")


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


def fold_in_place(
    events: Iterable[E],
    state: T | None,
    evolve: Callable[[T | None, E], T],
    changes: Callable[[T, E], Mapping[str, Any]],
) -> T | None:
    """Fold ``events`` into ``state`` (None: from scratch) as ``evolve`` would, event by
    event, keeping only the last version: the first event's ``evolve`` makes a new state,
    and each later event's ``changes`` update that one in place, which saves the copy of
    every field per event. ``state`` itself is left as it was; with no events it is
    returned as it is (None stays None).

    ``changes(state, event)`` is what ``evolve`` applies to a copy of ``state``. It may keep
    a copy of ``state`` among the changes (an undo point), never ``state`` itself, which
    the next event changes.
    """
    own: T | None = None
    for event in events:
        if own is None:
            own = evolve(state, event)
        else:
            own.__dict__.update(changes(own, event))
    return state if own is None else own
