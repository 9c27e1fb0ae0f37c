"""Toy's own rules; the protocol as a whole is checked by ``tests/contract``."""

from __future__ import annotations

import random

import pytest

from cards.errors import MalformedActionError, MatchOverError, NotYourTurnError, RulesError
from cards.shuffle import commitment_of, shuffle_cards
from tests.toy import TOY
from tests.toy.engine import (
    DECK,
    CardNotInHandError,
    Dealt,
    MatchStarted,
    PlayCard,
    State,
    replay,
    strength,
)

SEED = bytes(range(32))


def table(*hands: tuple[str, ...]) -> State:
    """A match right after a deal of ``hands`` (not the seed's: for rule tests only)."""
    rules = TOY.rules("quick", {"hand_size": len(hands[0])})
    started = MatchStarted(rules, ("human",) * len(hands), SEED.hex(), commitment_of(SEED))
    return replay([started, Dealt(tuple(hands))])


def play(state: State, *cards: str) -> State:
    for card in cards:
        (seat,) = TOY.seats_to_act(state)
        state = TOY.replay(TOY.decide(state, seat, PlayCard(card)), state)
    return state


def test_the_deck_and_the_order_of_cards() -> None:
    assert len(DECK) == len(set(DECK)) == 20
    ordered = sorted(DECK, key=strength, reverse=True)
    assert ordered[:5] == ["AS", "AH", "AD", "AC", "KS"]
    assert ordered[-1] == "TC"


def test_the_deal_comes_from_the_seed() -> None:
    events = TOY.start(TOY.rules("long", {}), ["human", "com", "com"], SEED)
    deck = shuffle_cards(SEED, "toy/deal", DECK)
    assert events[1] == Dealt((tuple(deck[0:5]), tuple(deck[5:10]), tuple(deck[10:15])))
    assert TOY.audit(events).deals_checked == 1


def test_the_highest_card_wins_and_leads_next() -> None:
    state = play(table(("KH", "TC"), ("KS", "AD")), "KH", "KS")
    assert state.totals == (0, 1) and state.leader == 1
    assert TOY.seats_to_act(state) == (1,)
    state = play(state, "AD", "TC")
    summary = TOY.summary(state)
    assert summary.status == "finished" and summary.totals == (0, 2) and summary.winners == (1,)


def test_ties_are_shared() -> None:
    state = play(table(("AS", "TC"), ("KS", "AD")), "AS", "KS", "TC", "AD")
    assert TOY.summary(state).winners == (0, 1)


def test_refusals_have_codes() -> None:
    state = table(("AS", "TC"), ("KS", "AD"))
    with pytest.raises(NotYourTurnError):
        TOY.decide(state, 1, PlayCard("KS"))
    with pytest.raises(CardNotInHandError) as caught:
        TOY.decide(state, 0, PlayCard("KS"))
    assert caught.value.code == "card_not_in_hand"
    over = TOY.replay(TOY.abort(state, "test"), state)
    with pytest.raises(MatchOverError):
        TOY.decide(over, 0, PlayCard("AS"))
    for data in (None, {"type": "play"}, {"type": "play", "card": "2S"}, {"type": "pass"}):
        with pytest.raises(MalformedActionError):
            TOY.action_from_json(data)


@pytest.mark.parametrize(
    ("preset", "overrides", "field"),
    [
        ("quick", {"hand_size": 0}, "hand_size"),
        ("quick", {"hand_size": 6}, "hand_size"),
        ("quick", {"hand_size": True}, "hand_size"),
        ("quick", {"hand_size": "3"}, "hand_size"),
        ("quick", {"colour": "red"}, "colour"),
        ("quick", {"preset": "long"}, "preset"),
        ("short", {}, "preset"),
    ],
)
def test_rules_errors_name_the_option(
    preset: str, overrides: dict[str, object], field: str
) -> None:
    with pytest.raises(RulesError) as caught:
        TOY.rules(preset, overrides)
    assert caught.value.field == field


def test_a_seat_sees_its_own_hand_only() -> None:
    events = TOY.start(TOY.rules("quick", {}), ["human", "human"], SEED)
    state = TOY.replay(events)
    mine, spectator = TOY.view(state, 0), TOY.view(state, None)
    assert mine["hand"] == list(state.hands[0]) and mine["hand_sizes"] == [3, 3]
    assert spectator["hand"] == [] and spectator["legal_actions"] == []
    dealt = TOY.redact(events[1], 1, match_ended=False)
    assert dealt["hands"] == [[None] * 3, list(state.hands[1])]
    assert TOY.redact(events[0], 1, match_ended=False)["seed"] is None
    assert TOY.redact(events[0], 1, match_ended=True)["seed"] == SEED.hex()


def test_resampling_keeps_what_the_seat_knows() -> None:
    state = play(table(("AS", "TC", "JH"), ("KS", "AD", "QD"), ("TS", "TD", "TH")), "AS")
    seen_elsewhere: set[str] = set()
    for n in range(30):
        other = TOY.resample_hidden(state, 1, random.Random(n))
        assert other.hands[1] == state.hands[1] and other.table == state.table
        assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
        assert "AS" not in {c for h in other.hands for c in h}
        seen_elsewhere.update(other.hands[0] + other.hands[2])
    assert len(seen_elsewhere) > 5  # undealt cards too, not just the other hands'


def test_the_high_com_and_the_hint() -> None:
    state = table(("QS", "TC", "AH"), ("KS", "JD", "AD"))
    assert TOY.com_action(state, 0, "high", random.Random(0)) == PlayCard("AH")
    state = play(state, "QS")
    assert TOY.com_action(state, 1, "high", random.Random(0)) == PlayCard("KS")
    assert TOY.hint(state, 1)["action"] == {"type": "play", "card": "KS"}
    state = play(table(("AS", "TC"), ("KS", "JD")), "AS")
    hint = TOY.hint(state, 1)
    assert hint["action"] == {"type": "play", "card": "JD"}
    assert "lowest" in hint["reason"]


def test_the_audit_recomputes_the_deal() -> None:
    events = TOY.start(TOY.rules("quick", {}), ["human", "human"], SEED)
    state = TOY.replay(events)
    while TOY.seats_to_act(state):
        (seat,) = TOY.seats_to_act(state)
        batch = TOY.decide(state, seat, TOY.legal_actions(state, seat)[0])
        events += batch
        state = TOY.replay(batch, state)
    assert TOY.audit(events).faults == []
    assert isinstance(events[1], Dealt)
    hands = events[1].hands
    swapped = Dealt((hands[1], hands[0]))
    assert TOY.audit([events[0], swapped, *events[2:]]).faults
