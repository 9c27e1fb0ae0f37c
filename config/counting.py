"""Counts kept in the shared cache (Redis in production), added to atomically."""

from __future__ import annotations

import contextlib
from typing import Any


def count_in(cache: Any, key: str, timeout: float, by: int = 1) -> int:
    """Add ``by`` to the count at ``key`` (begun at 0 and kept ``timeout`` seconds if
    there is none) in one atomic step, however many add at once: the count after."""
    for _ in range(3):
        cache.add(key, 0, timeout)
        with contextlib.suppress(ValueError):  # evicted between the two calls: again
            return int(cache.incr(key, by))
    return by
