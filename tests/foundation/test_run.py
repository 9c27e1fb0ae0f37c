"""`make run`'s script starts the API and a worker on embedded defaults, and stops cleanly."""

from __future__ import annotations

import json
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


def fetch(url: str, body: dict | None = None, token: str | None = None) -> tuple[int, str]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def play_a_turn_against_a_com(base: str) -> None:
    """Register, create a match against a COM, flip twice, and see the COM move: the
    SQLite store and the filesystem broker's worker at work."""
    status, body = fetch(
        base + "/api/accounts/register", {"username": "runner", "password": "correct-horse-9"}
    )
    assert status == 201, body
    token = json.loads(body)["token"]
    status, body = fetch(
        base + "/api/matches", {"holes": 1, "seats": [{"type": "me"}, {"type": "com"}]}, token
    )
    assert status == 201, body
    match_id = json.loads(body)["id"]
    for position in (0, 1):
        status, body = fetch(
            f"{base}/api/matches/{match_id}/actions",
            {"type": "reveal", "position": position},
            token,
        )
        assert status in (200, 412), body
    deadline = time.monotonic() + 30
    while True:  # the COM makes its flips on the worker
        status, body = fetch(f"{base}/api/matches/{match_id}/events?after=0&limit=500", None, token)
        actors = [e["actor"] for e in json.loads(body)["events"]]
        if actors.count("com:normal") >= 2:
            break
        assert time.monotonic() < deadline, actors
        time.sleep(0.3)


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
        play_a_turn_against_a_com(base)
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
