"""Does one account's flood of COM matches slow another player's COM replies?

    .venv/bin/python bench/com_flood.py [--samples 60] [--shared]

Starts the workers as `make run` does (``interactive``: 2 processes; ``background``: 1)
on embedded PostgreSQL and Redis (``bench/_django.py``). A victim plays one human against
one ``normal`` COM; each sample times from the commit of the victim's action to the commit
of the COM's reply, as a reader waiting on the match sees it. First with nothing else
running (quiet), then while a flooder runs as many matches as an account may have (five)
of six ``hard`` COMs playing each other over 18 holes. Prints p50/p95 of both and the
ratio of the p95s (target: at most 2).

``--shared`` runs one worker of three processes on both queues instead: what the flood
does without a queue of its own.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import time

from _django import ROOT, service_env, setup, venv_command

FLOOD_MATCHES = 5  # as many COM matches as an account may have (MAX_UNFINISHED_COM_MATCHES)


def start_workers(shared: bool) -> list[subprocess.Popen[bytes]]:
    env = service_env(COM_MOVE_DELAY_MS="0")
    pools = [("interactive,background", 3)] if shared else [("interactive", 2), ("background", 1)]
    return [
        subprocess.Popen(
            [
                *(venv_command("celery"), "-A", "config", "worker", f"--queues={queues}"),
                *(f"--concurrency={n}", f"--hostname={queues.split(',')[0]}-{i}@%h"),
                *("--loglevel=WARNING", "--without-gossip", "--without-mingle"),
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        for i, (queues, n) in enumerate(pools)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--shared", action="store_true", help="one worker for both queues")
    args = parser.parse_args()
    with setup("golf_flood", eager=False, fresh=True):
        from django.conf import settings
        from django.contrib.auth import get_user_model

        from config.celery import app
        from golf import legal_actions
        from matches.models import Match
        from matches.notify import wait_for_version
        from matches.services import match_abort, match_act, match_create
        from matches.store import load_state

        with app.connection_for_write() as conn:
            for queue in (settings.INTERACTIVE_QUEUE, settings.BACKGROUND_QUEUE):
                conn.default_channel.queue_purge(queue)
        workers = start_workers(args.shared)
        users = get_user_model().objects
        victim = users.create_user(f"victim-{time.time_ns()}")
        flooder = users.create_user(f"flooder-{time.time_ns()}")
        rng = random.Random(1)

        def com_replies(count: int) -> list[float]:
            """Commit of the victim's action -> commit of the COM's reply, ``count`` times."""
            samples: list[float] = []
            match = None
            while len(samples) < count:
                if match is None or match.status != "active":
                    match = match_create(
                        creator=victim, seats=[{"type": "me"}, {"type": "com", "level": "normal"}]
                    )
                match.refresh_from_db()
                state = load_state(match)
                if 0 not in state.seats_to_act():
                    wait_for_version(match.id, match.version, 10)
                    continue
                result = match_act(
                    match_id=match.id,
                    user=victim,
                    action=rng.choice(legal_actions(state, 0)).to_json(),
                )
                committed = time.perf_counter()
                if result.state is None or 1 not in result.state.seats_to_act():
                    match.refresh_from_db()
                    continue  # no COM move follows this action
                if wait_for_version(match.id, result.version, 30) > result.version:
                    samples.append(time.perf_counter() - committed)
                match.refresh_from_db()
            return samples

        try:
            deadline = time.monotonic() + 60
            while len(app.control.ping(timeout=0.5) or []) < len(workers):
                assert time.monotonic() < deadline, "the workers did not start"
            com_replies(5)  # warm up
            quiet = com_replies(args.samples)
            floods = [
                match_create(
                    creator=flooder,
                    rules={"holes": 18, "max_turns": settings.MAX_TURNS_PER_HOLE},
                    seats=[{"type": "com", "level": "hard"}] * 6,
                    spectate=True,
                )
                for _ in range(FLOOD_MATCHES)
            ]
            time.sleep(2)  # the flood is under way
            flooded = com_replies(args.samples)
            flood_moves = sum(Match.objects.get(pk=m.pk).version for m in floods)
            for match in floods:
                match_abort(match_id=match.id, user=flooder)
        finally:
            for worker in workers:
                worker.terminate()  # a warm shutdown: its pool finishes its tasks
            for worker in workers:
                try:
                    worker.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(worker.pid, signal.SIGKILL)

    def p95(values: list[float]) -> float:
        return sorted(values)[int(0.95 * (len(values) - 1))]

    layout = "one worker x 3 on both queues" if args.shared else "interactive x 2, background x 1"
    print(f"workers: {layout}; victim: one human against one normal COM")
    for name, values in (("quiet", quiet), ("flood", flooded)):
        print(
            f"{name}: COM reply p50 {1000 * statistics.median(values):.1f} ms, "
            f"p95 {1000 * p95(values):.1f} ms ({len(values)} replies)"
        )
    print(f"flood: {len(floods)} matches of six hard COMs, {flood_moves} events during the run")
    ratio = p95(flooded) / p95(quiet)
    print(f"p95 flood / quiet: {ratio:.2f} (target <= 2): {'PASS' if ratio <= 2 else 'FAIL'}")
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
