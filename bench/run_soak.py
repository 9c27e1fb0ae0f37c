"""Soak check of a running `make run` stack: whole matches for minutes, then verification.

    make run                                  # in one terminal
    .venv/bin/python bench/run_soak.py [--clients 4] [--minutes 10] [--port 8000]

Each client registers an account and plays whole matches, one after another, until the
time is up: its human against COMs (1-3 of them, as many as the game's table allows), the
games, their presets and the COM levels taken in turn so that every preset of every game
and every level comes up, one round each (a Golf hole, a deal of Hearts or Ninety-Nine).
On its turn the client waits ``--think`` seconds (a person is not instant, and the action
throttle is per account), then sends a random legal action with ``If-Match`` and an
``Idempotency-Key``; otherwise it long-polls the match's events. COM turns run on the
stack's Celery worker.

It prints the matches played, human actions, errors (any answer but a success; a stale
version is read again and a 429 is retried a second later, both counted apart), the COM
reply latency (from the answer to a human action that hands the turn to the COMs until
the human's turn again or the end of the match: p50/p95), worker restarts
(the worker's process and its pool's processes, from ``celery inspect stats`` before and
after) and the result of ``scripts/manage verify_match --all``. Exits 1 when there was an
error, a worker restart or a verification fault.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from _http import Api, percentile

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Table:
    """A game's preset, the option that makes it one round long, and how many COMs may
    sit with one human."""

    game: str
    preset: str
    rounds_option: str
    coms: tuple[int, ...]


def tables_of(games: list[dict]) -> list[Table]:  # type: ignore[type-arg]
    """Every preset of every game (``GET /api/games``), interleaved game by game."""
    by_game = []
    for game in games:
        options = {o["name"] for o in game["options"]}
        rounds = "holes" if "holes" in options else "max_deals"
        tables = []
        for preset in game["presets"]:
            low, high = preset["seats"]["min"], preset["seats"]["max"]
            coms = tuple(n for n in (1, 2, 3) if low <= n + 1 <= high)
            tables.append(Table(game["name"], preset["name"], rounds, coms))
        by_game.append(tables)
    mixed = itertools.chain.from_iterable(itertools.zip_longest(*by_game))
    return [t for t in mixed if t is not None]


@dataclass
class Tally:
    matches: int = 0
    finished: int = 0
    actions: int = 0
    stale: int = 0
    throttled: int = 0
    errors: list[str] = field(default_factory=list)
    reply: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, **counts: int) -> None:
        with self.lock:
            for name, n in counts.items():
                setattr(self, name, getattr(self, name) + n)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


class Player:
    """One account playing whole matches in a row."""

    def __init__(self, index: int, port: int, tables: list[Table], args, tally: Tally) -> None:  # type: ignore[no-untyped-def]
        self.index = index
        self.api = Api(port)
        self.tables = tables
        self.args = args
        self.tally = tally
        self.rng = random.Random(args.seed * 1000 + index)

    def call(self, method: str, path: str, body: object = None, **headers: str):  # type: ignore[no-untyped-def]
        """The answer's status and JSON; waits out throttling; None on an error."""
        while True:
            status, data = self.api.call(method, path, body, headers)
            if status == 429:
                self.tally.add(throttled=1)
                time.sleep(1.0)
                continue
            if status in (200, 201):
                return json.loads(data)
            if status in (409, 412) and method == "POST":
                self.tally.add(stale=1)
                return None
            self.tally.error(f"{method} {path.split('?')[0].rsplit('/', 1)[-1]} -> {status}")
            time.sleep(0.5)
            return None

    def run(self, deadline: float) -> None:
        account = {"username": f"soak-{int(time.time())}-{self.index}", "password": "soak-pw-9x!"}
        registered = self.call("POST", "/api/accounts/register", account)
        if registered is None:
            return
        self.api.token = registered["token"]
        for k in itertools.count():
            if time.monotonic() >= deadline:
                return
            table = self.tables[(self.index + k) % len(self.tables)]
            coms = table.coms[(self.index + k) % len(table.coms)]
            body = {
                "game": table.game,
                "preset": table.preset,
                "rules": {table.rounds_option: 1},
                "seats": [{"type": "me"}]
                + [{"type": "com", "level": LEVELS[(k + j) % 3]} for j in range(coms)],
            }
            match = self.call("POST", "/api/matches", body)
            if match is not None:
                self.tally.add(matches=1)
                self.play(match["id"], deadline)

    def play(self, match_id: str, deadline: float) -> None:
        base = f"/api/matches/{match_id}"
        waiting_since: float | None = None  # when the turn went to the COMs
        while time.monotonic() < deadline:
            detail = self.call("GET", base)
            if detail is None:
                continue
            ended = detail["status"] != "active"
            if waiting_since is not None and (detail["your_turn"] or ended):
                self.tally.reply.append(time.monotonic() - waiting_since)
                waiting_since = None
            if ended:
                self.tally.add(finished=detail["status"] == "finished")
                return
            version = detail["version"]
            if not detail["your_turn"]:
                self.call("GET", f"{base}/events?after={version}&wait=10")
                continue
            time.sleep(self.args.think)
            action = self.rng.choice(detail["view"]["legal_actions"])
            headers = {"If-Match": f'"{version}"', "Idempotency-Key": f"{match_id}-{version}"}
            acted = self.call("POST", f"{base}/actions", action, **headers)
            if acted is None:
                continue
            self.tally.add(actions=1)
            to_act = acted["view"]["seats_to_act"]
            if to_act and acted["view"]["seat"] not in to_act:  # the COMs' turn now
                waiting_since = time.monotonic()


def run_env() -> dict[str, str]:
    """The settings `make run` uses, from the file it writes while it runs."""
    path = Path(os.environ.get("GOLF_VAR_DIR") or ROOT / "var") / "run.env"
    if not path.exists():
        raise SystemExit(f"{path} is missing: start the service with `make run` first")
    env = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            env[name] = shlex.split(value)[0]
    return env


def worker_processes(env: dict[str, str]) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Each worker's process id and its pool's process ids."""
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "celery"), "-A", "config", "inspect", "stats", "--json"],
        cwd=ROOT,
        env={**env, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    if result.returncode != 0:
        raise SystemExit(f"celery inspect stats failed: {result.stderr.strip()[-500:]}")
    stats = json.loads(result.stdout.strip().splitlines()[-1])
    return {
        name: (s["pid"], tuple(sorted(s["pool"].get("processes", [])))) for name, s in stats.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--think", type=float, default=0.3, help="seconds before each action")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = run_env()
    workers_before = worker_processes(env)
    status, data = Api(args.port).call("GET", "/api/games")
    if status != 200:
        raise SystemExit(f"no service on port {args.port} (GET /api/games: {status})")
    tables = tables_of(json.loads(data))
    tally = Tally()
    started = time.monotonic()
    deadline = started + 60 * args.minutes
    players = [Player(i, args.port, tables, args, tally) for i in range(args.clients)]
    threads = [threading.Thread(target=p.run, args=(deadline,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    time.sleep(2)  # the last COM turns of abandoned matches settle
    workers_after = worker_processes(env)
    restarts = sum(
        (workers_before[name][0] != pid) + len(set(pool) - set(workers_before[name][1]))
        for name, (pid, pool) in workers_after.items()
        if name in workers_before
    ) + len(set(workers_before) ^ set(workers_after))
    verify = subprocess.run(
        [str(ROOT / "scripts" / "manage"), "verify_match", "--all"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    verified = (verify.stdout.strip().splitlines() or ["(no output)"])[-1]

    def ms(values: list[float], q: float) -> str:
        return f"{1000 * percentile(values, q):.0f} ms" if values else "n/a"

    games = sorted({t.game for t in tables})
    print(f"{args.clients} clients for {elapsed / 60:.1f} min on port {args.port}")
    print(f"tables: {len(tables)} presets of {', '.join(games)}")
    print(f"matches: {tally.matches} started, {tally.finished} finished")
    print(f"human actions: {tally.actions} ({tally.actions / elapsed:.1f}/s)")
    print(f"stale versions read again: {tally.stale}; throttled and retried: {tally.throttled}")
    print(f"errors: {len(tally.errors)} {sorted(set(tally.errors))[:5]}")
    print(
        f"COM reply (until the human's turn again): p50 {ms(tally.reply, 0.5)}, "
        f"p95 {ms(tally.reply, 0.95)} ({len(tally.reply)} replies)"
    )
    print(f"worker restarts: {restarts} ({len(workers_after)} worker(s))")
    print(f"verify_match --all: {verified} (exit {verify.returncode})")
    if tally.errors or restarts or verify.returncode != 0 or " 0 with faults" not in verified:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
