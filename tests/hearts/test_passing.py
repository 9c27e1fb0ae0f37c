"""Passing (rules reference, section 2 rule 2, and section 5): every seat chooses at once,
each choice hidden, even from its receiver, until all have chosen."""

import pytest

from cards.errors import MalformedActionError, WrongPhaseError
from hearts import errors
from hearts.actions import PassCards, PlayCard, action_from_json
from hearts.decide import legal_actions
from hearts.events import CardsPassed, PassesExchanged
from hearts.rules import Rules
from hearts.state import Phase
from hearts.views import redact_event, view_for
from tests.hearts.helpers import act, hands_with, table

CLASSIC = Rules.from_preset("hearts-classic")


def _passing(direction="left", rules=CLASSIC, players=4):
    return table(rules, hands_with(players, {}), direction=direction)[0]


def test_every_seat_passes_at_once():
    state = _passing()
    assert state.phase is Phase.PASSING and state.seats_to_act() == (0, 1, 2, 3)
    assert len(legal_actions(state, 2)) == 286  # 13 choose 3
    with pytest.raises(WrongPhaseError):
        act(state, 0, PlayCard(state.hands[0][0]))
    state, events = act(state, 2, PassCards(state.hands[2][:3]))
    assert events == [CardsPassed(2, 3, state.hands[2][:3])]
    assert state.seats_to_act() == (0, 1, 3) and legal_actions(state, 2) == []
    with pytest.raises(errors.AlreadyPassedError):
        act(state, 2, PassCards(state.hands[2][3:6]))
    with pytest.raises(errors.CardNotInHandError):
        act(state, 0, PassCards(state.hands[1][:3]))


@pytest.mark.parametrize("pick", [(0, 0, 0), (0, 0, 1), (0,), (0, 1), (0, 1, 2, 3)])
def test_a_pass_is_three_different_cards(pick):
    """Read from JSON such a pass is malformed; made in the engine (or found in a stored
    log) it is refused too, so no deal ever holds a card twice."""
    state = _passing()
    with pytest.raises(errors.NotThreeCardsError) as refused:
        act(state, 0, PassCards(tuple(state.hands[0][i] for i in pick)))
    assert refused.value.code == "not_three_cards"


@pytest.mark.parametrize(
    "data",
    [
        {"type": "pass", "cards": ["XR", "2C", "3C"]},
        {"type": "pass", "cards": ["2C", "3C", "1Z"]},
        {"type": "play", "card": "XB"},
    ],
)
def test_a_card_hearts_has_no_place_for_is_malformed(data):
    """A joker is a card code of the platform's deck but no card of Hearts: read from JSON,
    an action naming one is malformed (a clear 400), not an error of the server."""
    with pytest.raises(MalformedActionError):
        action_from_json(data)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"type": "pass", "cards": ["2C", "10H", "3C"]}, "'10H' is not a card code"),
        ({"type": "pass", "cards": ["2C", "qs", "3C"]}, "'qs' is not a card code"),
        ({"type": "pass", "cards": ["2C", 7, "3C"]}, "each of 'cards' must be a card code"),
        ({"type": "pass", "cards": ["2C", "2C", "3C"]}, "three different card codes"),
        ({"type": "pass", "cards": ["2C", "3C"]}, "three different card codes"),
        ({"type": "play", "card": "ZZ"}, "'ZZ' is not a card code"),
        ({"type": "play"}, "'card' must be a card code"),
    ],
)
def test_a_malformed_card_is_named_in_the_message(data, said):
    with pytest.raises(MalformedActionError) as refused:
        action_from_json(data)
    assert said in str(refused.value), str(refused.value)


def test_a_pass_is_hidden_until_everyone_has_chosen():
    state = _passing()
    chosen = state.hands[0][-3:]
    state, events = act(state, 0, PassCards(chosen))
    passed = events[0]
    # the passer sees its choice; the receiver (seat 1), the others and spectators do not
    assert redact_event(passed, 0, match_ended=False)["cards"] == list(chosen)
    for viewer in (1, 2, 3, None):
        assert redact_event(passed, viewer, match_ended=False)["cards"] == [None] * 3
        assert view_for(state, viewer).to_json()["pass"] is None
    assert view_for(state, 0).to_json()["pass"] == {
        "cards": list(chosen),
        "to": 1,
        "received": None,
        "from": None,
    }
    assert view_for(state, 1).passes_chosen == (True, False, False, False)
    assert redact_event(passed, 1, match_ended=True)["cards"] == list(chosen)


def test_when_all_have_chosen_each_set_goes_to_its_receiver():
    state = _passing()
    before = state.hands
    chosen = {}
    for seat in range(4):
        chosen[seat] = state.hands[seat][:3]
        state, events = act(state, seat, PassCards(chosen[seat]))
    exchanged = next(e for e in events if isinstance(e, PassesExchanged))
    assert exchanged.passes == tuple(chosen[s] for s in range(4))
    assert state.phase is Phase.PLAYING
    for seat in range(4):
        giver = (seat - 1) % 4
        assert set(chosen[giver]) <= set(state.hands[seat])
        assert not set(chosen[seat]) & set(state.hands[seat])
        assert len(state.hands[seat]) == 13 and set(before[seat]) - set(chosen[seat]) <= set(
            state.hands[seat]
        )
        view = view_for(state, seat).to_json()
        assert view["pass"] == {
            "cards": list(chosen[seat]),
            "to": (seat + 1) % 4,
            "received": list(chosen[giver]),
            "from": giver,
        }
        shown = redact_event(exchanged, seat, match_ended=False)["passes"]
        for other in range(4):
            expected = list(chosen[other]) if other in (seat, giver) else [None] * 3
            assert shown[other] == expected
    for outsider in (None, 4, -1):  # a spectator, or a seat not at the table: no pass
        assert redact_event(exchanged, outsider, match_ended=False)["passes"] == [[None] * 3] * 4
    holder = next(s for s in range(4) if "2C" in state.hands[s])
    assert state.to_act == holder


@pytest.mark.parametrize(
    ("direction", "players", "receiver"),
    [("left", 4, 1), ("right", 4, 3), ("across", 4, 2), ("left", 3, 1), ("right", 5, 4)],
)
def test_pass_directions(direction, players, receiver):
    rules = Rules.from_preset("hearts", passing="rotate")
    state = _passing(direction, rules, players)
    state, events = act(state, 0, PassCards(state.hands[0][:3]))
    assert events[0].to == receiver


def test_a_hold_deal_has_no_passing():
    state = _passing("hold")
    assert state.phase is Phase.PLAYING
