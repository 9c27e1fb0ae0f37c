"""What requests no valid token lets in cost, before and after their address is held off.

    .venv/bin/python bench/refused.py [--samples 200]

Uses a fresh database (``golf_bench_refused``) on embedded PostgreSQL and Redis under
``var/bench`` (``bench/_django.py``), and the service's own rates. From one address:
``GET /api/me`` with a token that does not exist, refused (401) and counted in the
address's ``refused`` rate until it is used up, then answered 429 before anything looks the
token up (api/throttling.py ``HeldAddresses``); the same without a token; for
comparison, with a good token; and a good token over its account's rate (``user``),
refused by the rate (its token looked up, three round trips to the cache), then held off
before it is looked up (``held_tokens``). Prints each kind's median time in the process and its
database queries a request.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _django import setup


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with setup("golf_bench_refused", fresh=True):
        from django.core.cache import cache
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient
        from rest_framework.throttling import SimpleRateThrottle

        from accounts.models import User
        from api.throttling import held_addresses, held_tokens

        cache.clear()
        held_addresses.clear()
        token = Token.objects.create(user=User.objects.create_user("player"))
        good, wrong, none = (APIClient(HTTP_HOST="localhost") for _ in range(3))
        good.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        wrong.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)

        def timed(
            client: APIClient, status: int, samples: int, before: Any = None
        ) -> tuple[float, float]:
            times, queries = [], 0
            for _ in range(samples):
                if before is not None:
                    before()
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    response = client.get("/api/me")
                    times.append(time.perf_counter() - start)
                assert response.status_code == status, (response.status_code, status)
                queries += len(captured)
            return statistics.median(times) * 1000, queries / samples

        rate = SimpleRateThrottle.THROTTLE_RATES["refused"]
        allowed = int(rate.split("/")[0])
        print(f"the rate of refusals: {rate} an address")
        rows = [("good token, 200", *timed(good, 200, args.samples))]
        rows.append((f"wrong token, 401 (the first {allowed})", *timed(wrong, 401, allowed)))
        rows.append(("wrong token, 429 (held off)", *timed(wrong, 429, args.samples)))
        rows.append(("no token, 429 (held off)", *timed(none, 429, args.samples)))
        # a good token over its account's rate (``user``): refused by the rate, its token
        # looked up and counted (the hold forgotten before each), then held off
        rates = SimpleRateThrottle.THROTTLE_RATES
        SimpleRateThrottle.THROTTLE_RATES = {**rates, "user": "1/min"}
        try:
            good.get("/api/me")  # (the one the rate lets through)
            counted = timed(good, 429, args.samples, before=held_tokens.clear)
            rows.append(("good token over its account's rate, 429 (counted)", *counted))
            rows.append(
                (
                    "good token over its account's rate, 429 (held off)",
                    *timed(good, 429, args.samples),
                )
            )
        finally:
            SimpleRateThrottle.THROTTLE_RATES = rates
            held_tokens.clear()
        print("| request | median ms | queries a request |\n| --- | --- | --- |")
        for name, median, queries in rows:
            print(f"| {name} | {median:.3f} | {queries:.1f} |")
        print(f"held off against counted: {rows[2][1] / rows[1][1]:.2f} of the time (address)")
        print(f"held off against counted: {rows[5][1] / rows[4][1]:.2f} of the time (token)")


if __name__ == "__main__":
    main()
