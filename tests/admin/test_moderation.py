"""Moderation: suspending and lifting accounts from the admin, and handing a suspended
player's seats to a COM."""

from __future__ import annotations

import pytest

from matches import errors
from matches.models import Match, MatchEvent, MatchStatus, Seat, SeatKind
from matches.selectors import match_view
from matches.services import match_act, match_create, match_join, seat_to_com

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    """Two players and an operator (staff with no permission yet)."""
    make = django_user_model.objects.create_user
    return (
        make("alice", password="pw-alice-123"),
        make("bob", password="pw-bob-123"),
        make("olga", password="pw-olga-123", is_staff=True),
    )


@pytest.fixture
def alice(people):
    return people[0]


@pytest.fixture
def bob(people):
    return people[1]


@pytest.fixture
def operator(people):
    return people[2]


@pytest.fixture
def duel(alice, bob, django_capture_on_commit_callbacks):
    """A two-human six-card hole: alice in seat 0, bob in seat 1 (both to reveal)."""
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice, rules={"holes": 1}, seats=[{"type": "me"}, {"type": "open"}]
        )
        match_join(match_id=match.id, user=bob)
    match.refresh_from_db()
    return match


def play_out(match, user, capture):
    """``user`` plays their first legal action until they are not to act or it ends."""
    for _ in range(200):
        match.refresh_from_db()
        view = match_view(match, user)
        if match.ended or match.seat_of_user(user.pk) not in match.seats_to_act:
            return
        with capture(execute=True):
            match_act(match_id=match.id, user=user, action=view["legal_actions"][0])


# --- handing a seat to a COM --------------------------------------------------------------
def test_a_seat_handed_to_a_com_plays_on_to_the_end(
    duel, alice, bob, operator, django_capture_on_commit_callbacks
):
    # given bob's seat, to act, handed to a normal COM
    with django_capture_on_commit_callbacks(execute=True):
        seat_to_com(match_id=duel.id, seat=1, by=operator)
    # then the seat is the COM's and its turn was played on commit
    seat = Seat.objects.get(match=duel, index=1)
    assert (seat.kind, seat.user_id, seat.com_level) == (SeatKind.COM, None, "normal")
    duel.refresh_from_db()
    assert duel.seat_users == [alice.pk, None] and duel.seat_of_user(bob.pk) is None
    assert MatchEvent.objects.filter(match=duel, actor="com:normal:1").exists()
    # when alice plays on, the COM answers every turn until the hole is over
    for _ in range(100):
        play_out(duel, alice, django_capture_on_commit_callbacks)
        duel.refresh_from_db()
        if duel.ended:
            break
        assert 1 not in duel.seats_to_act  # never left waiting on the COM
    assert duel.status == MatchStatus.FINISHED
    actors = set(MatchEvent.objects.filter(match=duel, seq__gt=2).values_list("actor", flat=True))
    assert f"user:{bob.pk}" not in actors and "com:normal:1" in actors


def test_handing_a_seat_is_for_staff_and_for_players_seats(duel, alice, operator):
    with pytest.raises(errors.PermissionDenied):
        seat_to_com(match_id=duel.id, seat=1, by=alice)
    with pytest.raises(errors.InvalidMatchRequest):
        seat_to_com(match_id=duel.id, seat=5, by=operator)
    with pytest.raises(errors.InvalidMatchRequest):
        seat_to_com(match_id=duel.id, seat=1, level="grandmaster", by=operator)
    seat_to_com(match_id=duel.id, seat=1, by=operator)
    with pytest.raises(errors.InvalidMatchRequest):  # a COM's seat already
        seat_to_com(match_id=duel.id, seat=1, by=operator)
    Match.objects.filter(pk=duel.pk).update(status=MatchStatus.ABORTED)
    with pytest.raises(errors.MatchNotActive):
        seat_to_com(match_id=duel.id, seat=0, by=operator)


def test_a_local_match_can_be_handed_to_coms_seat_by_seat(
    alice, operator, django_capture_on_commit_callbacks
):
    # given a local (pass-and-play) Golf match: alice holds both seats
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice, rules={"holes": 1, "local": True}, seats=[{"type": "me"}] * 2
        )
    # when both seats are handed over, one after the other
    with django_capture_on_commit_callbacks(execute=True):
        seat_to_com(match_id=match.id, seat=0, by=operator)
    with django_capture_on_commit_callbacks(execute=True):
        seat_to_com(match_id=match.id, seat=1, by=operator)
    # then the COMs play it out
    match.refresh_from_db()
    assert match.seat_users == [None, None] and match.status == MatchStatus.FINISHED
