"""Settings for the test suite: the production settings module with test defaults.

Tests run against PostgreSQL and Redis only: `make test` starts embedded servers (or uses
``TEST_DATABASE_URL`` / ``TEST_REDIS_URL``) and passes them as ``DATABASE_URL`` and
``REDIS_URL``.
"""

import os
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
    raise ImproperlyConfigured(
        "the tests need DATABASE_URL and REDIS_URL: run them with `make test`, or "
        "`make pytest ARGS='tests/api -x'` for a part of the suite"
    )
# The tests' broker is database 15 of the Redis they are given; with pytest-xdist each
# test process (gw0, gw1, ...) has its own database counting down from 15, so one
# process's live worker never takes another's tasks, nor its counters another's. Set, not
# defaulted: the workers inherit the environment of pytest's first process, which has
# loaded these settings (as gw0) before starting them.
_xdist_worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
if _xdist_worker > 14:
    raise ImproperlyConfigured("at most 15 test processes: Redis has 16 databases")
os.environ["CELERY_BROKER_URL"] = (
    urlsplit(os.environ["REDIS_URL"])._replace(path=f"/{15 - _xdist_worker}").geturl()
)
os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
# two chain keys: new matches use "t2"; "t1" stands for a key rotated out
os.environ.setdefault("EVENT_CHAIN_KEYS", f"t2:{'22' * 32},t1:{'11' * 32}")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from config.settings import *  # noqa: E402, F403 - after the environment above

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True  # a task that raises fails its test (it was only logged)
COM_TURNS_PER_MINUTE = 0  # (a bound tests of it set; tests play faster than anyone)
COM_SECONDS_PER_MINUTE = 0  # (likewise: matches/pacing.py)
COM_EVEN_TIMING_MS = 0  # (COMs move as soon as decided; the tests of it set it)
STATIC_ROOT = None  # served by the finders in tests; collectstatic is a deployment step
WHITENOISE_USE_FINDERS = True
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(
        (
            "anon",
            "refused",
            "user",
            "auth",
            "registrations",
            "actions",
            "creates",
            "lists",
            "hints",
            "history",
            "exports",
        ),
        "10000/min",
    )
    | {"exported_events": "10000000/min"},
}
PUSH_LISTENER_IDLE_SECONDS = 0  # every test's event loop is its own: close at once
# Every API response the suite receives is checked against the OpenAPI schema
# (tests/clients/conformance.py); the suite fails a test that received one that is not.
# Outermost, so that it sees the answers other middleware gives early (414, 431) too.
MIDDLEWARE = ["tests.clients.conformance.SchemaConformanceMiddleware", *MIDDLEWARE]  # noqa: F405
