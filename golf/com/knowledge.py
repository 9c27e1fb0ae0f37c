"""What a seat knows from its view alone: the unseen cards and the value of grids.

Everything here is computed from a :class:`~golf.views.View` and the rules, never
from a state, so a COM (or a hint) knows exactly what a human in its seat would know.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence

from cards.deck import build_deck, rank_of
from golf.rules import MatchKey, Position, Rules
from golf.scoring import score_grid
from golf.views import View

Rank = str  # a rank character, "A".."K" or "X"
Cells = list[Rank | None]  # a grid by rank, None where face down


def unseen_ranks(view: View, rules: Rules) -> Counter[Rank]:
    """The ranks of every card the viewer has not seen: the decks minus what is visible."""
    unseen = Counter(
        rank_of(c) for c in build_deck(rules.deck_count(len(view.players)), rules.jokers)
    )
    seen: list[str] = [c for grid in view.grids for c in grid if c is not None]
    seen.extend(view.discard)
    if view.drawn_card is not None:
        seen.append(view.drawn_card)
    for code in seen:
        r = rank_of(code)
        if unseen[r] > 0:
            unseen[r] -= 1
    return +unseen


class Knowledge:
    """Probabilities of the unseen ranks, and grid estimates built on them.

    The estimate of a grid is its expected score if every face-down card were drawn from
    the unseen cards: the sum of known values and of the mean unseen value for each
    face-down card, less the expected points saved by matched lines. Cards match as the
    rules say (:meth:`~golf.rules.Rules.match_key`: by rank, or by point value).
    """

    __slots__ = (
        "all_unknown",
        "keep_negative",
        "key_prob",
        "keys",
        "lines",
        "lines_at",
        "mean",
        "prob",
        "rules",
        "values",
    )

    def __init__(self, rules: Rules, unseen: Counter[Rank]) -> None:
        self.rules = rules
        self.values = dict(rules.value_table())
        total = sum(unseen.values())
        if total == 0:  # everything seen: fall back to the whole deck's make-up
            unseen = Counter(rank_of(c) for c in build_deck(1, rules.jokers))
            total = sum(unseen.values())
        self.prob = {r: n / total for r, n in unseen.items()}
        self.mean = sum(p * self.values[r] for r, p in self.prob.items())
        self.keys = rules.match_keys()
        # the chance that an unseen card has a given match key, and that key's points
        self.key_prob: dict[MatchKey, float] = {}
        key_value: dict[MatchKey, int] = {}
        for r, p in self.prob.items():
            key = self.keys[r]
            self.key_prob[key] = self.key_prob.get(key, 0.0) + p
            key_value[key] = self.values[r]
        self.keep_negative = rules.negative_pairs_keep_value
        self.lines = rules.line_positions()
        self.lines_at: list[list[tuple[Position, ...]]] = [[] for _ in range(rules.cells)]
        for line in self.lines:
            for p in line:
                self.lines_at[p].append(line)
        self.all_unknown: dict[int, float] = {}
        for line in self.lines:
            m = len(line)
            if m not in self.all_unknown:
                self.all_unknown[m] = sum(
                    (p**m) * m * key_value[k]
                    for k, p in self.key_prob.items()
                    if not (self.keep_negative and key_value[k] < 0)
                )

    @classmethod
    def from_view(cls, view: View, rules: Rules) -> Knowledge:
        return cls(rules, unseen_ranks(view, rules))

    def cell_value(self, rank: Rank | None) -> float:
        return self.mean if rank is None else self.values[rank]

    def line_saving(self, cells: Sequence[Rank | None], line: Sequence[Position]) -> float:
        """Expected points a line saves by matching, given the known cells in it."""
        keys = self.keys
        first: Rank | None = None
        unknown = 0
        for p in line:
            r = cells[p]
            if r is None:
                unknown += 1
            elif first is None:
                first = r
            elif keys[r] != keys[first]:
                return 0.0
        if first is None:
            return self.all_unknown[len(line)]
        v = self.values[first]
        if self.keep_negative and v < 0:
            return 0.0
        return (self.key_prob.get(keys[first], 0.0) ** unknown) * len(line) * v

    def estimate(self, cells: Sequence[Rank | None]) -> float:
        """Expected score of a grid given as ranks (``None`` for a face-down card)."""
        if None not in cells:
            return float(exact_score(cells, self.rules))
        total = sum(self.cell_value(r) for r in cells)
        return total - sum(self.line_saving(cells, line) for line in self.lines)

    def estimate_with(self, cells: Cells, base: float, position: Position, rank: Rank) -> float:
        """``estimate`` of ``cells`` with ``rank`` at ``position``, from its estimate ``base``."""
        old = cells[position]
        if old == rank:
            return base
        before = sum(self.line_saving(cells, line) for line in self.lines_at[position])
        cells[position] = rank
        try:
            if None not in cells:
                return float(exact_score(cells, self.rules))
            after = sum(self.line_saving(cells, line) for line in self.lines_at[position])
        finally:
            cells[position] = old
        return base - self.cell_value(old) + self.values[rank] - after + before


def exact_score(ranks: Sequence[Rank | None], rules: Rules) -> int:
    """The score of a fully known grid given by ranks."""
    return score_grid([f"{r}S" if r != "X" else "XR" for r in ranks if r is not None], rules)


@functools.lru_cache(maxsize=64)
def rank_scorer(rules: Rules) -> Callable[[Sequence[Rank]], int]:
    """A fast :func:`exact_score` for the rules: the score of a fully known grid of ranks
    (for the searches' inner loops, which score many grids of one rule set)."""
    values, keys, lines = rules.value_table(), rules.match_keys(), rules.line_positions()
    keep = rules.negative_pairs_keep_value

    def score(grid: Sequence[Rank]) -> int:
        zero: set[int] = set()
        for line in lines:
            first = grid[line[0]]
            key = keys[first]
            if all(keys[grid[q]] == key for q in line) and not (keep and values[first] < 0):
                zero.update(line)
        return sum(values[r] for p, r in enumerate(grid) if p not in zero)

    return score


def ranks_of(grid: Sequence[str | None]) -> Cells:
    return [None if c is None else rank_of(c) for c in grid]
