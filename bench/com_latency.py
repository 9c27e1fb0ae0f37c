"""Latency from a human's committed action to the next COM move's commit, on a real worker.

    .venv/bin/python bench/com_latency.py [--samples 200] [--level normal]

Starts a Celery worker (Redis broker, ``COM_MOVE_DELAY_MS=0``) against its own database
(``golf_bench``) on embedded PostgreSQL and Redis under ``var/bench`` (see
``bench/_django.py``), then, on matches of one human against one COM, times from the
moment the human's action has committed to the moment the COM's first move has committed
(as a reader waiting on the match sees it, woken by PostgreSQL's notification). Prints
p50 and p95 (target: p50 under 150 ms for ``normal``).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import time

from _django import ROOT, service_env, setup, venv_command


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    args = parser.parse_args()
    with setup(eager=False):
        from django.contrib.auth import get_user_model

        from config.celery import app
        from golf import legal_actions
        from matches.notify import wait_for_version
        from matches.services import match_act, match_create
        from matches.store import load_state

        with app.connection_for_write() as conn:
            conn.default_channel.queue_purge("interactive")
        env = service_env(COM_MOVE_DELAY_MS="0")
        worker = subprocess.Popen(
            [
                venv_command("celery"),
                "-A",
                "config",
                "worker",
                "--concurrency=2",
                "--loglevel=WARNING",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            while not app.control.ping(timeout=0.5):
                assert time.monotonic() < deadline, "the worker did not start"
            user = get_user_model().objects.create_user(f"latency-{time.time_ns()}")
            samples: list[float] = []
            rng = random.Random(1)
            match = None
            while len(samples) < args.samples:
                if match is None or match.status != "active":
                    match = match_create(
                        creator=user,
                        rules={"holes": 9},
                        seats=[{"type": "me"}, {"type": "com", "level": args.level}],
                    )
                match.refresh_from_db()
                state = load_state(match)
                if 0 not in state.seats_to_act():
                    wait_for_version(match.id, match.version, 10)
                    continue
                action = rng.choice(legal_actions(state, 0))
                result = match_act(match_id=match.id, user=user, action=action.to_json())
                committed = time.perf_counter()
                match.refresh_from_db()
                if (
                    match.status != "active"
                    or not result.state
                    or 1 not in result.state.seats_to_act()
                ):
                    continue  # no COM move follows this action
                if wait_for_version(match.id, result.version, 10) > result.version:
                    samples.append(time.perf_counter() - committed)
        finally:
            worker.terminate()  # a warm shutdown: its pool finishes its tasks
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(f"{len(samples)} human actions followed by a {args.level} COM move, worker pacing 0")
    print(
        f"commit -> next COM commit: p50 {1000 * p50:.1f} ms, p95 {1000 * p95:.1f} ms "
        "(target p50 < 150 ms)"
    )


if __name__ == "__main__":
    main()
