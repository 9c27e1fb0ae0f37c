from tests.integration.conftest import live_worker  # noqa: F401 - a real Celery worker

# play.py runs on a generated package, in its own process (test_generated_clients.py)
collect_ignore = ["play.py"]
