"""The ``hard`` COM: determinized search over the unseen cards.

From its view alone the seat draws the other hands consistently with everything it knows
(:mod:`hearts.com.knowledge`: voids, its own pass, what the rules imply), and likelier
the better they explain what the others have done: the deals come from a chain weighed
by how many of the others' plays (and of the pass it received) the rules of thumb would
have made from them (:class:`~hearts.com.knowledge.Posterior`). It then plays each
candidate card on every sample and the rest of the deal out with the rules of thumb of
:mod:`hearts.com.heuristic` for every seat, moon shots and their defence included. A
candidate is valued by the seat's deal score less the others' mean (so shooting the moon,
and stopping it, count for what they are worth); the lowest mean over the samples wins,
ties going to the rules of thumb's own choice. Every candidate meets the same samples
(common random numbers), cards that are equivalent (neighbours in a suit with nothing
left between them) are tried once, and the budget (rollout plays per decision, chain
steps per sample) is fixed, so a decision is deterministic for a given seed and its time
bounded.

Passing uses the same rollouts: the heuristic's best few passes are each played out over
deals of the unseen cards (with the cards the seat will receive drawn from them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from hearts.com import heuristic
from hearts.com.knowledge import Knowledge, Posterior
from hearts.com.table import Table, legal_ints, to_int
from hearts.rules import Rules
from hearts.views import View


@dataclass(frozen=True, slots=True)
class Budget:
    plays: int = 30_000  # card plays simulated per decision, over all samples and candidates
    min_samples: int = 12
    max_samples: int = 80
    pass_candidates: int = 5
    slip: float = 0.03  # the least chance a seat is taken to depart from the rules of thumb
    thin: int = 5  # chain steps between two samples kept
    burn: int = 100  # chain steps before the first one
    lookahead: int = 0  # in the rollouts, this seat: 1 avoids points it sees coming, 2 searches


DEFAULT_BUDGET = Budget()


def distinct(hand: list[int], legal: list[int], played: int) -> list[int]:
    """``legal`` less the cards equivalent to a lower one kept: same suit, and every card
    between them in this hand or already played."""
    mine = 0
    for c in hand:
        mine |= 1 << c
    known = mine | played
    kept: list[int] = []
    for c in legal:
        if kept and kept[-1] // 13 == c // 13:
            prev = kept[-1]
            if all(known >> x & 1 for x in range(prev + 1, c)):
                continue
        kept.append(c)
    return kept


def _value(scores: tuple[int, ...], seat: int) -> float:
    n = len(scores)
    return scores[seat] - (sum(scores) - scores[seat]) / (n - 1)


def _rollout(table: Table, me: int = -1, look: int = 0) -> tuple[int, ...]:
    """Play the deal out with the rules of thumb for every seat (``me`` looking ahead as
    ``look`` says: 1 to the end of each trick, 2 by a nested search); the deal's scores."""
    choose = heuristic.play
    hands, n = table.hands, table.n
    while True:
        trick = table.trick
        seat = (table.leader + len(trick)) % n
        hand = hands[seat]
        if not hand:
            return table.scores()
        legal = legal_ints(
            hand, trick, table.first, table.broken, table.opening, table.points_allowed
        )
        if len(legal) == 1:
            table.play(legal[0])
        elif seat == me:
            table.play(
                _look_ahead(table, seat, legal) if look == 1 else _nested(table, seat, legal)
            )
        else:
            table.play(choose(table, seat, legal))


def _nested(table: Table, seat: int, legal: list[int]) -> int:
    best, best_v = legal[0], None
    fav = heuristic.play(table, seat, legal)
    for c in legal:
        t = table.copy()
        t.play(c)
        v = _value(_rollout(t), seat)
        if best_v is None or v < best_v or (v == best_v and c == fav):
            best, best_v = c, v
    return best


def _trick_cost(table: Table, seat: int, card: int) -> int:
    """The points ``seat`` takes in this trick if it plays ``card`` and the others finish
    it by the rules of thumb (on this sample's hands)."""
    trial = table.copy()
    before = trial.taken[seat]
    trial.play(card)
    while trial.trick:
        s = (trial.leader + len(trial.trick)) % trial.n
        legal = trial.legal(s)
        trial.play(legal[0] if len(legal) == 1 else heuristic.play(trial, s, legal))
    return trial.taken[seat] - before


def _look_ahead(table: Table, seat: int, legal: list[int]) -> int:
    """The rules of thumb's card, unless another one would take fewer points in this
    trick: then the rules of thumb's choice among those that take the fewest."""
    card = heuristic.play(table, seat, legal)
    if table.moon and heuristic.shooter_of(table.taken) is not None:
        return card  # a moon shot on: points are not simply bad
    cost = _trick_cost(table, seat, card)
    if not cost:
        return card
    costs = {c: _trick_cost(table, seat, c) for c in legal if c != card}
    least = min(costs.values())
    if least >= cost:
        return card
    cheapest = [c for c, v in costs.items() if v == least]
    return cheapest[0] if len(cheapest) == 1 else heuristic.play(table, seat, cheapest)


def choose_play(
    view: View, rules: Rules, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> int:
    """The card (as an integer) the seat plays, by determinized rollouts."""
    know = Knowledge.from_view(view, rules)
    seat = know.seat
    public = know.public_table()
    legal = public.legal(seat)
    candidates = distinct(know.hand, legal, know.played)
    if len(candidates) == 1:
        return candidates[0]
    favourite = heuristic.play(public, seat, legal)
    remaining = sum(know.sizes) + 1
    samples = budget.plays // (remaining * len(candidates))
    samples = max(budget.min_samples, min(budget.max_samples, samples))
    totals = dict.fromkeys(candidates, 0.0)
    for hands in _likely_samples(know, rng, samples, budget):
        table = know.table(hands)
        for card in candidates:
            trial = table.copy()
            trial.play(card)
            scores = _rollout(trial, seat if budget.lookahead else -1, budget.lookahead)
            totals[card] += _value(scores, seat)

    # the rules of thumb's choice (or the card tried for it) wins ties and near ties
    favourite = max(c for c in candidates if c // 13 == favourite // 13 and c <= favourite)
    best = min(candidates, key=lambda c: (round(totals[c] / samples, 6), c != favourite))
    return best


def _likely_samples(
    know: Knowledge, rng: random.Random, count: int, budget: Budget
) -> list[list[list[int]]]:
    """``count`` deals of the unseen cards, likelier the better they explain the plays."""
    return Posterior(know, budget.slip).draw(rng, count, budget.thin, budget.burn)


def choose_pass(
    view: View, rules: Rules, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> list[int]:
    """Three cards to pass, the heuristic's best few weighed by playing the deal out."""
    assert view.seat is not None
    seat, n = view.seat, len(view.players)
    hand = sorted(to_int(c) for c in view.hand)
    offset = {"left": 1, "right": -1, "across": 2}[view.direction]
    receiver = (seat + offset) % n
    ranked = _ranked_passes(hand, budget.pass_candidates)
    if len(ranked) == 1:
        return ranked[0]
    removed = {to_int(c) for c in view.removed}
    unseen = [c for c in range(52) if c not in removed and c not in hand]
    opening = to_int("3C" if "2C" in view.removed else "2C")
    samples = budget.plays // (len(ranked) * (len(unseen) + len(hand)))
    samples = max(budget.min_samples, min(budget.max_samples, samples))
    totals = [0.0] * len(ranked)
    for _ in range(samples):
        rng.shuffle(unseen)
        size = len(hand)
        hands = [sorted(unseen[i * size : (i + 1) * size]) for i in range(n - 1)]
        others = [s for s in range(n) if s != seat]
        dealt = dict(zip(others, hands, strict=True))
        # the others pass by the rules of thumb; this seat receives from its giver
        incoming = {s: heuristic.choose_pass(dealt[s]) for s in others}
        for i, cards in enumerate(ranked):
            table_hands: list[list[int]] = [[] for _ in range(n)]
            for s in others:
                kept = [c for c in dealt[s] if c not in incoming[s]]
                table_hands[(s + offset) % n] += incoming[s]
                table_hands[s] += kept
            table_hands[seat] += [c for c in hand if c not in cards]
            table_hands[receiver] += cards
            for h in table_hands:
                h.sort()
            leader = next(s for s in range(n) if opening in table_hands[s])
            table = Table(table_hands, rules, leader=leader, opening=opening, played=_mask(removed))
            totals[i] += _value(_rollout(table), seat)
    best = min(range(len(ranked)), key=lambda i: (round(totals[i] / samples, 6), i))
    return ranked[best]


def _mask(cards: set[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _ranked_passes(hand: list[int], count: int) -> list[list[int]]:
    """The heuristic's pass first, then the passes that swap one of its cards for the
    next most dangerous ones."""
    first = heuristic.choose_pass(hand)
    ranked = [first]
    spare = [c for c in heuristic.choose_pass(hand, 6) if c not in first]
    for keep in combinations(first, 2):
        for extra in spare:
            option = sorted([*keep, extra])
            if option not in ranked:
                ranked.append(option)
            if len(ranked) >= count:
                return ranked
    return ranked
