"""The web server's worker processes, as config.serve runs them: a worker kept off the CPU
for longer than uvicorn's default health check (5 s), as a loaded machine may, is not
killed by the supervisor (which would drop every connection it holds)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from django.core.exceptions import ImproperlyConfigured

from config import serve
from tests.foundation.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
PAUSE = 7.0  # seconds a worker is stopped: past uvicorn's default 5


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(os.getpid()).encode()})


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and b"spawn_main" in (entry / "cmdline").read_bytes():
                found.add(int(entry.name))
    return found


def _answering_worker(port: int, timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                return int(answer.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_worker_off_the_cpu_longer_than_uvicorns_default_check_is_kept(tmp_path):
    port = free_port()
    env = {**os.environ, "PORT": str(port), "WEB_PROCESSES": "2", "ACCESS_LOG": "0"}
    env.pop("WORKER_HEALTHCHECK_SECONDS", None)
    log = (tmp_path / "serve.log").open("w+")
    server = subprocess.Popen(
        [sys.executable, "-c", f"from config.serve import main; main({__name__ + ':app'!r})"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        worker = _answering_worker(port)
        assert worker in _children(server.pid)
        os.kill(worker, signal.SIGSTOP)
        time.sleep(PAUSE)
        os.kill(worker, signal.SIGCONT)
        time.sleep(2)  # the supervisor checks every 0.5 s
        assert _children(server.pid) >= {worker}
        _answering_worker(port)
        log.seek(0)
        assert "died" not in log.read()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def test_a_health_check_under_a_second_is_refused(monkeypatch):
    """0 made the supervisor replace every worker twice a second."""
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: pytest.fail("served"))
    for bad in ("0", "-1"):
        monkeypatch.setenv("WORKER_HEALTHCHECK_SECONDS", bad)
        with pytest.raises(ImproperlyConfigured, match="WORKER_HEALTHCHECK_SECONDS"):
            serve.main(f"{__name__}:app")
