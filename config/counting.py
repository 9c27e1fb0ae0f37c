"""Counts kept in the shared cache (Redis in production), added to atomically."""

from __future__ import annotations

import contextlib
import weakref
from typing import Any

from django.core.cache.backends.redis import RedisCacheClient


def count_in(cache: Any, key: str, timeout: float, by: int = 1) -> int:
    """Add ``by`` to the count at ``key`` (begun at 0 and kept ``timeout`` seconds if
    there is none) in one atomic step, however many add at once: the count after."""
    return count_and_read(cache, key, timeout, by)[0]


def count_and_read(
    cache: Any, key: str, timeout: float, by: int = 1, other: str | None = None
) -> tuple[int, int]:
    """:func:`count_in`, and the count at ``other`` (0 when there is none, or no
    ``other``). On Redis (Django's ``RedisCache``) in one round trip: a ``MULTI``/``EXEC``
    transaction begins the count (``SET NX EX``), adds to it (``INCRBY``) and reads the
    other (``GET``), where the cache's own calls took four (``add``; ``incr``'s ``EXISTS``
    and ``INCRBY``; ``get``), each with a new client object."""
    client = _redis_of(cache)
    seconds = cache.get_backend_timeout(timeout) if client is not None else None
    if client is None or not seconds:  # another cache (memory: development), or no timeout
        count = by
        for _ in range(3):
            cache.add(key, 0, timeout)
            with contextlib.suppress(ValueError):  # evicted between the two calls: again
                count = int(cache.incr(key, by))
                break
        return count, 0 if other is None else int(cache.get(other, 0))
    full = cache.make_and_validate_key(key)
    pipe = client.pipeline(transaction=True)  # (nothing comes between the three)
    pipe.set(full, 0, nx=True, ex=seconds)
    pipe.incrby(full, by)
    if other is not None:
        pipe.get(cache.make_and_validate_key(other))
    replies = pipe.execute()
    # (Django's Redis cache keeps an integer as its digits, as INCRBY does)
    earlier = replies[2] if other is not None else None
    return int(replies[1]), 0 if earlier is None else int(earlier)


#: The Redis client of each of Django's Redis caches, made once: ``get_client`` makes a
#: new one at every call (on the same pool), which cost about as much as a round trip.
_clients: weakref.WeakKeyDictionary[RedisCacheClient, Any] = weakref.WeakKeyDictionary()


def _redis_of(cache: Any) -> Any:
    """The client that writes to ``cache``'s Redis (its primary), or ``None`` when the
    cache is not Django's Redis cache."""
    backend = getattr(cache, "_cache", None)  # (RedisCache's own client, made on first use)
    if not isinstance(backend, RedisCacheClient):
        return None
    client = _clients.get(backend)
    if client is None:
        client = _clients[backend] = backend.get_client(write=True)
    return client
