"""Valuing a seat's options from its view: the expected-value reasoning the COMs share.

The value of an action is the seat's expected hole score after it minus the mean of its
opponents' expected scores (lower is better). Going out is valued apart: it freezes the
seat's score while each opponent gets at most one more turn, so it is worth it when the
completed grid beats what continuing would give by more than the opponents' last turns.
"""

from __future__ import annotations

from dataclasses import dataclass

from cards.deck import rank_of
from golf.actions import Action, DiscardDrawn, DrawFromStock, SwapCard, TakeDiscard
from golf.com.knowledge import Cells, Knowledge, Rank, ranks_of
from golf.rules import FinalTurns, Rules
from golf.views import View


@dataclass(slots=True)
class Evaluator:
    view: View
    rules: Rules
    know: Knowledge
    me: int
    cells: Cells
    base: float
    opponents: list[Cells]
    opponent_estimates: list[float]
    last_turn: bool  # someone else went out: this is the seat's final turn
    hidden: list[int]  # the seat's face-down positions

    @classmethod
    def from_view(cls, view: View, rules: Rules, know: Knowledge | None = None) -> Evaluator:
        assert view.seat is not None
        know = know or Knowledge.from_view(view, rules)
        me = view.seat
        cells = ranks_of(view.grids[me])
        opponents = [ranks_of(g) for s, g in enumerate(view.grids) if s != me]
        return cls(
            view=view,
            rules=rules,
            know=know,
            me=me,
            cells=cells,
            base=know.estimate(cells),
            opponents=opponents,
            opponent_estimates=[know.estimate(c) for c in opponents],
            last_turn=view.finisher is not None and view.finisher != me,
            hidden=[p for p, r in enumerate(cells) if r is None],
        )

    # --- single outcomes ---------------------------------------------------------------------
    def mean_opponents(self) -> float:
        return sum(self.opponent_estimates) / len(self.opponent_estimates)

    def opponent_turn_gain(self, cells: Cells, estimate: float, top: Rank | None) -> float:
        """What one more turn is expected to save an opponent (taking ``top`` or drawing)."""
        know = self.know
        best_take = 0.0
        if top is not None:
            best_take = max(0.0, estimate - min(self._placements(cells, estimate, top)))
        draw = 0.0
        for rank, p in know.prob.items():
            draw += p * max(0.0, estimate - min(self._placements(cells, estimate, rank)))
        return max(best_take, draw)

    def _placements(self, cells: Cells, estimate: float, rank: Rank) -> list[float]:
        return [self.know.estimate_with(cells, estimate, p, rank) for p in range(len(cells))]

    def ending_value(self, final_score: float, top: Rank | None) -> float:
        """Value of going out now with ``final_score``, leaving ``top`` on the discard pile."""
        if self.rules.final_turns is FinalTurns.OTHERS_ONCE:
            after = [
                est - self.opponent_turn_gain(c, est, top)
                for c, est in zip(self.opponents, self.opponent_estimates, strict=True)
            ]
        else:
            after = self.opponent_estimates
        return final_score - sum(after) / len(after)

    def outcome_value(self, estimate: float, completes: bool, top: Rank | None) -> float:
        if completes and not self.last_turn:
            return self.ending_value(estimate, top)
        return estimate - self.mean_opponents()

    # --- actions -------------------------------------------------------------------------------
    def swap_value(self, position: int, rank: Rank) -> float:
        estimate = self.know.estimate_with(self.cells, self.base, position, rank)
        hidden = self.hidden
        completes = hidden == [position] or not hidden
        replaced = self.cells[position]
        # a face-down card replaced goes face up on the pile: unknown to us now
        return self.outcome_value(estimate, completes, replaced)

    def discard_value(self, rank: Rank, flip: int | None) -> float:
        hidden = self.hidden
        completes = flip is not None and hidden == [flip]
        return self.outcome_value(self.base, completes, rank)

    def place_values(self, rank: Rank, actions: list[Action]) -> list[float]:
        values = []
        for action in actions:
            if isinstance(action, SwapCard):
                values.append(self.swap_value(action.position, rank))
            elif isinstance(action, DiscardDrawn):
                values.append(self.discard_value(rank, action.flip))
            else:
                values.append(float("inf"))
        return values

    def stock_options(self, rank: Rank) -> float:
        """Best value reachable after drawing ``rank`` from the stock."""
        best = min(self.swap_value(p, rank) for p in range(len(self.cells)))
        mode = self.rules.flip_on_discard.value
        hidden = self.hidden
        if mode != "always" or not hidden:
            best = min(best, self.discard_value(rank, None))
        if mode != "never":
            for f in hidden:
                best = min(best, self.discard_value(rank, f))
        return best

    def draw_value(self) -> float:
        return sum(p * self.stock_options(r) for r, p in self.know.prob.items())

    def take_value(self) -> float:
        top = self.view.discard[-1]
        rank = rank_of(top)
        best = min(self.swap_value(p, rank) for p in range(len(self.cells)))
        if not self.rules.discard_take_must_swap:
            best = min(best, self.discard_value(rank, None))
        return best

    def draw_choice_values(self, actions: list[Action]) -> list[float]:
        values = []
        for action in actions:
            if isinstance(action, DrawFromStock):
                values.append(self.draw_value())
            elif isinstance(action, TakeDiscard):
                values.append(self.take_value())
            else:
                values.append(float("inf"))
        return values
