"""Waking long-polling readers when a match gets new events.

A trigger on ``golf_match`` publishes ``<match id>:<version>`` on the PostgreSQL channel
``golf_match_events`` whenever a match's version changes (migration 0004); notifications
are transactional, so it is delivered exactly when the events are committed.

A reader waiting for events past a version LISTENs on that channel on a connection of
its own and returns as soon as a notification for its match arrives, or when its time
is up.
"""

from __future__ import annotations

import time

import psycopg
from django.db import OperationalError, connection

from golf.models import Match

CHANNEL = "golf_match_events"


def _version(match_id: object) -> int:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0


def wait_for_version(match_id: object, after: int, timeout: float) -> int:
    """Block until the match's version exceeds ``after`` or ``timeout`` seconds pass.

    Returns the match's version at that moment.
    """
    deadline = time.monotonic() + timeout
    try:
        return _listen_for_version(match_id, after, deadline)
    except psycopg.OperationalError as exc:  # the listener's own connection, outside Django's
        raise OperationalError(str(exc)) from exc


def _listen_for_version(match_id: object, after: int, deadline: float) -> int:
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        # a write may have committed before LISTEN took effect: look once after it
        version = _version(match_id)
        prefix = f"{match_id}:"
        while version <= after:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            for note in listener.notifies(timeout=remaining, stop_after=1):
                if note.payload.startswith(prefix):
                    version = max(version, int(note.payload[len(prefix) :]))
            if version <= after and time.monotonic() >= deadline:
                break
        return version
