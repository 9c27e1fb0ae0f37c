"""What every test shares: tool caches under ``var/``, never in the repository's root."""

import threading
import time
from pathlib import Path

import pytest
from django.db.backends.signals import connection_created
from django.test import override_settings
from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(Path(__file__).resolve().parent.parent / "var" / "cache" / "hypothesis")


def _allow_flushing_the_event_log(sender, connection, **kwargs):
    """The suite empties its database between tests (TRUNCATE); the event log refuses
    TRUNCATE unless the session says it means it."""
    with connection.cursor() as cursor:
        cursor.execute("SET golf.allow_truncate = 'on'")


connection_created.connect(_allow_flushing_the_event_log)


@pytest.fixture(autouse=True)
def _responses_conform_to_the_schema():
    """Every API response a test receives is valid against the OpenAPI schema, strictly
    (tests/clients/conformance.py): a field, status or shape the schema does not declare
    fails the test that received it."""
    from tests.clients.conformance import FAULTS, TEST

    TEST[0] += 1
    FAULTS.clear()
    yield
    faults, FAULTS[:] = list(FAULTS), []
    assert not faults, "responses that do not conform to the OpenAPI schema:\n" + "\n".join(
        faults[:10]
    )


def _live_server_requests() -> list[str]:
    """The live server's requests still being answered (its threads are named so)."""
    return [t.name for t in threading.enumerate() if t.name.endswith("(process_request_thread)")]


@pytest.fixture(autouse=True)
def _live_server_requests_end_with_their_test(request):
    """A test served by the live server leaves no request running behind it. The live
    server is a WSGI one, so an event stream whose client has gone is found out only at its
    next keep-alive line: here a second apart, and the test waits for them to end. A stream
    left running would hold its database connections (a pooled one and its LISTEN) past the
    test, until the suite fails to drop its database."""
    if "live_server" not in request.fixturenames:
        yield
        return
    with override_settings(PUSH_HEARTBEAT_SECONDS=1):
        yield
        deadline = time.monotonic() + 15
        while (running := _live_server_requests()) and time.monotonic() < deadline:
            time.sleep(0.1)
    assert not running, f"live server requests still running after the test: {running}"
