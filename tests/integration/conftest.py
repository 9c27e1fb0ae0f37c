"""A real Celery worker on the Redis broker, against the test database."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app, set_eager

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Worker:
    """A ``celery worker`` process; ``kill()`` ends it abruptly, ``start()`` starts anew."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.log = ROOT / "var" / f"test-worker-{os.environ.get('PYTEST_XDIST_WORKER', 'gw0')}.log"
        self.log.parent.mkdir(exist_ok=True)

    def start(self) -> None:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": "test-worker-" + "k" * 40,
            "ALLOWED_HOSTS": "localhost",
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "COM_MOVE_DELAY_MS": "0",
            "COM_TURNS_PER_MINUTE": "0",
            "COM_SECONDS_PER_MINUTE": "0",
            "LOG_LEVEL": "INFO",
        }
        celery = str(Path(sys.executable).parent / "celery")
        self.process = subprocess.Popen(
            [
                celery,
                "-A",
                "config",
                "worker",
                "--pool=prefork",
                "--queues=interactive,background",
                "--concurrency=2",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"test-{time.time_ns()}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            if app.control.ping(timeout=0.5):
                return
        raise AssertionError("the Celery worker did not come up within 60 s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def purge_queues() -> None:
    with app.connection_for_write() as conn:
        for queue in (settings.INTERACTIVE_QUEUE, settings.BACKGROUND_QUEUE):
            conn.default_channel.queue_purge(queue)


@pytest.fixture
def live_worker(transactional_db):
    """Tasks go through Redis to a separate worker process (not eager) for this test.

    One live worker at a time across the suite's processes (a file lock): two of them at
    once, each on its own broker database, were seen to leave COM turns unplayed."""
    lock = ROOT / "var" / "live-worker.lock"
    lock.parent.mkdir(exist_ok=True)
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        set_eager(False)
        purge_queues()
        worker = Worker()
        worker.start()
        try:
            yield worker
        finally:
            worker.stop()
            purge_queues()
            set_eager(True)


def wait_until(predicate, timeout: float = 120, interval: float = 0.2, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def alice_user(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def alice(alice_user):
    from tests.api.conftest import client_for

    return client_for(alice_user)
