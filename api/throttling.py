"""The request rates, counted atomically in the shared cache.

DRF's throttles read a client's request history, check it and write it back, so requests
that arrive together all read the same history and all pass: a burst on parallel threads
went through whatever the rate. These count in the cache with one atomic increment each
(Redis ``INCR`` in production), over a sliding window: the requests of the current
window plus those of the previous one, weighted by how much of it the sliding window
still covers. A refused request is not counted, so a client retrying too soon is not
kept out longer for it.
"""

from __future__ import annotations

from typing import Any

from rest_framework import throttling


class AtomicRate(throttling.SimpleRateThrottle):
    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        current = f"{self.key}:{window}"
        self.cache.add(current, 0, self.duration * 2 + 1)
        try:
            count = self.cache.incr(current)
        except ValueError:  # gone between the two calls
            self.cache.add(current, 1, self.duration * 2 + 1)
            count = 1
        self.earlier = int(self.cache.get(f"{self.key}:{window - 1}", 0))
        self.into = self.now / self.duration - window  # how far into its window, 0..1
        if self.earlier * (1 - self.into) + count <= self.num_requests:
            return True
        self.count = count - 1
        self.cache.decr(current)
        return self.throttle_failure()

    def wait(self) -> float | None:
        """Seconds until a request would be let through."""
        room = self.num_requests - self.count
        if room < 1:  # the current window alone is full: the next one begins
            return (1 - self.into) * self.duration
        # the previous window's share must leave room for one: (1 - t) * earlier <= room - 1
        return max(0.0, 1 - (room - 1) / self.earlier - self.into) * self.duration


# DRF's class first: the scoped one picks its scope and rate in ``allow_request``, then
# counts by this one's.
class AnonRateThrottle(throttling.AnonRateThrottle, AtomicRate):
    pass


class UserRateThrottle(throttling.UserRateThrottle, AtomicRate):
    pass


class ScopedRateThrottle(throttling.ScopedRateThrottle, AtomicRate):
    pass
