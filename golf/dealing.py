"""Golf's deals and reshuffles, from the match seed (the shuffle is the kernel's,
:mod:`cards.shuffle`; ``docs/dealing.md`` specifies both).

Labels: ``golf/deal/<hole>`` for the deal of hole ``hole`` and
``golf/reshuffle/<hole>/<n>/<pile>`` for the ``n``-th (0-based) reshuffle of the discard
pile into the stock during that hole, ``<pile>`` the first 16 hex digits of the SHA-256
of the pile's cards joined by spaces. A deal shuffles the canonical deck
(:func:`cards.deck.build_deck`); a reshuffle shuffles the discard pile, minus its top
card, from bottom to top.

The pile is in the label because of undo: turns taken back and played otherwise can
leave another pile to reshuffle, and shuffling it by the same permutation as the undone
turns' pile would tell the player where its cards went (they saw part of it). The same
pile gets the same stock, as an undone draw leaves the same card on top. Matches begun
before version 2 of ``match_started`` label a reshuffle ``golf/reshuffle/<hole>/<n>``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from cards.deck import CardCode, build_deck
from cards.shuffle import shuffle_cards
from golf.rules import Rules, Seat


def deal_label(hole: int) -> str:
    return f"golf/deal/{hole}"


def reshuffle_label(hole: int, count: int, pile: Sequence[CardCode] = ()) -> str:
    """The label of a reshuffle: the pile's digest too, unless ``pile`` is empty (the
    labels of matches begun before version 2 of ``match_started``).

    >>> reshuffle_label(2, 0, ["5C", "KH"])
    'golf/reshuffle/2/0/40c6fed7b064d96c'
    """
    label = f"golf/reshuffle/{hole}/{count}"
    if pile:
        label += "/" + hashlib.sha256(" ".join(pile).encode()).hexdigest()[:16]
    return label


def deal_cards(
    seed: bytes, hole: int, rules: Rules, players: int, dealer: Seat
) -> tuple[tuple[tuple[CardCode, ...], ...], CardCode, tuple[CardCode, ...]]:
    """Shuffle and deal a hole: ``(grids by seat, first discard, stock in draw order)``.

    Cards go out one at a time, starting with the seat after the dealer and going
    round the table, each seat's positions filled in order 0, 1, 2, ...; the next card
    starts the discard pile and the rest, in order, is the stock.
    """
    deck = shuffle_cards(
        seed, deal_label(hole), build_deck(rules.deck_count(players), rules.jokers)
    )
    grids: list[list[CardCode]] = [[] for _ in range(players)]
    k = 0
    for _position in range(rules.cells):
        for offset in range(1, players + 1):
            grids[(dealer + offset) % players].append(deck[k])
            k += 1
    return tuple(tuple(g) for g in grids), deck[k], tuple(deck[k + 1 :])
