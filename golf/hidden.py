"""States a seat cannot tell apart: what the contract test and the COMs' searches need."""

from __future__ import annotations

import random
from dataclasses import replace

from golf.state import STOCK, State


def resample_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A state ``seat`` (``None``: a spectator) cannot tell apart from ``state``: every card
    it cannot see (face down, in the stock, drawn by another seat from the stock) permuted
    among their places, but for the cards it saw in undone turns, and the seed replaced.
    Once the match has ended every grid card is in every view (the stock's order is in
    none), and only the seed is replaced."""
    if state.ended:
        return replace(state, seed=bytes(32))
    marks = set(state.seen_by(seat))
    hidden_slots = [
        (s, p)
        for s, ups in enumerate(state.face_up)
        for p, up in enumerate(ups)
        if not up and (s, p) not in marks
    ]
    known = state.stock_seen_by(seat)
    pool = [state.grids[s][p] for s, p in hidden_slots] + list(state.stock[known:])
    hide_drawn = state.drawn is not None and state.drawn_from == STOCK and seat != state.to_act
    hide_drawn = hide_drawn and seat not in state.drawn_seen
    if hide_drawn and state.drawn is not None:
        pool.append(state.drawn)
    rng.shuffle(pool)
    grids = [list(g) for g in state.grids]
    for (s, p), card in zip(hidden_slots, pool, strict=False):
        grids[s][p] = card
    rest = pool[len(hidden_slots) :]
    drawn = rest.pop() if hide_drawn else state.drawn
    return replace(
        state,
        grids=tuple(tuple(g) for g in grids),
        stock=state.stock[:known] + tuple(rest),
        drawn=drawn,
        seed=bytes(32),
    )
