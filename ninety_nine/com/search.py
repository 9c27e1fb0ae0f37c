"""``hard``: decisions by playing the deal out in sampled worlds.

A *world* deals the cards ``hard`` has not seen among the other hands and bid cards,
consistently with all it knows (:class:`~ninety_nine.com.knowledge.Knowledge`: a
revealed hand, shown bid cards, the suits a seat has shown out of). Worlds are weighted
by how well each opponent's contract in it fits its hand (a player bids about what its
nine cards take: :mod:`ninety_nine.com.estimate`) and its play so far (a seat that
passed up a sure trick, or took one it could have ducked, is aiming for fewer or more
tricks than it has). In each world the rest of the deal is played out by every seat
with the trick tactics (:mod:`ninety_nine.com.rollout`), and scored by the rules.

* **Card play**: every distinct legal card is tried in the same worlds; the card of
  best mean value wins. The value of a deal is ``hard``'s points less a share of the
  others' (:data:`RIVALRY`), so it also likes the others to fail, above all a premium
  bidder, whose failure pays it.
* **Bid**: of the 220 ways to lay three cards aside, the most promising by the
  estimate are played out in worlds where the other two hold twelve unseen cards each
  and bid as ``normal`` would; the bid of best mean value wins. That is how reliably
  the other nine take exactly that many tricks, with the play to hit it (losing tricks
  on purpose as much as winning them) and the bonus it earns.
* **Premium bid**: the chance of making the contract in such worlds; declare above
  :data:`DECLARE_AT`, reveal above :data:`REVEAL_AT` (a reveal shows the hand, which
  costs a careful opponent's edge that the worlds do not model).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ninety_nine.actions import REVEAL, Action, Declare, Pass, Play, Reveal
from ninety_nine.com.bidding import best_bid, best_bids, bid_action, bid_value, legal_cards
from ninety_nine.com.bits import BELOW, CODES, FULL, SUIT_MASK, SUIT_OF, bits
from ninety_nine.com.estimate import estimate
from ninety_nine.com.knowledge import Knowledge
from ninety_nine.com.rollout import best_out, play_out, play_out_seen
from ninety_nine.com.tactics import beats, can_be_beaten, choose, mode, winning_card
from ninety_nine.hidden import ATTEMPTS
from ninety_nine.pack import TRICKS
from ninety_nine.rules import SEATS
from ninety_nine.scoring import score_deal
from ninety_nine.state import Phase
from ninety_nine.views import View


@dataclass(frozen=True)
class Budget:
    """How much ``hard`` searches: worlds per card decision (drawn from ``draws``
    candidates by weight), worlds and candidate bids per bid, worlds per premium call."""

    worlds: int = 40
    draws: int = 300
    bid_worlds: int = 64
    bid_candidates: int = 10
    premium_worlds: int = 48


BUDGET = Budget()
RIVALRY = 0.4  # how much the others' points count against ours
MADE_WEIGHT = 10.0  # what making the contract is worth beyond its points
BID_MADE_WEIGHT = 10.0  # the same, when choosing the bid
PLAY_BLIND = False  # rollouts of card play: every seat sees only the cards out, not where
BID_BLIND = False  # the same for the rollouts of a bid
SEEN = True  # rollouts: the others play from what they have seen (as a player does)
MODEL_BIDS = True  # worlds: the others lay aside the bid their twelve cards suggest
MODEL_MISS = 0.05  # the weight of a world where a seat's bid is not the suggested one
MODEL_PLAY = True  # worlds: the others' cards played are weighed by the trick tactics
PLAY_MISS = 0.3  # the weight of a world per card played there against the tactics
UNLIKELY = 1e-4  # a world this unlikely is not weighed further
#: by the tricks left (this one included): how many of its own next choices after this
#: card ``hard`` searches in each world (trying every distinct card) before the tactics
PLAY_DEPTH: tuple[int, ...] = (0, 0, 0, 1, 2, 3, 2, 1, 1, 0)
DECLARE_AT = 0.62
REVEAL_AT = 0.86
BID_SPREAD = 1.1  # how far (in tricks) a player's contract strays from its hand's estimate
ODD_PLAY = 0.45  # the weight of a world per play in it that the tactics would not make


@dataclass(frozen=True, slots=True)
class World:
    hands: tuple[int, int, int]
    contracts: tuple[int, int, int]
    bids: tuple[int, int, int] = (0, 0, 0)


def hard_action(view: View, rng: random.Random, budget: Budget = BUDGET) -> Action:
    k = Knowledge.from_view(view)
    if view.phase is Phase.BIDDING:
        return bid_action(choose_bid(k, rng, budget))
    if view.phase is Phase.PREMIUM:
        return premium_call(k, view.legal_actions, rng, budget)
    return Play(CODES[choose_card(k, legal_cards(view), rng, budget)])


# --- the value of a finished deal ---------------------------------------------------------
def value(
    seat: int,
    contracts: Sequence[int],
    tricks: Sequence[int],
    premium_seat: int | None,
    premium: str | None,
    made_weight: float | None = None,
) -> float:
    """``seat``'s points less :data:`RIVALRY` times the mean of the others', and
    :data:`MADE_WEIGHT` more when it made its contract."""
    made, points = score_deal(contracts, tricks, premium_seat, premium)
    mine = points[seat].total
    others = sum(p.total for s, p in enumerate(points) if s != seat) / (SEATS - 1)
    weight = MADE_WEIGHT if made_weight is None else made_weight
    return mine - RIVALRY * others + weight * made[seat]


# --- worlds -------------------------------------------------------------------------------
def draw_worlds(k: Knowledge, n: int, rng: random.Random) -> list[tuple[World, float]]:
    """``n`` worlds consistent with ``k``, each with its weight."""
    me = k.seat
    assert k.contract is not None
    groups: list[tuple[int, str]] = []
    sizes: list[int] = []
    allowed: list[int] = []
    for o in k.others:
        if k.known_hand[o] is None:
            groups.append((o, "hand"))
            sizes.append(k.hand_sizes[o])
            allowed.append(FULL & ~k.void[o])
        if k.known_bid[o] is None:
            groups.append((o, "bid"))
            sizes.append(3)
            allowed.append(FULL)
    pool = list(bits(k.unseen))
    worlds: list[tuple[World, float]] = []
    groups_of = groups_allowed(pool, allowed)
    for _ in range(n):
        dealt = deal_unseen(pool, sizes, allowed, rng, groups_of)
        if dealt is None:
            break
        hands = [0, 0, 0]
        bids = [0, 0, 0]
        hands[me] = k.hand
        for o in k.others:
            hands[o] = k.known_hand[o] or 0
            bids[o] = k.known_bid[o] or 0
        for (o, kind), mask in zip(groups, dealt, strict=True):
            if kind == "hand":
                hands[o] = mask
            else:
                bids[o] = mask
        contracts = [k.contract, 0, 0]
        contracts[me] = k.contract
        weight = 1.0
        for o in k.others:
            if k.known_hand[o] is None and MODEL_BIDS:
                # the bid a player would lay aside from these twelve cards: when it fits
                # what the seat has shown (a card played was in its hand; a suit it showed
                # out of was all among its bid cards), that is its bid in this world
                twelve = hands[o] | bids[o] | k.played_by[o]
                model = best_bid(twelve, k.trumps)[1]
                fits = not model & k.played_by[o] and not (twelve & ~model) & k.void[o]
                if k.known_bid[o] is None and fits:
                    bids[o] = model
                    hands[o] = twelve & ~model & ~k.played_by[o]
                elif model != bids[o]:
                    weight *= MODEL_MISS
            contracts[o] = bid_value(bids[o])
            if k.known_bid[o] is None and not MODEL_BIDS:
                weight *= _bid_fit(hands[o] | k.played_by[o], contracts[o], k.trumps)
        world = World(
            (hands[0], hands[1], hands[2]),
            (contracts[0], contracts[1], contracts[2]),
            (bids[0], bids[1], bids[2]),
        )
        weight *= _model_play_fit(k, world) if MODEL_PLAY else _play_fit(k, world)
        worlds.append((world, weight))
    return worlds


def deal_unseen(
    pool: Sequence[int],
    sizes: Sequence[int],
    allowed: Sequence[int],
    rng: random.Random,
    groups_of: Sequence[int] | None = None,
) -> list[int] | None:
    """Deal the cards of ``pool`` at random into groups (masks) of ``sizes``, group ``i``
    taking only cards of ``allowed[i]`` (a mask): the cards with the fewest groups to go
    to first, each to a group drawn by the room it has left; ``None`` when no try
    succeeds (:func:`ninety_nine.hidden.distribute`, on masks). ``groups_of``: how many
    groups each card may go to, when known."""
    if groups_of is None:
        groups_of = groups_allowed(pool, allowed)
    order = list(pool)
    span = range(len(sizes))
    for _ in range(ATTEMPTS):
        rng.shuffle(order)
        order.sort(key=groups_of.__getitem__)
        room = list(sizes)
        dealt = [0] * len(sizes)
        for card in order:
            bit = 1 << card
            open_ = [i for i in span if room[i] and allowed[i] & bit]
            if not open_:
                break
            i = open_[0]
            if len(open_) > 1:
                pick = rng.random() * sum(room[j] for j in open_)
                for i in open_:
                    pick -= room[i]
                    if pick < 0:
                        break
            dealt[i] |= bit
            room[i] -= 1
        else:
            return dealt
    return None


def groups_allowed(pool: Sequence[int], allowed: Sequence[int]) -> list[int]:
    """By card: how many of the ``allowed`` masks hold it."""
    groups_of = [0] * 36
    for a in allowed:
        for c in pool:
            groups_of[c] += a >> c & 1
    return groups_of


def _bid_fit(hand: int, contract: int, trumps: int) -> float:
    mean, _ = estimate(hand, trumps)
    return math.exp(-((contract - mean) ** 2) / (2 * BID_SPREAD**2))


def _play_fit(k: Knowledge, world: World) -> float:
    """How well the others' play so far fits their contracts in ``world``: a seat that
    had its contract and took a trick it could have ducked, or needed every trick left
    and passed up a sure one, makes the world less likely (:data:`ODD_PLAY` each time)."""
    weight = 1.0
    history = [plays for plays in k.history if plays]
    to_come = [0, 0, 0]  # the cards each seat plays from this trick on
    for plays in history:
        for s, card in plays:
            to_come[s] |= 1 << card
    won = [0, 0, 0]
    left = TRICKS
    for plays in history:
        trick: list[int] = []
        for i, (s, card) in enumerate(plays):
            if trick and s != k.seat and k.known_bid[s] is None:
                need = world.contracts[s] - won[s]
                if need == 0 or need >= left:
                    held = world.hands[s] | to_come[s]  # its hand before this play
                    later = [world.hands[o] | to_come[o] for o, _ in plays[i + 1 :]]
                    if _odd(card, held, trick, k.trumps, need == 0, later):
                        weight *= ODD_PLAY
            to_come[s] &= ~(1 << card)
            trick.append(card)
        if len(trick) == SEATS:
            won[plays[trick.index(winning_card(trick, k.trumps))][0]] += 1
            left -= 1
    return weight


def _model_play_fit(k: Knowledge, world: World) -> float:
    """How well the others' play so far fits ``world``: each card a seat played that the
    trick tactics would not have played there, from what that seat could see then (its
    hand, its contract, the cards played, who showed out of what, the cards shown),
    makes the world less likely (:data:`PLAY_MISS` each time)."""
    weight = 1.0
    history = [plays for plays in k.history if plays]
    to_come = [0, 0, 0]  # the cards each seat plays from this trick on
    for plays in history:
        for s, card in plays:
            to_come[s] |= 1 << card
    revealer = k.premium_seat if k.premium == REVEAL else None
    shown = 0 if k.premium_seat is None else world.bids[k.premium_seat]
    won = [0, 0, 0]
    void = [0, 0, 0]
    played = 0
    left = TRICKS
    for plays in history:
        trick: list[int] = []
        for s, card in plays:
            hand = world.hands[s] | to_come[s]  # its hand before this play
            check = s != k.seat and s != revealer
            legal = hand
            if trick:
                follow = hand & SUIT_MASK[SUIT_OF[trick[0]]]
                legal = follow or hand
            if check and legal & (legal - 1):
                public = shown
                if revealer is not None:
                    public |= world.hands[revealer] | to_come[revealer]
                unseen = FULL & ~(hand | world.bids[s] | played | public)
                held = [
                    world.hands[o] | to_come[o] if o == revealer else unseen & ~void[o]
                    for o in ((s + 1) % SEATS, (s + 2) % SEATS)
                ]
                need = world.contracts[s] - won[s]
                want = mode(need, left, hand, held, k.trumps)
                later = held[: SEATS - 1 - len(trick)]
                if choose(legal, hand, trick, k.trumps, want, later, held) != card:
                    weight *= PLAY_MISS
                    if weight < UNLIKELY:
                        return weight  # as good as ruled out
            if trick and SUIT_OF[card] != SUIT_OF[trick[0]]:
                void[s] |= SUIT_MASK[SUIT_OF[trick[0]]]
            to_come[s] &= ~(1 << card)
            played |= 1 << card
            trick.append(card)
        if len(trick) == SEATS:
            won[plays[trick.index(winning_card(trick, k.trumps))][0]] += 1
            left -= 1
    return weight


def _odd(card: int, held: int, trick: list[int], trumps: int, duck: bool, later: list[int]) -> bool:
    """Whether playing ``card`` to ``trick`` from ``held`` goes against the aim: to duck
    (``duck``) or else to win."""
    led = SUIT_OF[trick[0]]
    best = winning_card(trick, trumps)
    follow = held & SUIT_MASK[led]
    legal = follow if follow else held
    if duck:
        return beats(card, best, trumps) and any(not beats(c, best, trumps) for c in bits(legal))
    if beats(card, best, trumps):
        return False
    return any(
        beats(c, best, trumps) and not can_be_beaten(c, led, trumps, later) for c in bits(legal)
    )


def _resample(worlds: list[tuple[World, float]], n: int, rng: random.Random) -> list[World]:
    """``n`` worlds drawn by weight (systematic resampling)."""
    total = sum(w for _, w in worlds)
    if not worlds or total <= 0:
        return [w for w, _ in worlds[:n]]
    step = total / n
    point = rng.random() * step
    chosen: list[World] = []
    acc = 0.0
    for world, weight in worlds:
        acc += weight
        while point < acc and len(chosen) < n:
            chosen.append(world)
            point += step
    return chosen


# --- card play ----------------------------------------------------------------------------
def distinct_cards(legal: int, hand: int, played: int) -> list[int]:
    """One card of each run of cards equal in effect: cards of a suit with nothing
    between them but our own cards and cards already played."""
    out = []
    for card in bits(legal):
        below = BELOW[card]
        lower = legal & below
        if lower:
            nearest = lower.bit_length() - 1
            between = below & ~((2 << nearest) - 1)
            if not between & ~(hand | played):
                continue  # the same as the nearest lower legal card
        out.append(card)
    return out


def choose_card(k: Knowledge, legal: int, rng: random.Random, budget: Budget = BUDGET) -> int:
    candidates = distinct_cards(legal, k.hand, k.played)
    if len(candidates) == 1:
        return candidates[0]
    worlds = _resample(draw_worlds(k, budget.draws, rng), budget.worlds, rng)
    if not worlds:
        return candidates[0]
    me = k.seat
    trick = list(k.trick)
    leader = k.leader
    scores = dict.fromkeys(candidates, 0.0)
    depth = PLAY_DEPTH[k.left]
    for world in worlds:

        def score(tricks: Sequence[int], world: World = world) -> float:
            return value(me, world.contracts, tricks, k.premium_seat, k.premium)

        if SEEN:
            revealer = k.premium_seat if k.premium == REVEAL else None
            public = (world.hands[revealer] if revealer is not None else 0) | (
                0 if k.premium_seat is None else k.known_bid[k.premium_seat] or 0
            )
            unseen = [
                FULL & ~(world.hands[s] | world.bids[s] | k.played | public) for s in range(SEATS)
            ]
        for card in candidates:
            hands = list(world.hands)
            hands[me] &= ~(1 << card)
            if SEEN:
                gone = ~(1 << card)
                tricks = play_out_seen(
                    hands,
                    [u & gone for u in unseen],
                    k.void,
                    world.contracts,
                    k.won,
                    [*trick, card],
                    leader,
                    k.trumps,
                    k.left,
                    me,
                    revealer,
                )
                scores[card] += score(tricks)
                continue
            if depth:
                scores[card] += best_out(
                    hands,
                    world.contracts,
                    k.won,
                    [*trick, card],
                    leader,
                    k.trumps,
                    k.left,
                    me,
                    depth,
                    score,
                )
                continue
            tricks = play_out(
                hands,
                world.contracts,
                k.won,
                [*trick, card],
                leader,
                k.trumps,
                k.left,
                PLAY_BLIND,
            )
            scores[card] += score(tricks)
    return max(candidates, key=lambda c: (scores[c], -c))


# --- bidding ------------------------------------------------------------------------------
def bid_candidates(hand: int, trumps: int, budget: Budget) -> list[int]:
    """The bids worth playing out: the best few by the estimate for each contract, and
    the best overall (the estimate is rough, so every contract gets its chance)."""
    ranked = best_bids(hand, trumps, 220)
    chosen: list[int] = [bid for _, bid in ranked[: budget.bid_candidates // 2]]
    per_contract: dict[int, int] = {}
    for _, bid in ranked:
        contract = bid_value(bid)
        if per_contract.get(contract, 0) < 2 and bid not in chosen:
            per_contract[contract] = per_contract.get(contract, 0) + 1
            chosen.append(bid)
    return chosen


def _deal_others(
    k: Knowledge, pool: list[int], rng: random.Random
) -> tuple[list[int], list[int], list[int]]:
    """The other two seats' twelve cards from ``pool`` (the unseen cards), each laying
    aside the bid ``normal`` would: their nine-card hands, contracts and what each seat
    cannot see (every card but its twelve), by seat."""
    rng.shuffle(pool)
    hands = [0, 0, 0]
    contracts = [0, 0, 0]
    unseen = [0, 0, 0]  # (this seat's own play sees every hand)
    for i, o in enumerate(k.others):
        twelve = 0
        for c in pool[12 * i : 12 * i + 12]:
            twelve |= 1 << c
        bid = best_bid(twelve, k.trumps)[1]
        hands[o] = twelve & ~bid
        contracts[o] = bid_value(bid)
        unseen[o] = FULL & ~twelve
    return hands, contracts, unseen


def choose_bid(k: Knowledge, rng: random.Random, budget: Budget = BUDGET) -> int:
    """The three bid cards (a mask) of best mean value over sampled deals: every
    candidate is played out in a first batch of deals, the best third in more."""
    candidates = bid_candidates(k.hand, k.trumps, budget)
    me = k.seat
    eldest = (k.dealer + 1) % SEATS
    pool = list(bits(k.unseen))
    totals = dict.fromkeys(candidates, 0.0)
    first = max(1, budget.bid_worlds // 4)
    for round_, worlds in enumerate((first, budget.bid_worlds - first)):
        if round_:
            candidates = sorted(candidates, key=lambda b: -totals[b])[
                : max(2, len(candidates) // 3)
            ]
        for _ in range(worlds):
            hands, contracts, unseen = _deal_others(k, pool, rng)
            for bid in candidates:
                hands[me] = k.hand & ~bid
                contracts[me] = bid_value(bid)
                if SEEN:
                    tricks = play_out_seen(
                        hands,
                        unseen,
                        (0, 0, 0),
                        contracts,
                        (0, 0, 0),
                        [],
                        eldest,
                        k.trumps,
                        TRICKS,
                        me,
                    )
                else:
                    tricks = play_out(
                        hands, contracts, (0, 0, 0), [], eldest, k.trumps, TRICKS, BID_BLIND
                    )
                totals[bid] += value(me, contracts, tricks, None, None, BID_MADE_WEIGHT)
    return max(candidates, key=lambda b: (totals[b], -b))


# --- premium bids ---------------------------------------------------------------------------
def make_chance(k: Knowledge, rng: random.Random, worlds: int) -> float:
    """The share of sampled deals in which this seat makes its contract."""
    assert k.contract is not None
    me = k.seat
    eldest = (k.dealer + 1) % SEATS
    pool = list(bits(k.unseen))
    made = 0
    for _ in range(worlds):
        hands, contracts, unseen = _deal_others(k, pool, rng)
        hands[me] = k.hand
        contracts[me] = k.contract
        if SEEN:
            tricks = play_out_seen(
                hands, unseen, (0, 0, 0), contracts, (0, 0, 0), [], eldest, k.trumps, TRICKS, me
            )
        else:
            tricks = play_out(hands, contracts, (0, 0, 0), [], eldest, k.trumps, TRICKS)
        made += tricks[me] == k.contract
    return made / worlds


def premium_call(
    k: Knowledge, legal: Sequence[Action], rng: random.Random, budget: Budget = BUDGET
) -> Action:
    chance = make_chance(k, rng, budget.premium_worlds)
    if Reveal() in legal and chance >= REVEAL_AT:
        return Reveal()
    if Declare() in legal and chance >= DECLARE_AT:
        return Declare()
    return Pass()
