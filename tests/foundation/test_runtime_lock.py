"""The image installs requirements.runtime.lock: the service's part of requirements.lock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Loads the service as its processes do (settings, every app and admin, the URLs and so
# every view, the OpenAPI schema, the ASGI application and its server, the Celery app and
# its tasks) with an import of any installed distribution not in the runtime lock refused.
GUARDED = """
import importlib.abc, importlib.metadata, os, sys
from packaging.utils import canonicalize_name

allowed = set(sys.argv[1].split(","))
owners = importlib.metadata.packages_distributions()

class RuntimeOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        dists = owners.get(name.split(".")[0], [])
        if dists and not any(canonicalize_name(d) in allowed for d in dists):
            raise ImportError(f"{name} ({', '.join(dists)}) is not in requirements.runtime.lock")
        return None

if sys.argv[2] == "service":
    import packaging.utils  # (this check's own, before the guard)
    sys.meta_path.insert(0, RuntimeOnly())
    import django
    django.setup()
    import config.asgi, config.serve, config.urls, config.wsgi
    from config.celery import app
    app.loader.import_default_modules()
    from drf_spectacular.generators import SchemaGenerator
    SchemaGenerator().get_schema(request=None, public=True)
    print("loaded", len(app.tasks), "tasks")
else:
    sys.meta_path.insert(0, RuntimeOnly())
    import pytest
"""

ENV = {
    "PATH": "/usr/bin:/bin",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DEBUG": "0",
    "SECRET_KEY": "k" * 50,
    "ALLOWED_HOSTS": "golf.example",
    "EVENT_CHAIN_KEYS": "k1:" + "ab" * 32,
    "DATABASE_URL": "postgres://build@localhost/none",  # (nothing connects)
    "CELERY_BROKER_URL": "redis://localhost",
}


def runtime_names() -> list[str]:
    lock = (ROOT / "requirements.runtime.lock").read_text()
    return [line.split("==")[0] for line in lock.splitlines() if "==" in line]


def load(what: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", GUARDED, ",".join(runtime_names()), what],
        cwd=ROOT,
        env={**ENV, "GOLF_VAR_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_runtime_lock_is_current():
    result = subprocess.run(
        [sys.executable, "scripts/runtime_lock.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_the_service_loads_from_the_runtime_lock_alone(tmp_path):
    loaded = load("service", tmp_path)
    assert loaded.returncode == 0, loaded.stderr[-3000:]
    assert "loaded" in loaded.stdout
    refused = load("a test tool", tmp_path)  # the guard refuses what is not in it
    assert refused.returncode == 1 and "pytest" in refused.stderr
    assert "is not in requirements.runtime.lock" in refused.stderr


def test_the_image_installs_the_runtime_lock():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes -r requirements.runtime.lock" in dockerfile
    assert "requirements.lock" not in dockerfile.replace("requirements.runtime.lock", "")
