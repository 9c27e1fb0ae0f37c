"""Each account's COM turns (and hints) paced by the time their decisions take.

COM turns are counted per account (``COM_TURNS_PER_MINUTE``), but a turn's cost is its
decision: microseconds for an ``easy`` COM, up to a few hundred milliseconds of a worker
for a ``hard`` one. By their count alone, a few accounts each keeping their matches
against ``hard`` COMs busy filled a queue's workers, and everyone else's COMs waited
behind them.

So each account's COMs are paced on each queue by a generic cell rate algorithm (the
"virtual scheduling" form of a leaky bucket) over decision time: a decision of ``d``
seconds moves the account's theoretical arrival time (TAT) on ``60 * d /
COM_SECONDS_PER_MINUTE`` seconds, and its next COM turn there is due no sooner than that
time less ``COM_BURST_MS`` of decisions' worth. An account that has been quiet may
spend that burst at once (a trick's or a round's COM turns in a row, as a person's table
asks); one that keeps its COMs busy gets ``COM_SECONDS_PER_MINUTE`` of decisions a minute,
its turns spread one by one rather than in clumps. A turn reserves ``ESTIMATE`` seconds
when it is scheduled, so that turns scheduled together (five matches moved at once) are
spread too; the turn's first decision settles the reservation (one decided again is
charged in full; one given up, or gone stale before it was decided, gives it back). A
reservation is settled only in the account and lane it was made in: a turn whose match
changed hands since (another player's move, a seat handed over) is charged in full to
the new ones, and the old one keeps what it reserved (a twentieth of a second of decision,
which passes with time).

Hints, a ``hard`` COM's search for a person's seat worked out in a web process, are paced
the same way in a lane of their own (:data:`HINTS`), each charged its search's processor
time (a person's own seat's: it tells nothing hidden): one asked for before the account's
hints have left room is refused with the time to wait.

The arrival times live in the default cache's Redis, changed by one script each (Redis's
clock, so the processes' clocks need not agree). Without Redis (no ``CACHE_URL``) each
process paces alone. While Redis cannot be reached, nothing is paced: this is a brake,
not a lock.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

#: What a turn reserves when it is scheduled, in seconds of decision (corrected by the
#: decision: a ``hard`` COM's median is tens of milliseconds to about a hundred).
ESTIMATE = 0.05
#: How long a key outlives its arrival time (an account quiet since has no debt left).
KEY_SECONDS = 3600
DOWN_SECONDS = 5.0  # after a failure, how long Redis is left alone
HINTS = "hints"  # the lane of hints (the others: the workers' queues)

# KEYS[1]: the account's arrival time in a lane; KEYS[2]: a turn's reservation. ARGV: the
# seconds to move it on, the tolerance, the keys' lifetime, what to do with the
# reservation ("reserve": make it; "settle": take it, and if it was there, take what it
# reserved, ARGV[5], off the move; else nothing). Returns how long a turn asking now must
# wait (as a string: Redis would cut a Lua number to an integer).
_SCRIPT = """
local move = tonumber(ARGV[1])
if ARGV[4] == 'reserve' then
  redis.call('SET', KEYS[2], 1, 'EX', ARGV[3])
elseif ARGV[4] == 'settle' and redis.call('DEL', KEYS[2]) == 1 then
  move = move - tonumber(ARGV[5])
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - tonumber(ARGV[2]) - now
if wait < 0 then wait = 0 end
redis.call('SET', KEYS[1], tostring(tat + move), 'EX', ARGV[3])
return tostring(wait)
"""


class ComPacing:
    """The arrival times, in Redis (``client``) or, without it, in this process."""

    def __init__(self, client: Any | None = None, prefix: str = "") -> None:
        self._client = client
        self._script = client.register_script(_SCRIPT) if client is not None else None
        self._prefix = prefix
        self._down_until = 0.0
        self._local: dict[str, float] = {}
        self._reserved: dict[str, None] = {}  # (in order: the oldest first)
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls) -> ComPacing:
        """Over the default cache's Redis if it is one, else in this process."""
        default = settings.CACHES["default"]
        if not default["BACKEND"].endswith("RedisCache"):
            return cls()
        import redis

        location = default["LOCATION"]
        url = location[0] if isinstance(location, list | tuple) else location.split(",")[0]
        client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        return cls(client, default.get("KEY_PREFIX", ""))

    def reserve(self, account: object, lane: str, turn: str) -> float:
        """Seconds ``turn`` (a COM's turn, or a hint) of ``account``'s in ``lane`` (a
        queue, or :data:`HINTS`) is to wait, asked for now; it reserves :data:`ESTIMATE`
        of decision, which :meth:`charge` for the same turn settles."""
        return self._move(account, lane, ESTIMATE, turn, "reserve")

    def charge(self, account: object, lane: str, seconds: float, turn: str) -> None:
        """A decision of ``seconds`` for ``turn`` of ``account``'s in ``lane``, less what
        the turn reserved if its reservation is still there (the first decision of a
        turn settles it; 0 seconds gives a reservation back)."""
        self._move(account, lane, seconds, turn, "settle")

    def _move(self, account: object, lane: str, seconds: float, turn: str, what: str) -> float:
        budget = settings.COM_SECONDS_PER_MINUTE
        if not budget or account is None:
            return 0.0
        scale = 60 / budget  # seconds of arrival time a second of decision costs
        tolerance = settings.COM_BURST_MS / 1000 * scale
        # (a reservation is the account's in its lane: a turn settled under another, its
        # match's account or queue changed since, takes nothing off that one)
        keys = [f"com-pace:{account}:{lane}", f"com-reserved:{account}:{lane}:{turn}"]
        if self._script is None:
            return self._move_here(keys, seconds * scale, tolerance, what, ESTIMATE * scale)
        if time.monotonic() < self._down_until:
            return 0.0
        try:
            names = [f"{self._prefix}:{key}" if self._prefix else key for key in keys]
            args = [seconds * scale, tolerance, KEY_SECONDS, what, ESTIMATE * scale]
            return float(self._script(keys=names, args=args))
        except Exception as exc:  # (a brake: nothing is paced while Redis is away)
            self._down_until = time.monotonic() + DOWN_SECONDS
            logger.warning("COM turns not paced: the cache is unreachable (%s)", type(exc).__name__)
            return 0.0

    def _move_here(
        self, keys: list[str], by: float, tolerance: float, what: str, reserved: float
    ) -> float:
        key, turn = keys
        with self._lock:
            if what == "reserve":
                self._reserved[turn] = None
                if len(self._reserved) > 100_000:  # (turns never decided: the oldest)
                    del self._reserved[next(iter(self._reserved))]
            elif turn in self._reserved:
                del self._reserved[turn]
                by -= reserved
            now = time.time()
            tat = max(self._local.get(key, 0.0), now)
            self._local[key] = tat + by
            if len(self._local) > 100_000:  # (quiet accounts' times: long past)
                self._local = {k: v for k, v in self._local.items() if v > now}
        return max(0.0, tat - tolerance - now)

    def clear(self) -> None:
        """Forget every arrival time kept in this process (tests)."""
        with self._lock:
            self._local.clear()
            self._reserved.clear()


_pacing: ComPacing | None = None
_made = threading.Lock()


def pacing() -> ComPacing:
    """The process's pacing, made on first use (from the settings then)."""
    global _pacing
    if _pacing is None:
        with _made:
            if _pacing is None:
                _pacing = ComPacing.from_settings()
    return _pacing
