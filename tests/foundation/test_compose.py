"""docker-compose.yml describes the production-like stack (no Docker engine runs here)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_stack_has_its_services(compose):
    assert {"db", "redis", "web", "worker", "beat"} <= set(compose["services"])


def test_backing_services_have_health_checks(compose):
    for name in ("db", "redis", "web", "worker", "worker-background"):
        assert compose["services"][name]["healthcheck"]["test"], name


APP_SERVICES = ["migrate", "web", "worker", "worker-background", "beat"]


@pytest.mark.parametrize("name", APP_SERVICES)
def test_app_services_are_wired_to_db_and_redis(compose, name):
    service = compose["services"][name]
    env = service["environment"]
    assert "@db:5432/" in env["DATABASE_URL"]
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
    assert env["CACHE_URL"].startswith("redis://redis:6379/")  # throttles shared by web processes
    assert env["DEBUG"] == "0"
    assert service["depends_on"]["db"]["condition"] == "service_healthy"
    assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    assert service["build"] == "."
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")  # required, never a default
    if name != "migrate":  # the schema is in place before anything uses it
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_commands_start_the_right_processes(compose, settings):
    services = compose["services"]
    assert services["web"]["command"] == ["python", "-m", "config.serve"]
    assert services["web"]["environment"]["HOST"] == "0.0.0.0"  # reachable from outside
    assert services["migrate"]["command"][:3] == ["python", "manage.py", "migrate"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert services["web"]["ports"] == ["8000:8000"]
    # every queue the service publishes to is consumed, each by a worker named for it
    consumed = {}
    for name in ("worker", "worker-background"):
        command = services[name]["command"]
        assert command[:4] == ["celery", "-A", "config", "worker"], name
        options = dict(word.split("=", 1) for word in command[4:] if "=" in word)
        queue = options["--queues"]
        consumed[queue] = name
        assert options["--hostname"] == f"{queue}@%h", name
        assert f"-d {queue}@$$HOSTNAME" in services[name]["healthcheck"]["test"][-1], name
    assert set(consumed) == {settings.INTERACTIVE_QUEUE, settings.BACKGROUND_QUEUE}


def test_the_stack_runs_behind_a_tls_proxy_and_its_secrets_stay_out_of_the_image(compose):
    env = compose["x-app"]["environment"]
    # the settings a proxy in front needs reach the containers (.env alone does not)
    for name in ("BEHIND_TLS_PROXY", "NUM_PROXIES", "CSRF_TRUSTED_ORIGINS", "SECURE_SSL_REDIRECT"):
        assert env[name].startswith(f"${{{name}:-"), name
    # web's health check asks for 127.0.0.1 whatever host names are set
    assert env["ALLOWED_HOSTS"].endswith(",127.0.0.1")
    assert compose["services"]["web"]["healthcheck"]["test"][-1].count("127.0.0.1:8000")
    # any password: it goes on its own, not into a URL
    assert "POSTGRES_PASSWORD" not in env["DATABASE_URL"]
    assert env["DATABASE_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    # the database is ready when it answers over TCP, as migrate connects
    assert "-h 127.0.0.1" in compose["services"]["db"]["healthcheck"]["test"][-1]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and ".env.*" in ignored


def test_the_image_build_collects_static_files_without_any_server(tmp_path):
    """The Dockerfile's collectstatic step runs as written, with no database or broker."""
    import re
    import shlex
    import subprocess
    import sys

    dockerfile = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    run = next(line for line in dockerfile.splitlines() if line.startswith("RUN mkdir"))
    step = next(part for part in run.split("&&") if "collectstatic" in part)
    words = shlex.split(step)
    assignments = dict(w.split("=", 1) for w in words if re.fullmatch(r"[A-Z_]+=\S*", w))
    command = [w for w in words if w not in {f"{k}={v}" for k, v in assignments.items()}]
    assert command[:2] == ["python", "manage.py"], command
    env = {"PATH": "/usr/bin:/bin", **assignments, "GOLF_VAR_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, *command[1 : command.index("--noinput") + 1]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "static" / "admin").is_dir()
