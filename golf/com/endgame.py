"""The very last turn of a match, played to win the match rather than for points.

On the match's last hole, once another seat has gone out and no seat plays after this
one, only the face-down cards are left to chance: the seat's move and those cards decide
the match. Points no longer count for themselves then, only the order of the totals. So
``hard`` weighs each move by the chance it leaves the seat alone on the lowest total less
the chance it leaves someone below it, over deals of the cards it cannot see (the same
deals for every move), the points it expects breaking ties: behind, it takes the gamble
that can still win; ahead, the sure card that cannot lose, where the expected points
would have it do the opposite. On earlier holes every point is carried into the next
ones, and the search plays for points (:mod:`golf.com.search`).
"""

from __future__ import annotations

import random

from cards.deck import rank_of
from golf.actions import Action, DiscardDrawn, DrawFromStock, SwapCard, TakeDiscard
from golf.com.common import playable
from golf.com.knowledge import Cells, Rank, rank_scorer, ranks_of, unseen_ranks
from golf.rules import Rules
from golf.state import Phase
from golf.views import View

#: Deals of the unseen cards a placement is weighed over (per rank that may be drawn, for
#: a draw from the stock: :data:`DRAW_SAMPLES`).
SAMPLES = 240
DRAW_SAMPLES = 60


def is_last_turn(view: View) -> bool:
    """Whether this is the seat's last turn of the match with nobody to play after it."""
    return (
        view.seat is not None
        and view.finisher is not None
        and view.finisher != view.seat
        and view.final_turns_left == 1
        and view.hole >= view.holes
        and view.phase in (Phase.DRAW, Phase.PLACE)
    )


class _Table:
    """The grids at the seat's last turn and what its totals carry in from earlier holes."""

    def __init__(self, view: View, rules: Rules) -> None:
        assert view.seat is not None
        self.me = view.seat
        self.score = rank_scorer(rules)
        self.carried = view.totals
        self.grids = [ranks_of(g) for g in view.grids]
        self.unseen = [r for r, n in sorted(unseen_ranks(view, rules).items()) for _ in range(n)]
        # every other seat's face-down cards, as (seat, position); they are filled first
        self.others_hidden = [
            (s, p)
            for s, grid in enumerate(self.grids)
            if s != self.me
            for p, r in enumerate(grid)
            if r is None
        ]
        self.mine_hidden = [p for p, r in enumerate(self.grids[self.me]) if r is None]

    def deals(self, pool: list[Rank], count: int, rng: random.Random) -> list[list[Rank]]:
        k = min(len(pool), len(self.others_hidden) + len(self.mine_hidden))
        return [rng.sample(pool, k) for _ in range(count)]

    def others_best(self, deal: list[Rank]) -> int:
        grids = [list(g) for g in self.grids]
        for (s, p), r in zip(self.others_hidden, deal, strict=False):
            grids[s][p] = r
        return min(
            self.carried[s] + self.score([r or "K" for r in g])
            for s, g in enumerate(grids)
            if s != self.me
        )

    def value(self, mine: Cells, deals: list[list[Rank]], best: list[int]) -> tuple[float, float]:
        """(wins less losses, less the points expected) of ending with ``mine`` (``None``
        where still face down), over ``deals``; higher is better."""
        hidden = [p for p, r in enumerate(mine) if r is None]
        start = len(self.others_hidden)
        result = points = 0
        for deal, theirs in zip(deals, best, strict=True):
            grid = list(mine)
            for p, r in zip(hidden, deal[start:], strict=False):
                grid[p] = r
            total = self.carried[self.me] + self.score([r or "K" for r in grid])
            result += (total < theirs) - (total > theirs)
            points += total - theirs
        n = len(deals)
        return result / n, -points / n

    def best_placement(
        self, rank: Rank, options: list[Action], pool: list[Rank], count: int, rng: random.Random
    ) -> tuple[Action, tuple[float, float]]:
        deals = self.deals(pool, count, rng)
        best = [self.others_best(d) for d in deals]
        scored: list[tuple[tuple[float, float], int]] = []
        for i, action in enumerate(options):
            mine = list(self.grids[self.me])
            if isinstance(action, SwapCard):
                mine[action.position] = rank
            scored.append((self.value(mine, deals, best), -i))
        (value, neg), *_ = sorted(scored, reverse=True)
        return options[-neg], value


def last_turn_move(
    view: View, rules: Rules, rng: random.Random, samples: int = SAMPLES
) -> Action | None:
    """The move that most likely wins the match on the seat's last turn of it (``None``
    when this is not that turn: see :func:`is_last_turn`)."""
    if not is_last_turn(view):
        return None
    table = _Table(view, rules)
    actions = playable(view)
    if view.phase is Phase.PLACE:
        assert view.drawn_card is not None
        drawn = rank_of(view.drawn_card)
        move, _ = table.best_placement(drawn, actions, table.unseen, samples, rng)
        return move
    cells = len(table.grids[table.me])
    swaps: list[Action] = [SwapCard(p) for p in range(cells)]
    values: dict[Action, tuple[float, float]] = {}
    if TakeDiscard() in actions:
        top = rank_of(view.discard[-1])
        options = swaps if rules.discard_take_must_swap else [*swaps, DiscardDrawn()]
        _, values[TakeDiscard()] = table.best_placement(top, options, table.unseen, samples, rng)
    if DrawFromStock() in actions and table.unseen:
        # a flip with the discard changes nothing now: every card is turned at the end
        options = [*swaps, DiscardDrawn()]
        n = len(table.unseen)
        wins = points = 0.0
        for rank in sorted(set(table.unseen)):
            share = table.unseen.count(rank) / n
            pool = list(table.unseen)
            pool.remove(rank)
            _, (w, p) = table.best_placement(rank, options, pool, DRAW_SAMPLES, rng)
            wins += share * w
            points += share * p
        values[DrawFromStock()] = (wins, points)
    if not values:
        return None
    return max(values, key=lambda a: (round(values[a][0], 9), values[a][1]))
