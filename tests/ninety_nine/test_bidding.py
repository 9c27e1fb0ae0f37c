"""Rules reference, section 2, step 2: the bid. Every seat lays three cards aside at once,
unseen by the others; the bid cards count by suit (clubs 3, hearts 2, spades 1, diamonds
0) and their sum is the contract."""

import pytest

from cards.errors import MalformedActionError, NotYourTurnError, WrongPhaseError
from ninety_nine import errors
from ninety_nine.actions import Bid, Pass, Play, action_from_json
from ninety_nine.decide import legal_actions, start_match
from ninety_nine.events import BidMade, DealScored
from ninety_nine.pack import SUIT_VALUE, contract_of
from ninety_nine.rules import Rules
from ninety_nine.state import Phase, replay
from ninety_nine.views import redact_event, view_for
from tests.ninety_nine.helpers import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    act,
    call_all,
    hands_with,
    lead_spades,
    of_type,
    runaway,
    table,
)


# --- the bid encoding ---------------------------------------------------------------------
def test_each_suit_counts_clubs_3_hearts_2_spades_1_diamonds_0():
    assert SUIT_VALUE == {"C": 3, "H": 2, "S": 1, "D": 0}
    assert contract_of(["6C", "AC", "KC"]) == 9
    assert contract_of(["6H", "AH", "KH"]) == 6
    assert contract_of(["6S", "AS", "KS"]) == 3
    assert contract_of(["6D", "AD", "KD"]) == 0
    assert contract_of(["AC", "6H", "QD"]) == 5  # the rank never counts
    assert contract_of(["6C", "6S", "6D"]) == 4


@pytest.mark.parametrize(
    ("bid", "contract"),
    [
        (["9C", "TC", "JC"], 9),
        (["9C", "TC", "6H"], 8),
        (["9C", "7H", "6H"], 7),
        (["9C", "TC", "6D"], 6),
        (["9C", "6H", "6D"], 5),
        (["6H", "7H", "6D"], 4),
        (["9C", "6D", "7D"], 3),
        (["6H", "6D", "7D"], 2),
        (["6D", "7D", "8D"], 0),
    ],
)
def test_the_engine_reads_the_contract_off_the_bid_cards(bid, contract):
    hands = hands_with({0: [*bid, *(c for c in CLUBS + HEARTS + DIAMONDS if c not in bid)][:12]})
    state, _ = table(hands)
    state, _ = act(state, 0, Bid(tuple(bid)))
    assert state.contracts[0] == contract
    assert view_for(state, 0).contracts[0] == contract


def test_a_hand_of_every_suit_can_bid_every_contract_from_0_to_9():
    hands = hands_with({0: [*CLUBS[:3], *HEARTS[:3], *SPADES[:3], *DIAMONDS[:3]]})
    state, _ = table(hands)
    contracts = {contract_of(a.cards) for a in legal_actions(state, 0) if isinstance(a, Bid)}
    assert contracts == set(range(10))
    only_diamonds = hands_with({1: [*DIAMONDS, *CLUBS[:3]]})
    state, _ = table(only_diamonds)
    contracts = {contract_of(a.cards) for a in legal_actions(state, 1) if isinstance(a, Bid)}
    assert contracts == {0, 3, 6, 9}


# --- simultaneous bidding -----------------------------------------------------------------
def test_every_seat_bids_at_once_with_all_220_choices():
    state = replay(start_match(Rules(), ["human", "com", "human"], bytes(32)))
    assert state.phase is Phase.BIDDING
    assert state.seats_to_act() == (0, 1, 2)
    for seat in range(3):
        bids = legal_actions(state, seat)
        assert len(bids) == 220 and len(set(bids)) == 220
        assert all(isinstance(b, Bid) and set(b.cards) <= set(state.hands[seat]) for b in bids)
        assert view_for(state, seat).seats_to_act == (0, 1, 2)


def test_bids_come_in_any_order_and_give_the_same_state():
    start = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
    chosen = {s: legal_actions(start, s)[17 * s] for s in range(3)}
    finals = []
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        state = start
        for seat in order:
            state, _ = act(state, seat, chosen[seat])
        finals.append(state)
    assert finals[0] == finals[1] == finals[2]
    assert finals[0].phase is Phase.PREMIUM


def test_each_bid_is_hidden_from_the_others_until_all_have_bid_and_after():
    state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
    bid = legal_actions(state, 2)[5]
    assert isinstance(bid, Bid)
    state, events = act(state, 2, bid)
    (made,) = of_type(events, BidMade)
    assert state.seats_to_act() == (0, 1)
    for viewer in (None, 0, 1):
        view = view_for(state, viewer)
        assert view.has_bid == (False, False, True)
        assert view.bid_cards[2] is None and view.contracts[2] is None
        assert view.hand_sizes == (12, 12, 9)
        assert redact_event(made, viewer, match_ended=False)["cards"] == [None] * 3
        shown = str(view.to_json())
        assert not any(f"'{c}'" in shown for c in bid.cards)
    mine = view_for(state, 2)
    assert mine.bid_cards[2] == bid.cards and mine.contracts[2] == contract_of(bid.cards)
    assert redact_event(made, 2, match_ended=False)["cards"] == list(bid.cards)
    # everyone bids: still face down (no premium bid)
    for seat in (0, 1):
        state, _ = act(state, seat, legal_actions(state, seat)[0])
    state, _ = call_all(state)
    assert state.phase is Phase.PLAYING
    for viewer in (None, 0, 1):
        assert view_for(state, viewer).bid_cards[2] is None


def test_the_nine_cards_left_are_the_hand_played():
    state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
    dealt = state.hands[0]
    bid = legal_actions(state, 0)[100]
    state, _ = act(state, 0, bid)
    assert len(state.hands[0]) == 9 and set(state.hands[0]) | set(bid.cards) == set(dealt)
    assert state.dealt[0] == dealt


def test_a_bid_is_three_different_cards_of_your_own_hand_once():
    state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
    own, other = state.hands[0], state.hands[1]
    with pytest.raises(errors.CardNotInHandError) as caught:
        act(state, 0, Bid((own[0], own[1], other[0])))
    assert caught.value.code == "card_not_in_hand"
    with pytest.raises(errors.NotThreeCardsError) as caught:
        act(state, 0, Bid((own[0], own[0], own[1])))
    assert caught.value.code == "not_three_cards"
    with pytest.raises(errors.NotThreeCardsError):
        act(state, 0, Bid((own[0], own[1])))
    state, _ = act(state, 0, Bid((own[3], own[1], own[2])))
    assert state.bids[0] == (own[1], own[2], own[3])  # kept in the pack's order
    with pytest.raises(errors.AlreadyBidError) as caught:
        act(state, 0, Bid(state.hands[0][:3]))
    assert caught.value.code == "already_bid"
    assert legal_actions(state, 0) == []


def test_no_play_or_premium_call_before_everyone_has_bid():
    state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
    with pytest.raises(WrongPhaseError):
        act(state, 1, Play(state.hands[1][0]))
    with pytest.raises(WrongPhaseError):
        act(state, 1, Pass())


def test_no_bid_after_the_bidding():
    state, _ = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: DIAMONDS[3:6]})
    state, _ = call_all(state)
    with pytest.raises(WrongPhaseError):
        act(state, 0, Bid(state.hands[0][:3]))
    with pytest.raises(NotYourTurnError):
        act(state, 0, Play(state.hands[0][0]))


def test_bid_json():
    assert action_from_json({"type": "bid", "cards": ["9D", "AC", "6H"]}) == Bid(("AC", "6H", "9D"))
    for bad in (
        {"type": "bid", "cards": ["9D", "AC"]},
        {"type": "bid", "cards": ["9D", "9D", "AC"]},
        {"type": "bid", "cards": ["2D", "AC", "KC"]},
        {"type": "bid", "cards": "9D AC 6H"},
        {"type": "bid"},
        {"type": "bid", "cards": ["9D", "AC", "6H"], "card": "AS"},
    ):
        with pytest.raises(MalformedActionError):
            action_from_json(bad)


def test_the_contracts_decide_who_made_it():
    # seat 1 takes all nine tricks: its three clubs bid 9, the others' diamonds bid 0
    state, _ = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: ["6H", "9D", "TD"]})
    assert state.contracts == (2, 9, 0)
    state, _ = call_all(state)
    state, events = lead_spades(state)
    (scored,) = of_type(events, DealScored)
    assert scored.tricks == (0, 9, 0)
    assert scored.made == (False, True, True)


def test_bids_of_a_fresh_deal_start_empty():
    state, _ = runaway(1, CLUBS[:3], {2: DIAMONDS[:3], 0: DIAMONDS[3:6]})
    state, _ = call_all(state)
    state, _ = lead_spades(state)
    assert state.deal == 2 and state.phase is Phase.BIDDING
    assert state.bids == ((), (), ()) and state.seats_to_act() == (0, 1, 2)


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ({"type": "play"}, "needs its 'card'"),
        ({"type": "play", "card": None}, "a card is a card code"),
        ({"type": "play", "card": 7}, "a card is a card code"),
        ({"type": "play", "card": "2C"}, "'2C' is not a card of the pack"),
        ({"type": "play", "card": "X" * 500}, "'XXXXXXXX' is not a card of the pack"),
    ],
)
def test_a_malformed_play_says_what_is_wrong_in_words(bad, says):
    with pytest.raises(MalformedActionError) as refused:
        action_from_json(bad)
    assert says in str(refused.value) and "None" not in str(refused.value)
    assert len(str(refused.value)) < 100  # a long string sent is not echoed whole
