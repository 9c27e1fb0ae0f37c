"""Liveness and readiness probes for load balancers and orchestrators."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2.0


def check_database() -> str | None:
    """Return ``None`` when the default database answers, else a short reason."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not ready", never a crash
        logger.warning("readiness: database unreachable: %s", type(exc).__name__)
        return f"database unreachable ({type(exc).__name__})"
    return None


def check_broker() -> str | None:
    """Return ``None`` when the Celery broker accepts a connection, else a short reason."""
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            transport_options=getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}),
            connect_timeout=BROKER_TIMEOUT_SECONDS,
        ) as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_SECONDS)
    except Exception as exc:
        logger.warning("readiness: broker unreachable: %s", type(exc).__name__)
        return f"broker unreachable ({type(exc).__name__})"
    return None


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process is up and serving requests. Touches no backing service."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: the database and the broker are reachable.

    Answers 200 with ``{"status": "ready", ...}`` or 503 with the failing checks.
    The reason names the kind of failure only, never a URL or credential.
    """
    checks = {"database": check_database(), "broker": check_broker()}
    body = {
        "status": "ready" if not any(checks.values()) else "not_ready",
        "checks": {name: ("ok" if err is None else err) for name, err in checks.items()},
    }
    return JsonResponse(body, status=200 if body["status"] == "ready" else 503)
