"""The web client's tests share the real Celery worker of the integration tests."""

from tests.integration.conftest import live_worker

__all__ = ["live_worker"]
