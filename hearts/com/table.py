"""A bare deal for the COMs: cards as small integers, plain lists, no events.

A card is ``suit * 13 + rank`` with suits in hand order (clubs 0, diamonds 1, spades 2,
hearts 3) and ranks 0 (two) to 12 (ace), so sorting integers sorts a hand. The same
table serves the ``normal`` COM (one decision from what a seat knows) and the ``hard``
COM's rollouts (a whole deal played out on a sample of the unseen cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cards.deck import CardCode
from cards.tricks import RANK_ORDER
from hearts.rules import JackOfDiamonds, Moon, Rules
from hearts.scoring import SUIT_ORDER, score_deal

CLUBS, DIAMONDS, SPADES, HEARTS = range(4)
QS = SPADES * 13 + 10
KS = QS + 1
AS = QS + 2
JD = DIAMONDS * 13 + 9
FIRST_HEART = HEARTS * 13


def to_int(card: CardCode) -> int:
    return SUIT_ORDER.index(card[1]) * 13 + RANK_ORDER.index(card[0])


def to_code(card: int) -> CardCode:
    return RANK_ORDER[card % 13] + SUIT_ORDER[card // 13]


def ints(cards: Iterable[CardCode]) -> list[int]:
    return sorted(to_int(c) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def points_of(card: int) -> int:
    if card >= FIRST_HEART:
        return 1
    return 13 if card == QS else 0


def legal_ints(
    hand: Sequence[int],
    trick: Sequence[int],
    first: bool,
    broken: bool,
    opening: int,
    points_allowed: bool,
) -> list[int]:
    """The integer twin of :func:`hearts.decide.legal_plays` (a test keeps them equal)."""
    if not trick:
        if first:
            return [opening] if opening in hand else list(hand)
        if broken:
            return list(hand)
        return [c for c in hand if c < FIRST_HEART] or list(hand)
    led = trick[0] // 13
    same = [c for c in hand if c // 13 == led]
    if same:
        return same
    if first and not points_allowed:
        return [c for c in hand if c < FIRST_HEART and c != QS] or list(hand)
    return list(hand)


class Table:
    """One deal in play: each seat's hand, the trick, what has been played and taken."""

    __slots__ = (
        "broken",
        "first",
        "hands",
        "jack",
        "jack_counts",
        "leader",
        "moon",
        "n",
        "opening",
        "played",
        "points_allowed",
        "rules",
        "taken",
        "trick",
    )

    def __init__(
        self,
        hands: list[list[int]],
        rules: Rules,
        *,
        leader: int,
        trick: list[int] | None = None,
        played: int = 0,
        taken: list[int] | None = None,
        jack: int | None = None,
        broken: bool = False,
        first: bool = True,
        opening: int = 0,
    ) -> None:
        self.n = len(hands)
        self.hands = hands
        self.leader = leader
        self.trick = trick if trick is not None else []
        self.played = played
        self.taken = taken if taken is not None else [0] * self.n
        self.jack = jack
        self.broken = broken
        self.first = first
        self.opening = opening
        self.points_allowed = rules.points_on_first_trick.value == "allowed"
        self.rules = rules
        self.jack_counts = rules.jack_of_diamonds is JackOfDiamonds.MINUS_10
        self.moon = rules.shoot_the_moon is not Moon.OFF  # a moon shot scores as one

    def copy(self) -> Table:
        new = Table.__new__(Table)
        new.n = self.n
        new.hands = [list(h) for h in self.hands]
        new.leader = self.leader
        new.trick = list(self.trick)
        new.played = self.played
        new.taken = list(self.taken)
        new.jack = self.jack
        new.broken = self.broken
        new.first = self.first
        new.opening = self.opening
        new.points_allowed = self.points_allowed
        new.rules = self.rules
        new.jack_counts = self.jack_counts
        new.moon = self.moon
        return new

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def legal(self, seat: int) -> list[int]:
        return legal_ints(
            self.hands[seat], self.trick, self.first, self.broken, self.opening, self.points_allowed
        )

    def play(self, card: int) -> None:
        """The seat to act plays ``card``; a full trick is taken at once."""
        seat = (self.leader + len(self.trick)) % self.n
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.played |= 1 << card
        if card >= QS and (card >= FIRST_HEART or card == QS):
            self.broken = True
        if len(self.trick) == self.n:
            trick = self.trick
            led = trick[0] // 13
            best = 0
            for i in range(1, self.n):
                c = trick[i]
                if c // 13 == led and c > trick[best]:
                    best = i
            winner = (self.leader + best) % self.n
            pts = 0
            for c in trick:
                if c >= FIRST_HEART:
                    pts += 1
                elif c == QS:
                    pts += 13
                elif c == JD:
                    self.jack = winner
            if pts:
                self.taken[winner] += pts
            self.leader = winner
            self.trick = []
            self.first = False

    def scores(self) -> tuple[int, ...]:
        """Each seat's score for the deal, once every card has been played."""
        return score_deal(self.taken, self.jack if self.jack_counts else None, self.rules)[0]
