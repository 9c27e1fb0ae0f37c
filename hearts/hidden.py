"""States a seat cannot tell apart: what the contract test and the COMs' searches need."""

from __future__ import annotations

import random
from collections.abc import Callable

from cards.deck import CardCode
from hearts.scoring import sort_hand
from hearts.state import State


def hidden_cards(state: State, seat: int | None) -> list[CardCode]:
    """The cards in hands that ``seat`` (``None``: a spectator) cannot see: the other
    hands, less the cards it passed (it knows where they went) and the cards an undone
    play showed it (``seen``)."""
    known: set[CardCode] = set()
    if seat is not None and 0 <= seat < state.seats:
        known.update(state.hands[seat])
        if state.received:
            known.update(state.passes[seat] or ())
        if seat == state.undo_seat:
            known.update(card for _, card in state.seen)
    return [c for s, hand in enumerate(state.hands) if s != seat for c in hand if c not in known]


def resample_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from ``state``: the cards it cannot see permuted among
    their places (in the hands, the chosen passes, the marks of cards an undo showed, the
    undo point alike) and the seed drawn afresh."""
    if state.ended:
        return _with(state, lambda c: c, rng.randbytes(32))
    old = hidden_cards(state, seat)
    new = list(old)
    rng.shuffle(new)
    mapping = dict(zip(old, new, strict=True))
    return _with(state, lambda c: mapping.get(c, c), rng.randbytes(32))


def _with(state: State, move: Callable[[CardCode], CardCode], seed: bytes) -> State:
    def hand(cards: tuple[CardCode, ...]) -> tuple[CardCode, ...]:
        return sort_hand(move(c) for c in cards)

    point = state.undo_point
    changes = {
        "seed": seed,
        "hands": tuple(hand(h) for h in state.hands),
        "passes": tuple(None if p is None else hand(p) for p in state.passes),
        "received": tuple(hand(r) for r in state.received),
        "seen": tuple(sorted((seat, move(card)) for seat, card in state.seen)),
        "undo_point": None if point is None else _with(point, move, seed),
    }
    new: State = object.__new__(State)
    new.__dict__.update(state.__dict__, **changes)
    return new
