"""The shared counts on Redis (config/counting.py): one transaction a count, read back by
the cache itself as its own counts are."""

from __future__ import annotations

import os
import uuid

import pytest
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError

from config.counting import count_and_read, count_in


@pytest.fixture
def redis_cache() -> RedisCache:
    return RedisCache(f"{os.environ['REDIS_URL']}/1", {"KEY_PREFIX": f"t-{uuid.uuid4().hex}"})


def test_a_count_and_the_other_read_together(redis_cache):
    assert count_and_read(redis_cache, "now", 61, 1, "before") == (1, 0)
    assert count_and_read(redis_cache, "now", 61, 2, "before") == (3, 0)
    redis_cache.set("before", 5)
    assert count_and_read(redis_cache, "now", 61, 1, "before") == (4, 5)
    assert redis_cache.get("now") == 4  # the cache reads what was counted, and adds to it
    assert redis_cache.decr("now") == 3
    assert count_in(redis_cache, "other", 30, 3) == 3


def test_a_count_is_kept_as_long_as_asked_from_its_first(redis_cache):
    count_and_read(redis_cache, "now", 61)
    client = redis_cache._cache.get_client(write=True)
    key = redis_cache.make_and_validate_key("now")
    assert 59 <= client.ttl(key) <= 61
    client.expire(key, 30)
    count_and_read(redis_cache, "now", 61)  # (added to: its time runs on)
    assert client.ttl(key) <= 30


def test_counts_added_at_once_are_all_counted(redis_cache):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        counts = list(pool.map(lambda _: count_in(redis_cache, "busy", 61), range(200)))
    assert sorted(counts) == list(range(1, 201))


def test_an_unreachable_redis_raises_redis_pys_error():
    """As the cache's own calls did: the rates let a request through uncounted on it."""
    with pytest.raises(RedisConnectionError):
        count_and_read(RedisCache("redis://127.0.0.1:9/1", {}), "now", 61, 1, "before")
