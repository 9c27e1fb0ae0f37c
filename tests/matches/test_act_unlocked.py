"""An action is first made without the row lock (read, decide, compare-and-set write);
one whose write finds that another came first writes nothing and is made again under
the lock, as if it had waited for that write."""

from __future__ import annotations

import pytest

from matches import errors, services
from matches.models import FollowUp, Match, MatchEvent
from matches.services import match_act
from matches.store import load_events, verify_chain

pytestmark = pytest.mark.django_db


@pytest.fixture
def race(monkeypatch, bob, duel):
    """Bob's reveal lands between the read and the write of the next action (once)."""
    load_state = services.load_state
    raced = []

    def load_then_race(match):
        state = load_state(match)
        if not raced:
            raced.append(True)
            match_act(match_id=duel.id, user=bob, action={"type": "reveal", "position": 5})
        return state

    monkeypatch.setattr(services, "load_state", load_then_race)
    locked = []
    match_act_locked = services._match_act

    def spy(*args, **kwargs):
        locked.append(True)
        return match_act_locked(*args, **kwargs)

    monkeypatch.setattr(services, "_match_act", spy)
    return locked


def test_an_action_that_lost_the_race_is_made_after_the_winner(alice, duel, race):
    start = duel.version
    result = match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 0})
    assert race == [True]  # made again under the lock
    assert result.first_seq == start + 2 and result.version == start + 2
    rows = load_events(Match.objects.get(pk=duel.id))
    assert [r.actor.split(":")[0] for r in rows[start:]] == ["user", "user"]
    assert rows[start].payload["seat"] == 1 and rows[start + 1].payload["seat"] == 0
    assert verify_chain(Match.objects.get(pk=duel.id), rows) == []


def test_a_lost_race_with_an_expected_version_is_a_conflict(alice, duel, race):
    start = duel.version
    with pytest.raises(errors.VersionConflict):
        match_act(
            match_id=duel.id,
            user=alice,
            action={"type": "reveal", "position": 0},
            expected_version=start,
        )
    assert MatchEvent.objects.filter(match=duel).count() == start + 1  # bob's only


def test_an_idempotent_repeat_after_a_lost_race_returns_the_first_result(alice, duel, race):
    first = match_act(
        match_id=duel.id, user=alice, action={"type": "reveal", "position": 0}, idempotency_key="k"
    )
    again = match_act(
        match_id=duel.id, user=alice, action={"type": "reveal", "position": 0}, idempotency_key="k"
    )
    assert again.replayed and (again.first_seq, again.version) == (first.first_seq, first.version)


def test_an_action_without_a_race_takes_no_lock(alice, duel, monkeypatch):
    def no_lock(*args, **kwargs):
        raise AssertionError("the locked path was taken")

    monkeypatch.setattr(services, "_match_act", no_lock)
    result = match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 0})
    assert result.version == duel.version + 1


def test_an_action_read_before_its_seat_was_handed_to_a_com_is_refused(
    alice, staff, duel, monkeypatch
):
    """The hand-over moves no version: the write still finds that the seat is no longer
    the player's, and the action, made again under the lock, is refused."""
    load_state = services.load_state

    def load_then_hand_over(match):
        state = load_state(match)
        if Match.objects.get(pk=duel.id).seat_users[0] == alice.pk:
            services.seat_to_com(match_id=duel.id, seat=0, by=staff)
        return state

    monkeypatch.setattr(services, "load_state", load_then_hand_over)
    start = duel.version
    with pytest.raises(errors.NotAParticipant):
        match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 0})
    match = Match.objects.get(pk=duel.id)
    assert match.seat_users[0] is None
    assert not MatchEvent.objects.filter(
        match=match, seq__gt=start, actor__startswith=f"user:{alice.pk}:"
    )


def test_an_action_read_before_another_seat_was_handed_to_a_com_leaves_the_com_its_turn(
    alice, staff, duel, monkeypatch
):
    """Bob's seat goes to a COM while alice's reveal is decided (the opening flips: both
    seats to act). Her reveal is made, and the COM's turn is still waited for: the write
    did not decide the next turns as if the seat were still a person's."""
    load_state = services.load_state

    def load_then_hand_over(match):
        state = load_state(match)
        if Match.objects.get(pk=duel.id).seat_users[1] is not None:
            services.seat_to_com(match_id=duel.id, seat=1, by=staff)
        return state

    monkeypatch.setattr(services, "load_state", load_then_hand_over)
    result = match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 0})
    match = Match.objects.get(pk=duel.id)
    assert match.seat_users == [alice.pk, None] and 1 in match.seats_to_act
    com_turn = FollowUp.objects.get(match=match, version=result.version)
    assert com_turn.kind == "com"
