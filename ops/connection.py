"""The Redis the operators' figures live in: the Celery broker's (``CELERY_BROKER_URL``).

Every use is best-effort: short timeouts, and after a failure the server is left alone
for :data:`RETRY_SECONDS` (each caller then gets ``None`` at once), so that a Redis that
is down or black-holed costs a request nothing, and the dashboard says "unavailable".
"""

from __future__ import annotations

import logging
import threading
import time
from urllib.parse import parse_qsl, urlencode, urlsplit

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 0.25  # connecting, and each reply
RETRY_SECONDS = 5.0  # after a failure, how long to leave the server alone

_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}
_down_until: dict[str, float] = {}


def client() -> redis.Redis | None:
    """A client of the broker's Redis, or ``None`` while it is known to be unreachable (or
    its URL is one this client cannot use)."""
    url = settings.CELERY_BROKER_URL
    if _down_until.get(url, 0.0) > time.monotonic():
        return None
    with _lock:
        if url not in _clients:
            try:
                _clients[url] = redis.Redis.from_url(
                    redis_py_url(url),
                    socket_connect_timeout=TIMEOUT_SECONDS,
                    socket_timeout=TIMEOUT_SECONDS,
                    decode_responses=True,
                )
            except ValueError as exc:
                failed(exc)
                return None
        return _clients[url]


def redis_py_url(url: str) -> str:
    """The broker's URL as redis-py takes it: Celery's ``redis+socket://[:pw@]/path`` (with
    ``?virtual_host=N`` for the database) is redis-py's ``unix://[:pw@]/path?db=N``."""
    if not url.startswith("redis+socket://"):
        return url
    parts = urlsplit(url)
    query = urlencode([("db" if k == "virtual_host" else k, v) for k, v in parse_qsl(parts.query)])
    # the credentials as they are (":password@"), before the socket's path
    return f"unix://{parts.netloc}{parts.path}" + (f"?{query}" if query else "")


def failed(exc: Exception) -> None:
    """Note that the broker's Redis failed (``exc``): leave it alone for a while."""
    url = settings.CELERY_BROKER_URL
    if _down_until.get(url, 0.0) <= time.monotonic():
        logger.warning(
            "ops: Redis unreachable (%s); retrying in %.0f s", type(exc).__name__, RETRY_SECONDS
        )
    _down_until[url] = time.monotonic() + RETRY_SECONDS
