"""Every rule of a hole, played on tables whose deal the test chooses."""

from dataclasses import replace

import pytest

from golf import (
    DiscardDrawn,
    DrawFromStock,
    RevealCard,
    Rules,
    SwapCard,
    TakeDiscard,
    decide,
    legal_actions,
    replay,
    start_match,
)
from golf import errors as e
from golf.actions import Next
from golf.state import Phase
from tests.golf.helpers import SEED, act, flip_all, names, table

SIX = Rules.from_preset("six-card")
GRID_A = ["AS", "2S", "3S", "4S", "5S", "6S"]
GRID_B = ["AH", "2H", "3H", "4H", "5H", "6H"]
STOCK = ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "7D", "8D", "9D", "TD", "JD"]


def two_seats(rules=SIX, stock=STOCK, discard="KD"):
    state, _ = table(rules, [GRID_A, GRID_B], discard, stock)
    return state


# --- initial flips ------------------------------------------------------------------------
def test_initial_flips_come_first_in_any_order():
    state = two_seats()
    assert state.phase is Phase.FLIPS and state.seats_to_act() == (0, 1)
    state, events = act(state, 1, RevealCard(5))
    assert names(events) == ["card_revealed"] and events[0].card == "6H"
    state, _ = act(state, 0, RevealCard(0))
    state, _ = act(state, 1, RevealCard(4))
    assert state.seats_to_act() == (0,)
    with pytest.raises(e.NoFlipsLeftError):
        decide(state, 1, RevealCard(0))
    with pytest.raises(e.WrongPhaseError):
        decide(state, 0, DrawFromStock())
    with pytest.raises(e.CardAlreadyFaceUpError):
        decide(state, 0, RevealCard(0))
    with pytest.raises(e.PositionOutOfRangeError):
        decide(state, 0, RevealCard(6))
    with pytest.raises(e.PositionOutOfRangeError):
        decide(state, 0, RevealCard(-1))
    state, _ = act(state, 0, RevealCard(3))
    assert state.phase is Phase.DRAW and state.to_act == 0  # seat after the dealer (1)


def test_no_initial_flips():
    state, _ = table(SIX.with_overrides(initial_flips=0), [GRID_A, GRID_B], "KD", STOCK)
    assert state.phase is Phase.DRAW and state.to_act == 0


# --- a turn -------------------------------------------------------------------------------
def test_draw_then_swap_places_the_card_face_up_and_discards_the_replaced_one():
    state = flip_all(two_seats())
    with pytest.raises(e.NotYourTurnError):
        decide(state, 1, DrawFromStock())
    with pytest.raises(e.MustDrawFirstError):
        decide(state, 0, SwapCard(2))
    state, events = act(state, 0, DrawFromStock())
    assert names(events) == ["card_drawn"] and events[0].card == "7C"
    assert state.stock == tuple(STOCK[1:]) and state.drawn == "7C"
    with pytest.raises(e.AlreadyDrawnError):
        decide(state, 0, TakeDiscard())
    state, events = act(state, 0, SwapCard(4))
    assert events[0].replaced == "5S"
    assert state.grids[0][4] == "7C" and state.face_up[0][4]
    assert state.discard == ("KD", "5S")
    assert state.to_act == 1 and state.phase is Phase.DRAW


def test_swapping_into_a_face_up_position_is_allowed():
    state = flip_all(two_seats())
    state, _ = act(state, 0, DrawFromStock())
    state, events = act(state, 0, SwapCard(0))
    assert events[0].replaced == "AS" and state.discard[-1] == "AS"


def test_a_taken_discard_must_be_swapped():
    state = flip_all(two_seats())
    state, _ = act(state, 0, TakeDiscard())
    assert state.drawn == "KD" and state.discard == ()
    assert DiscardDrawn() not in legal_actions(state, 0)
    with pytest.raises(e.MustSwapTakenDiscardError):
        decide(state, 0, DiscardDrawn())
    state, _ = act(state, 0, SwapCard(2))
    assert state.grids[0][2] == "KD"


def test_the_taken_discard_may_be_thrown_back_when_the_rules_allow():
    state = flip_all(two_seats(Rules.from_preset("six-card-instant")))
    state, _ = act(state, 0, TakeDiscard())
    assert DiscardDrawn() in legal_actions(state, 0)
    with pytest.raises(e.FlipNotAllowedError):
        decide(state, 0, DiscardDrawn(flip=3))
    state, _ = act(state, 0, DiscardDrawn())
    assert state.discard == ("KD",) and state.to_act == 1


def test_taking_the_discard_refills_the_pile_with_the_replaced_card():
    state = flip_all(two_seats())
    state, _ = act(state, 0, TakeDiscard())
    state, _ = act(state, 0, SwapCard(2))
    state, _ = act(state, 1, TakeDiscard())  # takes 3S, pile now empty
    state, _ = act(state, 1, SwapCard(0))
    assert state.discard == ("AH",)


def test_an_empty_discard_pile_cannot_be_taken():
    # play never starts a turn on an empty pile; a state built with one must still refuse
    state = replace(flip_all(two_seats()), discard=())
    assert TakeDiscard() not in legal_actions(state, 0)
    with pytest.raises(e.DiscardPileEmptyError):
        decide(state, 0, TakeDiscard())


def test_flip_on_discard_never():
    state = flip_all(two_seats())
    state, _ = act(state, 0, DrawFromStock())
    assert legal_actions(state, 0)[-1] == DiscardDrawn()
    with pytest.raises(e.FlipNotAllowedError):
        decide(state, 0, DiscardDrawn(flip=3))
    state, _ = act(state, 0, DiscardDrawn())
    assert state.discard == ("KD", "7C") and state.face_up[0] == (True, True) + (False,) * 4


def test_flip_on_discard_always():
    state = flip_all(two_seats(SIX.with_overrides(flip_on_discard="always")))
    state, _ = act(state, 0, DrawFromStock())
    assert DiscardDrawn() not in legal_actions(state, 0)
    assert DiscardDrawn(3) in legal_actions(state, 0)
    with pytest.raises(e.FlipRequiredError):
        decide(state, 0, DiscardDrawn())
    with pytest.raises(e.CardAlreadyFaceUpError):
        decide(state, 0, DiscardDrawn(flip=0))
    state, events = act(state, 0, DiscardDrawn(flip=3))
    assert (events[0].flip_position, events[0].flip_card) == (3, "4S")
    assert state.face_up[0][3]


def test_flip_on_discard_optional():
    state = flip_all(two_seats(SIX.with_overrides(flip_on_discard="optional")))
    state, _ = act(state, 0, DrawFromStock())
    legal = legal_actions(state, 0)
    assert DiscardDrawn() in legal and DiscardDrawn(5) in legal
    after, _ = act(state, 0, DiscardDrawn())
    assert not any(after.face_up[0][2:])
    after, _ = act(state, 0, DiscardDrawn(5))
    assert after.face_up[0][5]


# --- the end of a hole ----------------------------------------------------------------------
def finish_grid(state, seat, positions):
    """``seat`` draws and swaps into each of ``positions`` on its turns; the other seat
    draws and discards."""
    for p in positions:
        while state.to_act != seat:
            other = state.to_act
            state, _ = act(state, other, DrawFromStock())
            state, _ = act(state, other, DiscardDrawn())
        state, events = act(state, seat, DrawFromStock())
        state, events = act(state, seat, SwapCard(p))
    return state, events


def test_others_once_gives_every_other_seat_exactly_one_more_turn():
    grids = [GRID_A, GRID_B, ["AC", "2C", "3C", "4C", "5C", "6C"]]
    state, _ = table(SIX, grids, "KD", STOCK * 2)
    state = flip_all(state)
    state, events = finish_grid(state, 0, [2, 3, 4, 5])
    assert names(events)[-1] == "final_turns_began"
    assert (events[-1].seat, events[-1].turns_left) == (0, 2)
    assert state.to_act == 1 and state.final_turns_left == 2
    state, _ = act(state, 1, DrawFromStock())
    state, _ = act(state, 1, DiscardDrawn())
    assert state.to_act == 2
    state, _ = act(state, 2, DrawFromStock())
    state, events = act(state, 2, DiscardDrawn())
    # the hole is scored; the next deal waits for the humans' "next" (pause_between_holes)
    assert names(events)[1:] == ["hole_scored"] and state.phase is Phase.HOLE_OVER
    assert events[1].reason == "final_turns_done"
    assert state.hole_finishers == (0,)


def test_a_second_finisher_adds_no_turns():
    state, _ = table(SIX.with_overrides(initial_flips=5), [GRID_A, GRID_B], "KD", STOCK)
    state = flip_all(state, positions=(0, 1, 2, 3, 4))
    state, _ = act(state, 0, DrawFromStock())
    state, events = act(state, 0, SwapCard(5))
    assert names(events)[-1] == "final_turns_began"
    state, _ = act(state, 1, DrawFromStock())
    state, events = act(state, 1, SwapCard(5))  # seat 1 finishes too: the hole ends
    assert names(events)[1] == "hole_scored"


def test_instant_end_when_a_grid_is_complete():
    rules = Rules.from_preset("six-card-instant", initial_flips=5)
    state, _ = table(rules, [GRID_A, GRID_B], "KD", STOCK)
    state = flip_all(state, positions=(0, 1, 2, 3, 4))
    state, _ = act(state, 0, DrawFromStock())
    state, events = act(state, 0, SwapCard(5))
    assert names(events)[1] == "hole_scored" and events[1].reason == "grid_complete"
    # every card is scored face up: A 2 3 / 4 5 7C for seat 0
    assert events[1].grids[0] == ("AS", "2S", "3S", "4S", "5S", "7C")
    assert events[1].scores == (1 - 2 + 3 + 4 + 5 + 7, 1 - 2 + 3 + 4 + 5 + 6)


def test_the_turn_cap_ends_the_hole():
    state, _ = table(SIX.with_overrides(max_turns=3), [GRID_A, GRID_B], "KD", STOCK)
    state = flip_all(state)
    for _ in range(2):
        state, _ = act(state, state.to_act, DrawFromStock())
        state, _ = act(state, state.to_act, DiscardDrawn())
    state, _ = act(state, 0, DrawFromStock())
    state, events = act(state, 0, DiscardDrawn())
    assert events[1].name == "hole_scored" and events[1].reason == "max_turns"


def test_the_default_turn_cap_is_240():
    events = start_match(SIX.with_overrides(holes=1), 2, SEED)
    state = replay(events)
    turns = 0
    # both seats only ever draw and discard: no grid is ever completed
    state = flip_all(state)
    while not state.ended:
        seat = state.to_act
        state, _ = act(state, seat, DrawFromStock())
        state, events = act(state, seat, DiscardDrawn())
        turns += 1
    scored = next(ev for ev in events if ev.name == "hole_scored")
    assert scored.reason == "max_turns" and turns == 240


def test_an_empty_stock_is_refilled_from_the_discard_pile():
    state = flip_all(two_seats(stock=["7C", "8C"]))
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    state, _ = act(state, 1, DrawFromStock())
    state, events = act(state, 1, DiscardDrawn())
    assert names(events) == ["card_discarded", "stock_reshuffled"]
    assert sorted(events[1].stock) == ["7C", "KD"] and state.discard == ("8C",)
    # the reshuffle is derived from the seed: the same state gives the same order
    assert decide(state, 0, DrawFromStock())[0].card == events[1].stock[0]
    assert (events[1].hole, events[1].count) == (1, 0)


def test_the_hole_ends_when_the_stock_cannot_be_refilled():
    # given an empty stock and a discard pile of one card (nothing to reshuffle)
    state, _ = table(SIX.with_overrides(initial_flips=1), [GRID_A, GRID_B], "KD", [])
    state, _ = act(state, 0, RevealCard(0))
    # when the first turn would start
    state, events = act(state, 1, RevealCard(0))
    # then the hole is scored at once (and the next deal waits for both humans' "next")
    assert names(events) == ["card_revealed", "hole_scored"]
    assert events[1].reason == "stock_exhausted" and state.hole_finishers == (None,)
    state, _ = act(state, 0, Next())
    state, events = act(state, 1, Next())
    assert names(events) == ["hole_acknowledged", "hole_dealt"] and state.hole == 2
