"""The ``hard`` COM: determinized search.

From its view alone, the seat samples the cards it cannot see (face-down cards and the
stock) consistently with everything visible (``determinization``), then plays each of
its best candidate actions forward a few turns on every sample with a fast greedy
rollout for all seats, and keeps the action whose outcome (its score minus its
opponents' mean) is lowest on average. The same samples serve every candidate (common
random numbers), so the comparison measures the actions rather than the luck of the
draw. The candidates, and the move played when no rollout clearly beats it, come from
the expected-value evaluation with a look beyond the next turns (:data:`HARD_LOOK`),
which ``normal`` does without. The budget is fixed - candidates x samples x rollout
depth - so a decision is deterministic for a given seed and its time is bounded.

The seat's very last turn of a match is not searched for points: it is played to win the
match (:mod:`golf.com.endgame`).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from cards.deck import rank_of
from golf.actions import Action, DiscardDrawn, DrawFromStock, SwapCard, TakeDiscard
from golf.com.common import playable, spread_flip
from golf.com.endgame import last_turn_move
from golf.com.evaluate import Evaluator, Lookahead
from golf.com.knowledge import Knowledge, rank_scorer, unseen_ranks
from golf.rules import FinalTurns, FlipOnDiscard, Rules
from golf.state import Phase
from golf.views import View

#: The evaluation's look beyond the next turns (see golf.com.evaluate): one and a half of
#: the seat's own later draws and a point for each card turned, as good as any weights
#: tried against `normal` (docs/benchmarks.md; two and a half draws already plays worse).
HARD_LOOK = Lookahead(draws=1.5, reveal=1.0)


@dataclass(frozen=True, slots=True)
class Budget:
    samples: int = (
        48  # determinizations with 2 players; samples // (players - 1), 16 or more, beyond
    )
    candidates: int = 6  # actions searched: the best ones by the expected-value evaluation
    rounds: int = 6  # turns each seat plays in a rollout before the position is scored
    clear_margin: float = 6.0  # skip the search when the evaluation's best leads by this
    confidence: float = 1.0  # standard errors by which a rollout must beat the evaluation
    look: Lookahead = HARD_LOOK  # what the evaluation that orders the candidates counts


DEFAULT_BUDGET = Budget()


@functools.lru_cache(maxsize=64)
def _lines_at(rules: Rules) -> list[list[tuple[int, ...]]]:
    """For each position, the lines through it (computed once per rule set)."""
    lines = rules.line_positions()
    return [[line for line in lines if p in line] for p in range(rules.cells)]


class _Sim:
    """A bare-bones hole for rollouts: ranks only, lists, no events."""

    __slots__ = (
        "discard",
        "finals_left",
        "finisher",
        "grids",
        "keys",
        "lines_at",
        "mean",
        "rng",
        "rules",
        "score",
        "stock",
        "turns",
        "up",
        "values",
    )

    def __init__(
        self,
        rules: Rules,
        grids: list[list[str]],
        up: list[list[bool]],
        stock: list[str],
        discard: list[str],
        finisher: int | None,
        finals_left: int | None,
        turns: int,
        mean: float,
        rng: random.Random,
    ) -> None:
        self.rules = rules
        self.values = rules.value_table()
        self.keys = rules.match_keys()
        self.grids = grids
        self.up = up
        self.stock = stock
        self.discard = discard
        self.finisher = finisher
        self.finals_left = finals_left
        self.turns = turns
        self.mean = mean
        self.rng = rng
        self.lines_at = _lines_at(rules)
        self.score = rank_scorer(rules)

    # --- what a seat believes its grid is worth: face-down cards at the mean --------------
    def gain(self, seat: int, pos: int, rank: str) -> float:
        """Points ``seat`` expects to save by putting ``rank`` at ``pos`` (its face-down
        cards counted at the mean; a line of matching face-up cards scores nothing)."""
        grid, up, values, keys, mean = (
            self.grids[seat],
            self.up[seat],
            self.values,
            self.keys,
            self.mean,
        )
        old = grid[pos] if up[pos] else None
        old_v = mean if old is None else values[old]
        new_v = values[rank]
        lines = self.lines_at[pos]
        if not lines:
            return old_v - new_v
        keep = self.rules.negative_pairs_keep_value
        # the line totals are summed in line order, before and after, as the values compared
        # elsewhere are: the same sums to the last bit, so ties break the same way
        before_sum = after_sum = 0.0
        for line in lines:
            before = after = 0.0
            key = None  # the match key the other cards of the line share
            same = True  # the other cards are all face up and share ``key``
            for q in line:
                if q == pos:
                    before += old_v
                    after += new_v
                elif up[q]:
                    r = grid[q]
                    v = values[r]
                    before += v
                    after += v
                    if same:
                        k = keys[r]
                        if key is None:
                            key = k
                        elif k != key:
                            same = False
                else:
                    before += mean
                    after += mean
                    same = False
            if same:
                if old is not None and keys[old] == key and not (keep and before < 0):
                    before = 0.0
                if keys[rank] == key and not (keep and after < 0):
                    after = 0.0
            before_sum += before
            after_sum += after
        return before_sum - after_sum

    def best_spot(self, seat: int, rank: str) -> tuple[float, int]:
        return max((self.gain(seat, p, rank), -p) for p in range(self.rules.cells))

    # --- playing ------------------------------------------------------------------------------
    def draw(self) -> str | None:
        if not self.stock:
            if len(self.discard) < 2:
                return None
            pile = self.discard[:-1]
            self.rng.shuffle(pile)
            self.stock = pile
            self.discard = self.discard[-1:]
        return self.stock.pop()

    def place(self, seat: int, pos: int, rank: str) -> None:
        self.discard.append(self.grids[seat][pos])
        self.grids[seat][pos] = rank
        self.up[seat][pos] = True

    def flip(self, seat: int, pos: int) -> None:
        self.up[seat][pos] = True

    def end_turn(self, seat: int) -> bool:
        """Close a turn like the engine does; True when the hole is over."""
        self.turns += 1
        complete = all(self.up[seat])
        if self.finals_left is not None:
            self.finals_left -= 1
        if complete and self.rules.final_turns is FinalTurns.NONE:
            return True
        if self.finals_left == 0 or self.turns >= self.rules.max_turns:
            return True
        if complete and self.finisher is None:
            self.finisher = seat
            self.finals_left = len(self.grids) - 1
        return False

    def greedy_turn(self, seat: int) -> bool:
        """One turn of a quick greedy player; True when the hole is over."""
        top = self.discard[-1] if self.discard else None
        if top is not None:
            gain, neg = self.best_spot(seat, top)
            if gain >= 1.0:
                self.discard.pop()
                self.place(seat, -neg, top)
                return self.end_turn(seat)
        card = self.draw()
        if card is None:
            return True
        return self.finish_with(seat, card)

    def finish_with(self, seat: int, card: str) -> bool:
        """Swap or discard a card drawn from the stock, greedily."""
        gain, neg = self.best_spot(seat, card)
        if gain > 0.5:
            self.place(seat, -neg, card)
        else:
            self.discard.append(card)
            if self.rules.flip_on_discard is FlipOnDiscard.ALWAYS:
                for p, is_up in enumerate(self.up[seat]):
                    if not is_up:
                        self.flip(seat, p)
                        break
        return self.end_turn(seat)

    def exact(self, seat: int) -> int:
        return self.score(self.grids[seat])


def _determinize(view: View, rules: Rules, rng: random.Random, know: Knowledge) -> _Sim:
    unseen = [r for r, n in unseen_ranks(view, rules).items() for _ in range(n)]
    rng.shuffle(unseen)
    grids: list[list[str]] = []
    ups: list[list[bool]] = []
    for grid in view.grids:
        row = []
        for code in grid:
            row.append(rank_of(code) if code is not None else (unseen.pop() if unseen else "K"))
        grids.append(row)
        ups.append([code is not None for code in grid])
    stock = unseen[: view.stock_size]
    return _Sim(
        rules,
        grids,
        ups,
        stock,
        [rank_of(c) for c in view.discard],
        view.finisher,
        view.final_turns_left,
        view.turns_in_hole,
        know.mean,
        rng,
    )


def _apply(sim: _Sim, me: int, action: Action, drawn: str | None) -> bool:
    """Play ``action`` for ``me`` in ``sim`` (finishing the turn greedily after a draw)."""
    if isinstance(action, SwapCard):
        assert drawn is not None
        sim.place(me, action.position, drawn)
        return sim.end_turn(me)
    if isinstance(action, DiscardDrawn):
        assert drawn is not None
        sim.discard.append(drawn)
        if action.flip is not None:
            sim.flip(me, action.flip)
        return sim.end_turn(me)
    if isinstance(action, TakeDiscard):
        top = sim.discard.pop()
        gain, neg = sim.best_spot(me, top)
        if not sim.rules.discard_take_must_swap and gain <= 0:
            sim.discard.append(top)
            return sim.end_turn(me)
        sim.place(me, -neg, top)
        return sim.end_turn(me)
    if isinstance(action, DrawFromStock):
        card = sim.draw()
        if card is None:
            return True
        return sim.finish_with(me, card)
    raise ValueError(f"cannot search {action!r}")


def _rollout(sim: _Sim, me: int, action: Action, drawn: str | None, rounds: int) -> float:
    seats = len(sim.grids)
    over = _apply(sim, me, action, drawn)
    seat = me
    for _ in range(rounds * seats - 1):
        if over:
            break
        seat = (seat + 1) % seats
        over = sim.greedy_turn(seat)
    mine = sim.exact(me)
    others = [sim.exact(s) for s in range(seats) if s != me]
    return mine - sum(others) / len(others)


def search_policy(
    view: View, rules: Rules, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> Action:
    actions = playable(view)
    if len(actions) == 1:
        return actions[0]
    if view.phase is Phase.FLIPS:
        return spread_flip(view, rules, rng)
    assert view.seat is not None
    last = last_turn_move(view, rules, rng)
    if last is not None:
        return last
    know = Knowledge.from_view(view, rules)
    ev = Evaluator.from_view(view, rules, know, budget.look)
    drawn = rank_of(view.drawn_card) if view.drawn_card is not None else None
    if view.phase is Phase.DRAW:
        values = ev.draw_choice_values(actions)
    else:
        assert drawn is not None
        values = ev.place_values(drawn, actions)
    order = sorted(range(len(actions)), key=lambda i: (values[i], i))
    if len(order) > 1 and values[order[1]] - values[order[0]] >= budget.clear_margin:
        return actions[order[0]]
    candidates = [actions[i] for i in order[: budget.candidates]]
    outcomes: list[list[float]] = [[] for _ in candidates]
    # rollouts grow with the table: fewer samples for more players keeps the time bounded
    samples = (
        max(16, budget.samples // (len(view.players) - 1))
        if budget.samples > 16
        else budget.samples
    )
    for _ in range(samples):
        sample_seed = rng.getrandbits(64)
        base = _determinize(view, rules, random.Random(sample_seed), know)
        for i, action in enumerate(candidates):
            sim = _Sim(
                rules,
                [list(g) for g in base.grids],
                [list(u) for u in base.up],
                list(base.stock),
                list(base.discard),
                base.finisher,
                base.finals_left,
                base.turns,
                base.mean,
                random.Random(sample_seed),
            )
            outcomes[i].append(_rollout(sim, view.seat, action, drawn, budget.rounds))
    return candidates[_choose(outcomes, budget.confidence)]


def _choose(outcomes: list[list[float]], z: float) -> int:
    """The candidate to play: the evaluation's favourite (index 0) unless another one did
    better on the same samples by more than ``z`` standard errors of the difference."""
    best, best_mean = 0, 0.0
    n = len(outcomes[0])
    for i in range(1, len(outcomes)):
        diffs = [a - b for a, b in zip(outcomes[i], outcomes[0], strict=True)]
        mean = sum(diffs) / n
        if n > 1:
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            se = (var / n) ** 0.5
        else:
            se = 0.0
        if mean < -z * se and mean < best_mean:
            best, best_mean = i, mean
    return best
