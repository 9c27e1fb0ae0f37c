"""Building exact tables for rule tests: a match whose first deal is chosen by the test."""

from __future__ import annotations

from collections.abc import Sequence

from cards.shuffle import commitment_of
from golf import Rules, State, decide, replay
from golf.actions import Action
from golf.events import Event, HoleDealt, MatchStarted

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
    from golf import RevealCard

    for seat in range(state.seats):
        for p in positions[: state.rules.initial_flips]:
            state, _ = act(state, seat, RevealCard(p))
    return state


def names(events: Sequence[Event]) -> list[str]:
    return [e.name for e in events]
