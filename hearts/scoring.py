"""Points: a card's, a trick's, a deal's (with shooting the moon and the jack of
diamonds), and the winners of a match.

>>> from hearts.rules import Rules
>>> seed = Rules.from_preset("hearts")
>>> trick_points(["QS", "2H", "KH", "JD"], seed)
15
>>> classic = Rules.from_preset("hearts-classic", jack_of_diamonds="minus_10")
>>> trick_points(["QS", "2H", "KH", "JD"], classic)
5
>>> score_deal([26, 0, 0, 0], jack=None, rules=classic)
((0, 26, 26, 26), 0)
>>> score_deal([13, 3, 10, 0], jack=3, rules=classic)
((13, 3, 10, -10), None)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cards.deck import CardCode
from cards.tricks import RANK_ORDER, rank_value
from hearts.rules import JackOfDiamonds, Moon, Rules, Seat

QUEEN_OF_SPADES = "QS"
JACK_OF_DIAMONDS = "JD"
ALL_POINTS = 26  # thirteen hearts and the queen of spades
SUIT_ORDER = "CDSH"  # how a hand is listed: clubs, diamonds, spades, hearts, low to high


def hand_order(card: CardCode) -> tuple[int, int]:
    """Sort key of a hand as shown: by suit (clubs, diamonds, spades, hearts), then rank.

    >>> sorted(["AH", "2C", "QS", "TD"], key=hand_order)
    ['2C', 'TD', 'QS', 'AH']
    """
    return SUIT_ORDER.index(card[1]), rank_value(card)


#: ``hand_order`` of every card, looked up when a fold sorts the hands after a pass.
_HAND_ORDER = {r + s: hand_order(r + s) for s in SUIT_ORDER for r in RANK_ORDER}


def sort_hand(cards: Iterable[CardCode]) -> tuple[CardCode, ...]:
    return tuple(sorted(cards, key=_HAND_ORDER.__getitem__))


def card_points(card: CardCode) -> int:
    """A card's points toward the 26 of a deal: 1 a heart, 13 the queen of spades."""
    if card[1] == "H":
        return 1
    return 13 if card == QUEEN_OF_SPADES else 0


def is_points_card(card: CardCode) -> bool:
    return card[1] == "H" or card == QUEEN_OF_SPADES


def jack_points(rules: Rules) -> int:
    return -10 if rules.jack_of_diamonds is JackOfDiamonds.MINUS_10 else 0


def trick_points(cards: Iterable[CardCode], rules: Rules) -> int:
    """The points in a trick, the jack of diamonds included when it counts."""
    jack = jack_points(rules)
    return sum(card_points(c) + (jack if c == JACK_OF_DIAMONDS else 0) for c in cards)


def score_deal(
    hearts_taken: Sequence[int], jack: Seat | None, rules: Rules
) -> tuple[tuple[int, ...], Seat | None]:
    """Each seat's score for a deal and the moon shooter (``None``: nobody, or shooting
    the moon is off). ``hearts_taken[s]``: the heart and queen points seat ``s`` took;
    ``jack``: the seat that took the jack of diamonds."""
    scores = list(hearts_taken)
    moon = None
    if rules.shoot_the_moon is not Moon.OFF and ALL_POINTS in scores:
        moon = scores.index(ALL_POINTS)
        if rules.shoot_the_moon is Moon.OTHERS_GET_26:
            scores = [0 if s == moon else ALL_POINTS for s in range(len(scores))]
        else:
            scores = [-ALL_POINTS if s == moon else 0 for s in range(len(scores))]
    if jack is not None:
        scores[jack] += jack_points(rules)
    return tuple(scores), moon


def winners_of(totals: Sequence[int]) -> tuple[Seat, ...]:
    """Every seat on the lowest total: equal lowest totals share the win.

    >>> winners_of([104, 57, 57, 80])
    (1, 2)
    """
    low = min(totals)
    return tuple(s for s, total in enumerate(totals) if total == low)
