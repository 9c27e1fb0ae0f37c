"""Action endpoint throughput against the framework's floor, through the server and PostgreSQL.

    .venv/bin/python bench/api.py [--clients 8] [--seconds 15] [--workers 2] [--rounds 3]

Starts the server as `make run` does (uvicorn, ``config/serve.py``, the rates counted in
Redis) on a free loopback port against its own database (``golf_bench``) on embedded
PostgreSQL and Redis under ``var/bench`` (see ``bench/_django.py``), then drives, in the
same run and with the same number of concurrent keep-alive clients:

1. the floor: ``GET /api/me``, a trivial token-authenticated DRF endpoint;
2. ``POST /api/matches/{id}/actions``: each client plays both seats of its own
   two-player match (draw, then discard), sending ``If-Match`` each time.

The two take turns in ``--rounds`` rounds (floor, actions, floor, actions, ...), each
``--seconds`` in all, so that other work on a shared machine weighs on both alike.
Prints requests per second and p50/p99 latency for both, and the action endpoint's
throughput as a share of the floor's (target: 60% or more). Bounded in time, loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import threading
import time
from collections.abc import Callable

from _django import ROOT, server_command, service_env, setup
from _http import Api, free_port, percentile, wait_for_port

MOVES = {"draw": "draw", "place": "discard"}  # and "next" after a hole


class Phase:
    """One kind of request, driven by one thread per client (each with its step) in rounds.
    Each round starts on new connections (the server closes those idle for 5 s)."""

    def __init__(self, clients: list[tuple[Api, Callable[[], bool]]]) -> None:
        self.clients = [client for client, _ in clients]
        self.steps = [step for _, step in clients]
        self.latencies: list[float] = []
        self.errors = 0
        self.elapsed = 0.0

    def run(self, seconds: float, record: bool = True) -> None:
        latencies: list[list[float]] = [[] for _ in self.steps]
        errors = [0] * len(self.steps)
        for client in self.clients:
            if client.conn is not None:
                client.conn.close()
                client.conn = None
        deadline = time.monotonic() + seconds

        def loop(i: int) -> None:
            step = self.steps[i]
            while time.monotonic() < deadline:
                started = time.perf_counter()
                ok = step()
                latencies[i].append(time.perf_counter() - started)
                if not ok:
                    errors[i] += 1

        threads = [threading.Thread(target=loop, args=(i,)) for i in range(len(self.steps))]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if record:
            self.elapsed += time.monotonic() - started
            self.latencies += [x for lat in latencies for x in lat]
            self.errors += sum(errors)

    @property
    def rps(self) -> int:
        return int(len(self.latencies) / self.elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with setup(shared_cache=True):  # (the rates counted in Redis, as under `make run`)
        from django.contrib.auth import get_user_model
        from django.db import connection
        from rest_framework.authtoken.models import Token

        from matches.services import match_create, match_join

        User = get_user_model()
        run = time.time_ns()
        pairs = []
        for i in range(args.clients):
            a = User.objects.create_user(f"api-{run}-{i}-a")
            b = User.objects.create_user(f"api-{run}-{i}-b")
            match = match_create(
                creator=a,
                rules={"holes": 18, "initial_flips": 0},
                seats=[{"type": "me"}, {"type": "open"}],
            )
            match_join(match_id=match.id, user=b)
            tokens = [Token.objects.create(user=a).key, Token.objects.create(user=b).key]
            pairs.append((str(match.id), tokens))
        connection.close()

        port = free_port()
        command, serving = server_command(port, args.workers)
        env = service_env(THROTTLE_USER="1000000/min", THROTTLE_ACTIONS="1000000/min", **serving)
        server = subprocess.Popen(command, cwd=ROOT, env=env)
        try:
            wait_for_port(port)

            def floor_work(i: int):  # type: ignore[no-untyped-def]
                client = Api(port, pairs[i][1][0])
                return client, lambda: client.call("GET", "/api/me")[0] == 200

            def action_work(i: int):  # type: ignore[no-untyped-def]
                client = Api(port)
                match_id, tokens = pairs[i]
                _, data = client.call("GET", f"/api/matches/{match_id}", token=tokens[0])
                view = json.loads(data)["view"]
                state = {"view": view}

                def step() -> bool:
                    v = state["view"]
                    seat = v["seats_to_act"][0]
                    action = {"type": MOVES.get(v["phase"], "next")}
                    status, data = client.call(
                        "POST",
                        f"/api/matches/{match_id}/actions",
                        action,
                        {"If-Match": f'"{v["version"]}"'},
                        token=tokens[seat],
                    )
                    if status != 200:
                        return False
                    state["view"] = json.loads(data)["view"]
                    return True

                return client, step

            floor = Phase([floor_work(i) for i in range(args.clients)])
            actions = Phase([action_work(i) for i in range(args.clients)])
            floor.run(2, record=False)  # warm up
            actions.run(2, record=False)
            for _ in range(args.rounds):
                floor.run(args.seconds / args.rounds)
                actions.run(args.seconds / args.rounds)
        finally:
            server.terminate()
            server.wait(timeout=30)

    def line(name: str, phase: Phase) -> str:
        lat = phase.latencies
        return (
            f"{name}: {phase.rps} req/s, p50 {1000 * statistics.median(lat):.1f} ms, "
            f"p99 {1000 * percentile(lat, 0.99):.1f} ms, errors {phase.errors}"
        )

    print(
        f"{args.clients} clients, {args.seconds:.0f} s each in {args.rounds} rounds, "
        f"uvicorn {args.workers} processes x {os.environ.get('WEB_THREADS', 8)} threads"
    )
    print(line("floor GET /api/me", floor))
    print(line("POST actions     ", actions))
    print(f"actions / floor throughput: {100 * actions.rps / floor.rps:.0f}% (target >= 60%)")


if __name__ == "__main__":
    main()
