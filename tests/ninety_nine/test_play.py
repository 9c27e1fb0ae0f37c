"""Rules reference, section 2, steps 4 and 5: the trumps of each deal, following suit, and
who wins a trick."""

import itertools

import pytest

from cards.errors import NotYourTurnError, WrongPhaseError
from ninety_nine import errors
from ninety_nine.actions import Bid, Play
from ninety_nine.decide import legal_actions, start_match
from ninety_nine.events import DealScored, DealStarted, TrickWon
from ninety_nine.rules import Rules
from ninety_nine.state import Phase, replay
from ninety_nine.views import view_for
from tests.ninety_nine.helpers import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    act,
    bid_all,
    call_all,
    lead_spades,
    of_type,
    play,
    play_out,
    runaway,
    table,
)

NO_PREMIUMS = Rules.from_preset(premium_bids="off")


# --- step 4: trumps ------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [bytes(32), bytes(range(32)), b"\xff" * 32])
def test_the_first_deal_is_played_at_no_trump(seed):
    events = start_match(Rules(), ["com"] * 3, seed)
    (dealt,) = of_type(events, DealStarted)
    assert dealt.deal == 1 and dealt.trumps is None
    assert view_for(replay(events), None).trumps is None


@pytest.mark.parametrize(
    ("runner_bid", "bid_2", "bid_0", "made", "trumps"),
    [
        # seat 1 takes all nine tricks: three clubs (9) make it, three diamonds (0) make
        # the others' contracts
        (CLUBS[:3], DIAMONDS[:3], DIAMONDS[3:6], 3, "C"),
        (CLUBS[:3], DIAMONDS[:3], ["6H", "9D", "TD"], 2, "H"),
        (CLUBS[:3], ["7H", "6D", "7D"], ["6H", "9D", "TD"], 1, "S"),
        (["6C", "7C", "AH"], ["7H", "6D", "7D"], ["6H", "9D", "TD"], 0, "D"),
        (["6C", "7C", "AH"], DIAMONDS[:3], ["6H", "9D", "TD"], 1, "S"),
    ],
)
def test_the_trumps_follow_how_many_made_their_contract(runner_bid, bid_2, bid_0, made, trumps):
    state, _ = runaway(1, runner_bid, {2: bid_2, 0: bid_0})
    state, _ = call_all(state)
    state, events = lead_spades(state)
    (scored,) = of_type(events, DealScored)
    assert sum(scored.made) == made
    (next_deal,) = of_type(events, DealStarted)
    assert next_deal.deal == 2 and next_deal.dealer == 1
    assert next_deal.trumps == trumps
    # announced before the bid of that deal
    assert state.phase is Phase.BIDDING and state.seats_to_act() == (0, 1, 2)
    for viewer in (None, 0, 1, 2):
        assert view_for(state, viewer).trumps == trumps


def test_trumps_carry_from_each_deal_to_the_next():
    import random

    from ninety_nine.decide import decide
    from ninety_nine.scoring import next_trumps

    rng = random.Random(7)
    events = start_match(
        Rules.from_preset(max_deals=8, target_score=1000), ["human"] * 3, bytes(32)
    )
    state = replay(events)
    while not state.ended:
        seat = state.seats_to_act()[0]
        batch = decide(state, seat, rng.choice(legal_actions(state, seat)))
        events += batch
        state = replay(batch, state)
    deals = of_type(events, DealStarted)
    scored = of_type(events, DealScored)
    assert len(deals) == 8 and len(scored) == len(deals)
    assert max(state.totals) < 1000 and state.end_reason == "deal_limit"
    assert deals[0].trumps is None
    for before, deal in zip(scored, deals[1:], strict=False):
        assert deal.trumps == "DSHC"[sum(before.made)] == next_trumps(before.made)


def test_a_match_ended_by_a_total_at_the_target_says_so():
    import random

    from ninety_nine.decide import decide

    rng = random.Random(3)
    events = start_match(Rules.from_preset(target_score=20), ["human"] * 3, bytes(32))
    state = replay(events)
    while not state.ended:
        seat = state.seats_to_act()[0]
        state = replay(decide(state, seat, rng.choice(legal_actions(state, seat))), state)
    assert max(state.totals) >= 20 and state.end_reason == "target"


# --- step 5: the play -------------------------------------------------------------------------
def _follow_table():
    """No trumps, seat 0 deals: seat 1 (eldest) holds the low clubs, hearts and
    diamonds, seat 2 the middle ones, seat 0 the aces and the spades."""
    hands = [
        [CLUBS[8], HEARTS[8], DIAMONDS[8], *SPADES],
        [*CLUBS[:4], *HEARTS[:4], *DIAMONDS[:4]],
        [*CLUBS[4:8], *HEARTS[4:8], *DIAMONDS[4:8]],
    ]
    state, _ = table(hands, NO_PREMIUMS)
    state, _ = bid_all(state, {0: SPADES[:3], 1: DIAMONDS[:3], 2: DIAMONDS[4:7]})
    return state


def test_eldest_leads_and_a_player_must_follow_suit():
    state = _follow_table()
    assert state.phase is Phase.PLAYING and state.to_act == 1 and state.leader == 1
    assert len(legal_actions(state, 1)) == 9  # a lead may be any card
    with pytest.raises(NotYourTurnError):
        act(state, 2, Play("TC"))
    state, _ = play(state, "9C")
    assert state.to_act == 2
    assert legal_actions(state, 2) == [Play(c) for c in ("TC", "JC", "QC", "KC")]
    with pytest.raises(errors.MustFollowSuitError) as caught:
        act(state, 2, Play("KH"))
    assert caught.value.code == "must_follow_suit"
    with pytest.raises(errors.CardNotInHandError) as caught:
        act(state, 2, Play("AC"))
    assert caught.value.code == "card_not_in_hand"
    state, _ = play(state, "TC")
    assert legal_actions(state, 0) == [Play("AC")]
    state, events = play(state, "AC")
    (won,) = of_type(events, TrickWon)
    assert won == TrickWon(1, 1, ((1, "9C"), (2, "TC"), (0, "AC")), 0)
    assert state.to_act == 0 and state.leader == 0  # the winner leads next


def test_without_trumps_the_highest_card_of_the_suit_led_wins():
    state = _follow_table()
    for card in ("9C", "TC", "AC"):
        state, _ = play(state, card)
    # seat 0 leads a low spade; the others, out of spades, play anything: it still wins
    state, _ = play(state, "9S")
    assert len(legal_actions(state, 1)) == 8  # void: any card
    state, _ = play(state, "9H")
    state, events = play(state, "KH")
    (won,) = of_type(events, TrickWon)
    assert won.winner == 0 and won.leader == 0


def _trump_table():
    """Hearts trumps: seat 1 holds the spades, seat 0 two low trumps and no spade, seat 2
    the other trumps and no spade."""
    hands = [
        ["7H", "8H", *CLUBS[3:], *DIAMONDS[:4]],
        [*SPADES, *CLUBS[:3]],
        ["6H", *HEARTS[3:], *DIAMONDS[4:]],
    ]
    state, _ = table(hands, NO_PREMIUMS, trumps="H")
    state, _ = bid_all(state, {0: DIAMONDS[:3], 1: CLUBS[:3], 2: DIAMONDS[4:7]})
    state, _ = play(state, "AS")
    return state


def test_a_trump_beats_the_suit_led():
    state = _trump_table()
    state, _ = play(state, "6H")  # seat 2, out of spades, trumps the ace
    state, events = play(state, "9C")  # seat 0 need not over-trump
    assert of_type(events, TrickWon)[0].winner == 2


def test_the_highest_trump_wins():
    state = _trump_table()
    state, _ = play(state, "6H")
    state, events = play(state, "7H")  # over-trumped
    assert of_type(events, TrickWon)[0].winner == 0


def test_no_obligation_to_trump_or_to_beat():
    state = _trump_table()
    assert {a.card for a in legal_actions(state, 2)} == set(state.hands[2])  # void: anything
    state, _ = play(state, "KD")
    assert {a.card for a in legal_actions(state, 0)} == set(state.hands[0])
    state, events = play(state, "AC")
    assert of_type(events, TrickWon)[0].winner == 1


def test_trumps_led_are_followed_like_any_suit():
    state = _trump_table()
    state, _ = play(state, "6H")
    state, _ = play(state, "7H")
    # seat 0 won and leads its last trump: seat 1 has none, seat 2 must follow in hearts
    state, _ = play(state, "8H")
    assert {a.card for a in legal_actions(state, 1)} == set(state.hands[1])
    state, _ = play(state, "KS")
    assert {a.card for a in legal_actions(state, 2)} == {c for c in state.hands[2] if c[1] == "H"}
    state, events = play(state, "9H")
    assert of_type(events, TrickWon)[0].winner == 2


def test_nine_tricks_are_played_and_then_the_deal_is_scored():
    state = _follow_table()
    state, events = play_out(state)
    tricks = of_type(events, TrickWon)
    assert [t.trick for t in tricks] == list(range(1, 10))
    for before, after in itertools.pairwise(tricks):
        assert after.leader == before.winner
    (scored,) = of_type(events, DealScored)
    assert sum(scored.tricks) == 9
    assert list(scored.tricks) == [sum(t.winner == s for t in tricks) for s in range(3)]


def test_a_play_must_be_a_card_in_hand_and_only_then():
    state = _follow_table()
    with pytest.raises(errors.CardNotInHandError):
        act(state, 1, Play("AS"))
    state, _ = play_out(state)
    assert state.deal == 2 and state.phase is Phase.BIDDING
    with pytest.raises(WrongPhaseError) as caught:
        act(state, 1, Play(state.hands[1][0]))
    assert caught.value.code == "wrong_phase"
    assert all(isinstance(a, Bid) for a in legal_actions(state, 1))
