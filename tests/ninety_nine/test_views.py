"""Who sees what (rules reference, section 5), for every viewer: views and redacted events."""

import json
import random

import pytest

from cards.deck import is_card_code
from ninety_nine.actions import Reveal
from ninety_nine.decide import abort_match, decide, legal_actions, start_match
from ninety_nine.events import (
    BidMade,
    CardPlayed,
    DealScored,
    DealStarted,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    PremiumCalled,
    PremiumShown,
    TrickWon,
)
from ninety_nine.game import NINETY_NINE
from ninety_nine.hidden import resample_hidden
from ninety_nine.rules import Rules
from ninety_nine.state import Phase, replay
from ninety_nine.views import redact_event, view_for
from tests.ninety_nine.helpers import (
    CLUBS,
    DIAMONDS,
    SEED,
    act,
    call_all,
    lead_spades,
    of_type,
    play,
    runaway,
)

VIEWERS = (None, 0, 1, 2)


def _cards(data):
    """Every card named anywhere in JSON-ready ``data``."""
    found = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif is_card_code(item):
            found.add(item)
    return found


def _started():
    events = start_match(Rules(), ["human", "com", "human"], SEED)
    return replay(events), events


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    state, _ = _started()
    for seat in range(3):
        view = view_for(state, seat)
        assert view.hands[seat] == state.hands[seat] and view.dealt[seat] == state.dealt[seat]
        assert [h is not None for h in view.hands] == [s == seat for s in range(3)]
        assert [h is not None for h in view.dealt] == [s == seat for s in range(3)]
        assert view.hand_sizes == (12, 12, 12)
        assert _cards(view.to_json()) == set(state.hands[seat])
    spectator = view_for(state, None)
    assert spectator.hands == (None,) * 3 and spectator.legal_actions == ()
    assert _cards(spectator.to_json()) == set()
    assert view_for(state, 7).seat is None  # not a seat at this table: a spectator


def test_only_the_seats_to_act_see_legal_actions():
    state, _ = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: DIAMONDS[3:6]})
    assert state.phase is Phase.PREMIUM
    for viewer in VIEWERS:
        assert bool(view_for(state, viewer).legal_actions) == (viewer == 1)
    state, _ = call_all(state)
    state, _ = play(state, "AS")
    assert [bool(view_for(state, v).legal_actions) for v in VIEWERS] == [False, False, False, True]


def test_public_facts_are_the_same_for_everyone():
    state, _ = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: ["6H", "9D", "TD"]})
    state, events = call_all(state, {2: Reveal()})
    state, more = play(state, "AS")
    events += more
    public = [
        "phase",
        "deal",
        "dealer",
        "eldest",
        "trumps",
        "players",
        "seats_to_act",
        "hand_sizes",
        "has_bid",
        "premium",
        "trick",
        "tricks",
        "tricks_won",
        "totals",
        "deal_scores",
        "last_deal",
        "winners",
    ]
    views = [view_for(state, v).to_json() for v in VIEWERS]
    for key in public:
        assert all(v[key] == views[0][key] for v in views), key
    assert views[0]["premium"] == {
        "calls": [None, "pass", "reveal"],  # a reveal ends the round: seat 0 never calls
        "seat": 2,
        "kind": "reveal",
        "shown": True,
    }
    for event in events:
        if isinstance(event, PremiumCalled | PremiumShown | CardPlayed | TrickWon):
            texts = {json.dumps(redact_event(event, v, match_ended=False)) for v in VIEWERS}
            assert len(texts) == 1, event


def test_bid_cards_are_hidden_unless_declared_or_revealed():
    state, events = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: DIAMONDS[3:6]})
    bids = of_type(events, BidMade)
    for viewer in VIEWERS:
        view = view_for(state, viewer)
        assert view.has_bid == (True, True, True)
        for seat in range(3):
            mine = seat == viewer
            assert (view.bid_cards[seat] is not None) == mine
            assert (view.contracts[seat] is not None) == mine
        for bid in bids:
            shown = redact_event(bid, viewer, match_ended=False)["cards"]
            assert shown == (list(bid.cards) if bid.seat == viewer else [None] * 3)
    state, _ = call_all(state)  # everyone passes: every bid stays face down
    for viewer in VIEWERS:
        view = view_for(state, viewer)
        assert [b is not None for b in view.bid_cards] == [s == viewer for s in range(3)]


def test_a_revealers_hand_is_public_for_the_rest_of_the_deal():
    state, _ = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: DIAMONDS[3:6]})
    state, events = call_all(state, {2: Reveal()})
    (shown,) = of_type(events, PremiumShown)
    assert shown.hand == state.hands[2]
    assert redact_event(shown, 0, match_ended=False)["hand"] == list(state.hands[2])
    while state.deal == 1:
        for viewer in VIEWERS:
            view = view_for(state, viewer)
            assert view.hands[2] == state.hands[2]
            assert view.bid_cards[2] == tuple(DIAMONDS[:3]) and view.contracts[2] == 0
            assert (view.hands[0] is not None) == (viewer == 0)
            assert (view.hands[1] is not None) == (viewer == 1)
            assert (view.bid_cards[1] is not None) == (viewer == 1)
        seat = state.to_act
        state, _ = act(state, seat, legal_actions(state, seat)[-1])
    # the next deal: face down again
    assert state.phase is Phase.BIDDING
    for viewer in (None, 0, 1):
        assert view_for(state, viewer).hands[2] is None


def test_made_contracts_show_their_bid_cards_at_the_end_of_the_deal():
    # seat 1 and seat 2 make their contracts, seat 0 fails
    state, _ = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: ["6H", "9D", "TD"]})
    state, _ = call_all(state)
    state, events = lead_spades(state)
    (scored,) = of_type(events, DealScored)
    assert scored.made == (False, True, True)
    assert scored.bid_cards == (None, tuple(CLUBS[:3]), tuple(DIAMONDS[:3]))
    assert scored.contracts == (None, 9, 0)
    for viewer in VIEWERS:
        redacted = redact_event(scored, viewer, match_ended=False)
        assert redacted["bid_cards"] == [None, CLUBS[:3], DIAMONDS[:3]]
        view = view_for(state, viewer)
        assert view.last_deal == scored  # shown on through the next deal's bidding
        assert view.deal == 2 and view.bid_cards == (None, None, None)
    assert "9D" not in _cards(view_for(state, 1).to_json()) - set(state.hands[1])


def test_everything_is_shown_once_the_match_has_ended():
    state, events = runaway(
        1, CLUBS[:3], {2: DIAMONDS[:3], 0: DIAMONDS[3:6]}, rules=Rules.from_preset(max_deals=1)
    )
    state, more = call_all(state)
    events += more
    state, more = lead_spades(state)
    events += more
    assert state.phase is Phase.FINISHED
    for viewer in VIEWERS:
        view = view_for(state, viewer)
        assert view.dealt == state.dealt and view.bid_cards == state.bids
        assert view.hands == ((), (), ())
        for event in events:
            payload = redact_event(event, viewer, match_ended=True)
            assert payload == redact_event(event, 0 if viewer is None else None, match_ended=True)
            if isinstance(event, DealStarted):
                assert payload["hands"] == [list(h) for h in event.hands]
            if isinstance(event, BidMade):
                assert payload["cards"] == list(event.cards)
            if isinstance(event, MatchStarted | MatchFinished):
                assert payload["seed"] == SEED.hex()
    assert NINETY_NINE.revealed_seed(state) == SEED.hex()


def test_an_aborted_match_shows_every_hand_and_the_seed():
    state, _ = _started()
    assert view_for(state, 0).to_json()["end_reason"] is None
    state = replay(abort_match(state, "test"), state)
    assert state.phase is Phase.ABORTED
    for viewer in VIEWERS:
        view = view_for(state, viewer)
        assert view.hands == state.hands and view.dealt == state.dealt
        assert view.to_json()["end_reason"] == "test"  # the abort's reason
    assert NINETY_NINE.revealed_seed(state) == SEED.hex()
    assert NINETY_NINE.summary(state).status == "aborted"


def test_the_seed_is_hidden_until_the_end():
    state, events = _started()
    started, dealt = events[0], events[1]
    assert isinstance(started, MatchStarted) and isinstance(dealt, DealStarted)
    assert NINETY_NINE.revealed_seed(state) is None
    for viewer in VIEWERS:
        assert redact_event(started, viewer, match_ended=False)["seed"] is None
        assert redact_event(started, viewer, match_ended=False)["commitment"] == started.commitment
        assert SEED.hex() not in json.dumps(view_for(state, viewer).to_json())
        hands = redact_event(dealt, viewer, match_ended=False)["hands"]
        for seat, hand in enumerate(hands):
            assert hand == (list(dealt.hands[seat]) if seat == viewer else [None] * 12)
    assert redact_event(started, None, match_ended=True)["seed"] == SEED.hex()


@pytest.mark.parametrize(("seed", "draws"), [(0, 50), (1, 50), (2, 50), (3, 50), (4, 0)], ids=str)
def test_views_do_not_depend_on_the_cards_a_viewer_cannot_see(seed, draws, monkeypatch):
    """``draws`` 0: no random deal is tried, so every resample walks from the true deal
    by legal swaps (what happens when the voids leave random deals no room)."""
    monkeypatch.setattr("ninety_nine.hidden.ATTEMPTS", draws)
    rng = random.Random(seed)
    rules = Rules.from_preset(max_deals=3)
    state = replay(start_match(rules, ["human"] * 3, bytes([seed]) * 32))
    changed = 0
    while not state.ended:
        for viewer in VIEWERS:
            other = resample_hidden(state, viewer, rng)
            assert view_for(other, viewer) == view_for(state, viewer), viewer
            if viewer is not None:
                assert legal_actions(other, viewer) == legal_actions(state, viewer)
            changed += other.hands != state.hands or other.bids != state.bids
        seat = rng.choice(state.seats_to_act())
        actions = legal_actions(state, seat)
        # premium bids now and then, so that shown cards and revealed hands are covered
        action = actions[-1] if rng.random() < 0.3 else rng.choice(actions)
        state = replay(decide(state, seat, action), state)
    assert changed > 20  # the resampling did draw other cards
    assert resample_hidden(state, 0, rng) is state  # at the end everything is shown


def test_redacted_events_show_no_card_the_view_does_not():
    rng = random.Random(5)
    state = replay(start_match(Rules(), ["human"] * 3, bytes(range(32))))
    checked = 0
    for _ in range(120):
        if state.ended:
            break
        seat = rng.choice(state.seats_to_act())
        batch = decide(state, seat, rng.choice(legal_actions(state, seat)))
        for event in batch:
            state = replay([event], state)
            if state.ended:
                break
            for viewer in VIEWERS:
                seen = _cards(view_for(state, viewer).to_json())
                shown = _cards(redact_event(event, viewer, match_ended=False))
                assert shown <= seen, (event, viewer)
                checked += bool(shown)
    assert checked > 100


def test_the_end_events_hide_the_seed_if_ever_read_before_the_end():
    for event in (MatchFinished((0, 0, 0), (0, 1, 2), SEED.hex()), MatchAborted("x", SEED.hex())):
        for viewer in VIEWERS:
            assert redact_event(event, viewer, match_ended=False)["seed"] is None
            assert redact_event(event, viewer, match_ended=True)["seed"] == SEED.hex()


def test_the_documented_view_is_the_schemas_example():
    """docs/ninety-nine.md's view is the one the schema shows (Swagger UI), which the
    engine made (``ninety_nine.schemas`` plays it)."""
    from pathlib import Path

    from ninety_nine.schemas import VIEW_EXAMPLE

    guide = (Path(__file__).resolve().parents[2] / "docs" / "ninety-nine.md").read_text()
    section = guide[guide.index("## The view") :]
    block = section[section.index("```json") + len("```json") : section.index("```\n", 8)]
    assert json.loads(block) == VIEW_EXAMPLE
