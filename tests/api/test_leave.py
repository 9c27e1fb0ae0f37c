"""Leaving a match under way: a COM plays the seat from then on; the last player to leave
aborts the match; a lobby and a local match are not left."""

from __future__ import annotations

import pytest

from matches.models import Match, MatchEvent, MatchStatus, Seat, SeatKind
from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db


def leave(client, match_id):
    return client.post(f"/api/matches/{match_id}/leave", {}, format="json")


def test_a_player_who_leaves_is_followed_by_a_com_that_plays_its_turn(
    alice, bob, users, duel, django_capture_on_commit_callbacks
):
    # given a duel where both are to reveal: bob leaves
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    with django_capture_on_commit_callbacks(execute=True):
        response = leave(bob, duel)
    assert response.status_code == 204 and not response.content
    # then the log says he left (his own event), his seat is a normal COM's, and that COM
    # played his turn
    left = alice.get(f"/api/matches/{duel}/events", {"after": version}).json()["events"][0]
    assert (left["type"], left["seat"], left["data"]) == ("seat_handed_over", 1, {"seat": 1})
    assert left["actor"] == f"user:{users['bob'].pk}:1"
    seat = Seat.objects.get(match_id=duel, index=1)
    assert (seat.kind, seat.user_id, seat.com_level) == (SeatKind.COM, None, "normal")
    com_moves = MatchEvent.objects.filter(match_id=duel, actor="com:normal:1")
    assert com_moves.exists() and com_moves.order_by("seq").first().seq == version + 2
    detail = alice.get(f"/api/matches/{duel}").json()
    assert [s["kind"] for s in detail["seats"]] == ["human", "com"]
    assert detail["view"]["players"] == ["human", "com"]  # (the state, from the log)
    assert detail["status"] == "active" and detail["your_seat"] == 0
    # and bob no longer sits there: not his to play, nor among his matches
    assert duel not in [m["id"] for m in bob.get("/api/matches?mine=true").json()["results"]]
    action = {"type": "reveal", "position": 0}
    assert_problem(
        bob.post(f"/api/matches/{duel}/actions", action, format="json"), 403, "not_a_participant"
    )
    assert_problem(leave(bob, duel), 403, "not_a_participant")


def test_the_last_player_to_leave_aborts_the_match_and_still_reads_it(alice, users):
    seats = [{"type": "me"}, {"type": "com", "level": "easy"}]
    match_id = alice.post("/api/matches", {"seats": seats}, format="json").json()["id"]
    assert leave(alice, match_id).status_code == 204
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.ABORTED and match.seat_users[0] == users["alice"].pk
    detail = alice.get(f"/api/matches/{match_id}").json()
    assert detail["status"] == "aborted" and detail["your_seat"] == 0 and detail["seed"]
    last = MatchEvent.objects.filter(match_id=match_id).order_by("-seq").first()
    assert last.type == "match_aborted" and last.payload["reason"] == "abandoned: every player left"
    assert last.actor == f"user:{users['alice'].pk}"
    assert_problem(leave(alice, match_id), 409, "match_not_active")


def test_a_match_one_joined_and_left_no_longer_counts_among_ones_unfinished(
    alice, bob, carol, settings, django_capture_on_commit_callbacks
):
    settings.MAX_UNFINISHED_MATCHES = 1
    seats = [{"type": "me"}, {"type": "open"}]
    first = alice.post("/api/matches", {"seats": seats}, format="json").json()["id"]
    second = carol.post("/api/matches", {"seats": seats}, format="json").json()["id"]
    assert bob.post(f"/api/matches/{first}/join", {}, format="json").status_code == 200
    refused = bob.post(f"/api/matches/{second}/join", {}, format="json")
    assert_problem(refused, 409, "too_many_matches")
    with django_capture_on_commit_callbacks(execute=True):
        assert leave(bob, first).status_code == 204  # alice plays on against a COM
    assert bob.post(f"/api/matches/{second}/join", {}, format="json").status_code == 200
    # (a match one made counts until it ends, left or not: alice's still does)
    third = alice.post("/api/matches", {"seats": seats}, format="json")
    assert_problem(third, 409, "too_many_matches")


@pytest.mark.parametrize("who", ["creator", "joiner"])
def test_a_lobby_is_not_left(alice, bob, who):
    seats = [{"type": "me"}, {"type": "open"}, {"type": "open"}]
    match_id = alice.post("/api/matches", {"seats": seats}, format="json").json()["id"]
    assert bob.post(f"/api/matches/{match_id}/join", {}, format="json").status_code == 200
    problem = assert_problem(
        leave(alice if who == "creator" else bob, match_id), 409, "cannot_leave"
    )
    assert "lobby" in problem["detail"]
    assert Seat.objects.filter(match_id=match_id, kind=SeatKind.HUMAN).count() == 2


def test_a_local_match_is_not_left(alice):
    body = {"seats": [{"type": "me"}, {"type": "me"}], "rules": {"local": True}}
    created = alice.post("/api/matches", body, format="json")
    assert created.status_code == 201, created.content
    problem = assert_problem(leave(alice, created.json()["id"]), 409, "cannot_leave")
    assert "abort" in problem["detail"]


def test_leaving_needs_a_seat_and_a_match(carol, anon, duel):
    assert_problem(leave(carol, duel), 403, "not_a_participant")
    assert_problem(leave(carol, "00000000-0000-0000-0000-000000000000"), 404, "match_not_found")
    assert leave(anon, duel).status_code == 401
    assert_problem(
        carol.post(f"/api/matches/{duel}/leave?now=1", {}, format="json"), 400, "validation_error"
    )


@pytest.mark.parametrize(("body", "content_type", "status", "code"), [
    ("{bad", "application/json", 400, "malformed_request"),
    ('{"seat": 1}', "application/json", 400, "validation_error"),
    ("[]", "application/json", 400, "malformed_request"),  # (not an object)
    ("hello", "text/plain", 415, "unsupported_media_type"),
])  # fmt: skip
def test_a_leave_with_a_body_it_does_not_take_is_refused_and_leaves_nothing(
    bob, duel, body, content_type, status, code
):
    """A leave cannot be taken back: a request that is not what it means is refused first."""
    response = bob.post(f"/api/matches/{duel}/leave", body, content_type=content_type)
    assert_problem(response, status, code)
    assert Seat.objects.get(match_id=duel, index=1).kind == SeatKind.HUMAN
    assert bob.post(f"/api/matches/{duel}/leave").status_code == 204  # no body: it is left
