"""Conditional reads: a client that holds a match's detail, or a past state, sends its
``ETag`` back as ``If-None-Match`` and is answered 304 (no body) while its copy is what
the service would send, and the whole answer once it is not."""

from __future__ import annotations

import pytest

from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db

REVEAL = {"type": "reveal", "position": 0}


def test_a_detail_is_not_sent_again_while_the_match_stays_at_its_version(alice, bob, duel):
    first = alice.get(f"/api/matches/{duel}")
    tag = first["ETag"]
    unchanged = alice.get(f"/api/matches/{duel}", HTTP_IF_NONE_MATCH=tag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == tag
    assert "private" in unchanged["Cache-Control"] and "Authorization" in unchanged["Vary"]
    # a weak tag, a list holding it, and * name it too (weak comparison, RFC 9110)
    for header in (f"W/{tag}", f'"0", {tag}', "*"):
        assert alice.get(f"/api/matches/{duel}", HTTP_IF_NONE_MATCH=header).status_code == 304
    # another tag, or one that is no tag, is answered in full
    for header in ('"0"', "7", "nonsense"):
        answer = alice.get(f"/api/matches/{duel}", HTTP_IF_NONE_MATCH=header)
        assert answer.status_code == 200 and answer.json() == first.json(), header
    # once the match moves on, the old tag gets the new detail
    assert bob.post(f"/api/matches/{duel}/actions", REVEAL, format="json").status_code == 200
    moved = alice.get(f"/api/matches/{duel}", HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["version"] == first.json()["version"] + 1
    assert moved["ETag"] == f'"{moved.json()["version"]}"'


def test_a_conditional_read_is_still_checked(alice, anon, duel):
    """The 304 comes after everything a full read checks: a tag is no credential, and it
    names no match that is not there."""
    tag = alice.get(f"/api/matches/{duel}")["ETag"]
    assert anon.get(f"/api/matches/{duel}", HTTP_IF_NONE_MATCH=tag).status_code == 401
    unknown = "00000000-0000-0000-0000-000000000000"
    answer = alice.get(f"/api/matches/{unknown}", HTTP_IF_NONE_MATCH="*")
    assert_problem(answer, 404, "match_not_found")
    state = alice.get(f"/api/matches/{duel}/states/1")
    version = alice.get(f"/api/matches/{duel}").json()["version"]
    beyond = alice.get(f"/api/matches/{duel}/states/{version + 1}", HTTP_IF_NONE_MATCH="*")
    assert_problem(beyond, 400, "validation_error")
    again = alice.get(f"/api/matches/{duel}/states/1", HTTP_IF_NONE_MATCH=state["ETag"])
    assert again.status_code == 304


def test_a_past_state_is_tagged_by_the_seat_it_is_seen_from(alice, bob, carol, duel):
    """states/{v} shows the state after v events from the caller's seat: the same for every
    read (304), but not once the caller has handed the seat over (a spectator's view)."""
    seated = bob.get(f"/api/matches/{duel}/states/2")
    watched = carol.get(f"/api/matches/{duel}/states/2")
    assert (seated["ETag"], watched["ETag"]) == ('"2.1"', '"2.s"')
    assert seated.json()["seat"] == 1 and watched.json()["seat"] is None
    again = bob.get(f"/api/matches/{duel}/states/2", HTTP_IF_NONE_MATCH=seated["ETag"])
    assert again.status_code == 304 and again["ETag"] == '"2.1"'
    # a tag from another seat is another answer
    crossed = carol.get(f"/api/matches/{duel}/states/2", HTTP_IF_NONE_MATCH=seated["ETag"])
    assert crossed.status_code == 200 and crossed["ETag"] == '"2.s"'
    # bob leaves: the same version now shows him the spectator's view, under a new tag
    assert bob.post(f"/api/matches/{duel}/leave", {}, format="json").status_code == 204
    left = bob.get(f"/api/matches/{duel}/states/2", HTTP_IF_NONE_MATCH=seated["ETag"])
    assert left.status_code == 200 and left["ETag"] == '"2.s"'
    assert left.json() == watched.json()
