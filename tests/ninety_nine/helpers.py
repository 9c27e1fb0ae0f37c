"""Exact tables for Ninety-Nine rule tests: a match whose first deal the test chooses.

The workhorse is the *runaway* deal: one seat holds all nine spades, so (at no trumps, or
with spades trumps) it wins every trick it leads, which is every trick, whatever the
others play. Each seat's three bid cards are chosen by the test, so whether each
contract is made (the runaway's is made when its bid cards are three clubs, the others'
when theirs are three diamonds) is fixed before a card is played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from cards.shuffle import commitment_of
from ninety_nine.actions import Action, Bid, Pass, Play
from ninety_nine.decide import automatic_events, decide, legal_actions
from ninety_nine.events import DealStarted, Event, MatchStarted
from ninety_nine.pack import PACK, sort_hand
from ninety_nine.rules import Rules
from ninety_nine.state import Phase, State, evolve, replay

SEED = bytes(range(32))
SPADES = ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
HEARTS = ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]
CLUBS = ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
DIAMONDS = ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]


def hands_with(fixed: Mapping[int, Sequence[str]]) -> list[list[str]]:
    """Three hands of 12: ``fixed`` seats get exactly their cards, the others the rest of
    the pack in pack order."""
    taken = {c for cards in fixed.values() for c in cards}
    assert len(taken) == sum(len(cards) for cards in fixed.values()), "a card given twice"
    rest = [c for c in PACK if c not in taken]
    hands = []
    for seat in range(3):
        if seat in fixed:
            assert len(fixed[seat]) == 12, f"seat {seat} needs 12 cards"
            hands.append(list(fixed[seat]))
        else:
            hands.append(rest[:12])
            del rest[:12]
    return hands


def table(
    hands: Sequence[Sequence[str]],
    rules: Rules | None = None,
    *,
    dealer: int = 0,
    trumps: str | None = None,
    players: Sequence[str] = ("human", "human", "human"),
) -> tuple[State, list[Event]]:
    """A match at the start of deal 1 (everyone to bid) with the given hands."""
    rules = rules or Rules()
    dealt = DealStarted(1, dealer, trumps, tuple(sort_hand(h) for h in hands))
    events: list[Event] = [
        MatchStarted(rules, tuple(players), SEED.hex(), commitment_of(SEED)),
        dealt,
    ]
    state = replay(events)
    more = automatic_events(state)
    return replay(more, state), events + more


def act(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """``seat`` takes ``action``: the state after it and the events it caused."""
    events = decide(state, seat, action)
    for event in events:
        state = evolve(state, event)
    return state, events


def bid_all(state: State, bids: Mapping[int, Iterable[str]]) -> tuple[State, list[Event]]:
    """Every seat lays aside its bid cards, in seat order."""
    events: list[Event] = []
    for seat in sorted(bids):
        state, more = act(state, seat, Bid(sort_hand(bids[seat])))
        events += more
    return state, events


def call_all(state: State, calls: Mapping[int, Action] | None = None) -> tuple[State, list[Event]]:
    """The premium round: each seat in turn makes its call from ``calls`` (pass when not
    given), until the round is over."""
    calls = calls or {}
    events: list[Event] = []
    while state.phase is Phase.PREMIUM:
        assert state.to_act is not None
        state, more = act(state, state.to_act, calls.get(state.to_act, Pass()))
        events += more
    return state, events


def play(state: State, card: str) -> tuple[State, list[Event]]:
    """The seat to act plays ``card``."""
    assert state.to_act is not None
    return act(state, state.to_act, Play(card))


def play_out(state: State) -> tuple[State, list[Event]]:
    """Every seat plays its first legal card until the deal has been scored."""
    events: list[Event] = []
    deal = state.deal
    while state.deal == deal and not state.ended and state.phase is Phase.PLAYING:
        assert state.to_act is not None
        state, more = act(state, state.to_act, legal_actions(state, state.to_act)[0])
        events += more
    return state, events


def runaway(
    runner: int,
    runner_bid: Sequence[str],
    other_bids: Mapping[int, Sequence[str]],
    *,
    rules: Rules | None = None,
    dealer: int | None = None,
    trumps: str | None = None,
) -> tuple[State, list[Event]]:
    """Deal 1 with ``runner`` holding the nine spades and ``runner_bid``, the other two
    seats holding their ``other_bids`` and the rest of the pack; every seat has bid.
    ``runner`` is made eldest (so it leads the first trick) unless ``dealer`` is given."""
    assert not set(runner_bid) & set(SPADES)
    fixed = {runner: [*SPADES, *runner_bid]}
    laid = {c for cards in other_bids.values() for c in cards}
    rest = [c for c in PACK if c not in fixed[runner] and c not in laid]
    for seat in sorted(other_bids):
        fixed[seat] = [*other_bids[seat], *rest[:9]]
        del rest[:9]
    hands = hands_with(fixed)
    state, events = table(
        hands, rules, dealer=(runner - 1) % 3 if dealer is None else dealer, trumps=trumps
    )
    state, more = bid_all(state, {runner: runner_bid, **other_bids})
    return state, events + more


def lead_spades(state: State) -> tuple[State, list[Event]]:
    """Play the runaway deal out: the runner leads its spades high to low, the others
    play their first legal card."""
    events: list[Event] = []
    deal = state.deal
    while state.deal == deal and not state.ended and state.phase is Phase.PLAYING:
        seat = state.to_act
        assert seat is not None
        spades = [c for c in state.hands[seat] if c[1] == "S"]
        if not state.trick and spades:
            action: Action = Play(spades[-1])
        else:
            action = legal_actions(state, seat)[0]
        state, more = act(state, seat, action)
        events += more
    return state, events


def of_type(events: Iterable[Event], kind: type) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]
