"""Undo (golf rules reference, section 7, applied to Hearts): the lone human among COMs may
take back its last card and the COM plays after it; undo never un-sees."""

import random

import pytest

from hearts import errors
from hearts.actions import PlayCard, Undo
from hearts.decide import legal_actions
from hearts.events import Undone
from hearts.hidden import resample_hidden
from hearts.rules import Rules
from hearts.snapshot import state_from_json, state_to_json
from hearts.views import view_for
from tests.hearts.helpers import act, hands_with, play, table

UNDO = Rules.from_preset("hearts", undo=True)
PLAYERS = ["human", "com", "com", "com"]
LEADS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]


def _start():
    hands = hands_with(4, {0: LEADS})
    return table(UNDO, hands, PLAYERS)[0]


def _coms_play(state):
    while state.to_act not in (0, None):
        state = play(state, legal_actions(state, state.to_act)[0].card)
    return state


def test_undo_takes_back_the_human_card_and_the_com_plays_after_it():
    state = _start()
    before = state
    state = play(state, "2C")
    state = _coms_play(state)  # the trick is taken; seat 0 won it and leads again
    assert state.to_act == 0 and Undo() in legal_actions(state, 0)
    state, events = act(state, 0, Undo())
    assert events == [Undone(0, 5)]
    assert state.hands == before.hands and state.trick == () and state.tricks == ()
    assert state.to_act == 0 and Undo() not in legal_actions(state, 0)
    with pytest.raises(errors.UndoNotAvailableError):
        act(state, 0, Undo())


def test_undo_never_un_sees():
    state = _start()
    state = play(state, "2C")
    state = _coms_play(state)
    com_cards = {(s, state.tricks[0].cards[s]) for s in (1, 2, 3)}
    state, _ = act(state, 0, Undo())
    view = view_for(state, 0)
    assert set(view.seen) == com_cards
    assert view.to_json()["seen"] == [{"seat": s, "card": c} for s, c in sorted(com_cards)]
    for viewer in (None, 1, 2, 3):
        assert view_for(state, viewer).seen == ()
    # the cards the human has seen stay where they are when the hidden cards are redrawn
    other = resample_hidden(state, 0, random.Random(1))
    for seat, card in com_cards:
        assert card in other.hands[seat]
    assert view_for(other, 0) == view
    # redrawn for another seat, each mark still names a card its seat holds, in the undo
    # point too (a state that seat cannot tell apart is one real play could reach)
    for viewer in (None, 1, 2, 3):
        for seed in range(5):
            other = resample_hidden(state, viewer, random.Random(seed))
            assert view_for(other, viewer) == view_for(state, viewer)
            for each in (other, other.undo_point):
                assert len(each.seen) == 3
                assert all(card in each.hands[seat] for seat, card in each.seen)
    assert state_from_json(state_to_json(state)) == state
    # played again, a seen card is public: no longer a mark
    state = play(state, "2C")
    seat, card = min(com_cards)
    state = play(state, card)
    assert (seat, card) not in view_for(state, 0).seen and len(view_for(state, 0).seen) == 2


def test_undo_is_off_by_default_and_only_for_the_lone_human():
    hands = hands_with(4, {0: LEADS})
    state = table(Rules.from_preset("hearts"), hands, PLAYERS)[0]
    state = play(state, "2C")
    with pytest.raises(errors.UndoNotAvailableError):
        act(state, 0, Undo())
    state = table(UNDO, hands, PLAYERS)[0]
    state = play(state, "2C")
    with pytest.raises(errors.UndoNotAvailableError):
        act(state, 1, Undo())


def test_a_scored_deal_cannot_be_taken_back():
    hands = hands_with(4, {0: LEADS})
    state = table(UNDO.with_overrides(max_deals=2), hands, PLAYERS)[0]
    while state.deal == 1:
        seat = state.to_act
        state = act(state, seat, PlayCard(legal_actions(state, seat)[0].card))[0]
    assert Undo() not in legal_actions(state, 0)
