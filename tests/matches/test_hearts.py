"""Hearts in the match store: turn timers, the COMs on commit, the admin's state page.

The store reaches Hearts only through the registry, as it reaches Golf; these check the
paths Golf's own tests check, with a Hearts match.
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

COMS = [{"type": "com", "level": "normal"}, {"type": "com", "level": "easy"}]


def hearts(creator, seats, **more):
    return match_create(creator=creator, game="hearts", seats=seats, **more)


def test_a_timed_out_pass_and_play_are_made_by_the_server(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = hearts(
            alice,
            [{"type": "me"}, {"type": "open"}, *COMS],
            preset="hearts-classic",
            turn_timeout=60,
        )
        match_join(match_id=match.id, user=bob)
    match.refresh_from_db()
    assert match_view(match, alice)["seats_to_act"] == [0, 1]  # the COMs have passed
    with django_capture_on_commit_callbacks(execute=True):
        match_act(match_id=match.id, user=bob, action=match_view(match, bob)["legal_actions"][0])
    match.refresh_from_db()
    assert turn_timer.apply(args=(str(match.id), match.version)).get() == 0  # not yet due
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    with django_capture_on_commit_callbacks(execute=True):
        moves = turn_timer.apply(args=(str(match.id), match.version)).get()
    auto = list(MatchEvent.objects.filter(match=match, actor="timer:0").order_by("seq"))
    # the pass, and the exchange it completes; then, while seat 0 is still to act (it holds
    # the 2 of clubs), its lead too
    assert [e.type for e in auto][:2] == ["cards_passed", "passes_exchanged"]
    assert moves == 1 + len(auto[2:]) and all(e.type == "card_played" for e in auto[2:])
    assert auto[0].payload["seat"] == 0
    match.refresh_from_db()
    view = match_view(match, alice)
    assert view["phase"] == "playing" and view["auto_moves"] == [e.seq for e in auto]
    assert view["pass"]["cards"] == auto[0].payload["cards"]  # my pass, shown to me


def test_com_seats_play_on_commit_until_a_human_is_to_act(
    alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = hearts(alice, [{"type": "me"}, *COMS, {"type": "com", "level": "hard"}])
    match.refresh_from_db()
    view = match_view(match, alice)
    assert view["phase"] == "playing" and view["seats_to_act"] == [0]
    # the 2 of clubs leads: alice holds it, or the COMs before her have played to it
    played = [e.payload["card"] for e in MatchEvent.objects.filter(match=match, type="card_played")]
    assert "2C" in view["hand"] or played[0] == "2C"


def test_the_admin_state_page_shows_no_hand_while_the_match_runs(admin_client, alice):
    match = hearts(alice, [{"type": "me"}, *COMS])
    dealt = MatchEvent.objects.get(match=match, type="cards_dealt").payload
    page = admin_client.get(reverse("admin:golf_match_state", args=[match.id]), {"version": 2})
    body = page.content.decode()
    assert page.status_code == 200 and "the spectator's view" in body and "deal 1 of" in body
    for hand in dealt["hands"]:
        for card in hand:
            assert f"&quot;{card}&quot;" not in body
