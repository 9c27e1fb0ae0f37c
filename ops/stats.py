"""A rolling aggregate of the requests of the last hour, per minute, kept in Redis.

Each request adds to the hash of its minute, ``ops:stats:<minute>`` (minutes since the
epoch): ``requests``, ``actions`` (POSTs to the action endpoint), ``4xx`` and ``5xx``,
and per endpoint (its resolved URL name and method) ``n|<endpoint>`` (requests) and
``ms|<endpoint>`` (milliseconds, summed); the slowest request of each endpoint in that
minute goes to the sorted set ``ops:stats:<minute>:max``. Both expire an hour after their
minute, so the aggregate keeps itself at about 120 keys. Recording is one pipelined
round trip; reading the hour is another.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from ops import connection

PREFIX = "ops:stats:"
MINUTES = 60
TTL_SECONDS = (MINUTES + 2) * 60
ACTION_ENDPOINT = ("api:actions", "POST")


def _minute(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // 60)


def record(
    *, endpoint: str, method: str, status: int, seconds: float, now: float | None = None
) -> bool:
    """Count one request to ``endpoint`` (a URL name) with ``method``, answered with
    ``status`` after ``seconds``. Returns whether it was recorded: never raises, and costs
    nothing while Redis is unreachable."""
    redis = connection.client()
    if redis is None:
        return False
    key = f"{PREFIX}{_minute(now)}"
    name = f"{endpoint} {method}"
    ms = round(seconds * 1000, 3)
    try:
        pipe = redis.pipeline(transaction=False)
        pipe.hincrby(key, "requests", 1)
        if (endpoint, method) == ACTION_ENDPOINT:
            pipe.hincrby(key, "actions", 1)
        if status >= 500:
            pipe.hincrby(key, "5xx", 1)
        elif status >= 400:
            pipe.hincrby(key, "4xx", 1)
        pipe.hincrby(key, f"n|{name}", 1)
        pipe.hincrbyfloat(key, f"ms|{name}", ms)
        pipe.zadd(f"{key}:max", {name: ms}, gt=True)
        pipe.expire(key, TTL_SECONDS)
        pipe.expire(f"{key}:max", TTL_SECONDS)
        pipe.execute()
    except Exception as exc:  # Redis is away: the request goes on uncounted
        connection.failed(exc)
        return False
    return True


@dataclass(frozen=True)
class Minute:
    start: datetime
    requests: int
    actions: int
    client_errors: int
    server_errors: int


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    requests: int
    total_ms: float
    max_ms: float

    @property
    def mean_ms(self) -> float:
        return self.total_ms / self.requests if self.requests else 0.0


@dataclass(frozen=True)
class Hour:
    minutes: list[Minute]  # the oldest first, the current minute last
    endpoints: list[Endpoint]  # the slowest by mean first

    @property
    def totals(self) -> Minute:
        return Minute(
            start=self.minutes[0].start,
            requests=sum(m.requests for m in self.minutes),
            actions=sum(m.actions for m in self.minutes),
            client_errors=sum(m.client_errors for m in self.minutes),
            server_errors=sum(m.server_errors for m in self.minutes),
        )


def last_hour(now: float | None = None) -> Hour | None:
    """The aggregate of the last :data:`MINUTES` minutes, or ``None`` if Redis is
    unreachable."""
    redis = connection.client()
    if redis is None:
        return None
    current = _minute(now)
    minutes = range(current - MINUTES + 1, current + 1)
    try:
        pipe = redis.pipeline(transaction=False)
        for minute in minutes:
            pipe.hgetall(f"{PREFIX}{minute}")
            pipe.zrange(f"{PREFIX}{minute}:max", 0, -1, withscores=True)
        replies = pipe.execute()
    except Exception as exc:
        connection.failed(exc)
        return None
    series = []
    counts: dict[str, int] = {}
    totals: dict[str, float] = {}
    maxima: dict[str, float] = {}
    for minute, fields, slowest in zip(minutes, replies[::2], replies[1::2], strict=True):
        series.append(
            Minute(
                start=datetime.fromtimestamp(minute * 60, UTC),
                requests=int(fields.get("requests", 0)),
                actions=int(fields.get("actions", 0)),
                client_errors=int(fields.get("4xx", 0)),
                server_errors=int(fields.get("5xx", 0)),
            )
        )
        for field, value in fields.items():
            kind, _, name = field.partition("|")
            if kind == "n":
                counts[name] = counts.get(name, 0) + int(value)
            elif kind == "ms":
                totals[name] = totals.get(name, 0.0) + float(value)
        for name, ms in slowest:
            maxima[name] = max(maxima.get(name, 0.0), float(ms))
    endpoints = []
    for name, count in counts.items():
        endpoint, _, method = name.rpartition(" ")
        endpoints.append(
            Endpoint(endpoint, method, count, totals.get(name, 0.0), maxima.get(name, 0.0))
        )
    endpoints.sort(key=lambda e: (-e.mean_ms, e.name, e.method))
    return Hour(series, endpoints)
