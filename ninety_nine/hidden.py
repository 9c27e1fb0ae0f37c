"""States a seat cannot tell apart: what the contract test and the COMs' sampling need.

What a seat cannot see is where the cards it has not seen lie: in which other hand, or
among which other seat's bid cards. What it knows narrows that down: a hand shown by a
reveal, the bid cards of the standing premium bid, and the suits a seat has shown out of
(a seat that did not follow suit holds none of it in hand; it may among its bid cards).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from cards.deck import CardCode
from cards.tricks import suit_of
from ninety_nine.actions import REVEAL
from ninety_nine.events import Plays, TrickWon
from ninety_nine.pack import sort_hand
from ninety_nine.rules import SEATS, Seat
from ninety_nine.state import State

ATTEMPTS = 50
SWAPS = 400  # the walk away from the true deal when no random deal fits the voids
T = TypeVar("T")


def voids_of(tricks: Iterable[TrickWon], trick: Plays) -> tuple[frozenset[str], ...]:
    """The suits each seat has shown out of this deal (by not following the suit led)."""
    void: list[set[str]] = [set() for _ in range(SEATS)]
    for plays in [*(t.plays for t in tricks), trick]:
        if plays:
            led = suit_of(plays[0][1])
            for seat, card in plays[1:]:
                if suit_of(card) != led:
                    void[seat].add(led)
    return tuple(frozenset(v) for v in void)


def distribute(
    items: Sequence[T],
    sizes: Sequence[int],
    forbidden: Sequence[Collection[Hashable]],
    rng: random.Random,
    suit: Callable[[T], Hashable] = suit_of,  # type: ignore[assignment]
) -> list[list[T]] | None:
    """Deal ``items`` (cards) at random into groups of ``sizes`` where group ``i`` takes
    no card whose ``suit`` is in ``forbidden[i]``; ``None`` when no try succeeds."""
    order = list(items)
    for _ in range(ATTEMPTS):
        rng.shuffle(order)
        # the cards with the fewest groups to go to first
        order.sort(key=lambda c: sum(suit(c) in f for f in forbidden), reverse=True)
        room = list(sizes)
        groups: list[list[T]] = [[] for _ in sizes]
        for item in order:
            open_ = [i for i, r in enumerate(room) if r and suit(item) not in forbidden[i]]
            if not open_:
                break
            i = rng.choices(open_, [room[i] for i in open_])[0]
            groups[i].append(item)
            room[i] -= 1
        else:
            return groups
    return None


def _swapped(
    groups: list[list[CardCode]], forbidden: Sequence[Collection[Hashable]], rng: random.Random
) -> list[list[CardCode]]:
    """``groups`` after many random swaps of two cards between two groups, each swap made
    only when both cards may go where they land."""
    filled = [i for i, group in enumerate(groups) if group]
    if len(filled) < 2:
        return groups
    for _ in range(SWAPS):
        a, b = rng.sample(filled, 2)
        i, j = rng.randrange(len(groups[a])), rng.randrange(len(groups[b]))
        x, y = groups[a][i], groups[b][j]
        if suit_of(y) not in forbidden[a] and suit_of(x) not in forbidden[b]:
            groups[a][i], groups[b][j] = y, x
    return groups


def resample_hidden(state: State, seat: Seat | None, rng: random.Random) -> State:
    """A state ``seat`` (``None``: a spectator) cannot tell from ``state``: the cards it
    has not seen dealt afresh among the hidden hands and bid cards (keeping the suits a
    seat has shown out of out of its hand), and the seed replaced."""
    if state.ended:  # everything is shown once the match is over
        return state
    other = replace(state, seed=rng.randbytes(32))
    if not state.hands:
        return other
    shown = state.premium_seat if state.shown else None
    revealer = shown if state.premium == REVEAL else None
    void = voids_of(state.tricks, state.trick)
    slots: list[tuple[Seat, str]] = []  # (seat, "hand" | "bid") of each hidden group
    for s in range(SEATS):
        if s == seat:
            continue
        if s != revealer:
            slots.append((s, "hand"))
        if state.bids[s] and s != shown:
            slots.append((s, "bid"))
    current = {(s, kind): state.hands[s] if kind == "hand" else state.bids[s] for s, kind in slots}
    pool = [card for cards in current.values() for card in cards]
    forbidden = [void[s] if kind == "hand" else frozenset() for s, kind in slots]
    groups = distribute(pool, [len(current[k]) for k in slots], forbidden, rng)
    if groups is None:  # tight voids: walk away from the true deal by legal swaps instead
        groups = _swapped([list(current[k]) for k in slots], forbidden, rng)
    hands, bids = list(state.hands), list(state.bids)
    for (s, kind), cards in zip(slots, groups, strict=True):
        if kind == "hand":
            hands[s] = sort_hand(cards)
        else:
            bids[s] = sort_hand(cards)
    played: list[list[CardCode]] = [[] for _ in range(SEATS)]
    for plays in [*(t.plays for t in state.tricks), state.trick]:
        for s, card in plays:
            played[s].append(card)
    dealt = tuple(sort_hand([*hands[s], *bids[s], *played[s]]) for s in range(SEATS))
    return replace(other, hands=tuple(hands), bids=tuple(bids), dealt=dealt)
