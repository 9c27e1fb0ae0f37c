"""Schema fuzzing: schemathesis drives every operation of the live OpenAPI schema.

The schema is the one the running application serves (``/api/schema/``); requests go
through the WSGI application as a participant of a real match of each game (alice,
seat 0 of a Golf match with two humans, of a Hearts match with two humans and two COMs,
and of a Ninety-Nine match with two humans and a COM), with the path's ``match_id``
pointed at that match so the fuzzer reaches past the 404. Every response must be a
non-5xx that conforms to the schema: its status code, content type, headers and body
are documented, and data the schema forbids is refused with a 4xx.

``make test`` runs a few examples per operation (``GOLF_FUZZ_EXAMPLES``, default 15) drawn
the same way every run; ``make fuzz`` runs many more, drawn afresh (``GOLF_FUZZ_RANDOM=1``).
"""

from __future__ import annotations

import os
import uuid

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

import api.views
from config.wsgi import application
from games import all_games
from matches import services

EXAMPLES = int(os.environ.get("GOLF_FUZZ_EXAMPLES", "15"))
DETERMINISTIC = os.environ.get("GOLF_FUZZ_RANDOM", "") != "1"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


# Loaded at collection time, from the application itself, so each operation is a test.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
schema.config.generation.update(max_examples=EXAMPLES, deterministic=DETERMINISTIC, database="none")
# A URL or headers over the service's limits are refused before anything reads them:
# 414 and 431 reject invalid data as surely as a 400 does.
rejection = schema.config.checks.negative_data_rejection
rejection.expected_statuses = [*rejection.expected_statuses, "414", "431"]


@pytest.fixture
def wsgi_calls(db, monkeypatch, settings):
    """Let requests through the WSGI handler run inside the test's transaction."""
    # The handler closes the database connection after every request; the test's
    # transaction lives on that connection, so keep it open.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    # Long-polls go through the real wait, but briefly.
    real_wait = api.views.wait_for_version

    def brief_wait(match_id, after, timeout):
        return real_wait(match_id, after, min(timeout, 0.05))

    monkeypatch.setattr(api.views, "wait_for_version", brief_wait)
    settings.PUSH_STREAM_MAX_SECONDS = 0  # a stream sends what there is, then ends
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# Each game's match: Golf's two humans, Hearts' two humans and two COMs.
TABLES = {
    "golf": [{"type": "me"}, {"type": "open"}],
    "hearts": [
        {"type": "me"},
        {"type": "open"},
        {"type": "com", "level": "normal"},
        {"type": "com", "level": "normal"},
    ],
    "ninety-nine": [{"type": "me"}, {"type": "open"}, {"type": "com", "level": "normal"}],
}
assert set(TABLES) == {game.info.name for game in all_games()}, "a table for every game"
FIRST_GAME = min(TABLES)


@pytest.fixture(params=sorted(TABLES))
def participant(request, wsgi_calls, django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw-alice-123")
    bob = django_user_model.objects.create_user("bob", password="pw-bob-123")
    match = services.match_create(creator=alice, game=request.param, seats=TABLES[request.param])
    services.match_join(match_id=match.id, user=bob)
    return {"game": request.param, "match_id": str(match.id), "user": alice}


@schema.parametrize()
# One match serves all of an operation's examples: they act on it in turn, as clients would.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
def test_every_operation_conforms_and_never_fails(case, participant):
    if "{match_id}" not in case.operation.path and participant["game"] != FIRST_GAME:
        pytest.skip("no match in its path: fuzzed once, with the first game's table")
    parameters = case.path_parameters or {}
    if "match_id" in parameters:
        try:
            uuid.UUID(str(parameters["match_id"]))
        except ValueError:
            pass  # a malformed id stays: it must get a clean 404
        else:
            parameters["match_id"] = participant["match_id"]
    # (an example of DELETE /api/auth/token revokes it: the next gets a new one)
    token, _ = Token.objects.get_or_create(user=participant["user"])
    case.call_and_validate(headers={"Authorization": f"Token {token.key}"}, checks=CHECKS)
