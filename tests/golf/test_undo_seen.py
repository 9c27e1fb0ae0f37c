"""Undo never un-sees: what an undone turn showed the human stays visible, marked ``seen``."""

import json

import pytest

from cards.errors import IllegalActionError
from golf import (
    DiscardDrawn,
    DrawFromStock,
    Rules,
    SwapCard,
    Undo,
    view_for,
)
from golf.game import GOLF
from golf.snapshot import state_from_json, state_to_json
from golf.state import Phase, replay
from tests.golf.helpers import act, flip_all, table

UNDO = Rules.from_preset("six-card", undo=True)
FLIPS = UNDO.with_overrides(flip_on_discard="optional")
GRID_A = ["AS", "2S", "3S", "4S", "5S", "6S"]
GRID_B = ["AH", "2H", "3H", "4H", "5H", "6H"]
GRID_C = ["AC", "2C", "3C", "4C", "5C", "6C"]
STOCK = ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "7D", "8D", "9D"]


def start(rules=UNDO, grids=(GRID_A, GRID_B, GRID_C), stock=STOCK):
    """Seat 0 is the human, every other seat a COM; everyone turned up positions 0 and 1."""
    state, _ = table(rules, grids, "KD", stock, ["human"] + ["com"] * (len(grids) - 1))
    return flip_all(state)


def turn(state, seat, place):
    """``seat`` draws from the stock and plays ``place`` (a swap or a discard)."""
    state, _ = act(state, seat, DrawFromStock())
    return act(state, seat, place)[0]


def coms(state, *places):
    """Every COM's turn after the human's: each plays its ``places`` entry, else discards."""
    for seat in range(1, state.seats):
        place = places[seat - 1] if seat <= len(places) else DiscardDrawn()
        state = turn(state, seat, place)
    return state


def undo(state):
    state, events = act(state, 0, Undo())
    assert [e.name for e in events] == ["undone"]
    return state


def marks(state, seat=0):
    """What ``seat``'s view shows as seen: grid marks, the stock top, a drawn card."""
    view = view_for(state, seat).to_json()
    seen = {(m["seat"], m["position"]): m["card"] for m in view["seen"]}
    drawn = view["drawn"]["card"] if view["drawn_seen"] else None
    return seen, view["stock_seen"], drawn


NOTHING = ({}, [], None)


def assert_others_see_nothing(state):
    """The COMs' seats and a spectator see no mark; every grid still hides what is face down."""
    for seat in (*range(1, state.seats), None):
        assert marks(state, seat) == NOTHING
    for seat in (*range(state.seats), None):
        grids = view_for(state, seat).to_json()["grids"]
        assert [[card is not None for card in grid] for grid in grids] == [
            list(ups) for ups in state.face_up
        ]


def test_an_own_card_swapped_out_then_undone_stays_seen():
    state = start()
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, SwapCard(4))  # 5S goes face up onto the discard pile
    state = undo(coms(state))  # the COMs drew and discarded 8C and 9C
    view = view_for(state, 0).to_json()
    assert view["grids"][0] == ["AS", "2S", None, None, None, None]
    assert view["seen"] == [{"seat": 0, "position": 4, "card": "5S"}]
    assert view["stock_seen"] == ["8C", "9C"] and view["stock_size"] == 9
    assert view["drawn"] == {"seat": 0, "source": "stock", "card": "7C"}
    assert view["drawn_seen"] is False  # its own drawn card is simply shown
    assert_others_see_nothing(state)
    json.dumps(view)


def test_an_own_card_flipped_on_discard_then_undone_stays_seen():
    state = start(FLIPS)
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn(flip=3))
    state = undo(coms(state))
    assert not state.face_up[0][3]
    assert marks(state) == ({(0, 3): "4S"}, ["8C", "9C"], None)
    assert_others_see_nothing(state)


def test_a_com_card_swapped_out_or_flipped_then_undone_stays_seen():
    state = start(FLIPS)
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    # COM 1 swaps 8C in for 6H; COM 2 discards 9C and turns up 5C
    state = undo(coms(state, SwapCard(5), DiscardDrawn(flip=4)))
    assert not state.face_up[1][5] and not state.face_up[2][4]
    assert marks(state) == ({(1, 5): "6H", (2, 4): "5C"}, ["8C", "9C"], None)
    assert_others_see_nothing(state)


def test_a_known_stock_card_stays_shown_while_a_com_holds_it():
    state = start()
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    state = undo(coms(state))
    state, _ = act(state, 0, DiscardDrawn())
    state, _ = act(state, 1, DrawFromStock())
    assert marks(state) == ({}, ["9C"], "8C")
    assert view_for(state, 0).to_json()["drawn"] == {"seat": 1, "source": "stock", "card": "8C"}
    assert_others_see_nothing(state)
    assert view_for(state, 2).to_json()["drawn"]["card"] is None
    state, _ = act(state, 1, DiscardDrawn())
    assert marks(state) == ({}, ["9C"], None)
    state, _ = act(state, 2, DrawFromStock())
    assert marks(state) == ({}, [], "9C")
    state, _ = act(state, 2, DiscardDrawn())
    state, _ = act(state, 0, DrawFromStock())  # TC was never shown
    assert marks(state) == NOTHING and not state.drawn_seen


def test_a_card_a_com_still_holds_at_the_undo_was_not_shown():
    state = start()
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    state, _ = act(state, 1, DrawFromStock())  # the COM holds 8C: only it sees the card
    state = undo(state)
    assert marks(state) == NOTHING


def test_undoing_twice_keeps_both_marks():
    state = start()
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, SwapCard(4))
    state = undo(coms(state))
    # undo again to the same point, after a different swap
    state, _ = act(state, 0, SwapCard(5))
    state = undo(state)
    assert marks(state) == ({(0, 4): "5S", (0, 5): "6S"}, ["8C", "9C"], None)
    # a swap over a seen card takes its mark away, but undoing brings it back
    state, _ = act(state, 0, SwapCard(4))
    assert marks(state)[0] == {(0, 5): "6S"}
    state = undo(state)
    assert marks(state) == ({(0, 4): "5S", (0, 5): "6S"}, ["8C", "9C"], None)
    # a new draw makes a new undo point, which keeps the marks too
    state, _ = act(state, 0, DiscardDrawn())
    state = coms(state)
    state, _ = act(state, 0, DrawFromStock())  # TC
    state, _ = act(state, 0, SwapCard(3))
    state = undo(coms(state))
    assert marks(state) == ({(0, 3): "4S", (0, 4): "5S", (0, 5): "6S"}, ["JC", "QC"], None)
    assert_others_see_nothing(state)


def test_a_seen_card_turned_up_or_swapped_out_is_no_longer_marked():
    state = start(FLIPS)
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn(flip=3))
    state = undo(coms(state, SwapCard(5)))
    assert marks(state)[0] == {(0, 3): "4S", (1, 5): "6H"}
    state, _ = act(state, 0, DiscardDrawn(flip=3))  # the seen card is face up: public
    assert marks(state)[0] == {(1, 5): "6H"}
    assert view_for(state, 1).to_json()["grids"][0][3] == "4S"
    state = turn(state, 1, SwapCard(5))  # the COM swaps its seen card out
    assert marks(state)[0] == {} and state.seen == ()
    assert state.discard[-1] == "6H"


def test_the_whole_stock_is_known_after_a_reshuffle_in_the_undone_turns():
    grids = (GRID_A, GRID_B, GRID_C, ["AD", "2D", "3D", "4D", "5D", "6D"])
    state = start(grids=grids, stock=["7C", "8C", "9C"])
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    # COM 1 discards 8C, COM 2 swaps 9C in for 5C, the stock is reshuffled, and COM 3
    # discards the first card of the new stock
    state = coms(state, DiscardDrawn(), SwapCard(4))
    assert state.reshuffles == 1
    state = undo(state)
    assert state.reshuffles == 0 and state.stock == ("8C", "9C")
    assert marks(state) == ({(2, 4): "5C"}, ["8C", "9C"], None)


def test_a_card_code_twice_in_play_is_marked_only_where_it_was_seen():
    two = UNDO.with_overrides(decks=2)
    state = start(two, grids=(GRID_A, GRID_A, GRID_C))
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, SwapCard(4))
    state = undo(coms(state))
    assert marks(state)[0] == {(0, 4): "5S"}
    assert view_for(state, 0).to_json()["grids"][1][4] is None


def test_marks_survive_a_snapshot_and_older_snapshots_load_with_nothing_seen():
    state = start()
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, SwapCard(4))
    state = undo(coms(state))
    state, _ = act(state, 0, DiscardDrawn())
    state, _ = act(state, 1, DrawFromStock())
    assert state.seen and state.stock_seen and state.drawn_seen
    assert state.undo_point is not None and state.undo_point.seen == state.seen
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    for name in ("seen", "stock_seen", "drawn_seen"):
        del data[name]
        del data["undo_point"][name]
    older = state_from_json(data)
    assert older.phase is Phase.PLACE and marks(older) == NOTHING


def test_a_seat_handed_to_a_com_is_not_given_back_by_an_undo():
    """An undo returns the state to the undo point, seats and all: one made before a seat
    was handed to a COM would have given the seat back to the player who had gone."""
    rules = UNDO.with_overrides(local=True)  # (every human seat may undo)
    state, _ = table(rules, (GRID_A, GRID_B, GRID_C), "KD", STOCK, ["human", "human", "com"])
    state, _ = act(flip_all(state), 0, DrawFromStock())
    assert state.undo_point is not None
    state = replay(GOLF.hand_over(state, 1), state)  # (its player left, say)
    assert state.players == ("human", "com", "com") and state.undo_point is None
    with pytest.raises(IllegalActionError) as refused:
        act(state, 0, Undo())
    assert refused.value.code == "undo_not_available"
    state = act(state, 0, DiscardDrawn())[0]
    assert state.players == ("human", "com", "com")
