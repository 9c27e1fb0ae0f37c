"""Set up Django for a benchmark script against a PostgreSQL database of its own."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup(database: str = "golf_bench", eager: bool = True) -> str:
    """Configure Django for ``database`` (created if missing); returns its URL."""
    sys.path.insert(0, str(ROOT))
    url = os.environ.get("BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{database}")
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        DATABASE_URL=url,
        CELERY_TASK_ALWAYS_EAGER="1" if eager else "0",
        LOG_LEVEL="WARNING",
    )
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return url


def service_env(**extra: str) -> dict[str, str]:
    """The environment for a server or worker process the benchmark starts: production
    settings (DEBUG off) on the benchmark's database, plus ``extra``."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-" + "k" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def venv_command(name: str) -> str:
    """A console script installed beside this interpreter (gunicorn, celery)."""
    return str(Path(sys.executable).parent / name)
