"""A worker outlives a restart of its broker (Redis)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scripts import embedded

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"
LATER = (  # a turn timer due in two minutes: the worker holds it, unacknowledged, meanwhile
    "import django\n"
    "django.setup()\n"
    "from matches.tasks import turn_timer\n"
    "turn_timer.apply_async(\n"
    "    args=['00000000-0000-4000-8000-000000000000', 1], countdown=120, queue='interactive'\n"
    ")\n"
)


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} in {seconds:.0f} s"
        time.sleep(0.2)


@pytest.mark.slow
def test_a_worker_outlives_a_restart_of_its_broker_holding_tasks_for_later(tmp_path):
    """Celery 5.7.0's worker exited when its Redis restarted while it held a task due later
    (a turn timer, a COM's move kept for even timing): "Unrecoverable error: AttributeError
    ('NoneType' object has no attribute 'hostname')". Under `make run` the whole service
    stopped with it; in compose no COM moved and no timer fired until it was restarted."""
    server = embedded.Redis(tmp_path / "redis", fast=True)
    url = server.start()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",  # (the tests' run tasks at once)
        "CELERY_BROKER_URL": f"{url}/0",
        "CACHE_URL": f"{url}/1",
    }
    log = tmp_path / "worker.log"
    worker = subprocess.Popen(
        [str(CELERY), "-A", "config", "worker", "--concurrency=1", "--without-gossip",
         "--without-mingle", "--queues=interactive", f"--logfile={log}", "--loglevel=INFO"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: log.exists() and " ready." in log.read_text(), 60, "worker ready")
        subprocess.run(
            [sys.executable, "-c", "import config.celery\n" + LATER], cwd=ROOT, env=env, check=True
        )
        wait_for(lambda: "turn_timer" in log.read_text(), 30, "task received")
        os.kill(server._pid(), signal.SIGKILL)  # Redis dies
        lost = lambda: "Cannot connect" in log.read_text() or worker.poll() is not None  # noqa: E731
        wait_for(lost, 30, "lost connection")
        assert worker.poll() is None, log.read_text()[-2000:]  # (5.7.0 exited here)
        assert server.start() == url  # and comes back on its port
        wait_for(lambda: log.read_text().count("Connected to") >= 2, 60, "reconnection")
        time.sleep(2)
        assert worker.poll() is None, log.read_text()[-2000:]
        assert "Unrecoverable error" not in log.read_text()
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(30)
        server.stop()
