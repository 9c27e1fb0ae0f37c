"""`make run`: the whole service on this machine.

Starts embedded PostgreSQL and Redis under ``var/`` (unless ``DATABASE_URL`` /
``CELERY_BROKER_URL`` name servers to use), migrates, then runs the API server, a Celery
worker for each queue (``interactive``: COM turns people wait for, timers; ``background``:
COMs playing each other) and Celery beat. Ctrl-C (or SIGTERM, or a closed terminal)
stops all of them, the embedded servers included (each process in a process group of its
own, stopped whole); the data stays in ``var/`` for the next run.

A process that exits on its own (a crash, an out-of-memory kill) is started again, after
1 s, then 2, 4, 8 and 16 s while it keeps exiting within a minute of its start; an
embedded server that stops is started again on its port the same way. One that exits
in the first seconds of the run (a taken port, a bad setting), or six times in a row
within a minute of each start, stops everything, and the exit status is 1.

While it runs, ``var/run.env`` holds the settings it uses, so that ``scripts/manage``
(e.g. ``scripts/manage verify_match --all``) works on the same database.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shlex
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

from embedded import EmbeddedError, Postgres, Redis, folder_lock, servers

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
STOP_TIMEOUT = 20.0
# supervision: a process that ran this long before exiting starts again after the first
# delay; one that exits sooner waits twice as long as last time, and after the last delay
# everything stops: it is not going to stay up
STABLE_AFTER = 60.0
RESTART_DELAYS = (1.0, 2.0, 4.0, 8.0, 16.0)
# an exit this soon after the run started is a configuration error, not a crash
STARTUP_GRACE = 10.0


class Stop(Exception):
    """Ctrl-C or SIGTERM: stop everything."""


def _on_signal(signum: int, frame: object) -> None:
    raise Stop(signal.Signals(signum).name)


def _processes(env: dict[str, str], var: Path) -> dict[str, list[str]]:
    return {
        "api": [str(BIN / "python"), "-m", "config.serve"],
        "worker": [str(BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO",
                   "--queues=interactive", "--concurrency=2", "--hostname=interactive@%h",
                   "--without-gossip", "--without-mingle"],
        "background worker": [str(BIN / "celery"), "-A", "config", "worker", "--loglevel=INFO",
                              "--queues=background", "--concurrency=1",
                              "--hostname=background@%h", "--without-gossip", "--without-mingle"],
        "beat": [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO",
                 f"--schedule={var / 'celerybeat-schedule'}"],
    }  # fmt: skip


class GiveUp(Exception):
    """A process or server that will not stay up: stop everything."""


class Restarts:
    """When to start again something that stopped, and when to give up on it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.started = time.monotonic()
        self.quick_exits = 0
        self.due: float | None = None  # when to start it again; None while it runs

    def stopped(self, what: str, run_started: float) -> None:
        now = time.monotonic()
        if now - run_started < STARTUP_GRACE:
            raise GiveUp(f"{self.name} {what}, as the service started")
        quick = now - self.started < STABLE_AFTER
        self.quick_exits = self.quick_exits + 1 if quick else 1
        if self.quick_exits > len(RESTART_DELAYS):
            raise GiveUp(f"{self.name} {what}: {self.quick_exits} times in a row within"
                         f" {STABLE_AFTER:.0f} s of its start")  # fmt: skip
        delay = RESTART_DELAYS[self.quick_exits - 1]
        print(f"run: {self.name} {what}; starting it again in {delay:.0f} s", flush=True)
        self.due = now + delay

    def running_for(self) -> str:
        return f"after {time.monotonic() - self.started:.0f} s"

    def is_due(self) -> bool:
        return self.due is not None and time.monotonic() >= self.due

    def restarted(self) -> None:
        """Being started again now."""
        self.started = time.monotonic()
        self.due = None


class EmbeddedServer:
    """An embedded PostgreSQL or Redis of this run, watched and started again on its port."""

    def __init__(self, server: Postgres | Redis, name: str, port: int) -> None:
        self.server = server
        self.port = port
        self.restarts = Restarts(name)

    def running(self) -> bool:
        return self.server.port() is not None

    def start(self) -> bool:
        try:
            self.server.start(port=self.port)
        except EmbeddedError as exc:
            print(f"run: {self.restarts.name} did not start: {exc}", flush=True)
            return False
        print(f"run: {self.restarts.name} started again on port {self.port}", flush=True)
        return True


def _embedded(var: Path, env: dict[str, str], given: Mapping[str, str]) -> list[EmbeddedServer]:
    """The servers this run started (not ones named by the environment)."""
    watched = []
    if not given.get("DATABASE_URL"):
        port = urlsplit(env["DATABASE_URL"]).port
        assert port is not None
        watched.append(EmbeddedServer(Postgres(var / "postgres"), "PostgreSQL", port))
    if not given.get("CELERY_BROKER_URL"):
        port = urlsplit(env["CELERY_BROKER_URL"]).port
        assert port is not None
        watched.append(EmbeddedServer(Redis(var / "redis"), "Redis", port))
    return watched


def _supervise(
    env: dict[str, str],
    var: Path,
    children: dict[str, subprocess.Popen[bytes]],
    servers: list[EmbeddedServer],
) -> NoReturn:
    """Start the processes, then start again whatever stops, until a signal or a GiveUp."""
    commands = _processes(env, var)
    run_started = time.monotonic()
    restarts = {name: Restarts(name) for name in commands}
    for name, command in commands.items():
        children[name] = _start(command, env)
    while True:
        for server in servers:
            if server.restarts.due is None and not server.running():
                server.restarts.stopped(f"stopped {server.restarts.running_for()}", run_started)
            elif server.restarts.is_due():
                server.restarts.restarted()
                if not server.start():
                    server.restarts.stopped("did not start", run_started)
        for name, child in children.items():
            if restarts[name].is_due():
                _signal_group(child, signal.SIGKILL)  # what outlived the wait for a restart
                children[name] = _start(commands[name], env)
                restarts[name].restarted()
            elif restarts[name].due is None and child.poll() is not None:
                # its own children may outlive it (uvicorn's workers go on serving the
                # port, a new API could not take it): they stop now
                _signal_group(child, signal.SIGTERM)
                status = f"exited with status {child.returncode} {restarts[name].running_for()}"
                restarts[name].stopped(status, run_started)
        time.sleep(0.2)


def _start(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A process in a process group of its own: it and whatever it starts are stopped
    together (Ctrl-C reaches them through this script). Such a group is in the terminal's
    background: it writes there (:func:`background_writes`) and reads nothing from it."""
    return subprocess.Popen(command, cwd=ROOT, env=env, process_group=0, stdin=subprocess.DEVNULL)


@contextlib.contextmanager
def background_writes() -> Iterator[None]:
    """While in it, the controlling terminal (if any) lets processes outside its
    foreground group write to it: ``stty tostop`` (a terminal that sends them SIGTTOU
    instead) is turned off, and back on after. The children each run in a process group
    of their own, so the terminal's background: with it on, the workers stopped before
    they were ready, and uvicorn took each SIGTTOU for "one worker fewer" until it had
    none and spun, retrying its write. (The terminal itself, not stdout: with only stdout
    sent to a file they still write their logs to it on stderr.)"""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:  # no controlling terminal
        yield
        return
    try:
        before = termios.tcgetattr(fd)
        changed = before[3] & termios.TOSTOP
        if changed:
            _set_terminal(fd, [*before[:3], before[3] & ~termios.TOSTOP, *before[4:]])
        try:
            yield
        finally:
            if changed:
                _set_terminal(fd, before)
    finally:
        os.close(fd)


def _set_terminal(fd: int, attributes: list[Any]) -> None:
    # (from the terminal's background, as under `make run &`, a change is refused by a
    # SIGTTOU that would stop this script: it is ignored meanwhile)
    previous = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        termios.tcsetattr(fd, termios.TCSANOW, attributes)
    except termios.error:
        pass
    finally:
        signal.signal(signal.SIGTTOU, previous)


def _signal_group(child: subprocess.Popen[bytes], signum: int) -> bool:
    """Signal ``child``'s process group; whether any of it was still there."""
    try:
        os.killpg(child.pid, signum)
    except ProcessLookupError:
        return False
    return True


def _stop(children: dict[str, subprocess.Popen[bytes]]) -> None:
    # each process is asked to stop, and stops its own (a worker lets its pool finish the
    # tasks under way: a SIGTERM to the pool's processes would cut them short); what is
    # left of its group then, or after the deadline, is ended
    for child in children.values():
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            child.send_signal(signal.SIGCONT)  # (a stopped process acts on it once continued)
    deadline = time.monotonic() + STOP_TIMEOUT
    for name, child in children.items():
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"run: {name} did not stop within {STOP_TIMEOUT:.0f} s; killing it")
            _signal_group(child, signal.SIGKILL)
            child.wait()
        _signal_group(child, signal.SIGTERM)  # what outlived it
        while _signal_group(child, 0):
            if time.monotonic() > deadline:
                _signal_group(child, signal.SIGKILL)
                break
            time.sleep(0.1)


def _kept_secret(path: Path, new: str) -> str:
    """A secret of this installation's, kept in ``path`` (readable by its owner only):
    ``new`` on the first run, the same on every run after."""
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(f"{new}\n")
    return path.read_text().strip()


def _chain_key(var: Path) -> str:
    """This installation's key for the event log's hash chain, made on the first run."""
    return _kept_secret(var / "chain-key", f"local:{secrets.token_hex(32)}")


def _secret_key(var: Path) -> str:
    """This installation's ``SECRET_KEY``, made on the first run. Without it the settings
    fall back (under DEBUG) to a key written in the source, and the COMs' random choices,
    keyed by it (``matches.services.com_rng``), could be worked out by anyone: an ``easy``
    COM's blunder foreseen tells which cards of its hand it passes."""
    return _kept_secret(var / "secret-key", secrets.token_urlsafe(50))


def _write_env(path: Path, env: dict[str, str]) -> None:
    names = (
        "DEBUG", "GOLF_VAR_DIR", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL",
        "EVENT_CHAIN_KEYS", "SECRET_KEY",
    )  # fmt: skip
    lines = [f"{name}={shlex.quote(env[name])}" for name in names if env.get(name)]
    path.touch(mode=0o600)
    path.write_text("# written by `make run` while it runs; read by scripts/manage\n"
                    + "\n".join(lines) + "\n")  # fmt: skip


def serve(var: Path, env: dict[str, str], servers: list[EmbeddedServer]) -> int:
    """Run the service's processes until a signal, or until one will not stay up."""
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput"],
                   cwd=ROOT, env=env, check=True)  # fmt: skip
    base = f"http://{env['HOST']}:{env['PORT']}"
    print(f"Play:     {base}/ (the web client: register and play in a browser)\n"
          f"API:      {base}/api/\n"
          f"API docs: {base}/api/docs/ (Swagger UI), {base}/api/redoc/ (Redoc)\n"
          f"Admin:    {base}/admin/ (create an account: scripts/manage createsuperuser;"
          f" dashboard: {base}/admin/ops/dashboard/)\n"
          f"Health:   {base}/healthz  Ready: {base}/readyz\n"
          f"Data:     {var}\n"
          "Press Ctrl-C to stop.", flush=True)  # fmt: skip
    children: dict[str, subprocess.Popen[bytes]] = {}
    try:
        _supervise(env, var, children, servers)
    except GiveUp as exc:
        print(f"run: {exc}; stopping the rest", flush=True)
        return 1
    except Stop:
        print("Stopping...", flush=True)
        return 0
    finally:
        # a second Ctrl-C must not cut the shutdown short
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        _stop(children)


def main(argv: list[str] | None = None) -> int:
    # no options: settings come from the environment (the README's table); --help says so
    argparse.ArgumentParser(
        description=__doc__.replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Settings are environment variables (the README's configuration table), "
        "e.g. PORT=8001 or DATABASE_URL=postgres://... make run.",
    ).parse_args(argv)
    var = Path(os.environ.get("GOLF_VAR_DIR") or ROOT / "var").resolve()
    env = {
        **os.environ,
        "DEBUG": os.environ.get("DEBUG", "1"),
        "GOLF_VAR_DIR": str(var),
        "HOST": os.environ.get("HOST", "127.0.0.1"),
        "PORT": os.environ.get("PORT", "8000"),
        "PYTHONUNBUFFERED": "1",
    }
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # (a closed terminal too)
        signal.signal(signum, _on_signal)
    run_env = var / "run.env"
    try:
        with (
            background_writes(),
            folder_lock(var, "`make run`"),
            servers(var, database_url=env.get("DATABASE_URL", ""),
                    redis_url=env.get("CELERY_BROKER_URL", "")) as (database_url, redis_url),
        ):  # fmt: skip
            if not env.get("CELERY_BROKER_URL"):  # the embedded Redis: broker and cache
                env["CELERY_BROKER_URL"] = f"{redis_url}/0"
                env.setdefault("CACHE_URL", f"{redis_url}/1")
            env["DATABASE_URL"] = database_url
            env.setdefault("EVENT_CHAIN_KEYS", _chain_key(var))
            env.setdefault("SECRET_KEY", _secret_key(var))
            _write_env(run_env, env)
            try:
                return serve(var, env, _embedded(var, env, os.environ))
            finally:
                run_env.unlink(missing_ok=True)
    except Stop:  # Ctrl-C while the servers were starting
        print("Stopped.")
        return 0
    except (EmbeddedError, subprocess.CalledProcessError) as exc:
        print(f"run: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
