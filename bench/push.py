"""Thousands of idle waiting clients: what they cost others, and how fast they are woken.

    .venv/bin/python bench/push.py [--waiters 2000] [--matches 100] [--moves 60]

Starts the server as `make run` does (``python -m config.serve``: uvicorn, 2 processes)
on its own database (``golf_push``, embedded PostgreSQL and Redis under ``var/bench``),
with two-player matches between benchmark accounts. Then, in one run:

1. ordinary requests with no waiter: ``GET /api/me``, ``GET /api/matches/{id}`` and a move
   (``POST .../actions``), one after another, p50/p99;
2. ``--waiters`` idle waiters spread over ``--matches`` matches, half long-polls
   (``events?after=V&wait=30``, asked again whenever they return) and half event streams
   (``stream``, Server-Sent Events); the same ordinary requests again, and the ratio of
   the p99s (target: at most 1.5);
3. ``--moves`` moves, each on another match: the time from the move's commit (its event's
   ``created_at``) to its arrival at every waiter of that match (target: p50 under 20 ms,
   p99 under 100 ms);
4. PostgreSQL's connections to the benchmark's database while the waiters wait (bounded by
   the processes, not the waiters);
5. the peak resident memory of the server's processes through the run (target: under
   250 MB a process with the waiters; ``PeakRss`` in ``bench/_django.py``).

Bounded in time; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import time
from datetime import datetime
from typing import Any

from _django import ROOT, PeakRss, server_command, service_env, setup
from _http import free_port, percentile, wait_for_port

PROCESSES = 2


class Connection:
    """One keep-alive HTTP/1.1 connection to the server on loopback."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, method: str, path: str, body: Any = None, **headers: str) -> None:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = [
            f"{method} {path} HTTP/1.1",
            "Host: 127.0.0.1",
            f"Authorization: Token {self.token}",
        ]
        head += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await self.writer.drain()

    async def head(self) -> tuple[int, dict[str, str]]:
        assert self.reader is not None
        status = int((await self.reader.readline()).split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        return status, headers

    async def request(self, method: str, path: str, body: Any = None, **headers: str):  # type: ignore[no-untyped-def]
        await self.send(method, path, body, **headers)
        status, head = await self.head()
        assert self.reader is not None
        content = await self.reader.readexactly(int(head.get("content-length", 0)))
        return status, json.loads(content) if content else None

    async def chunks(self):  # type: ignore[no-untyped-def]
        """The chunks of a chunked response body."""
        assert self.reader is not None
        while size := int((await self.reader.readline()).strip(), 16):
            yield await self.reader.readexactly(size)
            await self.reader.readline()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Deliveries:
    """When each waiter received each event, against the event's commit."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.measuring = False

    def arrived(self, event: dict[str, Any]) -> None:
        if self.measuring and event["type"] == "card_revealed":
            committed = datetime.fromisoformat(event["created_at"]).timestamp()
            self.latencies.append(time.time() - committed)


async def long_poller(port: int, token: str, match: dict, seen: Deliveries) -> None:  # type: ignore[type-arg]
    conn = Connection(port, token)
    after = match["version"]
    try:
        while True:
            status, page = await conn.request(
                "GET", f"/api/matches/{match['id']}/events?after={after}&wait=30"
            )
            if status != 200:
                seen.errors += 1
                await asyncio.sleep(1)
                continue
            for event in page["events"]:
                seen.arrived(event)
            after = page["next_after"]
    finally:
        conn.close()


async def streamer(port: int, token: str, match: dict, seen: Deliveries) -> None:  # type: ignore[type-arg]
    conn = Connection(port, token)
    try:
        await conn.send("GET", f"/api/matches/{match['id']}/stream?after={match['version']}")
        status, _ = await conn.head()
        if status != 200:
            seen.errors += 1
            return
        async for chunk in conn.chunks():
            for line in chunk.decode().splitlines():
                if line.startswith("data: "):
                    seen.arrived(json.loads(line[6:]))
    finally:
        conn.close()


async def ordinary(port: int, token: str, match_id: str, moves: list[dict], rounds: int):  # type: ignore[no-untyped-def, type-arg]
    """Latencies of ``GET /api/me``, ``GET /api/matches/{id}`` and moves, in turn."""
    conn = Connection(port, token)
    timings: dict[str, list[float]] = {"me": [], "match": [], "move": []}
    errors = 0
    try:
        for i in range(rounds):
            for name, method, path, body in (
                ("me", "GET", "/api/me", None),
                ("match", "GET", f"/api/matches/{match_id}", None),
                ("move", "POST", f"/api/matches/{moves[i]['id']}/actions", moves[i]["action"]),
            ):
                started = time.perf_counter()
                status, _ = await conn.request(method, path, body)
                timings[name].append(time.perf_counter() - started)
                errors += status not in (200, 201)
    finally:
        conn.close()
    return timings, errors


def summary(timings: dict[str, list[float]]) -> str:
    return ", ".join(
        f"{name} p50 {1000 * statistics.median(v):.1f} ms p99 {1000 * percentile(v, 0.99):.1f} ms"
        for name, v in timings.items()
    )


def p99_all(timings: dict[str, list[float]]) -> float:
    return percentile([x for v in timings.values() for x in v], 0.99)


async def drive(args: argparse.Namespace, port: int, fixture: dict[str, Any]) -> dict[str, Any]:
    rng = random.Random(1)
    matches, tokens = fixture["matches"], fixture["tokens"]
    seen = Deliveries()
    quiet, quiet_errors = await ordinary(
        port, tokens[0], matches[0]["id"], fixture["moves"], args.rounds
    )
    waiters = []
    for i in range(args.waiters):
        # the waiters of a match: its two players (a tab or two each) and spectators
        j, k = i % len(matches), i // len(matches)
        match, token = matches[j], tokens[(j + k) % len(tokens)]
        role = long_poller if i % 2 == 0 else streamer
        waiters.append(asyncio.create_task(role(port, token, match, seen)))
        if i % 200 == 199:
            await asyncio.sleep(0.2)  # do not storm the listen backlog
    await asyncio.sleep(5)  # every waiter is waiting now
    connections = fixture["count_connections"]()
    busy, busy_errors = await ordinary(
        port, tokens[0], matches[0]["id"], fixture["moves"][args.rounds :], args.rounds
    )
    seen.measuring = True
    for match in rng.sample(matches, min(args.moves, len(matches))):
        owner = fixture["owners"][match["id"]]
        conn = Connection(port, owner)
        status, _ = await conn.request(
            "POST", f"/api/matches/{match['id']}/actions", {"type": "reveal", "position": 0}
        )
        conn.close()
        seen.errors += status != 200
        await asyncio.sleep(0.1)
    await asyncio.sleep(2)
    for task in waiters:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*waiters, return_exceptions=True)
    return {
        "quiet": quiet,
        "busy": busy,
        "errors": quiet_errors + busy_errors + seen.errors,
        "deliveries": seen.latencies,
        "connections": connections,
        "per_match": args.waiters // len(matches),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--waiters", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=150, help="ordinary requests of each kind")
    args = parser.parse_args()
    with setup("golf_push", eager=False, fresh=True) as (database_url, _broker):
        import psycopg
        from django.contrib.auth import get_user_model
        from django.db import connection
        from rest_framework.authtoken.models import Token

        from matches.services import match_create, match_join

        users = get_user_model().objects
        accounts = [users.create_user(f"push-{i}") for i in range(max(2, args.waiters // 20))]
        tokens = [Token.objects.create(user=a).key for a in accounts]
        matches, owners = [], {}
        for i in range(args.matches):
            alice, bob = accounts[i % len(accounts)], accounts[(i + 1) % len(accounts)]
            match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
            match_join(match_id=match.id, user=bob)
            match.refresh_from_db()
            matches.append({"id": str(match.id), "version": match.version})
            owners[str(match.id)] = tokens[i % len(accounts)]
        # the ordinary moves: each an initial flip of account 0 on a match of its own
        moves = []
        for _ in range(2 * args.rounds + 20):
            match = match_create(creator=accounts[0], seats=[{"type": "me"}, {"type": "open"}])
            match_join(match_id=match.id, user=accounts[1])
            moves.append({"id": str(match.id), "action": {"type": "reveal", "position": 0}})
        connection.close()
        connection.close_pool()  # from here on only the server connects

        def count_connections() -> int:
            with psycopg.connect(database_url.rsplit("/", 1)[0] + "/postgres") as conn:
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = 'golf_push' AND pid <> pg_backend_pid()"
                ).fetchone()
                return int(row[0]) if row else 0

        port = free_port()
        command, serving = server_command(port, PROCESSES)
        env = service_env(
            **serving,
            THROTTLE_USER="1000000/min",
            THROTTLE_ACTIONS="1000000/min",
            PUSH_MAX_PER_ACCOUNT="1000",
            LOG_LEVEL="WARNING",
        )
        server = subprocess.Popen(command, cwd=ROOT, env=env)
        memory = PeakRss({"web": lambda: server.pid}).start()
        try:
            wait_for_port(port)
            fixture = {
                "matches": matches,
                "tokens": tokens,
                "owners": owners,
                "moves": moves,
                "count_connections": count_connections,
            }
            result = asyncio.run(drive(args, port, fixture))
        finally:
            memory.stop()
            server.terminate()
            server.wait(timeout=30)
    report(args, result, memory)


def report(args: argparse.Namespace, result: dict[str, Any], memory: PeakRss) -> None:
    quiet, busy = result["quiet"], result["busy"]
    print(f"server: uvicorn x {PROCESSES}; {args.waiters} waiters on {args.matches} matches")
    print(f"no waiters:      {summary(quiet)}")
    print(f"{args.waiters} waiters: {summary(busy)}")
    ratio = p99_all(busy) / p99_all(quiet)
    print(f"p99 with waiters / without: {ratio:.2f} (target <= 1.5)")
    deliveries = result["deliveries"]
    if deliveries:
        p50, p99 = statistics.median(deliveries), percentile(deliveries, 0.99)
        print(
            f"commit -> delivery to every waiter ({len(deliveries)} deliveries, "
            f"~{result['per_match']} waiters a match): p50 {1000 * p50:.1f} ms, "
            f"p99 {1000 * p99:.1f} ms (targets 20 / 100 ms)"
        )
    bound = PROCESSES * 13  # per process: a pool of DB_POOL_MAX (12) and one listener
    print(f"PostgreSQL connections while waiting: {result['connections']} (bound {bound})")
    print(f"errors: {result['errors']}")
    print(memory.line("web", 250))


if __name__ == "__main__":
    main()
