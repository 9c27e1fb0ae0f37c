"""Checks shared by the property tests: what a viewer may see, and card conservation."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

from golf.engine import State, view_for
from golf.engine.cards import build_deck, is_card_code
from golf.engine.state import STOCK


def cards_in(data: Any) -> Counter[str]:
    """Every card code that occurs anywhere in JSON-like ``data``."""
    found: Counter[str] = Counter()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif is_card_code(item):
            found[item] += 1
    return found


def visible_cards(state: State, seat: int | None) -> Counter[str]:
    """The cards ``seat`` may see, each as often as it may appear in a view."""
    allowed: Counter[str] = Counter()
    for grid, ups in zip(state.grids, state.face_up, strict=True):
        allowed.update(card for card, up in zip(grid, ups, strict=True) if up)
    allowed.update(state.discard)
    if state.discard:
        allowed[state.discard[-1]] += 1  # the view repeats the top card
    if state.drawn is not None and (state.drawn_from != STOCK or seat == state.to_act):
        allowed[state.drawn] += 1
    for grid in state.last_hole_grids:
        allowed.update(grid)
    return allowed


def assert_view_hides_what_it_must(state: State, seat: int | None) -> None:
    shown = cards_in(view_for(state, seat).to_json())
    allowed = visible_cards(state, seat)
    leaked = shown - allowed
    assert not leaked, f"view of seat {seat} shows hidden cards {dict(leaked)}"
    text = json.dumps(view_for(state, seat).to_json())
    assert state.seed.hex() not in text


def shuffle_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A state ``seat`` cannot tell apart from ``state``: hidden cards permuted."""
    hidden_slots = [
        (s, p) for s, ups in enumerate(state.face_up) for p, up in enumerate(ups) if not up
    ]
    pool = [state.grids[s][p] for s, p in hidden_slots] + list(state.stock)
    hide_drawn = state.drawn is not None and state.drawn_from == STOCK and seat != state.to_act
    if hide_drawn:
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
        stock=tuple(rest),
        drawn=drawn,
        seed=bytes(32),
    )


def assert_cards_conserved(state: State) -> None:
    if not state.grids:
        return
    everything = Counter(state.stock) + Counter(state.discard)
    for grid in state.grids:
        everything.update(grid)
    if state.drawn is not None:
        everything[state.drawn] += 1
    deck = Counter(build_deck(state.rules.deck_count(state.seats), state.rules.jokers))
    assert everything == deck
