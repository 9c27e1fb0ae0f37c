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


@pytest.mark.django_db(transaction=True)
def test_a_committed_write_succeeds_while_the_broker_is_down():
    """Creating a match that hands the turn to a COM answers 201 with no broker: the
    COM's turn waits in the outbox (the sweeper publishes it when the broker is back)."""
    db = connection.settings_dict
    result = run_app(
        "from django.contrib.auth import get_user_model\n"
        "from rest_framework.test import APIClient\n"
        "from matches.models import FollowUp\n"
        "user = get_user_model().objects.create_user('broker-down')\n"
        "client = APIClient()\n"
        "client.force_authenticate(user)\n"
        "seats = [{'type': 'me'}, {'type': 'com', 'level': 'normal'}]\n"
        "r = client.post('/api/matches', {'seats': seats}, format='json')\n"
        "print(r.status_code)\n"
        "print(FollowUp.objects.filter(match_id=r.json()['id']).count())\n",
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        CELERY_BROKER_URL="redis://127.0.0.1:1/0",
        CELERY_TASK_ALWAYS_EAGER="0",
        DEBUG="0",
        SECRET_KEY="k" * 50,
        ALLOWED_HOSTS="testserver",
    )
    assert result.returncode == 0, result.stderr
    status, followups = result.stdout.strip().splitlines()[-2:]
    assert (status, followups) == ("201", "1")
    assert "could not publish com" in result.stderr


def test_the_admin_login_answers_503_when_the_database_is_down():
    result = run_app(
        "from django.test import Client\n"
        "r = Client(raise_request_exception=False).post(\n"
        "    '/admin/login/', {'username': 'sam', 'password': 'x'})\n"
        "print(r.status_code, r['Content-Type'], r.get('Retry-After'))\n",
        DATABASE_URL="postgres://postgres@127.0.0.1:1/nowhere",
        DB_CONNECT_TIMEOUT="2",
        DEBUG="0",
        SECRET_KEY="k" * 50,
        ALLOWED_HOSTS="testserver",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "503 application/problem+json 2"
