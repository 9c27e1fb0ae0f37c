"""What a participant or a stranger reads never shows a card they may not see."""

from __future__ import annotations

import json
import random

import pytest

from cards.deck import is_card_code
from golf import legal_actions
from matches import errors
from matches.selectors import (
    all_events_of_seat,
    audit_record,
    events_for,
    match_view,
    state_view_at,
)
from matches.services import match_act, match_create, match_join
from matches.store import load_state, state_at
from tests.golf.invariants import cards_in, visible_cards

pytestmark = pytest.mark.django_db


def hidden_cards_shown(data, state, seat):
    return cards_in(data) - visible_cards(state, seat)


def test_views_events_and_past_states_never_reveal_hidden_cards(alice, bob, carol):
    rng = random.Random(4)
    match = match_create(
        creator=alice, rules={"holes": 2}, seats=[{"type": "me"}, {"type": "open"}]
    )
    match_join(match_id=match.id, user=bob)
    users = {0: alice, 1: bob}
    readers = [(alice, 0), (bob, 1), (carol, None)]
    steps = 0
    while True:
        match.refresh_from_db()
        state = load_state(match)
        for user, seat in readers:
            view = match_view(match, user)
            assert not hidden_cards_shown(view, state, seat)
            version = rng.randint(1, match.version)
            past = state_view_at(match, user, version)
            assert not hidden_cards_shown(past, state_at(match, version), seat)
            if not state.ended:
                for event in events_for(match, user, after=0, limit=1000):
                    data = event["data"]
                    assert data.get("seed") is None
                    if event["type"] in ("hole_dealt", "stock_reshuffled"):
                        assert data["stock"] is None
                    if event["type"] == "hole_dealt":
                        assert not cards_in(data["grids"])
                    if event["type"] == "card_drawn" and data["seat"] != seat:
                        assert data["card"] is None or data["source"] == "discard"
                assert match.seed_commitment  # public
                seed_hex = state.seed.hex()
                assert seed_hex not in json.dumps(events_for(match, user, limit=1000))
        if state.ended:
            break
        seat = rng.choice(state.seats_to_act())
        action = rng.choice(legal_actions(state, seat))
        match_act(match_id=match.id, user=users[seat], action=action.to_json())
        steps += 1
    assert steps > 20
    # once the match has ended, everything is shown
    record = audit_record(match)
    assert record["seed"] == state.seed.hex() and record["chain_faults"] == []
    full = events_for(match, carol, limit=1000)
    for page in (1, 3, 1000):  # the admin's reads, a page at a time (carol has no seat)
        assert list(all_events_of_seat(match, None, page=page)) == full
    assert any(
        is_card_code(c) for e in full if e["type"] == "hole_dealt" for c in e["data"]["stock"]
    )


def test_audit_waits_for_the_end(duel):
    with pytest.raises(errors.MatchNotEnded):
        audit_record(duel)


def test_past_versions_are_bounded(duel, alice):
    with pytest.raises(errors.InvalidMatchRequest):
        state_view_at(duel, alice, 0)
    with pytest.raises(errors.InvalidMatchRequest):
        state_view_at(duel, alice, duel.version + 1)
