"""Each Celery worker says it is alive: ``ops:worker:<hostname>`` = the time (Unix seconds)
in the broker's Redis, written every :data:`INTERVAL_SECONDS` by a bootstep on the
worker's timer and expiring after :data:`TTL_SECONDS`; the dashboard shows each worker's
age and flags it stale after :data:`STALE_SECONDS`."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from celery import bootsteps

from ops import connection

PREFIX = "ops:worker:"
INTERVAL_SECONDS = 5.0
STALE_SECONDS = 3 * INTERVAL_SECONDS
TTL_SECONDS = 600  # a worker gone for good is listed as stale this long, then forgotten


def record_heartbeat(hostname: str, now: float | None = None) -> bool:
    """Write ``hostname``'s heartbeat; returns whether Redis took it (never raises)."""
    redis = connection.client()
    if redis is None:
        return False
    try:
        redis.set(
            f"{PREFIX}{hostname}", f"{time.time() if now is None else now:.3f}", ex=TTL_SECONDS
        )
    except Exception as exc:  # the broker is away: so is the worker's work; say nothing more
        connection.failed(exc)
        return False
    return True


@dataclass(frozen=True)
class Worker:
    hostname: str
    age_seconds: float

    @property
    def stale(self) -> bool:
        return self.age_seconds > STALE_SECONDS


def workers(now: float | None = None) -> list[Worker] | None:
    """Every worker with a heartbeat not yet expired, the most recent first; ``None`` if
    Redis is unreachable."""
    redis = connection.client()
    if redis is None:
        return None
    now = time.time() if now is None else now
    try:
        keys = sorted(redis.scan_iter(match=f"{PREFIX}*", count=1000))
        values = redis.mget(keys) if keys else []
    except Exception as exc:
        connection.failed(exc)
        return None
    found = [
        Worker(key.removeprefix(PREFIX), max(0.0, now - float(value)))
        for key, value in zip(keys, values, strict=True)
        if value is not None
    ]
    return sorted(found, key=lambda w: (w.age_seconds, w.hostname))


class HeartbeatStep(bootsteps.StartStopStep):
    """A worker bootstep (registered in config/celery.py): a heartbeat at start, then every
    :data:`INTERVAL_SECONDS` on the worker's timer (in its main process, whatever the pool)."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        record_heartbeat(worker.hostname)
        self.tref = worker.timer.call_repeatedly(
            INTERVAL_SECONDS, record_heartbeat, (worker.hostname,), priority=10
        )

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
