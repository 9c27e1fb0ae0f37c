"""What a seat knows in a deal, read from its view alone, and hands drawn consistently
with it (the ``hard`` COM's determinizations).

From the view: its own hand, the cards played (and removed), who took what, and:

* where the cards it passed are (the receiver's hand, until played), and the cards an
  undone play showed it (``seen``);
* voids: a seat that did not follow suit holds none of the suit led;
* what the rules imply: a heart led before hearts were broken means a hand of only
  hearts; a heart or the queen of spades on the first trick (with ``never``) means a hand
  of only hearts and the queen;
* what the plays suggest: every play another seat made this deal, with the position it
  was made in (:func:`observations`), and the pass this seat received. A deal of the
  unseen cards is the likelier the more of those the rules of thumb would have made from
  it (:func:`misfits`, :func:`pass_misfits`); :class:`Posterior` draws deals that way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hearts.com import heuristic
from hearts.com.table import FIRST_HEART, QS, SPADES, Table, legal_ints, mask_of, to_int
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
    history: list[tuple[int, list[int]]]  # (leader, cards) of every trick this deal so far
    giver: int | None = None  # the seat that passed to this one, once the passes are known
    gift: tuple[int, ...] = ()  # what it passed
    sent: tuple[int, ...] = ()  # what this seat passed, to ``sent_to``
    sent_to: int | None = None

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
        for other, card in view.seen:  # (a card passed to it may be among them)
            if to_int(card) not in known[other]:
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
            history=[(t.leader, [to_int(c) for c in t.cards]) for t in view.tricks]
            + ([(view.leader, [to_int(c) for c in current])] if current else []),
            giver=view.received_from if view.received else None,
            gift=tuple(sorted(to_int(c) for c in view.received or ())),
            sent=tuple(sorted(to_int(c) for c in view.passed or ())) if view.received else (),
            sent_to=view.passed_to if view.received else None,
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
        return self.sampler().draw(rng, tries)

    def sampler(self) -> Sampler:
        return Sampler(self)


class Sampler:
    """Deals of the unseen cards consistent with what a seat knows. The cards some seat
    cannot hold go first (the most constrained first), each to a seat drawn in
    proportion to its room left; the others are shuffled into the room that is left."""

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        self.others = [s for s in range(know.n) if s != know.seat]
        self.room = [know.sizes[s] - len(know.known[s]) for s in range(know.n)]
        self.free: list[int] = []
        self.constrained: list[tuple[int, list[int]]] = []
        for c in know.unseen():
            options = [s for s in self.others if not know.forbidden[s] >> c & 1]
            if len(options) == len(self.others):
                self.free.append(c)
            else:
                self.constrained.append((c, options))
        self.constrained.sort(key=lambda item: len(item[1]))

    def draw(self, rng: random.Random, tries: int = 24) -> list[list[int]]:
        for _ in range(tries):
            hands = self._deal(rng)
            if hands is not None:
                return hands
        return self._deal_freely(rng)

    def _start(self) -> list[list[int]]:
        know = self.know
        hands = [list(cards) for cards in know.known]
        hands[know.seat] = list(know.hand)
        return hands

    def _deal(self, rng: random.Random) -> list[list[int]] | None:
        left = list(self.room)
        hands = self._start()
        rand = rng.random
        # equally constrained cards go in a random order
        order = [(len(options), rand(), c, options) for c, options in self.constrained]
        order.sort()
        for _, _, c, options in order:
            total = 0
            for s in options:
                total += left[s]
            if not total:
                return None
            pick = rand() * total
            for s in options:
                if left[s]:
                    pick -= left[s]
                    if pick < 0:
                        break
            hands[s].append(c)
            left[s] -= 1
        free = list(self.free)
        rng.shuffle(free)
        i = 0
        for s in self.others:
            hands[s] += free[i : i + left[s]]
            i += left[s]
        for s in self.others:
            hands[s].sort()
        return hands

    def _deal_freely(self, rng: random.Random) -> list[list[int]]:
        """No deal met the constraints (they are inferences, not certainties): ignore them."""
        cards = self.know.unseen()
        rng.shuffle(cards)
        hands = self._start()
        i = 0
        for s in self.others:
            hands[s] += cards[i : i + self.room[s]]
            i += self.room[s]
            hands[s].sort()
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


@dataclass(frozen=True, slots=True)
class Observation:
    """One play another seat made this deal: the public position before it (no hands),
    who played, the card, and that seat's cards played from then on (this one included)."""

    table: Table
    seat: int
    card: int
    later: tuple[int, ...]


def observations(know: Knowledge) -> list[Observation]:
    """Every play the other seats made this deal, with the position each was made in."""
    n = know.n
    if not know.history:
        return []
    by_seat: list[list[int]] = [[] for _ in range(n)]
    for leader, cards in know.history:
        for i, c in enumerate(cards):
            by_seat[(leader + i) % n].append(c)
    played_now = know.played
    for cards in by_seat:
        played_now &= ~mask_of(cards)
    replay = Table(
        [list(cards) for cards in by_seat],
        know.rules,
        leader=know.history[0][0],
        played=played_now,
        opening=know.opening,
    )
    found: list[Observation] = []
    done = [0] * n
    for leader, cards in know.history:
        replay.leader = leader
        for i, c in enumerate(cards):
            seat = (leader + i) % n
            if seat != know.seat:
                public = replay.copy()
                public.hands = [[] for _ in range(n)]
                found.append(Observation(public, seat, c, tuple(by_seat[seat][done[seat] :])))
            done[seat] += 1
            replay.play(c)
    return found


def misfits(obs: list[Observation], seat: int, hand: list[int]) -> int:
    """How many of ``seat``'s observed plays the rules of thumb would not have made had its
    hand now been ``hand`` (the fewer, the likelier the hand, if it plays anything like
    them)."""
    miss = 0
    for ob in obs:
        if ob.seat != seat:
            continue
        t = ob.table
        held = sorted([*hand, *ob.later])
        legal = legal_ints(held, t.trick, t.first, t.broken, t.opening, t.points_allowed)
        if len(legal) == 1:
            continue
        t.hands[seat] = held
        if heuristic.play(t, seat, legal) != ob.card:
            miss += 1
        t.hands[seat] = []
    return miss


class Posterior:
    """Deals weighed by the plays seen: a seat is taken to play by the rules of thumb but
    for a slip now and then, so a deal that explains its plays is likelier. Drawn by a
    Metropolis chain over the consistent deals: swap two unplaced cards between two other
    seats, keep the swap in proportion to how much likelier it makes the deal.

    A seat that plays nothing like the rules of thumb (a person, another level) should not
    be read as if it did: after the burn-in each seat's slip becomes the share of its plays
    that even the best deal seen left unexplained (at least ``slip``, at most a half)."""

    def __init__(self, know: Knowledge, slip: float) -> None:
        self.know = know
        self.slip = slip
        self.sampler = Sampler(know)
        obs = observations(know)
        self.obs = {s: [ob for ob in obs if ob.seat == s] for s in range(know.n)}
        self.fixed = [mask_of(cards) for cards in know.known]
        self.giver = know.giver if know.gift else None
        self.gift = know.gift
        self.gone: list[int] = []  # the cards the giver has played
        for leader, cards in know.history:
            for i, c in enumerate(cards):
                if (leader + i) % know.n == self.giver:
                    self.gone.append(c)
        self.watched = [s for s in self.sampler.others if self.obs[s] or s == self.giver]

    def misfit(self, seat: int, hand: list[int]) -> int:
        miss = misfits(self.obs[seat], seat, hand) if self.obs[seat] else 0
        if seat == self.giver:
            held = [*hand, *self.gone]
            if seat == self.know.sent_to:  # across: what it received is what this seat sent
                sent = self.know.sent
                miss += pass_misfits(self.gift, [c for c in held if c not in sent], True)
            else:
                miss += pass_misfits(self.gift, held, False)
        return miss

    def draw(self, rng: random.Random, count: int, thin: int, burn: int) -> list[list[list[int]]]:
        """``count`` deals: a chain from a consistent deal, ``burn`` steps to forget its
        start, then one deal every ``thin`` steps."""
        know = self.know
        movers = [s for s in self.watched if know.sizes[s]]
        partners = [s for s in self.sampler.others if know.sizes[s]]
        if not movers or len(partners) < 2:
            return [self.sampler.draw(rng) for _ in range(count)]
        forbidden, fixed = know.forbidden, self.fixed
        watched = set(self.watched)
        hands = self.sampler.draw(rng)
        miss = [self.misfit(s, hands[s]) if s in watched else 0 for s in range(know.n)]
        best = list(miss)
        slips = [self.slip] * know.n
        rand = rng.random
        kept: list[list[list[int]]] = []
        step = 0
        while len(kept) < count:
            step += 1
            a = movers[int(rand() * len(movers))]
            b = partners[int(rand() * (len(partners) - 1))]
            if b == a:
                b = partners[-1]
            ca = hands[a][int(rand() * len(hands[a]))]
            cb = hands[b][int(rand() * len(hands[b]))]
            if not (
                fixed[a] >> ca & 1
                or fixed[b] >> cb & 1
                or forbidden[b] >> ca & 1
                or forbidden[a] >> cb & 1
            ):
                new_a = sorted([c for c in hands[a] if c != ca] + [cb])
                new_b = sorted([c for c in hands[b] if c != cb] + [ca])
                ma = self.misfit(a, new_a)
                mb = self.misfit(b, new_b) if b in watched else 0
                da, db = ma - miss[a], mb - miss[b]
                if (da <= 0 and db <= 0) or rand() < slips[a] ** da * slips[b] ** db:
                    hands[a], hands[b] = new_a, new_b
                    miss[a], miss[b] = ma, mb
                    best[a], best[b] = min(best[a], ma), min(best[b], mb)
            if step == burn:
                for s in watched:
                    plays = len(self.obs[s]) + (s == self.giver)
                    slips[s] = min(0.5, max(self.slip, best[s] / plays))
            elif step > burn and (step - burn) % thin == 0:
                kept.append([list(h) for h in hands])
        return kept


def pass_misfits(gift: tuple[int, ...], kept: list[int], exact: bool) -> int:
    """How far the giver's pass is from what the rules of thumb pass: it passed its most
    dangerous cards, so the cards it ``kept`` (its hand now and the cards it has played,
    less what it received) rank below them. When what it received is not known (it was
    not this seat's pass), ``kept`` holds those three cards too, and the count is only a
    hint: at most one misfit."""
    order = heuristic.pass_order([*kept, *gift])
    lowest = max(order.index(c) for c in gift)
    above = lowest + 1 - len(gift)  # kept cards ranked above the last of the gift
    if exact:
        return above
    return 1 if above > len(gift) else 0
