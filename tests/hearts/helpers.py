"""Exact tables for Hearts rule tests: a match whose first deal the test chooses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cards.shuffle import commitment_of
from hearts.actions import Action, PlayCard
from hearts.dealing import deck_for
from hearts.decide import automatic_events, decide, legal_actions
from hearts.events import CardsDealt, Event, MatchStarted
from hearts.rules import REMOVED, Rules
from hearts.scoring import sort_hand
from hearts.state import State, evolve, replay

SEED = bytes(range(32))
CLUBS_3_TO_A = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]


def hands_with(players: int, fixed: Mapping[int, Sequence[str]]) -> list[list[str]]:
    """Hands for a table of ``players``: ``fixed`` seats get exactly their cards, the others
    the rest of the deck in deck order."""
    rest = [c for c in deck_for(players) if not any(c in cards for cards in fixed.values())]
    size = len(deck_for(players)) // players
    hands = []
    for seat in range(players):
        if seat in fixed:
            assert len(fixed[seat]) == size, f"seat {seat} needs {size} cards"
            hands.append(list(fixed[seat]))
        else:
            hands.append(rest[:size])
            del rest[:size]
    return hands


def table(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    players: Sequence[str] | None = None,
    direction: str | None = None,
) -> tuple[State, list[Event]]:
    """A match at the start of deal 1 with the given hands."""
    n = len(hands)
    kinds = tuple(players) if players else ("human",) * n
    dealt = CardsDealt(
        1,
        0,
        tuple(sort_hand(h) for h in hands),
        REMOVED[n],
        direction or rules.direction(1, n),
    )
    events: list[Event] = [MatchStarted(rules, kinds, SEED.hex(), commitment_of(SEED)), dealt]
    state = replay(events)
    more = automatic_events(state)
    return replay(more, state), events + more


def act(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    events = decide(state, seat, action)
    return replay(events, state), events


def play(state: State, card: str) -> State:
    """The seat to act plays ``card``."""
    assert state.to_act is not None
    return act(state, state.to_act, PlayCard(card))[0]


def play_lowest(state: State, tricks: int = 1) -> tuple[State, list[Event]]:
    """Every seat plays its first legal card, for ``tricks`` tricks."""
    events: list[Event] = []
    for _ in range(tricks * state.seats):
        seat = state.to_act
        assert seat is not None
        batch = decide(state, seat, legal_actions(state, seat)[0])
        events += batch
        for event in batch:
            state = evolve(state, event)
    return state, events


def play_out(state: State) -> tuple[State, list[Event]]:
    """Every seat plays its first legal card until the deal has been scored."""
    events: list[Event] = []
    deal = state.deal
    while state.deal == deal and not state.ended and state.to_act is not None:
        batch = decide(state, state.to_act, legal_actions(state, state.to_act)[0])
        events += batch
        state = replay(batch, state)
    return state, events


def cards_of(actions: Sequence[Action]) -> list[str]:
    return [a.card for a in actions if isinstance(a, PlayCard)]
