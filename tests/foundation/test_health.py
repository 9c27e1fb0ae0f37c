"""The app boots against PostgreSQL and its probes report what is and is not reachable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def run_app(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with the app set up under ``env``."""
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    prelude = "import django; django.setup()\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.django_db
def test_app_runs_on_postgresql(client):
    # given the test database, when the app answers queries, then it is PostgreSQL
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


def test_healthz_is_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_reports_ready_when_database_and_broker_answer(client):
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json() == {"status": "ready", "checks": {"database": "ok", "broker": "ok"}}


def test_readyz_reports_a_broken_database_url_as_not_ready():
    # given an app configured with a database nobody listens on
    result = run_app(
        "from django.test import Client\n"
        "r = Client().get('/readyz')\n"
        "print(r.status_code)\n"
        "print(r.content.decode())\n",
        DATABASE_URL="postgres://postgres:secret-pw@127.0.0.1:1/nowhere",
        DB_CONNECT_TIMEOUT="2",
    )
    # then the probe answers 503 naming the database, without leaking the URL
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.strip().splitlines()[-2:]
    assert status == "503"
    payload = json.loads(body)
    assert payload["status"] == "not_ready"
    assert payload["checks"]["database"].startswith("database unreachable")
    assert payload["checks"]["broker"] == "ok"
    assert "secret-pw" not in result.stdout + result.stderr


def test_readyz_reports_a_broken_broker_as_not_ready():
    result = run_app(
        "from django.test import Client\n"
        "r = Client().get('/readyz')\n"
        "print(r.status_code)\n"
        "print(r.content.decode())\n",
        CELERY_BROKER_URL="redis://127.0.0.1:1/0",
    )
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.strip().splitlines()[-2:]
    assert status == "503"
    assert json.loads(body)["checks"]["broker"].startswith("broker unreachable")
