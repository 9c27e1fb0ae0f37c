"""What the COM turns' pacing adds to an action that hands the turn to a COM.

    .venv/bin/python bench/com_pacing_cost.py [--samples 300]

Uses a fresh database (``golf_bench_pacing``) on embedded PostgreSQL and Redis under
``var/bench`` (``bench/_django.py``), with the cache in Redis as under `make run`, so the
pacing keeps its arrival times there (matches/pacing.py: one script call when a COM's turn
is scheduled). A player plays two-player six-card Golf against a ``normal`` COM through the
API in this process (``POST /api/matches/{id}/actions``); each COM turn is played here
between the player's moves, untimed, and its task, sent to the broker, is left there. The
player's actions that hand the turn to the COM are timed, with the pacing on
(``COM_SECONDS_PER_MINUTE`` 6, as the service's default) and off (0) in turn, action by
action, so that the machine's other work weighs on both alike. Prints each one's median
and p90, their difference, and the pacing script's median time inside those actions and
called alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from _django import setup
from _http import percentile


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--samples", type=int, default=300, help="timed actions each way")
    args = parser.parse_args()
    for rate in ("THROTTLE_USER", "THROTTLE_ACTIONS", "THROTTLE_CREATES"):  # (one account)
        os.environ.setdefault(rate, "1000000/min")
    with setup("golf_bench_pacing", eager=False, fresh=True, shared_cache=True):
        from django.conf import settings
        from django.core.cache import cache
        from django.test import override_settings
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        from accounts.models import User
        from config.celery import app
        from matches import services
        from matches.pacing import pacing

        cache.clear()
        user = User.objects.create_user("player")
        client = APIClient(HTTP_HOST="localhost")
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        budget = settings.COM_SECONDS_PER_MINUTE or 6
        timed: dict[bool, list[float]] = {True: [], False: []}

        def new_match() -> str:
            created = client.post(
                "/api/matches",
                {"holes": 9, "seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
                format="json",
            )
            assert created.status_code == 201, created.content
            return str(created.json()["id"])

        def com_moves(match_id: str) -> dict:
            """The COM's moves played here until the player is to act; the match's body."""
            while True:
                body = client.get(f"/api/matches/{match_id}").json()
                if body["your_turn"] or body["status"] != "active":
                    return body
                services.com_turn(match_id=match_id, expected_version=body["version"])

        # the script's calls inside the timed actions with the pacing on, timed themselves
        reserve, inside, recording = pacing().reserve, [], [False]

        def timed_reserve(*given: object, **named: object) -> float:
            started = time.perf_counter()
            try:
                return reserve(*given, **named)  # type: ignore[arg-type]
            finally:
                if recording[0]:
                    inside.append(time.perf_counter() - started)

        pacing().reserve = timed_reserve  # type: ignore[method-assign]
        match_id, paced = new_match(), True
        with override_settings(COM_EVEN_TIMING_MS=0, COM_TURNS_PER_MINUTE=0):
            while min(len(timed[True]), len(timed[False])) < args.samples:
                body = com_moves(match_id)
                if body["status"] != "active":
                    match_id = new_match()
                    continue
                action = body["view"]["legal_actions"][0]
                with override_settings(COM_SECONDS_PER_MINUTE=budget if paced else 0):
                    recording[0] = paced
                    started = time.perf_counter()
                    response = client.post(
                        f"/api/matches/{match_id}/actions",
                        action,
                        format="json",
                        headers={"If-Match": f'"{body["version"]}"'},
                    )
                    took = time.perf_counter() - started
                    recording[0] = False
                assert response.status_code == 200, response.content
                if 0 not in response.json()["view"]["seats_to_act"]:  # (the COM's turn)
                    timed[paced].append(took)
                    paced = not paced
                pacing().clear()
            script = []
            with override_settings(COM_SECONDS_PER_MINUTE=budget):
                for i in range(args.samples):
                    started = time.perf_counter()
                    reserve(user.pk, "interactive", f"bench:{i}")
                    script.append(time.perf_counter() - started)
        with app.connection_for_write() as conn:
            for queue in (settings.INTERACTIVE_QUEUE, settings.BACKGROUND_QUEUE):
                conn.default_channel.queue_purge(queue)

    def ms(values: list[float], q: float | None = None) -> float:
        return 1000 * (statistics.median(values) if q is None else percentile(values, q / 100))

    print(f"{args.samples} actions each way that hand the turn to a COM (in process)")
    print("| pacing | median ms | p90 ms |\n| --- | --- | --- |")
    for name, paced in (("on", True), ("off", False)):
        print(f"| {name} | {ms(timed[paced]):.3f} | {ms(timed[paced], 90):.3f} |")
    on, off = ms(timed[True]), ms(timed[False])
    print(f"pacing on minus off, medians: {on - off:+.3f} ms ({on / off:.3f}x)")
    print(f"the pacing script inside those actions: median {ms(inside):.3f} ms")
    print(f"the pacing script alone (reserve): median {ms(script):.3f} ms")


if __name__ == "__main__":
    main()
