"""Building exact tables for rule tests: a match whose first deal is chosen by the test."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from cards.shuffle import commitment_of
from golf import Rules, State, decide, replay, view_for
from golf.actions import Action, DrawFromStock, RevealCard
from golf.events import Event, HoleDealt, MatchStarted
from golf.state import COM

SEED = bytes(range(32))


def table(
    rules: Rules,
    grids: Sequence[Sequence[str]],
    discard: str,
    stock: Sequence[str],
    players: Sequence[str] | None = None,
    dealer: int | None = None,
) -> tuple[State, list[Event]]:
    """A match at the start of hole 1 with the given deal (grids in position order)."""
    kinds = tuple(players) if players else ("human",) * len(grids)
    events: list[Event] = [
        MatchStarted(rules, kinds, SEED.hex(), commitment_of(SEED)),
        HoleDealt(
            1,
            len(grids) - 1 if dealer is None else dealer,
            tuple(tuple(g) for g in grids),
            discard,
            tuple(stock),
        ),
    ]
    return replay(events), events


def act(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    events = decide(state, seat, action)
    return replay(events, state), events


def flip_all(state: State, positions: Sequence[int] = (0, 1)) -> State:
    """Every seat makes its initial flips at ``positions``."""
    for seat in range(state.seats):
        for p in positions[: state.rules.initial_flips]:
            state, _ = act(state, seat, RevealCard(p))
    return state


def names(events: Sequence[Event]) -> list[str]:
    return [e.name for e in events]


def opened(rules, grids, discard, stock, players):  # type: ignore[no-untyped-def]
    """A two-seat hole dealt as given, each seat's opening flips at positions 0 and 2 made."""
    state, _ = table(rules, grids, discard, stock, players)
    for seat in (0, 1):
        for p in (0, 2):
            state, _ = act(state, seat, RevealCard(p))
    return state


def in_hand(card, mine, theirs):  # type: ignore[no-untyped-def]
    """Seat 0's view in six-card golf with ``card`` drawn from the stock and the grids given."""
    rules = Rules.from_preset("six-card")
    grids = [["AS", "AC", "AD", "AH", "KS", "KC"], ["QS", "QC", "QD", "QH", "JS", "JC"]]
    state = opened(rules, grids, "8D", [card, "KH", "KD"], [COM, COM])
    state, _ = act(state, 0, DrawFromStock())
    view = view_for(state, 0)
    assert view.drawn_card == card
    return rules, dataclasses.replace(view, grids=(mine, theirs))
