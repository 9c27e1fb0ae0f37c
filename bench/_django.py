"""Set up Django for a benchmark script on PostgreSQL and Redis of its own.

The servers are embedded ones (``scripts/embedded.py``) under ``var/bench``, started when
the benchmark starts and stopped when it ends, on Ctrl-C or an error too; one benchmark
at a time uses that folder. ``BENCH_DATABASE_URL`` (a PostgreSQL URL naming the
benchmark's database) and ``BENCH_BROKER_URL`` (a Redis URL with its database number)
name running servers to use instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VAR = ROOT / "var" / "bench"
sys.path.insert(0, str(ROOT))

from scripts import embedded  # noqa: E402 - needs the repository's root on sys.path


def _on_database(url: str, name: str) -> str:
    """``url`` (a PostgreSQL URL) naming the database ``name`` instead."""
    return f"{url.rsplit('/', 1)[0]}/{name}"


@contextlib.contextmanager
def setup(
    database: str = "golf_bench",
    eager: bool = True,
    fresh: bool = False,
    shared_cache: bool = False,
) -> Iterator[tuple[str, str]]:
    """Start the servers (see the module's doc), configure Django on ``database`` (created
    if missing, dropped first when ``fresh``) and migrate it; stop the servers on the way
    out. Yields the database URL and the broker URL, both also set in ``os.environ``.
    ``shared_cache``: the cache is the broker's Redis (its database 1, as under `make run`)
    for the benchmark and the processes it starts, not one in memory for each: the counts
    kept there (the rates, each account's COM turns and their time) then hold across them."""
    database_url = os.environ.get("BENCH_DATABASE_URL", "")
    broker_url = os.environ.get("BENCH_BROKER_URL", "")
    lock = (
        contextlib.nullcontext()
        if database_url and broker_url
        else embedded.folder_lock(VAR, "benchmark")
    )
    # SIGTERM stops the benchmark the way Ctrl-C does: through the clean-up below
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        with (
            lock,
            embedded.servers(
                VAR,
                database_url=_on_database(database_url, "postgres") if database_url else "",
                redis_url=broker_url,
            ) as (server_url, redis_url),
        ):
            database_url = database_url or _on_database(server_url, database)
            broker_url = broker_url or f"{redis_url}/0"
            if shared_cache:
                os.environ["CACHE_URL"] = broker_url.rsplit("/", 1)[0] + "/1"
            _configure(database_url, broker_url, eager, fresh)
            yield database_url, broker_url
    except embedded.EmbeddedError as exc:
        raise SystemExit(f"bench: {exc}") from None


def _configure(database_url: str, broker_url: str, eager: bool, fresh: bool) -> None:
    import psycopg

    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(_on_database(database_url, "postgres"), autocommit=True) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    # the benchmark and the processes it starts share one key of the event chain; its
    # accounts own many matches
    os.environ.setdefault("EVENT_CHAIN_KEYS", "bench:" + "b" * 64)
    os.environ.setdefault("MAX_UNFINISHED_MATCHES", "1000000")
    os.environ.setdefault("MAX_UNFINISHED_COM_MATCHES", "1000000")
    os.environ.setdefault("THROTTLE_LISTS", "1000000/min")  # (a bench lists many times a minute)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker_url,
        CELERY_TASK_ALWAYS_EAGER="1" if eager else "0",
        LOG_LEVEL="WARNING",
    )
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def embedded_postgres() -> embedded.Postgres:
    """The embedded PostgreSQL that :func:`setup` starts when ``BENCH_DATABASE_URL`` is not
    set (to stop and start it again on the same port)."""
    return embedded.Postgres(VAR / "postgres")


def service_env(**extra: str) -> dict[str, str]:
    """The environment for a server or worker process the benchmark starts: production
    settings (DEBUG off) on the benchmark's database and broker, plus ``extra``."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-" + "k" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def venv_command(name: str) -> str:
    """A console script installed beside this interpreter (celery)."""
    return str(Path(sys.executable).parent / name)


def server_command(port: int, processes: int = 2) -> tuple[list[str], dict[str, str]]:
    """The command and environment additions that serve the application as `make run`
    does (``python -m config.serve``: uvicorn) on loopback ``port``."""
    env = {"PORT": str(port), "HOST": "127.0.0.1", "WEB_PROCESSES": str(processes)}
    return [venv_command("python"), "-m", "config.serve"], {**env, "ACCESS_LOG": "0"}


def worker_command(*extra: str) -> list[str]:
    """A Celery worker on both queues with a pool of two processes; ``extra``: more options."""
    return [
        *(venv_command("celery"), "-A", "config", "worker", "--concurrency=2"),
        *("--queues=interactive,background", "--loglevel=WARNING", *extra),
    ]


def postmaster_pid() -> int | None:
    """The pid of the embedded PostgreSQL's postmaster (its backends are its children), or
    None (not running, or ``BENCH_DATABASE_URL`` names another server)."""
    if os.environ.get("BENCH_DATABASE_URL"):
        return None
    try:
        return int((VAR / "postgres" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


MB = 1_000_000


class PeakRss:
    """Resident memory of process trees, sampled in a background thread while in a ``with``.

    ``roles`` maps a role ("web") to a function giving its tree's root pid, asked at each
    sample (a restarted process counts too). :meth:`sample` reads every process of a tree:
    its resident memory now (VmRSS) and its peak since it started (VmHWM, so nothing is
    missed between samples). A role's peak is the largest VmHWM of any of its processes;
    "all together" sums VmRSS over a tree at one sample (pages shared by several processes,
    PostgreSQL's shared buffers among them, count in each).
    """

    def __init__(self, roles: dict[str, Callable[[], int | None]], interval: float = 1.0) -> None:
        self.roles = roles
        self.interval = interval
        self.hwm: dict[str, dict[int, int]] = {role: {} for role in roles}  # pid -> bytes
        self.together = dict.fromkeys(roles, 0)  # the most all of a role's processes held at once
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> PeakRss:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.sample()
        self._done.set()
        self._thread.join()

    def __enter__(self) -> PeakRss:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._done.wait(self.interval):
            self.sample()

    def sample(self) -> dict[str, list[int]]:
        """Each role's processes' resident memory now (bytes), largest first."""
        import psutil

        now: dict[str, list[int]] = {role: [] for role in self.roles}
        with self._lock:
            for role, root in self.roles.items():
                pid = root()
                try:
                    children = [] if pid is None else psutil.Process(pid).children(recursive=True)
                except psutil.Error:
                    continue  # not running
                for process in [pid, *(child.pid for child in children)]:
                    try:
                        status = Path(f"/proc/{process}/status").read_text()
                    except OSError:
                        continue  # ended
                    vm = dict(x.split(":") for x in status.splitlines() if x.startswith("Vm"))
                    if "VmRSS" in vm:  # (not a zombie)
                        now[role].append(int(vm["VmRSS"].split()[0]) * 1024)
                        self.hwm[role][process] = int(vm["VmHWM"].split()[0]) * 1024
                self.together[role] = max(self.together[role], sum(now[role]))
                now[role].sort(reverse=True)
        return now

    def peak(self, role: str) -> int:
        return max(self.hwm[role].values(), default=0)

    def line(self, role: str, target_mb: float | None = None) -> str:
        """``peak RSS <role>: ...``, with PASS/FAIL against ``target_mb`` when given."""
        peak = self.peak(role)
        text = (
            f"peak RSS {role}: {peak / MB:.1f} MB (largest of {len(self.hwm[role])} processes; "
            f"all together at most {self.together[role] / MB:.1f} MB)"
        )
        if target_mb is None:
            return text + " (no target)"
        verdict = "PASS" if 0 < peak < target_mb * MB else "FAIL"
        return f"{text}: target < {target_mb:g} MB per process: {verdict}"
