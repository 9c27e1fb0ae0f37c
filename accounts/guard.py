"""Password guessing protection shared by every way to log in (API tokens, sessions, the
admin): failed log-ins are counted per account and per client address, and past a
threshold each further attempt must wait a delay that doubles with every failure.

Counting per account stops a botnet, whose every address is new, from guessing one
account's password; counting per address stops one client from trying many accounts.
While an account is locked even its right password is refused (the lock would otherwise
tell the guesser when they found it); tokens it already holds keep working. A success
clears the account's count. Counts live in the cache (Redis, shared by all web
processes, in production) and are forgotten a day after the last failure.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

from accounts.models import canonical_username
from config.counting import count_in

ACCOUNT_FREE_FAILURES = 5  # wrong passwords an account may take before delays start
ADDRESS_FREE_FAILURES = 20  # failed log-ins from one address before delays start
FIRST_DELAY = 5.0  # seconds; doubles with every further failure
MAX_DELAY = 15 * 60.0
FORGET_AFTER = 24 * 3600
IN_FLIGHT_SECONDS = 30  # the count of attempts in flight outlives none of them by more


def client_address(request: Any) -> str:
    """The client's address: ``REMOTE_ADDR``, or with ``NUM_PROXIES`` trusted proxies in
    front, the address the outermost of them saw (``X-Forwarded-For`` from the right).

    A forwarded address is never taken from a client directly: anyone can send the header.
    """
    meta = getattr(request, "META", {})
    proxies = settings.NUM_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return str(meta.get("REMOTE_ADDR", ""))


def _keys(kind: str, value: str) -> tuple[str, str]:
    digest = hashlib.sha256(value.encode()).hexdigest()[:32]
    return f"login-failures:{kind}:{digest}", f"login-last:{kind}:{digest}"


def _subjects(username: str, address: str) -> list[tuple[str, str, int]]:
    subjects = [("account", canonical_username(username), ACCOUNT_FREE_FAILURES)]
    if address:
        subjects.append(("address", address, ADDRESS_FREE_FAILURES))
    return subjects


def _delay(failures: int, free: int) -> float:
    if failures < free:
        return 0.0
    return min(MAX_DELAY, FIRST_DELAY * 2 ** min(failures - free, 20))


def wait_seconds(username: str, address: str) -> int:
    """How long the account or the address must wait before its next log-in attempt."""
    now = time.time()
    longest = 0.0
    for kind, value, free in _subjects(username, address):
        count_key, last_key = _keys(kind, value)
        values = cache.get_many([count_key, last_key])
        failures, last = int(values.get(count_key, 0)), float(values.get(last_key, 0.0))
        longest = max(longest, last + _delay(failures, free) - now)
    return max(0, math.ceil(longest))


class LoginLocked(Exception):
    """The account or the address must wait ``wait`` seconds before trying again."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many failed log-ins: retry in {wait} s")
        self.wait = wait


@dataclass
class Attempt:
    succeeded: bool | None = None  # set by the caller once the password was checked


@contextlib.contextmanager
def login_attempt(username: str, address: str) -> Iterator[Attempt]:
    """Guard one password check: raises :class:`LoginLocked` instead of letting it run
    while a delay is due. Attempts in flight on one account count as failures to come: no
    more run at once than the free failures it has left, and past them one at a time, so a
    burst of parallel guesses cannot slip in before the count catches up.
    """
    wait = wait_seconds(username, address)
    if wait:
        raise LoginLocked(wait)
    subjects = _subjects(username, address)
    count_key, _ = _keys("account", subjects[0][1])
    in_flight = count_key + ":in-flight"
    running = count_in(cache, in_flight, IN_FLIGHT_SECONDS)
    left = ACCOUNT_FREE_FAILURES - int(cache.get(count_key, 0))
    if running > max(1, left):
        _leave(in_flight)
        raise LoginLocked(math.ceil(FIRST_DELAY))
    attempt = Attempt()
    try:
        yield attempt
    finally:
        _leave(in_flight)
        if attempt.succeeded:
            cache.delete_many(list(_keys("account", subjects[0][1])))
        elif attempt.succeeded is False:
            for kind, value, _free in subjects:
                _count_failure(*_keys(kind, value))


def _leave(in_flight: str) -> None:
    with contextlib.suppress(ValueError):  # expired meanwhile: an attempt over 30 s
        cache.decr(in_flight)


def _count_failure(count_key: str, last_key: str) -> None:
    count_in(cache, count_key, FORGET_AFTER)
    cache.touch(count_key, FORGET_AFTER)
    cache.set(last_key, time.time(), FORGET_AFTER)
