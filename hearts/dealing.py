"""Hearts deals from the match seed, through the kernel's verifiable shuffle
(:mod:`cards.shuffle`, specified in ``docs/dealing.md``).

One label a deal: ``hearts/deal/<n>`` for deal ``n`` (from 1). The shuffled list is the
canonical 52-card deck (:func:`cards.deck.build_deck`: spades, hearts, diamonds, clubs,
each ace to king) less the removed cards (3 players: ``2D``; 5 players: ``2D`` and
``2C``). Cards go out one at a time, from the seat left of the dealer (dealer + 1) round
the table; the dealer of deal ``n`` is seat ``(n - 1) mod players``.

>>> hands = deal_hands(b"seed" * 8, 1, 4)
>>> [len(h) for h in hands], sorted(sum(hands, ())) == sorted(build_deck(1, False))
([13, 13, 13, 13], True)
>>> hands[1][:3]
('3C', '5C', '6C')
"""

from __future__ import annotations

from cards.deck import CardCode, build_deck
from cards.shuffle import shuffle_cards
from hearts.events import Hands
from hearts.rules import REMOVED, Seat
from hearts.scoring import sort_hand


def deal_label(deal: int) -> str:
    return f"hearts/deal/{deal}"


def dealer_of(deal: int, players: int) -> Seat:
    return (deal - 1) % players


def deck_for(players: int) -> tuple[CardCode, ...]:
    """The cards in play at a table of ``players``, in canonical order."""
    removed = REMOVED[players]
    return tuple(c for c in build_deck(1, False) if c not in removed)


def deal_hands(seed: bytes, deal: int, players: int) -> Hands:
    """Each seat's hand for deal ``deal``, in hand order."""
    deck = shuffle_cards(seed, deal_label(deal), deck_for(players))
    first = dealer_of(deal, players) + 1
    return tuple(sort_hand(deck[(s - first) % players :: players]) for s in range(players))
