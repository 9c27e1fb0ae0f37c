"""Does a flood of COM matches slow another player's COM replies?

    .venv/bin/python bench/com_flood.py [--samples 60] [--shared]
        [--flooders N] [--seated GAME]

Starts the workers as `make run` does (``interactive``: 2 processes; ``background``: 1)
on embedded PostgreSQL and Redis (``bench/_django.py``), the cache shared in Redis as
there (each account's COM turns and their time are counted across the processes). A
victim plays one human against one ``normal`` COM; each sample times from the commit of
the victim's action to the commit of the COM's reply, as a reader waiting on the match
sees it. First with nothing else
running (quiet), then while a flooder runs as many matches as an account may have (five)
of six ``hard`` COMs playing each other over 18 holes. Prints p50/p95 of both and the
ratio of the p95s (target: at most 2).

``--shared`` runs one worker of three processes on both queues instead: what the flood
does without a queue of its own.

``--flooders N`` floods from N accounts at once (default 1), each with its five matches.
``--seated GAME`` (``ninety-nine``, ``golf``, ``hearts``): each flooder sits one human
seat of its matches of GAME (the game's default preset and table size), the other seats
``hard`` COMs, and plays its own moves, a random legal one, as soon as it is its turn
(a thread for each flooder, woken by the matches' notifications): the COM turns that
answer them go to the interactive queue, bounded per account by
``COM_TURNS_PER_MINUTE`` and paced by their time (``COM_SECONDS_PER_MINUTE``). A match
that ends is replaced by a new one.

    .venv/bin/python bench/com_flood.py --flooders 3 --seated ninety-nine
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from typing import Any

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


class SeatedFlooder(threading.Thread):
    """One account keeping ``FLOOD_MATCHES`` matches of ``game`` going, one human seat of
    its own in each (the others ``hard`` COMs), and playing a random legal move there as
    soon as its seat is to act. Each move's COM replies land on the interactive queue.
    When ``stop`` is set, it aborts its unfinished matches and ends."""

    def __init__(self, user: Any, game: str, seats: int, stop: threading.Event, seed: int):
        super().__init__(name=f"flooder-{user.pk}", daemon=True)
        self.user, self.game, self.seats, self.stop = user, game, seats, stop
        self.rng = random.Random(seed)
        self.created: list[Any] = []  # every match it made (ids)
        self.moves = 0  # its own moves taken
        self.error: BaseException | None = None

    def _new_match(self) -> Any:
        from matches.services import match_create

        me = len(self.created) % self.seats  # its seat goes round the table
        seats: list[dict[str, Any]] = [{"type": "com", "level": "hard"}] * self.seats
        seats[me] = {"type": "me"}
        match = match_create(creator=self.user, game=self.game, seats=seats)
        self.created.append(match.id)
        return match

    def _play(self, match_id: Any) -> bool:
        """A random legal move of its seat, if the match is active and the seat to act;
        whether the match is still active."""
        from cards.errors import EngineError
        from matches.errors import ServiceError
        from matches.models import Match
        from matches.services import match_act
        from matches.store import game_of, load_state

        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            return False
        game = game_of(match)
        seat = match.seat_of_user(self.user.pk)
        state = load_state(match)
        if seat not in game.seats_to_act(state):
            return True
        action = self.rng.choice(game.legal_actions(state, seat))
        try:
            match_act(match_id=match.id, user=self.user, action=game.action_to_json(action))
            self.moves += 1
        except (EngineError, ServiceError):
            pass  # the match moved on since it was read: looked at again on its next event
        return True

    def run(self) -> None:
        import psycopg
        from django.db import connection

        from matches.errors import MatchNotActive
        from matches.notify import CHANNEL
        from matches.services import match_abort

        try:
            params = connection.get_connection_params()
            with psycopg.connect(**params, autocommit=True) as listener:
                listener.execute(f"LISTEN {CHANNEL}")
                playing = {str(self._new_match().id) for _ in range(FLOOD_MATCHES)}
                due = set(playing)  # (events before LISTEN: every match looked at once)
                while not self.stop.is_set():
                    fresh = set()
                    for match_id in sorted(due):
                        if not self._play(match_id):  # ended: another one in its place
                            playing.discard(match_id)
                            playing.add(new := str(self._new_match().id))
                            fresh.add(new)
                    due = fresh  # (new matches: looked at at once)
                    for note in listener.notifies(timeout=0 if due else 0.5, stop_after=1):
                        due.add(note.payload.partition(":")[0])
                    due = due & playing if due else set(playing)  # (a quiet half second)
            for match_id in playing:
                with contextlib.suppress(MatchNotActive):  # (it ended meanwhile)
                    match_abort(match_id=match_id, user=self.user)
        except BaseException as exc:
            self.error = exc
        finally:
            connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--shared", action="store_true", help="one worker for both queues")
    parser.add_argument("--flooders", type=int, default=1, help="accounts flooding (default 1)")
    parser.add_argument(
        "--seated",
        metavar="GAME",
        help="flooders sit one human seat in matches of GAME with hard COMs in the others",
    )
    args = parser.parse_args()
    if args.flooders < 1:
        parser.error("--flooders must be at least 1")
    seated, table_size = None, 0
    if args.seated:
        from games import UnknownGame, get_game  # (the registry: no Django needed)

        try:
            seated = get_game(args.seated)
        except UnknownGame as exc:
            parser.error(str(exc))
        if "hard" not in seated.info.com_levels:
            parser.error(f"{seated.info.title} has no hard COM")
        table = seated.info.default_seats.get(seated.info.default_preset)
        table_size = len(table) if table else seated.info.min_seats
    with setup("golf_flood", eager=False, fresh=True, shared_cache=True):
        from django.conf import settings
        from django.contrib.auth import get_user_model

        from config.celery import app
        from golf import legal_actions
        from matches.models import Match, MatchEvent
        from matches.notify import wait_for_version
        from matches.services import match_abort, match_act, match_create
        from matches.store import load_state

        with app.connection_for_write() as conn:
            for queue in (settings.INTERACTIVE_QUEUE, settings.BACKGROUND_QUEUE):
                conn.default_channel.queue_purge(queue)
        workers = start_workers(args.shared)
        users = get_user_model().objects
        victim = users.create_user(f"victim-{time.time_ns()}")
        flooders = [
            users.create_user(f"flooder-{i}-{time.time_ns()}") for i in range(args.flooders)
        ]
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

        stop = threading.Event()
        threads: list[SeatedFlooder] = []
        try:
            deadline = time.monotonic() + 60
            while len(app.control.ping(timeout=0.5) or []) < len(workers):
                assert time.monotonic() < deadline, "the workers did not start"
            com_replies(5)  # warm up
            quiet = com_replies(args.samples)
            flood_started = time.monotonic()
            if seated is None:
                floods = [
                    (
                        flooder,
                        match_create(
                            creator=flooder,
                            rules={"holes": 18, "max_turns": settings.MAX_TURNS_PER_HOLE},
                            seats=[{"type": "com", "level": "hard"}] * 6,
                            spectate=True,
                        ),
                    )
                    for flooder in flooders
                    for _ in range(FLOOD_MATCHES)
                ]
            else:
                threads = [
                    SeatedFlooder(flooder, seated.info.name, table_size, stop, seed=i)
                    for i, flooder in enumerate(flooders)
                ]
                for thread in threads:
                    thread.start()
            time.sleep(2)  # the flood is under way
            flooded = com_replies(args.samples)
            if seated is None:
                flood_moves = sum(Match.objects.get(pk=m.pk).version for _, m in floods)
                for flooder, match in floods:
                    match_abort(match_id=match.id, user=flooder)
            else:  # (counted before the flooders stop and abort their matches)
                flood_seconds = time.monotonic() - flood_started
                human_moves = sum(thread.moves for thread in threads)
                created = [m for thread in threads for m in list(thread.created)]
                # a COM turn is one write of a seat's move (its own event, then the
                # rules' ones, all under the COM's actor): the COM's own events, counted
                # by account and the minute they were written in (the bound's minutes)
                per_minute: Counter[tuple[int, int]] = Counter()
                for account, written, *row in MatchEvent.objects.filter(
                    match_id__in=created, actor__startswith="com:"
                ).values_list("match__created_by_id", "created_at", "type", "version", "payload"):
                    if seated.acting_seat(seated.event_from_row(*row)) is not None:
                        per_minute[account, int(written.timestamp() // 60)] += 1
                com_turns = sum(per_minute.values())
                finished = Match.objects.filter(pk__in=created, status="finished").count()
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
            for worker in workers:
                worker.terminate()  # a warm shutdown: its pool finishes its tasks
            for worker in workers:
                try:
                    worker.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(worker.pid, signal.SIGKILL)
        for thread in threads:
            if thread.is_alive():
                raise SystemExit(f"{thread.name} did not stop")
            if thread.error is not None:
                raise SystemExit(f"{thread.name} failed: {thread.error!r}")

    def p95(values: list[float]) -> float:
        return sorted(values)[int(0.95 * (len(values) - 1))]

    layout = "one worker x 3 on both queues" if args.shared else "interactive x 2, background x 1"
    print(f"workers: {layout}; victim: one human against one normal COM")
    for name, values in (("quiet", quiet), ("flood", flooded)):
        print(
            f"{name}: COM reply p50 {1000 * statistics.median(values):.1f} ms, "
            f"p95 {1000 * p95(values):.1f} ms ({len(values)} replies)"
        )
    accounts = f" of {args.flooders} accounts" if args.flooders > 1 else ""
    if seated is None:
        print(
            f"flood: {len(floods)} matches{accounts} of six hard COMs, "
            f"{flood_moves} events during the run"
        )
    else:
        print(
            f"flood: {args.flooders} account(s) x {FLOOD_MATCHES} matches of "
            f"{seated.info.title}, each one human seat and {table_size - 1} hard COMs "
            f"({len(created)} matches made, {finished} finished); in {flood_seconds:.1f} s "
            f"{human_moves} human moves and {com_turns} COM turns "
            f"({60 * com_turns / flood_seconds / args.flooders:.0f} a minute per account; "
            f"at most {max(per_minute.values(), default=0)} written in one clock minute for "
            f"one account; COM_TURNS_PER_MINUTE {settings.COM_TURNS_PER_MINUTE})"
        )
    ratio = p95(flooded) / p95(quiet)
    print(f"p95 flood / quiet: {ratio:.2f} (target <= 2): {'PASS' if ratio <= 2 else 'FAIL'}")
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
