"""The embedded PostgreSQL and Redis that `make run` and `make test` start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import redis

from scripts import embedded

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("REDIS_URL", "")  # the suite's own (scripts/embedded.py exec)


@pytest.mark.slow
def test_two_folders_run_side_by_side_on_their_own_ports_and_stop(tmp_path):
    """Two checkouts on one machine: two clusters and two Redis servers, no collision."""
    with (
        embedded.servers(tmp_path / "a", fast=True) as (db_a, redis_a),
        embedded.servers(tmp_path / "b", fast=True) as (db_b, redis_b),
    ):
        assert len({db_a, db_b}) == 2 and len({redis_a, redis_b}) == 2
        for url, name in ((db_a, "a"), (db_b, "b")):
            with psycopg.connect(url) as conn:
                conn.execute("CREATE TABLE mark (name text)")
                conn.execute("INSERT INTO mark VALUES (%s)", (name,))
        for url, name in ((redis_a, "a"), (redis_b, "b")):
            redis.Redis.from_url(url).set("mark", name)
        with psycopg.connect(db_a) as conn:
            assert conn.execute("SELECT name FROM mark").fetchall() == [("a",)]
        assert redis.Redis.from_url(redis_b).get("mark") == b"b"
    for folder in ("a", "b"):
        assert embedded.Postgres(tmp_path / folder / "postgres").port() is None
        assert embedded.Redis(tmp_path / folder / "redis").port() is None


@pytest.mark.slow
def test_a_restart_keeps_the_data_and_a_running_server_is_reused(tmp_path):
    postgres = embedded.Postgres(tmp_path / "postgres")
    url = postgres.start()
    try:
        assert postgres.start() == url  # found running: the same server, not a second one
        with psycopg.connect(url) as conn:
            conn.execute("CREATE TABLE kept (n int)")
            conn.execute("INSERT INTO kept VALUES (7)")
        if postgres.user:  # (run as root, the server runs as another user) a folder above
            tmp_path.chmod(0o700)  # it made private meanwhile, as a run of pytest does
        postgres.stop()
        assert postgres.port() is None
        with psycopg.connect(postgres.start()) as conn:
            assert conn.execute("SELECT n FROM kept").fetchall() == [(7,)]
    finally:
        postgres.stop()


def test_a_folder_in_use_is_refused_with_a_clear_message(tmp_path):
    with (
        embedded.folder_lock(tmp_path, "run of the tests"),
        pytest.raises(embedded.EmbeddedError, match="another run of the tests is using"),
        embedded.folder_lock(tmp_path, "run of the tests"),
    ):
        pass


def test_a_given_server_that_does_not_answer_fails_loudly(tmp_path):
    result = subprocess.run(
        [sys.executable, "scripts/embedded.py", "exec", "--dir", str(tmp_path), "--", "true"],
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "TEST_DATABASE_URL": "postgres://postgres:secret-pw@127.0.0.1:1/golf",
            "TEST_REDIS_URL": "redis://127.0.0.1:1",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "PostgreSQL at 127.0.0.1 is unreachable" in result.stderr
    assert "secret-pw" not in result.stderr
    assert not (tmp_path / "postgres").exists()  # nothing was started instead


def test_a_given_databases_password_may_come_on_its_own(tmp_path, monkeypatch):
    """`make run` with DATABASE_URL and DATABASE_PASSWORD (as the settings take them)
    checked the server without the password, and stopped as if it were unreachable."""
    asked = []

    class Answering:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def execute(self, sql):
            return None

    def connect(url, **options):
        asked.append((url, options.get("password")))
        return Answering()

    monkeypatch.setattr(psycopg, "connect", connect)
    monkeypatch.setenv("DATABASE_PASSWORD", "pw with / + # in it")
    given = "postgres://golf@db.example:5432/golf"
    with embedded.servers(tmp_path, database_url=given, redis_url=REDIS_URL) as (url, _):
        assert url == given
    assert asked == [(given, "pw with / + # in it")]
    assert not (tmp_path / "postgres").exists()  # nothing was started instead


def test_the_preferred_port_depends_on_the_folder_and_moves_on_when_taken(tmp_path):
    first = embedded.choose_port(tmp_path / "one", "postgres")
    assert embedded.choose_port(tmp_path / "one", "postgres") == first
    ports = {embedded.choose_port(tmp_path / name, "postgres") for name in "abcdefgh"}
    assert len(ports) > 1
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", first))
        taken.listen()
        assert embedded.choose_port(tmp_path / "one", "postgres") != first
