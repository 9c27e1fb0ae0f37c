"""Settings for the test suite: the production settings module with test defaults.

Tests always run against PostgreSQL (``DATABASE_URL``, by default the local server).
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/golf")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
STATIC_ROOT = None  # served by the finders in tests; collectstatic is a deployment step
WHITENOISE_USE_FINDERS = True
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(("anon", "user", "auth", "actions"), "10000/min"),
}
