"""What every test shares: tool caches under ``var/``, never in the repository's root."""

from pathlib import Path

from django.db.backends.signals import connection_created
from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(Path(__file__).resolve().parent.parent / "var" / "cache" / "hypothesis")


def _allow_flushing_the_event_log(sender, connection, **kwargs):
    """The suite empties its database between tests (TRUNCATE); the event log refuses
    TRUNCATE unless the session says it means it."""
    with connection.cursor() as cursor:
        cursor.execute("SET golf.allow_truncate = 'on'")


connection_created.connect(_allow_flushing_the_event_log)
