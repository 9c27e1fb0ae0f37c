"""The Redis the operators' figures live in: the Celery broker's (``CELERY_BROKER_URL``).

Every use is best-effort: short timeouts, and after a failure the server is left alone
for :data:`RETRY_SECONDS` (each caller then gets ``None`` at once), so that a Redis that
is down or black-holed costs a request nothing, and the dashboard says "unavailable".
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 0.25  # connecting, and each reply
RETRY_SECONDS = 5.0  # after a failure, how long to leave the server alone

_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}
_down_until: dict[str, float] = {}


def client() -> redis.Redis | None:
    """A client of the broker's Redis, or ``None`` while it is known to be unreachable."""
    url = settings.CELERY_BROKER_URL
    if _down_until.get(url, 0.0) > time.monotonic():
        return None
    with _lock:
        if url not in _clients:
            _clients[url] = redis.Redis.from_url(
                url,
                socket_connect_timeout=TIMEOUT_SECONDS,
                socket_timeout=TIMEOUT_SECONDS,
                decode_responses=True,
            )
        return _clients[url]


def failed(exc: Exception) -> None:
    """Note that the broker's Redis failed (``exc``): leave it alone for a while."""
    url = settings.CELERY_BROKER_URL
    if _down_until.get(url, 0.0) <= time.monotonic():
        logger.warning(
            "ops: Redis unreachable (%s); retrying in %.0f s", type(exc).__name__, RETRY_SECONDS
        )
    _down_until[url] = time.monotonic() + RETRY_SECONDS
