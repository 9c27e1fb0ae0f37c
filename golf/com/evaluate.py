"""Valuing a seat's options from its view: the expected-value reasoning the COMs share.

The value of an action is the seat's expected hole score after it minus the mean of its
opponents' expected scores once each has played its next turn (lower is better): the
next seat may take the card the action leaves on the pile, so feeding it a card it
wants costs. Going out and going on are valued alike up to that point, since the
opponents play those next turns either way (with ``final_turns: none`` going out gives
them none). What going on adds is the seat's own next turn, less the opponents' turns
after it (:meth:`Evaluator.future`): going out is right when the opponents have more to
gain from the hole going on than the seat has.

That much is one turn deep, and it misjudges what a card left face up is worth: a known
high card is a target for every later card lower than it, where a face-down card is
replaced only blindly and at its mean, and each face-down card turned is a step towards
going out (with ``flip_on_discard: never`` a swap is the only step there is). A
:class:`Lookahead` (``hard``'s) adds both: the seat's own later draws, each valued on the
grid the action leaves, and a bonus for a card turned. ``normal`` looks no further than
its one turn."""

from __future__ import annotations

from dataclasses import dataclass, field

from cards.deck import rank_of
from golf.actions import Action, DiscardDrawn, DrawFromStock, SwapCard, TakeDiscard
from golf.com.knowledge import Cells, Knowledge, Rank, ranks_of
from golf.rules import FinalTurns, Rules
from golf.views import View


@dataclass(frozen=True, slots=True)
class Lookahead:
    """What an evaluation counts beyond the opponents' next turns (nothing by default)."""

    draws: float = 0.0  # the seat's later draws, each valued on the grid the action leaves
    reveal: float = 0.0  # points a face-down card turned face up is worth beyond its estimate


ONE_TURN = Lookahead()


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
    look: Lookahead = ONE_TURN
    _own: dict[tuple[int | None, Rank | None], float] = field(default_factory=dict)
    _gains: dict[int, tuple[float, dict[Rank, float]]] = field(default_factory=dict)
    _future: float | None = None

    @classmethod
    def from_view(
        cls,
        view: View,
        rules: Rules,
        know: Knowledge | None = None,
        look: Lookahead = ONE_TURN,
    ) -> Evaluator:
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
            look=look,
        )

    # --- single outcomes ---------------------------------------------------------------------
    def mean_opponents(self) -> float:
        return sum(self.opponent_estimates) / len(self.opponent_estimates)

    def _placements(self, cells: Cells, estimate: float, rank: Rank) -> list[float]:
        return [self.know.estimate_with(cells, estimate, p, rank) for p in range(len(cells))]

    def take_gain(self, cells: Cells, estimate: float, rank: Rank) -> float:
        """What placing ``rank`` where it helps most saves a grid (0 when nowhere)."""
        return max(0.0, estimate - min(self._placements(cells, estimate, rank)))

    def draw_gain(self, cells: Cells, estimate: float) -> float:
        """What one draw from the stock is expected to save a grid (a card that helps
        nowhere is discarded)."""
        return sum(p * self.take_gain(cells, estimate, r) for r, p in self.know.prob.items())

    def _opponent_gains(self, index: int) -> tuple[float, dict[Rank, float]]:
        """Opponent ``index``'s expected gain from a draw, and from taking each rank."""
        cached = self._gains.get(index)
        if cached is None:
            cells, est = self.opponents[index], self.opponent_estimates[index]
            takes = {r: self.take_gain(cells, est, r) for r in self.know.prob}
            draw = sum(p * takes[r] for r, p in self.know.prob.items())
            cached = self._gains[index] = (draw, takes)
        return cached

    def opponent_turn_gain(self, index: int, top: Rank | None) -> float:
        """What its next turn is expected to save opponent ``index``: the better of taking
        ``top`` and drawing. ``None`` is a card nobody has seen yet that goes face up on
        the pile (a face-down card swapped out): the gain is averaged over what it may be."""
        draw, takes = self._opponent_gains(index)
        if top is None:
            return sum(p * max(draw, takes[r]) for r, p in self.know.prob.items())
        take = takes.get(top)
        if take is None:  # a rank no unseen card has (every copy is in sight)
            cells, est = self.opponents[index], self.opponent_estimates[index]
            take = takes[top] = self.take_gain(cells, est, top)
        return max(draw, take)

    def after_next_turns(self, top: Rank | None) -> float:
        """The opponents' mean expected score once each has played its next turn: the next
        seat with ``top`` on the pile, the others with whatever it leaves them (counted as
        a draw)."""
        n = len(self.opponents)
        nxt = self.me % n  # the index of seat me + 1 among the opponents
        total = self.opponent_estimates[nxt] - self.opponent_turn_gain(nxt, top)
        for i in range(n):
            if i != nxt:
                total += self.opponent_estimates[i] - self._opponent_gains(i)[0]
        return total / n

    def future(self) -> float:
        """What the hole going on is worth to the seat beyond the opponents' next turns:
        its own next turn less each opponent's turn after that (both from a draw, on the
        grids as they are). Going out gives that up; it is what makes going out right
        when the opponents have more to gain from the hole going on, and wrong when the
        seat has."""
        if self._future is None:
            mine = self.own_draw_gain(None, None)
            theirs = [self._opponent_gains(i)[0] for i in range(len(self.opponents))]
            self._future = mine - sum(theirs) / len(theirs)
        return self._future

    def ending_value(self, final_score: float, top: Rank | None) -> float:
        """Value of going out now with ``final_score``, leaving ``top`` on the discard pile."""
        if self.rules.final_turns is FinalTurns.OTHERS_ONCE:
            return final_score - self.after_next_turns(top)
        return final_score - self.mean_opponents()

    def outcome_value(self, estimate: float, completes: bool, top: Rank | None) -> float:
        """Value of ending the turn with the grid's expected score ``estimate`` and ``top``
        on the pile. Going on, every opponent plays its next turn (just as after going
        out, so neither is favoured for that), and then the seat plays again
        (:meth:`future`).

        While no action of this turn can end the hole (two or more face-down cards), the
        parts that are the same for every action (the turns of the opponents after the
        next one, :meth:`future`) are left out: values only ever compare the actions of
        one decision."""
        if self.last_turn:
            return estimate - self.mean_opponents()
        if completes:
            return self.ending_value(estimate, top)
        if len(self.hidden) != 1:
            nxt = self.me % len(self.opponents)
            return estimate + self.opponent_turn_gain(nxt, top) / len(self.opponents)
        return estimate - self.after_next_turns(top) - self.future()

    def own_draw_gain(self, position: int | None, rank: Rank | None) -> float:
        """What one later draw is expected to save the seat's grid once ``rank`` is at
        ``position`` (the grid as it is for ``None``)."""
        key = (position, rank)
        cached = self._own.get(key)
        if cached is None:
            cells, estimate = self.cells, self.base
            if position is None or rank is None:
                cached = self.draw_gain(cells, estimate)
            else:
                estimate = self.know.estimate_with(cells, estimate, position, rank)
                old = cells[position]
                cells[position] = rank
                try:
                    cached = self.draw_gain(cells, estimate)
                finally:
                    cells[position] = old
            self._own[key] = cached
        return cached

    def later(self, position: int | None, rank: Rank | None, turned: bool) -> float:
        """What the :class:`Lookahead` adds for an action that leaves ``rank`` at
        ``position`` (nothing placed for ``None``) and turns a face-down card or not: its
        saving, to subtract from the action's value."""
        look = self.look
        if self.last_turn or look == ONE_TURN:
            return 0.0
        saving = look.reveal if turned else 0.0
        if look.draws:
            saving += look.draws * self.own_draw_gain(position, rank)
        return saving

    # --- actions -------------------------------------------------------------------------------
    def swap_value(self, position: int, rank: Rank) -> float:
        estimate = self.know.estimate_with(self.cells, self.base, position, rank)
        hidden = self.hidden
        completes = hidden == [position] or not hidden
        replaced = self.cells[position]
        # a face-down card replaced goes face up on the pile: unknown to us now
        value = self.outcome_value(estimate, completes, replaced)
        if completes:
            return value
        return value - self.later(position, rank, replaced is None)

    def discard_value(self, rank: Rank, flip: int | None) -> float:
        hidden = self.hidden
        completes = flip is not None and hidden == [flip]
        value = self.outcome_value(self.base, completes, rank)
        if completes:
            return value
        return value - self.later(None, None, flip is not None)

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
