"""What every test shares: tool caches under ``var/``, never in the repository's root."""

from pathlib import Path

import pytest
from django.db.backends.signals import connection_created
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
