"""Ninety-Nine in the match store: turn timers, the COMs on commit, the admin's state page.

The store reaches Ninety-Nine only through the registry, as it reaches Golf and Hearts;
these check the paths Golf's own tests check, with a Ninety-Nine match.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import Match, MatchEvent
from matches.selectors import match_view
from matches.services import match_act, match_create, match_join
from matches.tasks import turn_timer

pytestmark = pytest.mark.django_db


def ninety_nine(creator, seats, **more):
    return match_create(creator=creator, game="ninety-nine", seats=seats, **more)


def test_a_timed_out_bid_is_made_by_the_server_and_shown_to_its_seat_only(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = ninety_nine(
            alice,
            [{"type": "me"}, {"type": "open"}, {"type": "com", "level": "normal"}],
            turn_timeout=60,
        )
        match_join(match_id=match.id, user=bob)
    match.refresh_from_db()
    view = match_view(match, alice)
    assert view["phase"] == "bidding" and view["seats_to_act"] == [0, 1]  # the COM has bid
    with django_capture_on_commit_callbacks(execute=True):
        match_act(match_id=match.id, user=bob, action=match_view(match, bob)["legal_actions"][0])
    match.refresh_from_db()
    assert turn_timer.apply(args=(str(match.id), match.version)).get() == 0  # not yet due
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    with django_capture_on_commit_callbacks(execute=True):
        moves = turn_timer.apply(args=(str(match.id), match.version)).get()
    auto = list(MatchEvent.objects.filter(match=match, actor="timer:0").order_by("seq"))
    assert moves == len(auto) >= 1 and auto[0].type == "bid_made"
    assert auto[0].payload["seat"] == 0
    match.refresh_from_db()
    mine, bobs = match_view(match, alice), match_view(match, bob)
    assert mine["auto_moves"] == [e.seq for e in auto]
    assert mine["bid_cards"][0] == auto[0].payload["cards"]  # my bid, shown to me
    assert bobs["bid_cards"][0] is None  # and to nobody else


def test_com_seats_bid_and_play_on_commit_until_a_human_is_to_act(
    alice, django_capture_on_commit_callbacks
):
    coms = [{"type": "com", "level": "easy"}, {"type": "com", "level": "hard"}]
    with django_capture_on_commit_callbacks(execute=True):
        match = ninety_nine(alice, [{"type": "me"}, *coms])
    match.refresh_from_db()
    view = match_view(match, alice)
    assert view["phase"] == "bidding" and view["seats_to_act"] == [0]
    assert view["has_bid"] == [False, True, True] and view["bid_cards"][1:] == [None, None]
    bid = next(a for a in view["legal_actions"] if a["type"] == "bid")
    with django_capture_on_commit_callbacks(execute=True):
        match_act(match_id=match.id, user=alice, action=bid)
    match.refresh_from_db()
    view = match_view(match, alice)
    # the COMs made their premium calls (or played) until alice is to act again
    assert view["seats_to_act"] == [0] or view["phase"] in ("finished", "aborted")


def test_the_admin_state_page_shows_no_hand_while_the_match_runs(admin_client, alice):
    match = ninety_nine(
        alice,
        [{"type": "me"}, {"type": "com", "level": "normal"}, {"type": "com", "level": "normal"}],
    )
    dealt = MatchEvent.objects.get(match=match, type="deal_started").payload
    page = admin_client.get(reverse("admin:golf_match_state", args=[match.id]), {"version": 2})
    body = page.content.decode()
    assert page.status_code == 200 and "the spectator's view" in body and "deal 1 of" in body
    for hand in dealt["hands"]:
        for card in hand:
            assert f"&quot;{card}&quot;" not in body
