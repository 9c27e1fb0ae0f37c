"""Deterministic, verifiable shuffles derived from the match seed.

The algorithm (also described in ``docs/dealing.md``):

* A byte stream for a *label* is the concatenation of the blocks
  ``HMAC-SHA256(key=seed, msg=label || ":" || counter)`` for counter = 0, 1, 2, ...
  (counter written in decimal ASCII). The label says what is shuffled:
  ``golf/deal/<hole>`` for the deal of hole ``hole`` (0-based) and
  ``golf/reshuffle/<hole>/<n>`` for the ``n``-th (0-based) reshuffle of the
  discard pile into the stock during that hole.
* Uniform integers in ``[0, bound)`` come from that stream by rejection sampling on
  big-endian unsigned 32-bit words: a word ``w`` is accepted when
  ``w < 2**32 - (2**32 % bound)`` and gives ``w % bound``.
* The shuffle is Fisher-Yates: for ``i`` from ``len(cards) - 1`` down to 1, draw
  ``j`` in ``[0, i]`` and swap items ``i`` and ``j``.
* A deal shuffles the canonical deck (:func:`golf.cards.build_deck`); a reshuffle
  shuffles the discard pile, minus its top card, from bottom to top.

Anyone holding the revealed seed can recompute every deal and reshuffle.

>>> shuffle_cards(b"seed", "golf/deal/1", ["AS", "2S", "3S", "4S"])
['3S', 'AS', '2S', '4S']
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from typing import TypeVar

from golf.cards import CardCode, build_deck
from golf.rules import Rules, Seat

T = TypeVar("T")
_WORD = 2**32


def deal_label(hole: int) -> str:
    return f"golf/deal/{hole}"


def reshuffle_label(hole: int, count: int) -> str:
    return f"golf/reshuffle/{hole}/{count}"


def _words(seed: bytes, label: str) -> Iterator[int]:
    counter = 0
    prefix = label.encode("ascii") + b":"
    while True:
        block = hmac.new(seed, prefix + str(counter).encode("ascii"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def shuffle_cards(seed: bytes, label: str, items: Sequence[T]) -> list[T]:
    """Fisher-Yates shuffle of ``items`` driven by the seed's stream for ``label``."""
    result = list(items)
    words = _words(seed, label)
    for i in range(len(result) - 1, 0, -1):
        bound = i + 1
        limit = _WORD - (_WORD % bound)
        while True:
            w = next(words)
            if w < limit:
                break
        j = w % bound
        result[i], result[j] = result[j], result[i]
    return result


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
