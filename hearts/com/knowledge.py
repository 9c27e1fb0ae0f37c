"""What a seat knows in a deal, read from its view alone, and hands drawn consistently
with it (the ``hard`` COM's determinizations).

From the view: its own hand, the cards played (and removed), who took what, and:

* where the cards it passed are (the receiver's hand, until played), and the cards an
  undone play showed it (``seen``);
* voids: a seat that did not follow suit holds none of the suit led;
* what the rules imply: a heart led before hearts were broken means a hand of only
  hearts; a heart or the queen of spades on the first trick (with ``never``) means a hand
  of only hearts and the queen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hearts.com.table import FIRST_HEART, QS, SPADES, Table, mask_of, to_int
from hearts.rules import FirstTrickPoints, Rules
from hearts.state import opening_card
from hearts.views import View

FULL = (1 << 52) - 1
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


@dataclass
class Knowledge:
    seat: int
    n: int
    rules: Rules
    hand: list[int]
    played: int  # mask: played this deal, or removed
    trick: list[int]
    leader: int
    taken: list[int]
    jack: int | None
    broken: bool
    first: bool
    opening: int
    sizes: list[int]
    known: list[list[int]]  # cards known to be in each other seat's hand
    forbidden: list[int]  # mask per seat: cards it cannot hold

    @classmethod
    def from_view(cls, view: View, rules: Rules) -> Knowledge:
        assert view.seat is not None and view.leader is not None
        seat, n = view.seat, len(view.players)
        played = mask_of(to_int(c) for c in view.removed)
        forbidden = [0] * n
        broken = False
        for number, trick in enumerate(view.tricks):
            broken = _read_trick(
                trick.leader, trick.cards, n, broken, number == 0, rules, forbidden
            )
            played |= mask_of(to_int(c) for c in trick.cards)
        current = [c for _, c in view.trick]
        if current:
            _read_trick(view.leader, current, n, broken, not view.tricks, rules, forbidden)
            played |= mask_of(to_int(c) for c in current)
        known: list[list[int]] = [[] for _ in range(n)]
        if view.received is not None and view.passed is not None and view.passed_to is not None:
            known[view.passed_to].extend(
                to_int(c) for c in view.passed if not played >> to_int(c) & 1
            )
        for other, card in view.seen:
            known[other].append(to_int(card))
        return cls(
            seat=seat,
            n=n,
            rules=rules,
            hand=sorted(to_int(c) for c in view.hand),
            played=played,
            trick=[to_int(c) for c in current],
            leader=view.leader,
            taken=list(view.taken),
            jack=view.jack,
            broken=view.hearts_broken,
            first=not view.tricks,
            opening=to_int(opening_card(view.removed)),
            sizes=list(view.hand_sizes),
            known=known,
            forbidden=forbidden,
        )

    def table(self, hands: list[list[int]]) -> Table:
        return Table(
            hands,
            self.rules,
            leader=self.leader,
            trick=list(self.trick),
            played=self.played,
            taken=list(self.taken),
            jack=self.jack,
            broken=self.broken,
            first=self.first,
            opening=self.opening,
        )

    def public_table(self) -> Table:
        """The deal with only this seat's hand filled in (what the heuristic may read)."""
        hands: list[list[int]] = [[] for _ in range(self.n)]
        hands[self.seat] = list(self.hand)
        return self.table(hands)

    def unseen(self) -> list[int]:
        """The cards in the other hands that this seat cannot place."""
        mask = FULL & ~self.played & ~mask_of(self.hand)
        for cards in self.known:
            mask &= ~mask_of(cards)
        return [c for c in range(52) if mask >> c & 1]

    def sample(self, rng: random.Random, tries: int = 24) -> list[list[int]]:
        """Every hand, the unseen cards dealt at random within what is known (voids,
        passes); the constraints are dropped only if no deal meeting them turns up."""
        unseen = self.unseen()
        others = [s for s in range(self.n) if s != self.seat]
        room = {s: self.sizes[s] - len(self.known[s]) for s in others}
        for attempt in range(tries + 1):
            strict = attempt < tries
            hands = _deal(unseen, others, room, self.forbidden if strict else None, rng)
            if hands is not None:
                result = [list(self.known[s]) for s in range(self.n)]
                result[self.seat] = list(self.hand)
                for s, cards in hands.items():
                    result[s].extend(cards)
                    result[s].sort()
                return result
        raise AssertionError("unreachable: an unconstrained deal always fits")


def _deal(
    cards: list[int],
    seats: list[int],
    room: dict[int, int],
    forbidden: list[int] | None,
    rng: random.Random,
) -> dict[int, list[int]] | None:
    """Deal ``cards`` to ``seats`` filling each one's ``room``; the most constrained card
    goes first, to a seat drawn in proportion to its room left."""
    left = dict(room)
    if forbidden is None:
        order = list(cards)
        rng.shuffle(order)
        hands: dict[int, list[int]] = {s: [] for s in seats}
        i = 0
        for s in seats:
            hands[s] = order[i : i + left[s]]
            i += left[s]
        return hands
    options = {c: [s for s in seats if not forbidden[s] >> c & 1] for c in cards}
    order = sorted(cards, key=lambda c: (len(options[c]), rng.random()))
    hands = {s: [] for s in seats}
    for c in order:
        open_seats = [s for s in options[c] if left[s] > 0]
        if not open_seats:
            return None
        weights = [left[s] for s in open_seats]
        s = rng.choices(open_seats, weights)[0]
        hands[s].append(c)
        left[s] -= 1
    return hands


def _read_trick(
    leader: int,
    cards: tuple[str, ...] | list[str],
    n: int,
    broken: bool,
    first: bool,
    rules: Rules,
    forbidden: list[int],
) -> bool:
    """Mark what one trick shows about the hands; returns whether hearts are broken after."""
    codes = [to_int(c) for c in cards]
    led = codes[0] // 13
    if not first and not broken and led == 3:
        forbidden[leader] |= SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]
    strict_first = first and rules.points_on_first_trick is FirstTrickPoints.NEVER
    for i, c in enumerate(codes[1:], start=1):
        seat = (leader + i) % n
        if c // 13 != led:
            forbidden[seat] |= SUIT_MASKS[led]
            if strict_first and (c >= FIRST_HEART or c == QS):
                # only hearts and the queen of spades were left in that hand
                forbidden[seat] |= SUIT_MASKS[0] | SUIT_MASKS[1] | (SUIT_MASKS[SPADES] & ~(1 << QS))
    return broken or any(c >= FIRST_HEART or c == QS for c in codes)
