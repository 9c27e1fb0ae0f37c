"""Rules reference, section 2, step 3, and section 3's premiums: pass, declare or reveal, in
turn from eldest; one premium bid stands; what it scores, made or failed."""

import pytest

from cards.errors import NotYourTurnError, WrongPhaseError
from ninety_nine import errors
from ninety_nine.actions import Declare, Pass, Reveal
from ninety_nine.decide import legal_actions
from ninety_nine.events import DealScored, PremiumCalled, PremiumShown
from ninety_nine.rules import Rules
from ninety_nine.state import Phase
from ninety_nine.views import view_for
from tests.ninety_nine.helpers import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    act,
    call_all,
    lead_spades,
    of_type,
    runaway,
)

# seat 1 (eldest: seat 0 deals) takes all nine tricks
MAKES_9 = CLUBS[:3]  # bids 9: made
MAKES_NOT = ["6C", "7C", "AH"]  # bids 8: failed
ZERO_A, ZERO_B = DIAMONDS[:3], DIAMONDS[3:6]  # bid 0 and take none: made
TWO_A, TWO_B = ["6H", "QD", "KD"], ["7H", "8H", "AD"]  # bid 2 and 4, take none: failed


def _deal(runner_bid, bid_2, bid_0, rules=None):
    state, _ = runaway(1, runner_bid, {2: bid_2, 0: bid_0}, rules=rules)
    assert state.eldest == 1
    assert state.phase is (Phase.PREMIUM if state.rules.premium_bids else Phase.PLAYING)
    return state


def _score(state):
    state, events = lead_spades(state)
    (scored,) = of_type(events, DealScored)
    return state, scored


def test_the_premium_round_goes_in_turn_from_eldest():
    state = _deal(MAKES_9, ZERO_A, ZERO_B)
    order = []
    while state.phase is Phase.PREMIUM:
        seat = state.to_act
        order.append(seat)
        assert state.seats_to_act() == (seat,)
        assert legal_actions(state, seat) == [Pass(), Declare(), Reveal()]
        for other in {0, 1, 2} - {seat}:
            assert legal_actions(state, other) == []
            with pytest.raises(NotYourTurnError):
                act(state, other, Pass())
        state, events = act(state, seat, Pass())
        assert events[0] == PremiumCalled(seat, "pass")
    assert order == [1, 2, 0]
    assert state.phase is Phase.PLAYING and state.to_act == 1
    assert state.premium_seat is None and state.calls == ("pass", "pass", "pass")


def test_the_order_follows_the_dealer():
    state, _ = runaway(2, MAKES_9, {0: ZERO_A, 1: ZERO_B})
    assert state.dealer == 1 and state.to_act == 2
    order = []
    while state.phase is Phase.PREMIUM:
        order.append(state.to_act)
        state, _ = act(state, state.to_act, Pass())
    assert order == [2, 0, 1]


def test_a_declaration_is_shown_once_the_round_is_over():
    state = _deal(MAKES_9, ZERO_A, ZERO_B)
    state, events = act(state, 1, Declare())
    assert events == [PremiumCalled(1, "declare")]
    assert legal_actions(state, 2) == [Pass(), Reveal()]  # no second declaration
    with pytest.raises(errors.PremiumBidTakenError) as caught:
        act(state, 2, Declare())
    assert caught.value.code == "premium_bid_taken"
    state, _ = act(state, 2, Pass())
    state, events = act(state, 0, Pass())
    shown = events[-1]
    assert shown == PremiumShown(1, "declare", tuple(MAKES_9), 9, ())
    assert state.phase is Phase.PLAYING and state.to_act == 1
    for viewer in (None, 0, 2):
        view = view_for(state, viewer)
        assert view.bid_cards[1] == tuple(MAKES_9) and view.contracts[1] == 9
        assert view.hands[1] is None  # a declarer's hand stays hidden
        assert view.premium_seat == 1 and view.premium == "declare" and view.premium_shown


def test_a_made_declaration_scores_30_more():
    state = _deal(MAKES_9, ZERO_A, TWO_B)
    state, _ = call_all(state, {1: Declare()})
    _, scored = _score(state)
    assert scored.made == (False, True, True)
    assert [p.to_json() for p in scored.points] == [
        {"tricks": 0, "bonus": 0, "premium": 0, "total": 0},
        {"tricks": 9, "bonus": 20, "premium": 30, "total": 59},
        {"tricks": 0, "bonus": 20, "premium": 0, "total": 20},
    ]


def test_a_failed_declaration_pays_30_to_each_other_player():
    state = _deal(MAKES_NOT, ZERO_A, TWO_B)
    state, _ = call_all(state, {1: Declare()})
    _, scored = _score(state)
    assert scored.made == (False, False, True)
    # seat 2 made its contract (alone: 30) and is paid 30; seat 0 failed and is paid too
    assert [(p.tricks, p.bonus, p.premium, p.total) for p in scored.points] == [
        (0, 0, 30, 30),
        (9, 0, 0, 9),
        (0, 30, 30, 60),
    ]
    assert scored.premium_seat == 1 and scored.premium == "declare"
    assert scored.contracts == (None, 8, 0)  # failed: face down, but for the premium bidder


def test_a_made_reveal_scores_60_more_and_shows_the_hand_all_deal():
    state = _deal(MAKES_9, TWO_A, TWO_B)
    state, events = act(state, 1, Reveal())
    assert state.phase is Phase.PLAYING  # nobody may bid over a reveal: the round is over
    assert state.calls == (None, "reveal", None)
    (shown,) = of_type(events, PremiumShown)
    assert shown.premium == "reveal" and shown.hand == state.hands[1] and len(shown.hand) == 9
    _, scored = _score(state)
    assert [p.total for p in scored.points] == [0, 9 + 30 + 60, 0]  # 99: the most a deal


def test_a_failed_reveal_pays_60_to_each_other_player():
    state = _deal(MAKES_NOT, TWO_A, TWO_B)
    state, _ = act(state, 1, Reveal())
    _, scored = _score(state)
    assert scored.made == (False, False, False)
    assert [(p.bonus, p.premium, p.total) for p in scored.points] == [
        (0, 60, 60),
        (0, 0, 9),
        (0, 60, 60),
    ]


def test_two_reveals_offered_the_one_nearest_the_dealers_left_wins():
    state = _deal(MAKES_9, ZERO_A, ZERO_B)
    # seat 2 cannot call before eldest
    with pytest.raises(NotYourTurnError):
        act(state, 2, Reveal())
    state, _ = act(state, 1, Reveal())
    for late in (2, 0):
        with pytest.raises(errors.PremiumBidTakenError) as caught:
            act(state, late, Reveal())
        assert caught.value.code == "premium_bid_taken" and "seat 1" in str(caught.value)
        with pytest.raises(errors.PremiumBidTakenError):
            act(state, late, Declare())
    assert state.premium_seat == 1 and state.premium == "reveal"


def test_a_later_reveal_overcalls_a_declaration():
    # seat 1 declares (and makes it), seat 2 reveals: seat 1's bid cards stay face down
    # during the play and its contract scores as a plain bid
    state = _deal(MAKES_9, ZERO_A, TWO_B)
    state, _ = act(state, 1, Declare())
    assert legal_actions(state, 2) == [Pass(), Reveal()]
    state, events = act(state, 2, Reveal())
    assert state.phase is Phase.PLAYING and state.calls == (None, "declare", "reveal")
    (shown,) = of_type(events, PremiumShown)
    assert shown.seat == 2 and shown.cards == tuple(ZERO_A) and shown.contract == 0
    for viewer in (None, 0):
        view = view_for(state, viewer)
        assert view.bid_cards[1] is None and view.contracts[1] is None
        assert view.bid_cards[2] == tuple(ZERO_A) and view.hands[2] == state.hands[2]
        assert view.premium_seat == 2 and view.premium == "reveal"
    assert view_for(state, 2).bid_cards[1] is None
    _, scored = _score(state)
    assert scored.made == (False, True, True)
    assert [(p.tricks, p.bonus, p.premium) for p in scored.points] == [
        (0, 0, 0),
        (9, 20, 0),  # no premium for the overcalled declaration
        (0, 20, 60),
    ]


def test_an_overcalled_declaration_that_fails_is_never_shown():
    state = _deal(MAKES_NOT, ZERO_A, ZERO_B)
    state, _ = act(state, 1, Declare())
    state, _ = act(state, 2, Reveal())
    _, scored = _score(state)
    assert scored.made == (True, False, True)
    assert scored.bid_cards == (tuple(ZERO_B), None, tuple(ZERO_A))
    assert [(p.bonus, p.premium) for p in scored.points] == [(20, 0), (0, 0), (20, 60)]


def test_a_declaration_after_passes_and_a_reveal_after_it():
    state = _deal(MAKES_9, ZERO_A, ZERO_B)
    state, _ = act(state, 1, Pass())
    state, _ = act(state, 2, Declare())
    assert legal_actions(state, 0) == [Pass(), Reveal()]
    state, events = act(state, 0, Reveal())
    (shown,) = of_type(events, PremiumShown)
    assert shown.seat == 0 and shown.premium == "reveal"
    assert state.to_act == 1  # eldest leads whatever the premium bids


def test_no_calls_out_of_the_premium_round():
    state = _deal(MAKES_9, ZERO_A, ZERO_B)
    state, _ = call_all(state)
    for action in (Pass(), Declare()):
        with pytest.raises(WrongPhaseError):
            act(state, 1, action)


def test_premium_bids_off_skips_the_round():
    state = _deal(MAKES_9, ZERO_A, ZERO_B, rules=Rules.from_preset(premium_bids="off"))
    assert state.phase is Phase.PLAYING and state.to_act == 1
    assert state.calls == (None, None, None)
    for action in (Pass(), Declare(), Reveal()):
        with pytest.raises(errors.PremiumBidsOffError) as caught:
            act(state, 1, action)
        assert caught.value.code == "premium_bids_off"
    assert view_for(state, 1).premium_bids is False
    _, scored = _score(state)
    assert scored.premium_seat is None
    assert [p.premium for p in scored.points] == [0, 0, 0]
    assert [p.total for p in scored.points] == [10, 19, 10]


def test_the_bids_of_these_tables_are_what_they_say():
    from ninety_nine.pack import contract_of

    assert [contract_of(b) for b in (MAKES_9, MAKES_NOT, ZERO_A, ZERO_B, TWO_A, TWO_B)] == [
        9,
        8,
        0,
        0,
        2,
        4,
    ]
    everything = [*MAKES_9, *MAKES_NOT, *ZERO_A, *ZERO_B, *TWO_A, *TWO_B]
    assert len(set(everything)) == len(everything) - 2  # MAKES_9 and MAKES_NOT share 6C, 7C
    assert HEARTS[-1] in MAKES_NOT
