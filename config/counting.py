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


def sliding_wait(count: float, earlier: float, into: float, limit: float, cost: float) -> float:
    """How far into the future (in windows) a sliding window leaves room for ``cost`` more
    under ``limit``, counted as ``count`` in the current fixed window and ``earlier`` in
    the one before, weighted by how much of it the sliding window still covers
    (``(1 - t) * earlier + count + cost <= limit``, ``into``: how far the current window
    has gone, 0..1), nothing more being counted meanwhile. One costing the whole limit
    fits in the window after next."""
    if count + cost <= limit:  # room in this window, once enough of the last has slid off
        if earlier <= 0:
            return 0.0
        return max(0.0, 1 - (limit - count - cost) / earlier - into)
    # in the next window, where this one is the earlier (one costing the whole rate:
    # the window after it)
    if count <= 0:
        return 1 - into
    slid = min(1.0, max(0.0, 1 - (limit - cost) / count))
    return 1 - into + slid
