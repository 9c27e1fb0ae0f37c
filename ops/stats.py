"""A rolling aggregate of the requests of the last hour, per minute, kept in Redis.

Each request adds to the hash of its minute, ``ops:stats:<minute>`` (minutes since the
epoch): ``requests``, ``actions`` (POSTs to the action endpoint), ``4xx`` and ``5xx``,
and per endpoint (its resolved URL name and method) ``n|<endpoint>`` (requests) and
``ms|<endpoint>`` (milliseconds, summed); the slowest request of each endpoint in that
minute goes to the sorted set ``ops:stats:<minute>:max``. Both expire an hour after their
minute, so the aggregate keeps itself at about 120 keys. Recording is one pipelined
round trip; reading the hour is another (a Lua script sums it in Redis).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from redis.commands.core import Script

from ops import connection

PREFIX = "ops:stats:"
MINUTES = 60
TTL_SECONDS = (MINUTES + 2) * 60
ACTION_ENDPOINT = ("api:actions", "POST")


def _minute(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // 60)


# One request counted: a single command (the script's), where a pipeline of up to eight
# commands cost the request two and a half times the CPU (packing and parsing each).
# KEYS: the minute's hash and its sorted set of maxima; ARGV: the endpoint's name, its
# milliseconds, the keys' time to live, then the counters to add one to (requests, and
# actions, 4xx or 5xx when the request was one).
_RECORD_SCRIPT = """
local key, top = KEYS[1], KEYS[2]
local name, ms, ttl = ARGV[1], ARGV[2], ARGV[3]
for i = 4, #ARGV do redis.call('HINCRBY', key, ARGV[i], 1) end
redis.call('HINCRBY', key, 'n|' .. name, 1)
redis.call('HINCRBYFLOAT', key, 'ms|' .. name, ms)
redis.call('ZADD', top, 'GT', ms, name)
redis.call('EXPIRE', key, ttl)
redis.call('EXPIRE', top, ttl)
"""
# (bound to no client: run on the one given, by EVALSHA; redis-py loads it where missing)
_RECORD = Script(None, _RECORD_SCRIPT.encode())  # type: ignore[arg-type]


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
    counters = ["requests"]
    if (endpoint, method) == ACTION_ENDPOINT:
        counters.append("actions")
    if status >= 500:
        counters.append("5xx")
    elif status >= 400:
        counters.append("4xx")
    try:
        _RECORD(keys=[key, f"{key}:max"], args=[name, ms, TTL_SECONDS, *counters], client=redis)
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


# Sums the hour's minutes in Redis, so that one reply of a few hundred values comes back
# however many fields the minutes hold. KEYS: the minutes' hashes, oldest first, then
# their sorted sets of maxima in the same order. Returns the counters of each minute
# (requests, actions, 4xx, 5xx) and, per endpoint, its name, requests, total and max ms.
_HOUR_SCRIPT = """
local n = #KEYS / 2
local series, counts, totals, maxima, names = {}, {}, {}, {}, {}
for i = 1, n do
  local fields = redis.call('HGETALL', KEYS[i])
  local minute = {requests = 0, actions = 0, ['4xx'] = 0, ['5xx'] = 0}
  for j = 1, #fields, 2 do
    local field, value = fields[j], fields[j + 1]
    if minute[field] then
      minute[field] = tonumber(value)
    else
      local kind, name = string.match(field, '^(%a+)|(.+)$')
      if kind == 'n' then
        if not counts[name] then counts[name] = 0; names[#names + 1] = name end
        counts[name] = counts[name] + tonumber(value)
      elseif kind == 'ms' then
        totals[name] = (totals[name] or 0) + tonumber(value)
      end
    end
  end
  for _, field in ipairs({'requests', 'actions', '4xx', '5xx'}) do
    series[#series + 1] = minute[field]
  end
  local slowest = redis.call('ZRANGE', KEYS[n + i], 0, -1, 'WITHSCORES')
  for j = 1, #slowest, 2 do
    local ms = tonumber(slowest[j + 1])
    if ms > (maxima[slowest[j]] or 0) then maxima[slowest[j]] = ms end
  end
end
local endpoints = {}
for _, name in ipairs(names) do
  endpoints[#endpoints + 1] = name
  endpoints[#endpoints + 1] = counts[name]
  endpoints[#endpoints + 1] = tostring(totals[name] or 0)
  endpoints[#endpoints + 1] = tostring(maxima[name] or 0)
end
return {series, endpoints}
"""


def last_hour(now: float | None = None) -> Hour | None:
    """The aggregate of the last :data:`MINUTES` minutes, or ``None`` if Redis is
    unreachable. One round trip: the sums are made in Redis (a Lua script)."""
    redis = connection.client()
    if redis is None:
        return None
    current = _minute(now)
    minutes = range(current - MINUTES + 1, current + 1)
    keys = [f"{PREFIX}{m}" for m in minutes]
    try:
        series, flat = redis.eval(_HOUR_SCRIPT, 2 * len(keys), *keys, *(f"{k}:max" for k in keys))
    except Exception as exc:
        connection.failed(exc)
        return None
    counters = [int(v) for v in series]
    hour = [
        Minute(datetime.fromtimestamp(m * 60, UTC), *counters[4 * i : 4 * i + 4])
        for i, m in enumerate(minutes)
    ]
    endpoints = []
    for i in range(0, len(flat), 4):
        endpoint, _, method = flat[i].rpartition(" ")
        endpoints.append(
            Endpoint(endpoint, method, int(flat[i + 1]), float(flat[i + 2]), float(flat[i + 3]))
        )
    endpoints.sort(key=lambda e: (-e.mean_ms, e.name, e.method))
    return Hour(hour, endpoints)
