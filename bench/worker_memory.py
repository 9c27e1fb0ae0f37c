"""A worker's memory over many hard COM decisions: bounded, and no leak.

    .venv/bin/python bench/worker_memory.py [--decisions 1000] [--matches 1]

Starts a Celery worker as ``bench/load.py`` does (both queues, a pool of two processes) on
a fresh database of its own (``golf_worker_memory``, embedded PostgreSQL and Redis under
``var/bench``, see ``bench/_django.py``) and keeps ``--matches`` matches of each registered
game going between ``hard`` COMs only (its default preset and table; COMs playing each
other run on the ``background`` queue), a new one whenever one ends, until the worker has
made ``--decisions`` hard decisions (a decision: one COM move, the events written at once
by ``com:hard:<seat>``). After every 100 decisions it reads the resident memory of the
worker's processes (``PeakRss``). Prints all of them together after each 100, the largest
process and all together after the first 100 and the last 100, the peak of one process
(VmHWM), and PASS/FAIL: under 300 MB a process, and no leak: the growth from the first
100 to the last 100, of the largest process and of all together, under 10% of the first
figure or under 20 MB.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import time

from _django import MB, ROOT, PeakRss, service_env, setup, worker_command


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=1, help="at once, of each game")
    parser.add_argument("--timeout", type=float, default=900, help="seconds at most")
    args = parser.parse_args()
    if args.decisions < 200:
        parser.error("--decisions: at least 200 (a first and a last 100)")
    with setup("golf_worker_memory", eager=False, fresh=True) as (_, broker_url):
        import redis
        from django.contrib.auth import get_user_model
        from django.db.models import Count

        from games import all_games, get_game
        from matches.errors import MatchNotActive
        from matches.models import ENDED_STATUSES, Match, MatchEvent
        from matches.services import match_abort, match_create

        redis.Redis.from_url(broker_url).flushdb()
        user = get_user_model().objects.create_user("worker-memory")

        def start(game: str) -> Match:
            info = get_game(game).info
            seats = len(info.default_seats.get(info.default_preset, ())) or info.min_seats
            hard = [{"type": "com", "level": "hard"}] * seats
            return match_create(creator=user, game=game, seats=hard, spectate=True)

        hard = MatchEvent.objects.filter(actor__startswith="com:hard:")
        worker = subprocess.Popen(
            worker_command(),
            cwd=ROOT,
            env=service_env(),
            stdout=subprocess.DEVNULL,  # its banner
            start_new_session=True,  # Ctrl-C reaches this script only
        )
        memory = PeakRss({"worker": lambda: worker.pid}).start()
        samples: list[tuple[int, list[int]]] = []  # decisions, each process's RSS
        started = time.monotonic()
        try:
            live = [start(g.info.name) for g in all_games() for _ in range(args.matches)]
            made = 0
            while made < args.decisions:
                if time.monotonic() > started + args.timeout:
                    raise SystemExit(f"only {made} hard decisions after {args.timeout:g} s")
                time.sleep(0.5)
                made = hard.values("match_id", "created_at").distinct().count()
                if made // 100 > len(samples):
                    samples.append((made, memory.sample()["worker"]))
                ended = Match.objects.filter(pk__in=[m.pk for m in live], status__in=ENDED_STATUSES)
                done = {m.pk for m in ended}
                live = [start(m.game) if m.pk in done else m for m in live]
            elapsed = time.monotonic() - started
            for match in live:
                with contextlib.suppress(MatchNotActive):  # it may have ended in between
                    match_abort(match_id=match.id, user=user)
        finally:
            memory.stop()
            worker.terminate()  # a warm shutdown: its pool finishes its tasks
            try:
                worker.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
        games = dict(Match.objects.values_list("game").annotate(n=Count("id")))

    print(
        f"worker: one, a pool of two processes; {made} hard decisions in {elapsed:.0f} s, "
        f"{sum(games.values())} matches ({', '.join(f'{g} {n}' for g, n in sorted(games.items()))})"
    )
    (first, first_rss), (last, last_rss) = samples[0], samples[-1]
    for name, n, rss in (("first", first, first_rss), ("last", last, last_rss)):
        print(
            f"RSS after the {name} 100 ({n} decisions): largest process {rss[0] / MB:.1f} MB, "
            f"all {len(rss)} processes together {sum(rss) / MB:.1f} MB"
        )
    trail = ", ".join(f"{sum(rss) / MB:.0f}" for _, rss in samples)
    print(f"RSS all together after each 100 decisions (MB): {trail}")
    peak = memory.peak("worker")
    verdict = "PASS" if peak < 300 * MB else "FAIL"
    print(f"peak RSS worker: {peak / MB:.1f} MB (largest process): target < 300 MB: {verdict}")
    for what, before, after in (
        ("largest process", first_rss[0], last_rss[0]),
        ("all together", sum(first_rss), sum(last_rss)),
    ):
        growth = after - before
        verdict = "FAIL" if growth >= 20 * MB and growth >= 0.1 * before else "PASS"
        print(
            f"growth from the first to the last 100, {what}: {growth / MB:+.1f} MB "
            f"({100 * growth / before:+.1f}%): target < 10% or < 20 MB: {verdict}"
        )


if __name__ == "__main__":
    main()
