"""Settings come from the environment, with safe production defaults and clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 50,
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/golf",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "ALLOWED_HOSTS": "golf.example",
}


def load_settings(env: dict[str, str], expr: str = "settings.DEBUG"):
    base = {k: v for k, v in os.environ.items() if k not in PRODUCTION}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django; from django.conf import settings; django.setup(); print({expr})",
        ],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_load_when_everything_is_set():
    result = load_settings(PRODUCTION, "settings.DEBUG, settings.ALLOWED_HOSTS")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False ['golf.example']"


@pytest.mark.parametrize(
    "missing", ["SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "CELERY_BROKER_URL"]
)
def test_production_refuses_to_start_without_a_required_setting(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = load_settings(env)
    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr


@pytest.mark.parametrize("missing", ["DATABASE_URL", "CELERY_BROKER_URL"])
def test_debug_mode_needs_the_servers_too_and_says_where_they_come_from(missing):
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = load_settings({**env, "DEBUG": "1"})
    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr
    assert "`make run` starts an embedded server" in result.stderr


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DATABASE_URL", "sqlite:///var/db.sqlite3", "DATABASE_URL must be a postgres:// URL"),
        ("CELERY_BROKER_URL", "filesystem://", "CELERY_BROKER_URL must be a redis:// URL"),
        ("CELERY_BROKER_URL", "amqp://guest@localhost//", "CELERY_BROKER_URL must be a redis://"),
    ],
)
def test_one_database_engine_and_one_broker_kind(name, value, message):
    result = load_settings({**PRODUCTION, name: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_a_malformed_boolean_is_a_clear_error():
    result = load_settings({**PRODUCTION, "DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_the_older_unkeyed_matches_are_match_ids():
    listed = "0A2F7541-8441-45FE-9D09-F752676DBF2A, 00000000-0000-0000-0000-000000000001"
    result = load_settings(
        {**PRODUCTION, "EVENT_CHAIN_UNKEYED_MATCHES": listed},
        "sorted(settings.EVENT_CHAIN_UNKEYED_MATCHES)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(
        ["00000000-0000-0000-0000-000000000001", "0a2f7541-8441-45fe-9d09-f752676dbf2a"]
    )
    result = load_settings({**PRODUCTION, "EVENT_CHAIN_UNKEYED_MATCHES": "m1,m2"})
    assert result.returncode != 0
    assert "EVENT_CHAIN_UNKEYED_MATCHES must be match ids (UUIDs)" in result.stderr


def test_the_database_password_may_come_on_its_own():
    env = {**PRODUCTION, "DATABASE_PASSWORD": "a/b+c=#d"}
    result = load_settings(env, "settings.DATABASES['default']['PASSWORD']")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "a/b+c=#d"


HSTS_OF = (
    "[__import__('django.test', fromlist=['Client']).Client(HTTP_HOST='golf.example')"
    ".get('/', headers={'X-Forwarded-Proto': proto}).headers.get('Strict-Transport-Security')"
    " for proto in ('https', 'http')]"
)


def test_behind_a_tls_proxy_responses_over_tls_carry_hsts():
    result = load_settings({**PRODUCTION, "BEHIND_TLS_PROXY": "1"}, HSTS_OF)
    assert result.returncode == 0, result.stderr
    # over TLS a year, subdomains not bound; over plain HTTP (the proxy's own) none
    assert result.stdout.strip() == "['max-age=31536000', None]"


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, "[None, None]"), ({"BEHIND_TLS_PROXY": "1", "SECURE_HSTS_SECONDS": "0"}, "[None, None]")],
)
def test_without_a_tls_proxy_or_with_hsts_off_there_is_none(env, expected):
    # without the proxy, X-Forwarded-Proto is anyone's to write: it makes no request secure
    result = load_settings({**PRODUCTION, **env}, HSTS_OF)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


def test_each_test_process_has_a_broker_database_of_its_own():
    """pytest-xdist's workers inherit the environment of pytest's first process, which
    has loaded the test settings as gw0: the broker is still the worker's own."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings; print(settings.CELERY_BROKER_URL)",
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.test_settings",
            "REDIS_URL": "redis://127.0.0.1:6390/0",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6390/15",  # as gw0 set it
            "PYTEST_XDIST_WORKER": "gw3",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "redis://127.0.0.1:6390/12"


def test_with_the_redirect_to_https_the_probes_still_answer_over_http():
    statuses = (
        "[__import__('django.test', fromlist=['Client']).Client(HTTP_HOST='golf.example')"
        ".get(path).status_code for path in ('/healthz', '/')]"
    )
    result = load_settings({**PRODUCTION, "SECURE_SSL_REDIRECT": "1"}, statuses)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[200, 301]"  # the health check, then the page


def test_every_setting_read_from_the_environment_is_in_the_readmes_table():
    """The README's configuration table names every variable the settings and the server
    read (seven were missing from it)."""
    import re

    source = "".join((ROOT / "config" / name).read_text() for name in ("settings.py", "serve.py"))
    read = set(re.findall(r'(?:env_\w+|require|environ\.get)\(\s*"([A-Z][A-Z0-9_]+)"', source))
    read |= set(re.findall(r'environ\["([A-Z][A-Z0-9_]+)"\]', source))
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration") : readme.index("## Deployment")]
    assert len(read) > 40  # (the patterns still find them)
    assert sorted(name for name in read if f"`{name}`" not in table) == []


@pytest.mark.parametrize(("value", "loads"), [("15", True), ("16", False), ("0", False)])
def test_the_streams_keep_alive_is_one_the_web_client_waits_for(value, loads):
    """The web client takes a stream that sent nothing for 30 s as lost: a keep-alive
    every 30 s or more cut every quiet stream."""
    result = load_settings({**PRODUCTION, "PUSH_HEARTBEAT_SECONDS": value})
    assert (result.returncode == 0) == loads, result.stderr
    if not loads:
        assert f"PUSH_HEARTBEAT_SECONDS must be 1 to 15, got {value}" in result.stderr
