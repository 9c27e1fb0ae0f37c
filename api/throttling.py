"""The request rates, counted atomically in the shared cache.

DRF's throttles read a client's request history, check it and write it back, so requests
that arrive together all read the same history and all pass: a burst on parallel threads
went through whatever the rate. These count in the cache with one atomic increment each
(Redis ``INCR`` in production), over a sliding window: the requests of the current
window plus those of the previous one, weighted by how much of it the sliding window
still covers. A request one throttle refuses is not counted by it, so a client retrying
too soon is not kept out longer for it (DRF still asks the others, which count it).

While the cache cannot be reached, the rates count nothing and let requests through (a
warning is logged): a Redis restart made every request a 500, reads included. What must
not run uncounted is refused, 503: log-ins and new accounts (the rates by address), a
password checked against the guessing guard, and the reads priced by what they cost (a
whole log, the events it reads, a past state, which each replay a log).
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import logging
import math
import threading
import time
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from rest_framework import throttling

from accounts.tokens import remembered
from config.counting import count_and_read

logger = logging.getLogger(__name__)
CACHE_DOWN = (RedisConnectionError, RedisTimeoutError)
WARN_EVERY_SECONDS = 10.0
_warned_at = 0.0


def _uncounted(exc: Exception) -> bool:
    """A request let through uncounted, the cache down (said at most every few seconds)."""
    global _warned_at
    if time.monotonic() - _warned_at >= WARN_EVERY_SECONDS:
        _warned_at = time.monotonic()
        logger.warning(
            "request rates not counted: the cache is unreachable (%s)", type(exc).__name__
        )
    return True


class AtomicRate(throttling.SimpleRateThrottle):
    #: Whether a request is let through uncounted while the cache is down (else: 503).
    open_when_down = True

    #: What this request costs against the rate: one, unless its view says more (the events
    #: a whole-log read reads). At most the whole rate: one costing more goes once the
    #: window is free.
    cost = 1
    held: str | None = None  # the counter this request was counted in, once let through

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        current = f"{self.key}:{window}"
        cost = self.charged = max(1, min(self.cost, self.num_requests))
        try:
            count, self.earlier = count_and_read(
                self.cache, current, self.duration * 2 + 1, cost, f"{self.key}:{window - 1}"
            )
        except CACHE_DOWN as exc:
            if not self.open_when_down:
                raise
            return _uncounted(exc)
        self.into = self.now / self.duration - window  # how far into its window, 0..1
        if self.earlier * (1 - self.into) + count <= self.num_requests:
            self.held = current
            return True
        self.count = count - cost
        with contextlib.suppress(ValueError, *CACHE_DOWN):  # evicted meanwhile: none to take back
            self.cache.decr(current, cost)
        return self.throttle_failure()

    def give_back(self) -> None:
        """What this request was counted, given back: it did none of the work it was
        counted for (another limit refused it)."""
        if self.held is not None:
            with contextlib.suppress(
                ValueError, *CACHE_DOWN
            ):  # (evicted meanwhile: nothing to give)
                self.cache.decr(self.held, self.charged)
            self.held = None

    def wait(self) -> float | None:
        """Seconds until this request (of its cost ``c``) would be let through: the previous
        window's share must leave room for it, ``(1 - t) * earlier + count + c <= rate``."""
        n, count, cost, earlier = self.num_requests, self.count, self.charged, self.earlier
        if count + cost <= n:  # room in this window, once enough of the last has slid off
            if earlier <= 0:
                return 0.0
            return max(0.0, 1 - (n - count - cost) / earlier - self.into) * self.duration
        # in the next window, where this one is the earlier (one costing the whole rate:
        # the window after it)
        if count <= 0:
            return (1 - self.into) * self.duration
        slid = min(1.0, max(0.0, 1 - (n - cost) / count))
        return (1 - self.into + slid) * self.duration


# DRF's class first: the scoped one picks its scope and rate in ``allow_request``, then
# counts by this one's.
class AnonRateThrottle(throttling.AnonRateThrottle, AtomicRate):
    pass


class UserRateThrottle(throttling.UserRateThrottle, AtomicRate):
    """The account's rate of requests (``user``). A token over it is held off in this
    process until the rate has room (:data:`held_tokens`): its further requests are
    answered 429 before anything looks them up or counts them."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if super().allow_request(request, view):
            return True
        # (only a token that let this request in: one beside a log-in's or a new
        # account's credentials is not read, and the rate counted the address)
        key = getattr(request.auth, "key", None)
        if key is not None and key == _bearer(request.META) and (wait := self.wait()):
            held_tokens.hold(_digest(key), max(1.0, wait))
            logger.warning(
                "account %s's token held off for %.0f s: over its rate of requests",
                getattr(request.user, "pk", None),
                max(1.0, wait),
            )
        return False


class ScopedRateThrottle(throttling.ScopedRateThrottle, AtomicRate):
    #: Scopes whose POSTs are counted per address even with a token: making accounts,
    #: logging in and changing a password (each new account's token would otherwise open a
    #: fresh allowance to the same address). Logging out (DELETE) is the account's own,
    #: counted per account.
    BY_ADDRESS = frozenset({"auth"})
    #: Scopes that price reads by their cost: not let through uncounted while the cache is
    #: down (its checkpoints down with it, a past state replays its whole log).
    PRICED = frozenset({"exports", "exported_events", "history"})

    def allow_request(self, request: Any, view: Any) -> bool:
        scope = getattr(view, "throttle_scope", None)
        by_address = scope in self.BY_ADDRESS and request.method == "POST"
        priced = scope in self.PRICED or getattr(view, "priced", False)
        self.open_when_down = not by_address and not priced
        return super().allow_request(request, view)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if self.scope in self.BY_ADDRESS and request.method == "POST":
            return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
        return super().get_cache_key(request, view)


class AddressRate(AtomicRate):
    """A scope's rate per client address, whoever is signed in (the admin's log-in form
    counts in the ``auth`` scope this way, with the API's log-ins). Never let through
    uncounted while the cache is down."""

    open_when_down = False

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class RegistrationRateThrottle(AddressRate):
    """New accounts from one address (``registrations``), beside the ``auth`` scope's
    rate per minute. A request let through holds its place at once, atomically (parallel
    ones cannot all slip in), and gives it back when no account was made
    (:meth:`give_back`): a registration refused (a name taken, a throttle) uses none of the
    address's allowance."""

    def __init__(self) -> None:
        super().__init__("registrations")


def address_wait(request: Any, scope: str) -> int | None:
    """Count ``request`` in ``scope``'s rate for its address: ``None`` when it is let
    through, else the whole seconds to wait."""
    rate = AddressRate(scope)
    if rate.allow_request(request, None):
        return None
    return max(1, math.ceil(rate.wait() or 0))


# --- requests no valid token lets in ---------------------------------------------------
#: How many addresses a process keeps held off at once (oldest let go first).
MAX_HELD_ADDRESSES = 10_000
#: Requests an address held off may still make: logging in and making an account, each
#: counted per address by a rate of its own (``auth``, ``registrations``), so that a
#: person who shares the address with a flood can get a token (then seen, below).
UNHELD = frozenset({("POST", "/api/auth/token"), ("POST", "/api/accounts/register")})


class HeldAddresses:
    """Client addresses over the ``refused`` rate, as this process counted them: address
    -> when (``time.monotonic``) its wait ends.

    DRF authenticates before it throttles, so a request with no token, or a wrong one, was
    refused (401) without being counted: one address could send hundreds a second, each
    looking up its token (and, refused, whether a suspension revoked it). Such refusals now
    count in the address's ``refused`` rate (:func:`count_refusal`); once it is used up,
    the address's requests are answered 429 before anything looks up their credentials
    (:func:`held_off`), but for a token the service has lately found good (in this process,
    or in any through the shared cache: ``remembered.seen``), and for log-ins and new
    accounts (:data:`UNHELD`). Each process learns of an address over its rate from a
    refusal it counts itself: no shared read on any request that a valid credential lets
    in.
    """

    def __init__(self, limit: int = MAX_HELD_ADDRESSES) -> None:
        self.limit = limit
        self._until: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait(self, address: str) -> float | None:
        """Seconds the address is still held off, or ``None``."""
        until = self._until.get(address)
        if until is None:
            return None
        left = until - time.monotonic()
        if left > 0:
            return left
        with self._lock:
            if self._until.get(address) == until:
                del self._until[address]
        return None

    def hold(self, address: str, seconds: float) -> None:
        with self._lock:
            self._until.pop(address, None)
            while len(self._until) >= self.limit:
                del self._until[next(iter(self._until))]
            self._until[address] = time.monotonic() + seconds

    def clear(self) -> None:
        with self._lock:
            self._until.clear()

    def __len__(self) -> int:
        return len(self._until)


held_addresses = HeldAddresses()

#: Tokens over their account's rate of requests (``user``), by digest, as this process
#: refused them: once refused with the wait that rate gives, a token's requests until then
#: are answered 429 by the middleware (:func:`token_held_off`), with no look-up of the
#: token nor a count in the shared cache. Refused one by one, a token sending as fast as it
#: could (a few hundred a second) still cost a token check and three cache round trips
#: each, and slowed everyone's requests by half.
held_tokens = HeldAddresses()


def _bearer(meta: Any) -> str | None:
    """The token a request's ``Authorization`` header carries, if any."""
    words = meta.get("HTTP_AUTHORIZATION", "").split()
    if len(words) == 2 and words[0].lower() in ("token", "bearer"):
        return str(words[1])
    return None


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode(errors="replace")).hexdigest()


def client_address(request: Any) -> str:
    """The client's address as the refusals count it (``NUM_PROXIES`` hops from the right
    of ``X-Forwarded-For``, else the connection's); an IPv6 address by its /64, the block
    one client is given to pick addresses from."""
    address = str(throttling.BaseThrottle().get_ident(request))
    if ":" in address:
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return address


class RefusedRate(AtomicRate):
    """Requests refused for want of a valid token, per client address (``refused``)."""

    scope = "refused"

    def __init__(self, address: str) -> None:
        self.address = address  # (:func:`client_address`, worked out once by the caller)
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.address}


def count_refusal(request: Any, view: Any) -> float | None:
    """Count ``request``, refused for want of a valid token, in its address's ``refused``
    rate: ``None`` while the rate has room, else the seconds to wait (the address is then
    held off in this process that long)."""
    address = client_address(request)
    if (left := held_addresses.wait(address)) is not None:
        return left  # (counted enough: no round trip to the cache)
    rate = RefusedRate(address)
    if rate.allow_request(request, view):
        return None
    wait = max(1.0, rate.wait() or 0.0)
    held_addresses.hold(address, wait)
    logger.warning(
        "%s held off for %.0f s: over its rate of requests no valid token let in",
        address,
        wait,
    )
    return wait


def token_held_off(request: Any) -> float | None:
    """Seconds ``request``'s token is still held off for its account's rate
    (:data:`held_tokens`), unless it is a log-in or a new account (whose stale token is not
    read); ``None``: let it through."""
    if not held_tokens or (key := _bearer(request.META)) is None:
        return None
    if (request.method, request.path) in UNHELD:
        return None
    return held_tokens.wait(_digest(key))


def held_off(request: Any) -> float | None:
    """Seconds ``request``'s address is still held off (:class:`HeldAddresses`), unless it
    is a log-in or a new account, or carries a token the service lately found good;
    ``None``: let it through."""
    if not held_addresses:  # (as nearly always: no address worked out for every request)
        return None
    left = held_addresses.wait(client_address(request))
    if left is None or (request.method, request.path) in UNHELD:
        return None
    key = _bearer(request.META)
    if key is not None and remembered.seen(key):
        return None
    return left
