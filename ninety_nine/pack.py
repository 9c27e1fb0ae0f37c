"""The 36-card pack, what a bid card counts, and the deal of each hand from the match seed.

The pack is 6 to ace in each suit, ace high. A bid card counts by its suit alone:
clubs 3, hearts 2, spades 1, diamonds 0, so three of them bid 0 to 9 tricks.

The shuffle is the kernel's (:mod:`cards.shuffle`, ``docs/dealing.md``) with the label
``ninety-nine/deal/<n>`` for deal ``n`` (counting from 1). It shuffles the pack in the
kernel's canonical order (:func:`cards.deck.build_deck` without the 2s to 5s: suits S, H,
D, C, each ``A 6 7 8 9 T J Q K``); the cards then go out one at a time, starting with
the dealer's left (eldest) and going round the table, 12 to each; each hand is then
sorted (:func:`sort_hand`).

>>> contract_of(["6C", "AH", "KD"])
5
>>> sort_hand(["AS", "6C", "TD", "7C"])
('6C', '7C', 'AS', 'TD')
>>> [len(h) for h in deal_hands(bytes(32), 1, dealer=0)]
[12, 12, 12]
"""

from __future__ import annotations

from collections.abc import Iterable

from cards.deck import CardCode, build_deck
from cards.shuffle import shuffle_cards
from ninety_nine.rules import SEATS, Seat

RANKS = "6789TJQKA"  # low to high
SUITS = "CHSD"  # by what a bid card counts, most first
SUIT_VALUE: dict[str, int] = {"C": 3, "H": 2, "S": 1, "D": 0}
PACK: tuple[CardCode, ...] = tuple(c for c in build_deck(1, False) if c[0] in RANKS)
PACK_SET = frozenset(PACK)
HAND_SIZE = 12
BID_SIZE = 3
TRICKS = HAND_SIZE - BID_SIZE  # 9 tricks a deal
SUIT_NAMES = {"C": "clubs", "H": "hearts", "S": "spades", "D": "diamonds"}
RANK_NAMES = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}

#: The trump suit of a deal after one in which 0, 1, 2 or 3 players made their contract.
TRUMPS_AFTER: tuple[str, ...] = ("D", "S", "H", "C")


def contract_of(bid_cards: Iterable[CardCode]) -> int:
    """The tricks that bid cards contract for: the sum of their suits' values."""
    return sum(SUIT_VALUE[card[1]] for card in bid_cards)


def sort_key(card: CardCode) -> tuple[int, int]:
    return SUITS.index(card[1]), RANKS.index(card[0])


def sort_hand(cards: Iterable[CardCode]) -> tuple[CardCode, ...]:
    """Cards in the pack's display order: clubs, hearts, spades, diamonds, each 6 to ace."""
    return tuple(sorted(cards, key=sort_key))


def card_name(card: CardCode) -> str:
    """``"the queen of hearts"`` for ``"QH"``."""
    return f"the {RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"


def deal_label(deal: int) -> str:
    return f"ninety-nine/deal/{deal}"


def deal_hands(seed: bytes, deal: int, dealer: Seat) -> tuple[tuple[CardCode, ...], ...]:
    """The hands of deal ``deal`` (from 1), by seat."""
    cards = shuffle_cards(seed, deal_label(deal), PACK)
    hands: list[list[CardCode]] = [[] for _ in range(SEATS)]
    for i, card in enumerate(cards):
        hands[(dealer + 1 + i) % SEATS].append(card)
    return tuple(sort_hand(hand) for hand in hands)
