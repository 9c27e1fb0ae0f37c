import pytest
from django.db import OperationalError

from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db


def act(client, match_id, headers=None, **action):
    return client.post(
        f"/api/matches/{match_id}/actions", action, format="json", headers=headers or {}
    )


def test_an_action_returns_version_events_and_view(alice, duel):
    response = act(alice, duel, type="reveal", position=0)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 4 and response["ETag"] == '"4"'  # (bob's seat_taken was 3)
    assert [e["type"] for e in body["events"]] == ["card_revealed"]
    assert body["view"]["grids"][0][0] == body["events"][0]["data"]["card"]


def test_if_match_and_expected_version(alice, bob, duel):
    stale = act(alice, duel, headers={"If-Match": '"1"'}, type="reveal", position=0)
    assert assert_problem(stale, 412, "precondition_failed")["current_version"] == 3
    assert stale["ETag"] == '"3"'  # the version to act on
    assert_problem(
        act(alice, duel, type="reveal", position=0, expected_version=1), 409, "version_conflict"
    )
    assert (
        act(alice, duel, headers={"If-Match": '"3"'}, type="reveal", position=0).status_code == 200
    )
    assert act(alice, duel, type="reveal", position=1, expected_version=4).status_code == 200
    both = act(
        alice, duel, headers={"If-Match": '"5"'}, type="reveal", position=2, expected_version=4
    )
    assert "expected_version" in assert_problem(both, 400, "validation_error")["errors"]
    for malformed in ("soon", "3", '"3', '"-3"', "**"):
        assert_problem(
            act(alice, duel, headers={"If-Match": malformed}, type="reveal", position=2),
            400,
            "malformed_request",
        )
    assert (
        act(bob, duel, headers={"If-Match": 'W/"5"'}, type="reveal", position=0).status_code == 200
    )
    anyway = act(bob, duel, headers={"If-Match": "*"}, type="reveal", position=1)  # any version
    assert anyway.status_code == 200 and anyway.json()["version"] == 7


def test_idempotency_key(alice, bob, duel):
    headers = {"Idempotency-Key": "abc-1"}
    first = act(alice, duel, headers=headers, type="reveal", position=0)
    again = act(alice, duel, headers=headers, type="reveal", position=0)
    assert again.status_code == 200 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert_problem(
        act(alice, duel, headers=headers, type="reveal", position=1), 409, "idempotency_key_reused"
    )
    # another player's key is another key
    theirs = act(bob, duel, headers=headers, type="reveal", position=0)
    assert theirs.status_code == 200 and "Idempotent-Replayed" not in theirs
    # a repeat (the If-Match is of the request) answers the first answer once it is stale
    checked = {"Idempotency-Key": "abc-2", "If-Match": f'"{theirs.json()["version"]}"'}
    flipped = act(alice, duel, headers=checked, type="reveal", position=1)
    act(bob, duel, type="reveal", position=1)
    late = act(alice, duel, headers=checked, type="reveal", position=1)
    assert late.status_code == 200 and late.json() == flipped.json()
    assert_problem(
        act(alice, duel, headers={**checked, "If-Match": "*"}, type="reveal", position=1),
        409,
        "idempotency_key_reused",
    )
    assert_problem(
        act(alice, duel, headers={"Idempotency-Key": "x" * 200}, type="reveal", position=1),
        400,
        "malformed_request",
    )


@pytest.mark.parametrize(
    ("action", "status", "code"),
    [
        ({"type": "draw"}, 422, "wrong_phase"),
        ({"type": "reveal", "position": 6}, 422, "position_out_of_range"),
        ({"type": "reveal", "position": -1}, 422, "position_out_of_range"),
        ({"type": "reveal"}, 400, "malformed_action"),
        ({"type": "reveal", "position": "1"}, 400, "malformed_action"),
        ({"type": "teleport"}, 400, "malformed_action"),
        ({"type": "reveal", "position": 1, "extra": True}, 400, "malformed_action"),
        ({}, 400, "malformed_action"),
        ({"type": "reveal", "position": 1, "expected_version": "2"}, 400, "validation_error"),
    ],
)
def test_bad_actions(alice, duel, action, status, code):
    assert_problem(act(alice, duel, **action), status, code)


def test_not_your_turn_and_strangers(alice, bob, carol, duel):
    for client, pos in ((alice, 0), (alice, 1), (bob, 0), (bob, 1)):
        assert act(client, duel, type="reveal", position=pos).status_code == 200
    assert_problem(act(bob, duel, type="draw"), 422, "not_your_turn")
    assert_problem(act(carol, duel, type="draw"), 403, "not_a_participant")


def test_malformed_bodies(alice, duel):
    url = f"/api/matches/{duel}/actions"
    assert_problem(
        alice.post(url, "{not json", content_type="application/json"), 400, "malformed_request"
    )
    assert_problem(
        alice.post(url, b"\xff\xfe", content_type="application/json"), 400, "malformed_request"
    )
    assert_problem(
        alice.post(url, "[1, 2]", content_type="application/json"), 400, "malformed_request"
    )
    assert_problem(
        alice.post(url, "type=draw", content_type="application/x-www-form-urlencoded"),
        415,
        "unsupported_media_type",
    )
    big = '{"type": "draw", "pad": "' + "x" * 100_000 + '"}'
    assert_problem(alice.post(url, big, content_type="application/json"), 413, "request_too_large")


def test_hint(alice, bob, carol, duel):
    assert act(alice, duel, type="reveal", position=0).status_code == 200
    hint = alice.get(f"/api/matches/{duel}/hint")
    assert hint.status_code == 200
    assert hint.json()["action"]["type"] == "reveal" and hint.json()["reason"]
    assert_problem(carol.get(f"/api/matches/{duel}/hint"), 403, "not_a_participant")
    for client, pos in ((alice, 1), (bob, 0), (bob, 1)):
        act(client, duel, type="reveal", position=pos)
    assert_problem(bob.get(f"/api/matches/{duel}/hint"), 409, "not_your_turn")


def test_hints_can_be_disabled(alice):
    match_id = alice.post(
        "/api/matches",
        {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}], "hints": False},
        format="json",
    ).json()["id"]
    assert_problem(alice.get(f"/api/matches/{match_id}/hint"), 409, "hints_disabled")


def test_events_states_audit_and_export(alice, carol, duel):
    act(alice, duel, type="reveal", position=0)
    page = alice.get(f"/api/matches/{duel}/events", {"after": 1, "limit": 1}).json()
    assert (
        [e["seq"] for e in page["events"]] == [2] and page["has_more"] and page["next_after"] == 2
    )
    deal = page["events"][0]["data"]
    assert deal["stock"] is None and deal["grids"][0] == [None] * 6
    page = alice.get(f"/api/matches/{duel}/events", {"after": 4, "wait": 1}).json()
    assert page["events"] == [] and page["version"] == 4
    past = alice.get(f"/api/matches/{duel}/states/2").json()
    assert past["version"] == 2 and past["grids"][0] == [None] * 6
    assert_problem(alice.get(f"/api/matches/{duel}/states/99"), 400, "validation_error")
    for bad in ("-1", "abc", "1.0", "0x2"):
        problem = assert_problem(
            alice.get(f"/api/matches/{duel}/states/{bad}"), 400, "validation_error"
        )
        assert problem["errors"] == {"version": ["version must be a whole number between 1 and 4"]}
    assert_problem(alice.get(f"/api/matches/{duel}/events", {"after": -1}), 400, "validation_error")
    # past the last event: a reader that would wait for nothing is told so, at once
    past = alice.get(f"/api/matches/{duel}/events", {"after": 99, "wait": 5})
    assert assert_problem(past, 400, "validation_error")["errors"] == {"after": ["at most 4"]}
    resumed = alice.get(f"/api/matches/{duel}/stream", HTTP_LAST_EVENT_ID="99")
    assert "Last-Event-ID" in assert_problem(resumed, 400, "validation_error")["errors"]
    assert_problem(
        alice.get(f"/api/matches/{duel}/events", {"wait": 3600}), 400, "validation_error"
    )
    assert_problem(alice.get(f"/api/matches/{duel}/audit"), 409, "match_not_ended")
    export = carol.get(f"/api/matches/{duel}/export")
    lines = b"".join(export.streaming_content).decode().splitlines()
    assert export["Content-Type"] == "application/x-ndjson" and len(lines) == 4


def test_the_audit_record_of_a_log_that_cannot_be_replayed_is_still_served(alice, ops, duel):
    """The record read its seed from a replay of the log: one that no longer replays (its
    game relabelled on the row, a snapshot ahead of the log) answered 500, where the
    record is what a verifier needs to say what is wrong."""
    from matches.models import Match

    assert ops.post(f"/api/matches/{duel}/abort", {}, format="json").status_code == 200
    sound = alice.get(f"/api/matches/{duel}/audit").json()
    Match.objects.filter(pk=duel).update(game="ninety-nine")
    relabelled = alice.get(f"/api/matches/{duel}/audit")
    assert relabelled.status_code == 200
    record = relabelled.json()
    assert record["seed"] == sound["seed"] == record["events"][-1]["data"]["seed"]
    assert record["chain_faults"] == [] and len(record["events"]) == len(sound["events"])


def test_a_format_a_view_cannot_answer_in_is_a_400_naming_those_it_can(alice, duel):
    for path, formats in (
        ("", "['json']"),
        ("/events", "['json']"),
        ("/stream", "['ndjson', 'sse']"),  # a stream is no JSON document
        ("/export", "['ndjson']"),
    ):
        refused = alice.get(f"/api/matches/{duel}{path}", {"format": "xml"})
        problem = assert_problem(refused, 400, "validation_error")
        assert (
            f"no answer here in the format 'xml': format is one of {formats}" in problem["detail"]
        )
        assert problem["errors"] == {"format": [f"one of {formats}"]}
    for path in ("/stream", "/export"):
        json_only = alice.get(f"/api/matches/{duel}{path}", HTTP_ACCEPT="application/json")
        assert_problem(json_only, 406, "not_acceptable")
    assert alice.get(f"/api/matches/{duel}", {"format": "json"}).status_code == 200


def test_a_query_parameter_a_request_does_not_take_is_a_400_naming_it(alice, duel):
    typo = alice.get(f"/api/matches/{duel}/events", {"afer": 2})
    problem = assert_problem(typo, 400, "validation_error")
    assert problem["errors"] == {"afer": ["not a parameter here"]}
    assert "it takes after, limit, wait" in problem["detail"]
    none = assert_problem(alice.get(f"/api/matches/{duel}", {"x": 1}), 400, "validation_error")
    assert "it takes none" in none["detail"]
    twice = alice.get(f"/api/matches/{duel}/events?after=0&after=1")
    assert assert_problem(twice, 400, "validation_error")["errors"] == {"after": ["given once"]}
    for path, query in (("/rulesets", {"game": "golf"}), ("/matches", {"mine": "true"})):
        assert alice.get(f"/api{path}", query).status_code == 200
    assert_problem(alice.get("/api/rulesets", {"preset": "bogus"}), 400, "validation_error")


def test_errors_outside_the_api_views_are_problems_too(client):
    response = client.get("/api/nowhere")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    response = client.get("/healthz", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/problem+json")


def test_a_lost_database_is_a_503_to_retry(alice, duel, monkeypatch):
    def unreachable(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr("matches.services.match_act", unreachable)
    response = act(alice, duel, headers={"Idempotency-Key": "k-1"}, type="reveal", position=0)
    body = assert_problem(response, 503, "service_unavailable")
    assert response["Retry-After"] == "2" and "closed" not in body["detail"]


def test_a_repeat_in_a_local_match_is_the_first_answer_and_moves_name_their_seat(alice):
    """One account holds both seats of a local match, and acts for the one to act: a
    repeat answers as the first answer did (for the seat that moved then, not the one to
    act now), and each move names the seat that made it."""
    seats = [{"type": "me"}, {"type": "me"}]
    created = alice.post("/api/matches", {"local": True, "holes": 1, "seats": seats}, format="json")
    match_id = created.json()["id"]
    headers = {"Idempotency-Key": "flip-1"}
    first = act(alice, match_id, headers=headers, type="reveal", position=0)
    assert first.json()["view"]["seat"] == 0 and first.json()["events"][0]["seat"] == 0
    act(alice, match_id, type="reveal", position=1)  # seat 0's last flip: seat 1's turn now
    again = act(alice, match_id, headers=headers, type="reveal", position=0)
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    events = alice.get(f"/api/matches/{match_id}/events").json()["events"]
    flips = [e for e in events if e["type"] == "card_revealed"]
    assert [e["seat"] for e in flips] == [e["data"]["seat"] for e in flips] == [0, 0]


def test_an_actions_view_carries_the_turn_clock_as_the_matchs_does(alice, bob):
    """The action's answer's view lacked ``turn_started_at``, ``turn_deadline`` and
    ``auto_moves``: a client drawing from it lost the countdown."""
    seats = [{"type": "me"}, {"type": "open"}]
    created = alice.post("/api/matches", {"seats": seats, "turn_timeout": 60}, format="json").json()
    assert bob.post(f"/api/matches/{created['id']}/join", {}, format="json").status_code == 200
    answer = act(alice, created["id"], type="reveal", position=0).json()
    detail = alice.get(f"/api/matches/{created['id']}").json()
    assert detail["version"] == answer["version"]  # (nobody else moved)
    clock = ("turn_started_at", "turn_deadline", "auto_moves")
    assert {k: answer["view"][k] for k in clock} == {k: detail["view"][k] for k in clock}
    assert answer["view"]["auto_moves"] == [] and answer["view"]["turn_deadline"]
