"""Many concurrent matches against the whole stack, optionally with faults, then verify.

    .venv/bin/python bench/load.py [--matches 40] [--clients 8] [--seconds 60] [--faults]
        [--snapshot-matches 2]

Starts the server as `make run` does (uvicorn, 2 processes) and a Celery worker (with
beat, for the stall sweeper) on loopback, against a fresh database of its own
(``golf_load``) on embedded PostgreSQL and Redis under ``var/bench`` (see
``bench/_django.py``). Creates ``--matches`` matches through the API, each one human
against 1-3 COMs, and plays them with ``--clients`` concurrent clients: a client acts
for the human of any of its matches whose turn it is (a random legal action, with
``If-Match`` and an ``Idempotency-Key``, retried after a failure) and long-polls when none
is. COM turns run on the worker. Bounded: the run stops when every match has ended or
after ``--seconds``.

With ``--faults``, a third of the way in the worker is killed (SIGKILL, with its pool
and beat processes) and a new one started, and half way in the embedded PostgreSQL is
stopped for ``--outage`` seconds and started again on the same port (the stack's
``DATABASE_URL`` names it). It cannot stop a server it did not start, so it refuses
``BENCH_DATABASE_URL``.

Afterwards it waits for the workers to settle, counts matches left waiting on a COM
("stuck"), and runs ``manage.py verify_match --all`` over every match of the run.
Prints actions per second, p50/p99 latency of the action endpoint, stale-version answers
(a COM moved between the client's read and its action: expected, the client reads
again), errors (those inside the outage window apart), stuck matches and the
verification summary. Exits 1 on an error outside the outage, a stuck match or a fault.

Memory: through the run, the resident memory of every process of the server, of the
worker (its pool and beat too) and of the embedded PostgreSQL (its postmaster and every
backend) is sampled (``PeakRss`` in ``bench/_django.py``); it prints each one's peak, of
one process (targets: 250 MB a web process, 300 MB a worker process) and of all together.
Then, the worker stopped, it plays ``--snapshot-matches`` whole matches of each registered
game here (its default preset and rules, COMs of its default level in every seat; verified
with the rest) and prints the mean and largest size of the match rows' state snapshot (the
``snapshot`` column as JSON text, and as stored) by game and preset, for the load's matches
(one hole or deal each) and those whole ones apart (target: under 8 KB for six-card golf).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from _django import (
    ROOT,
    PeakRss,
    embedded_postgres,
    postmaster_pid,
    server_command,
    service_env,
    setup,
    venv_command,
    worker_command,
)
from _http import Api, free_port, percentile, wait_for_port

DATABASE = "golf_load"


def restart_postgres(seconds: float) -> None:
    """Stop the embedded PostgreSQL for ``seconds``, then start it again on the same port
    (the stack's ``DATABASE_URL`` names that port)."""
    postgres = embedded_postgres()
    port = postgres.port()
    postgres.stop()
    time.sleep(seconds)
    postgres.start(port=port)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[tuple[float, str]] = field(default_factory=list)  # (time, what)
    conflicts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append((time.monotonic(), what))


@dataclass
class Outage:
    start: float = float("inf")
    end: float = float("-inf")

    def covers(self, t: float, slack: float = 3.0) -> bool:
        return self.start - slack <= t <= self.end + slack


class Stack:
    """The server and a Celery worker on the benchmark's database."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.env = service_env(
            THROTTLE_USER="1000000/min",
            THROTTLE_ACTIONS="1000000/min",
            COM_STALL_SECONDS="5",
            SWEEP_INTERVAL_SECONDS="5",
        )
        self.logs = Path(ROOT, "var", "bench-load")
        self.logs.mkdir(parents=True, exist_ok=True)
        command, serving = server_command(port)
        self.env.update(serving)
        self.server = self.start(command, "server")
        self.worker = self.start_worker()

    def start(self, args: list[str], name: str) -> subprocess.Popen[bytes]:
        """Start ``args`` in a process group of its own (Ctrl-C reaches this script only;
        :meth:`stop` ends the process, :meth:`restart_worker` the worker's whole group)."""
        log = open(self.logs / f"{name}.log", "ab")  # noqa: SIM115 - lives with the process
        return subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True
        )

    def start_worker(self) -> subprocess.Popen[bytes]:
        schedule = self.logs / "celerybeat-schedule"
        return self.start(worker_command("--beat", f"--schedule={schedule}"), "worker")

    def restart_worker(self) -> None:
        # the worker's pool and beat processes too: they outlive a killed parent
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait()
        self.worker = self.start_worker()

    def stop(self) -> None:
        for process in (self.server, self.worker):
            process.terminate()
        for process in (self.server, self.worker):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def play(client: Api, matches: list[dict], stats: Stats, deadline: float, rng) -> None:  # type: ignore[no-untyped-def]
    """Act for the human of each of ``matches`` whenever it is their turn."""
    while time.monotonic() < deadline:
        live = [m for m in matches if not m["ended"]]
        if not live:
            return
        acted = False
        for match in live:
            status, data = client.call("GET", f"/api/matches/{match['id']}")
            if status != 200:
                stats.error(f"GET match {status}")
                time.sleep(0.2)
                continue
            detail = json.loads(data)
            match["version"] = detail["version"]
            if detail["status"] in ("finished", "aborted"):
                match["ended"] = True
                continue
            if not detail["your_turn"]:
                continue
            if not detail["view"]["legal_actions"]:
                stats.error("your_turn but no legal action")  # the response contradicts itself
                continue
            action = rng.choice(detail["view"]["legal_actions"])
            version = detail["version"]
            headers = {"If-Match": f'"{version}"', "Idempotency-Key": f"{match['id']}-{version}"}
            started = time.perf_counter()
            status, data = client.call(
                "POST", f"/api/matches/{match['id']}/actions", action, headers
            )
            elapsed = time.perf_counter() - started
            if status == 200:
                with stats.lock:
                    stats.latencies.append(elapsed)
                acted = True
            elif status in (409, 412):
                # a COM moved in between (initial flips are simultaneous): read again
                with stats.lock:
                    stats.conflicts += 1
            else:
                stats.error(f"POST action {status}")
        if not acted and live:
            match = rng.choice(live)
            path = f"/api/matches/{match['id']}/events?after={match['version']}&limit=1&wait=5"
            status, _ = client.call("GET", path)
            if status != 200:
                stats.error(f"long-poll {status}")
                time.sleep(0.2)


def waiting_on_com() -> list[str]:
    from matches.models import Match, MatchStatus, Seat, SeatKind

    active = Match.objects.filter(status=MatchStatus.ACTIVE)
    return sorted(
        {
            str(s.match_id)
            for s in Seat.objects.filter(match__in=active, to_act=True, kind=SeatKind.COM)
        }
    )


def snapshot_sizes(whole_matches: int) -> list[tuple[str, int, float, int, float]]:
    """Play ``whole_matches`` matches of each registered game to the end here (COM turns run
    eagerly: the worker has stopped); then, by game and preset, for the load's matches and
    these apart: (what, matches, mean bytes as JSON text, largest, mean bytes stored)."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from config.celery import set_eager
    from games import all_games
    from matches.models import Match
    from matches.services import match_create

    set_eager(True)
    user = get_user_model().objects.create_user("load-snapshots")
    for game in all_games():
        info = game.info
        com = {"type": "com", "level": info.default_com_level}
        seats = len(info.default_seats.get(info.default_preset, ())) or info.min_seats
        for _ in range(whole_matches):
            match_create(creator=user, game=info.name, seats=[com] * seats, spectate=True)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT game || '/' || preset || CASE WHEN created_by_id = %s "
            "THEN ' (whole matches)' ELSE ' (load)' END, count(*), "
            "avg(octet_length(snapshot::text)), max(octet_length(snapshot::text)), "
            f"avg(pg_column_size(snapshot)) FROM {Match._meta.db_table} "
            "WHERE snapshot IS NOT NULL GROUP BY 1 ORDER BY 1",
            [user.pk],
        )
        rows = cursor.fetchall()
    connection.close()
    return [(what, n, float(mean), int(top), float(stored)) for what, n, mean, top, stored in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--outage", type=float, default=3.0, help="seconds without PostgreSQL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--snapshot-matches", type=int, default=2, help="whole matches a game, for snapshot sizes"
    )
    args = parser.parse_args()
    if args.faults and os.environ.get("BENCH_DATABASE_URL"):
        parser.error("--faults stops and starts the embedded PostgreSQL: unset BENCH_DATABASE_URL")
    with setup(DATABASE, eager=False, fresh=True) as (_, broker_url):
        import redis
        from django.contrib.auth import get_user_model
        from django.db import connection
        from rest_framework.authtoken.models import Token

        redis.Redis.from_url(broker_url).flushdb()
        users = [get_user_model().objects.create_user(f"load-{i}") for i in range(args.clients)]
        tokens = [Token.objects.create(user=u).key for u in users]
        connection.close()

        port = free_port()
        stack = Stack(port)
        memory = PeakRss(
            {
                "web": lambda: stack.server.pid,
                "worker": lambda: stack.worker.pid,
                "postgres": postmaster_pid,
            }
        ).start()
        rng = random.Random(args.seed)
        stats = Stats()
        outage = Outage()
        try:
            wait_for_port(port)
            owned: list[list[dict]] = [[] for _ in range(args.clients)]
            create_started = time.perf_counter()
            for i in range(args.matches):
                level = [rng.choice(["easy", "normal", "hard"]) for _ in range(rng.randint(1, 3))]
                body = {
                    "preset": rng.choice(["six-card", "six-card", "six-card-jokers", "nine-card"]),
                    "holes": 1,
                    "seats": [{"type": "me"}] + [{"type": "com", "level": lv} for lv in level],
                }
                owner = i % args.clients
                status, data = Api(port, tokens[owner]).call("POST", "/api/matches", body)
                if status != 201:
                    raise SystemExit(f"creating a match failed: {status} {data[:200]!r}")
                owned[owner].append({"id": json.loads(data)["id"], "ended": False})
            create_seconds = time.perf_counter() - create_started

            started = time.monotonic()
            deadline = started + args.seconds
            threads = [
                threading.Thread(
                    target=play,
                    args=(Api(port, tokens[i]), owned[i], stats, deadline, random.Random(i)),
                    daemon=True,  # after Ctrl-C, the script exits without waiting for them
                )
                for i in range(args.clients)
            ]
            for t in threads:
                t.start()
            if args.faults:
                time.sleep(args.seconds / 3)
                print(f"fault: worker killed and restarted at {time.monotonic() - started:.1f} s")
                stack.restart_worker()
                time.sleep(max(0.0, started + args.seconds / 2 - time.monotonic()))
                outage.start = time.monotonic()
                print(f"fault: PostgreSQL stopped at {outage.start - started:.1f} s")
                restart_postgres(args.outage)
                outage.end = time.monotonic()
                # this process's pooled connections died with the server: new ones
                from django.db import connection

                connection.close_pool()
                print(f"fault: PostgreSQL started again at {outage.end - started:.1f} s")
            for t in threads:
                t.join()
            elapsed = time.monotonic() - started

            # let the workers (and, after faults, the sweeper) finish what is theirs to do
            settle_until = time.monotonic() + (45 if args.faults else 15)
            stuck = waiting_on_com()
            while stuck and time.monotonic() < settle_until:
                time.sleep(1)
                stuck = waiting_on_com()
        finally:
            memory.stop()
            stack.stop()

        from matches.models import Match

        finished = Match.objects.filter(status="finished").count()
        events = sum(Match.objects.values_list("version", flat=True))
        connection.close()
        snapshots = snapshot_sizes(args.snapshot_matches)
        verify = subprocess.run(
            [venv_command("python"), "manage.py", "verify_match", "--all"],
            cwd=ROOT,
            env=service_env(),
            capture_output=True,
            text=True,
        )
        summary = ((verify.stdout + verify.stderr).strip().splitlines() or ["(no output)"])[-1]

    lat = stats.latencies
    in_outage = [e for e in stats.errors if outage.covers(e[0])]
    other = [e for e in stats.errors if not outage.covers(e[0])]
    print(
        f"{args.matches} matches ({finished} finished) created in {create_seconds:.1f} s; "
        f"{args.clients} clients for {elapsed:.1f} s; uvicorn x 2, 1 worker x 2"
    )
    print(
        f"human actions: {len(lat)} ({len(lat) / elapsed:.1f}/s), "
        f"p50 {1000 * statistics.median(lat):.1f} ms, p99 {1000 * percentile(lat, 0.99):.1f} ms"
        if lat
        else "human actions: none"
    )
    print(f"events appended (humans and COMs): {events} ({events / elapsed:.1f}/s)")

    def kinds(errors: list[tuple[float, str]]) -> str:
        counted = Counter(what for _, what in errors)
        return ", ".join(f"{what} x{n}" for what, n in sorted(counted.items())) or "none"

    print(f"stale versions (412/409, read again): {stats.conflicts}")
    print(f"errors outside the outage: {len(other)} ({kinds(other)})")
    print(f"errors during the outage (+-3 s): {len(in_outage)} ({kinds(in_outage)})")
    print(f"stuck (waiting on a COM after settling): {len(stuck)} {stuck[:5]}")
    print(f"verify_match --all: {summary} (exit {verify.returncode})")
    print(memory.line("web", 250))
    print(memory.line("worker", 300))
    print(memory.line("postgres"))
    for what, n, mean, top, stored in snapshots:
        print(
            f"snapshot {what}: mean {mean:,.0f} B as JSON text ({stored:,.0f} B stored), "
            f"largest {top:,} B, over {n} matches"
        )
    six = [row for row in snapshots if row[0].startswith("golf/six-card (")]
    if six:

        def verdict(size: float) -> str:
            return "PASS" if size < 8000 else "FAIL"

        n = sum(row[1] for row in six)
        mean, top = sum(row[1] * row[2] for row in six) / n, max(row[3] for row in six)
        print(
            f"snapshot six-card golf: mean {mean:,.0f} B, largest {top:,} B over {n} matches: "
            f"target < 8 KB (8,000 B): mean {verdict(mean)}, largest {verdict(top)}"
        )
    if verify.returncode != 0 or stuck or other:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
