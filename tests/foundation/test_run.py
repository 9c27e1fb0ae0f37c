"""`make run`'s script starts the API and a worker on embedded defaults, and stops cleanly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@pytest.mark.slow
def test_run_serves_health_and_docs_without_external_servers(tmp_path):
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE", "DEBUG"}
    }
    env.update(PORT=str(port), GOLF_VAR_DIR=str(tmp_path))
    proc = subprocess.Popen(
        [str(ROOT / "scripts" / "run")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, proc.stdout.read()
            try:
                status, body = fetch(base + "/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "no answer on /healthz within 90 s"
            time.sleep(0.5)

        status, body = fetch(base + "/api/docs/")
        assert status == 200
        assert "swagger-ui" in body.lower()
        status, schema = fetch(base + "/api/schema/")
        assert status == 200 and "openapi" in schema
        status, body = fetch(base + "/readyz")
        assert status == 200, body
        assert (tmp_path / "db.sqlite3").exists()
    finally:
        # Ctrl-C reaches the whole foreground process group.
        os.killpg(proc.pid, signal.SIGINT)
        try:
            output, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    assert "Stopping" in output
    # nothing of the group is left running once the worker's children have exited too
    deadline = time.monotonic() + 20
    while True:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "processes of make run outlived Ctrl-C"
        time.sleep(0.2)
