"""A learned value for two-player six-card golf, and the ``hard`` COM's search with it.

An *afterstate* is the table right after a seat's turn, before the opponent moves and before
anyone sees the card a swap into a face-down spot turned up. A small network values it from
what both players can see: each grid's three columns (every cell a rank or face down), the
card left on the pile (or "the card just turned up", not yet known), how many cards each
grid still has face down, how many of each rank are unseen, the points each grid is expected
to score, and the points the seat carries into the hole beyond its opponent's total. It
gives two values:

* ``win``: the chance that the seat ends the hole with a lower total than its opponent,
  counting what each carries in (a tie counted half): what decides the last hole of a match;
* ``margin``: the points the seat expects to finish the hole below its opponent (a twentieth
  of them): what counts on every earlier hole, when every point is carried on.

The network was fitted by temporal-difference learning in self-play
(``scripts/train_golf_value.py``, which holds the command that made ``value_net.json``).
Nothing in it depends on a hidden card: a COM reading it from its view knows no more than a
human in its seat would.

Where the network would guess, the values are counted exactly instead:

* the seat's last turn of the hole (the opponent has gone out): every face-down card of its
  grid is drawn from the unseen cards (each on its own) and its points summed column by
  column (:func:`grid_dist`) against the opponent's known score;
* going out: the opponent then has one last turn, which it plays to beat the seat's now
  known score (or to score as little as it can, for the margin), for every card it may take
  or draw (:class:`LastTurn`).

``hard`` (:func:`choose`) looks one turn further than the values: for each of its moves it
plays every reply of the opponent - take the card left on the pile, or draw each rank and
place it or throw it away - and takes the reply the network rates best for the opponent. A
draw from the stock is valued over the ranks it may bring, each with the seat's best
placement. The network covers the two-player six-card table of the rules reference
(:func:`applies`); every other table is searched by :mod:`golf.com.search`.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import random
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cards.deck import rank_of
from golf.actions import Action, DiscardDrawn, DrawFromStock, SwapCard, TakeDiscard
from golf.com.common import playable, spread_flip
from golf.com.knowledge import unseen_ranks
from golf.rules import FinalTurns, FlipOnDiscard, Lines, MatchBy, Rules
from golf.state import Phase
from golf.views import View

#: The ranks in the network's order, their points, and the code of a face-down cell.
RANKS = "A23456789TJQK"
POINTS = (1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0)
DOWN = 13
COLUMNS = ((0, 3), (1, 4), (2, 5))

#: The type of a column: its unordered pair of cells (13 ranks or face down): 105 types.
COLUMN_TYPE: list[list[int]] = [[0] * 14 for _ in range(14)]
_types = 0
for _a in range(14):
    for _b in range(_a, 14):
        COLUMN_TYPE[_a][_b] = COLUMN_TYPE[_b][_a] = _types
        _types += 1
COLUMN_TYPES = _types

#: The points a seat carries ahead of its opponent, as the network reads them: beyond
#: these a last hole is all but decided (a seat 30 behind must beat its opponent's grid by
#: 30 points), and is read as if at the bound.
CARRY = 30

#: The network's sparse inputs, by offset: the mover's columns (counted by type), the
#: opponent's, the card on the pile (13: turned up, not yet seen), the face-down counts
#: (mover x opponent, 0..4 each), "the opponent has one last turn" (the mover went out),
#: and the points carried (-CARRY..CARRY).
MINE = 0
THEIRS = COLUMN_TYPES
TOP = 2 * COLUMN_TYPES
RACE = TOP + 14
OUT = RACE + 25
CARRIED = OUT + 1
SPARSE = CARRIED + 2 * CARRY + 1
#: The dense inputs: how many of each rank are unseen, a quarter per card; then the points
#: the mover's grid after the move and the opponent's grid are expected to score (each
#: face-down card drawn from the cards unseen when the mover's turn began), a twentieth.
DENSE = 15
EXPECT_MINE = 13
EXPECT_THEIRS = 14
#: The margin output is a hole's points difference divided by this.
MARGIN_SCALE = 20.0

WEIGHTS = Path(__file__).with_name("value_net.json")


def applies(view: View, rules: Rules) -> bool:
    """Whether the network plays this table: two players on the six-card rules it learnt
    (any preset that plays them alike, whatever its number of holes or flip order)."""
    return (
        len(view.players) == 2
        and rules.grid == (2, 3)
        and rules.lines is Lines.COLUMNS
        and rules.match_by is MatchBy.RANK
        and not rules.values
        and not rules.jokers
        and not rules.negative_pairs_keep_value
        and rules.final_turns is FinalTurns.OTHERS_ONCE
        and rules.discard_take_must_swap
        and rules.flip_on_discard is FlipOnDiscard.NEVER
        and rules.initial_flips == 2
        and rules.deck_count(2) == 1
        and rules.max_turns >= 240  # the holes it learnt from were never cut shorter
    )


@dataclass(frozen=True, slots=True)
class Goal:
    """What a seat plays a hole for: the win, carrying ``carried`` points more than its
    opponent into it (the last hole of a match), or the margin (``carried`` None)."""

    carried: int | None

    def theirs(self) -> Goal:
        """The opponent's goal."""
        return self if self.carried is None else Goal(-self.carried)

    @property
    def win(self) -> bool:
        return self.carried is not None


MARGIN = Goal(None)


# --- exact scores of grids whose face-down cells are drawn from the unseen cards ------------
def column_points(a: int, b: int) -> int:
    return 0 if a == b else POINTS[a] + POINTS[b]


def grid_points(cells: Sequence[int]) -> int:
    return sum(column_points(cells[a], cells[b]) for a, b in COLUMNS)


Dist = tuple[tuple[int, float], ...]  # (points, chance) pairs


@functools.lru_cache(maxsize=1024)  # what one decision reuses; more only grows a worker
def _column_dist(a: int, b: int, unseen: tuple[int, ...]) -> Dist:
    """A column's points and their chances, its face-down cells drawn from ``unseen``
    (each on its own: the few cards two cells share are not taken out twice)."""
    total = sum(unseen)
    probs = [(r, n / total) for r, n in enumerate(unseen) if n] if total else [(12, 1.0)]
    dist: dict[int, float] = {}
    if a != DOWN and b != DOWN:
        dist[column_points(a, b)] = 1.0
    elif a != DOWN or b != DOWN:
        known = a if a != DOWN else b
        for r, p in probs:
            s = column_points(known, r)
            dist[s] = dist.get(s, 0.0) + p
    else:
        for r, p in probs:
            for r2, p2 in probs:
                s = column_points(r, r2)
                dist[s] = dist.get(s, 0.0) + p * p2
    return tuple(dist.items())


def _add(one: Dist, two: Dist) -> Dist:
    dist: dict[int, float] = {}
    for s1, p1 in one:
        for s2, p2 in two:
            dist[s1 + s2] = dist.get(s1 + s2, 0.0) + p1 * p2
    return tuple(dist.items())


def grid_dist(cells: Sequence[int], unseen: Sequence[int]) -> Dist:
    """A grid's points and their chances (see :func:`_column_dist`)."""
    key = tuple(unseen)
    a, b, c = (_column_dist(cells[x], cells[y], key) for x, y in COLUMNS)
    return _add(_add(a, b), c)


def _mean(dist: Dist) -> float:
    return sum(s * p for s, p in dist)


class Expected:
    """The points columns are expected to score, their face-down cells drawn (each on its
    own, as in :func:`_column_dist`) from ``unseen``."""

    __slots__ = ("mean", "prob", "square")

    def __init__(self, unseen: Sequence[int]) -> None:
        total = sum(unseen)
        self.prob = [n / total for n in unseen] if total else [0.0] * 12 + [1.0]
        self.mean = sum(p * v for p, v in zip(self.prob, POINTS, strict=True))
        # two face-down cards that match score nothing: sum of p(r)^2 times their points
        self.square = sum(p * p * v for p, v in zip(self.prob, POINTS, strict=True))

    def column(self, a: int, b: int) -> float:
        if a != DOWN and b != DOWN:
            return column_points(a, b)
        if a == DOWN and b == DOWN:
            return 2 * self.mean - 2 * self.square
        known = a if a != DOWN else b
        return POINTS[known] + self.mean - 2 * self.prob[known] * POINTS[known]

    def grid(self, cells: Sequence[int]) -> float:
        return sum(self.column(cells[a], cells[b]) for a, b in COLUMNS)


#: The scores a six-card grid can have lie within LOW..LOW + SPAN - 1 (-6..60), and a
#: score compared with one carried points away stays within it.
LOW, SPAN = -6 - CARRY, 67 + 2 * CARRY


def _beating(dist: Dist) -> list[float]:
    """For each score S (from LOW): the chance that ``dist`` scores below S, ties half."""
    at = [0.0] * SPAN
    for s, p in dist:
        at[s - LOW] += p
    out = [0.0] * SPAN
    below = 0.0
    for i in range(SPAN):
        out[i] = below + at[i] / 2
        below += at[i]
    return out


def _at(score: int) -> int:
    """The index of ``score`` in a :func:`_beating` list (the bounds beyond it)."""
    return min(SPAN - 1, max(0, score - LOW))


def final_value(
    cells: Sequence[int], opponent_score: int, unseen: Sequence[int], goal: Goal
) -> float:
    """The seat's value of ending the hole with ``cells`` (its face-down cards drawn from
    ``unseen``) against ``opponent_score``."""
    dist = grid_dist(cells, unseen)
    if goal.carried is None:
        return (opponent_score - _mean(dist)) / MARGIN_SCALE
    return _beating(dist)[_at(opponent_score - goal.carried)]


class LastTurn:
    """The opponent's one last turn after the mover goes out. The opponent sees the card
    the mover's last swap turned up, then takes it or draws, and places the card where it
    does best: its best chance of beating the mover's score, or its fewest points expected
    (a drawn card may be thrown away). Its face-down cards are drawn from ``unseen`` (the
    one card it places is not taken out of them: a small error)."""

    def __init__(self, opponent: Sequence[int], unseen: Sequence[int]) -> None:
        total = sum(unseen)
        key = tuple(unseen)
        self.probs = [(r, n / total) for r, n in enumerate(unseen) if n]
        columns = [_column_dist(opponent[a], opponent[b], key) for a, b in COLUMNS]
        rest = [_add(columns[(c + 1) % 3], columns[(c + 2) % 3]) for c in range(3)]
        keep = _add(rest[0], columns[0])
        self.take: dict[int, list[Dist]] = {}
        self.draw: dict[int, list[Dist]] = {}
        for r, _ in self.probs:
            options: dict[tuple[int, int], Dist] = {}
            for p in range(6):
                c = p % 3
                a, b = COLUMNS[c]
                mate = opponent[b] if p == a else opponent[a]
                if (c, mate) not in options:
                    options[(c, mate)] = _add(rest[c], _column_dist(r, mate, key))
            self.take[r] = list(options.values())
            self.draw[r] = [*options.values(), keep]
        self._beats: dict[int, tuple[list[list[float]], list[list[float]]]] = {}
        self._values: dict[tuple[int, int | None], float] = {}
        self._points: float | None = None

    def mover_value(self, score: int, goal: Goal) -> float:
        """The mover's value when it goes out with ``score``."""
        key = (score, goal.carried)
        value = self._values.get(key)
        if value is not None:
            return value
        if goal.carried is None:  # the opponent scores as little as it can expect to
            value = (self._fewest() - score) / MARGIN_SCALE
        else:  # the opponent beats the score unless it trails by what the mover carries
            i = _at(score + goal.carried)
            draw = sum(p * max(o[i] for o in self._beating(r)[1]) for r, p in self.probs)
            theirs = sum(
                p * max(draw, max(o[i] for o in self._beating(r)[0])) for r, p in self.probs
            )
            value = 1.0 - theirs
        self._values[key] = value
        return value

    def _fewest(self) -> float:
        """The points the opponent expects to end on, playing its last turn for that."""
        if self._points is None:
            draw = sum(p * min(_mean(o) for o in self.draw[r]) for r, p in self.probs)
            self._points = sum(
                p * min(draw, min(_mean(o) for o in self.take[r])) for r, p in self.probs
            )
        return self._points

    def _beating(self, rank: int) -> tuple[list[list[float]], list[list[float]]]:
        found = self._beats.get(rank)
        if found is None:
            found = self._beats[rank] = (
                [_beating(o) for o in self.take[rank]],
                [_beating(o) for o in self.draw[rank]],
            )
        return found


# --- the network -------------------------------------------------------------------------------
def _floats(text: str) -> list[float]:
    values = array("f")
    values.frombytes(base64.b64decode(text))
    if sys.byteorder == "big":
        values.byteswap()  # stored little-endian
    return values.tolist()


@dataclass(frozen=True, slots=True)
class Network:
    """One hidden layer of rectified units on the sparse and dense inputs; a logistic
    ``win`` output and a linear ``margin`` one. The weights are float32, stored
    little-endian and base64-encoded."""

    hidden: int
    sparse: list[list[float]]  # a row of hidden weights per sparse input
    dense: list[list[float]]  # a row per dense input
    bias: list[float]
    win: list[float]
    win_bias: float
    margin: list[float]
    margin_bias: float
    seeing: list[list[float]]  # per rank: the change to the hidden units when one is seen

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Network:
        hidden = int(str(data["hidden"]))

        def rows(name: str, count: int) -> list[list[float]]:
            flat = _floats(str(data[name]))
            if len(flat) != count * hidden:
                raise ValueError(f"value network: {name} holds {len(flat)} weights")
            return [flat[i * hidden : (i + 1) * hidden] for i in range(count)]

        dense = rows("dense", DENSE)
        return cls(
            hidden=hidden,
            sparse=rows("sparse", SPARSE),
            dense=dense,
            bias=_floats(str(data["bias"])),
            win=_floats(str(data["win"])),
            win_bias=float(str(data["win_bias"])),
            margin=_floats(str(data["margin"])),
            margin_bias=float(str(data["margin_bias"])),
            seeing=[[-0.25 * w for w in row] for row in dense[:13]],
        )

    def value(self, pre: Sequence[float], goal: Goal) -> float:
        """The output for ``goal`` given the hidden units' inputs ``pre``."""
        if goal.carried is None:
            z = self.margin_bias
            for x, w in zip(pre, self.margin, strict=True):
                if x > 0.0:
                    z += x * w
            return z
        z = self.win_bias
        for x, w in zip(pre, self.win, strict=True):
            if x > 0.0:
                z += x * w
        return 1.0 / (1.0 + math.exp(-z)) if z > -30.0 else 0.0

    def base(self, unseen: Sequence[int], goal: Goal) -> list[float]:
        """The bias, the unseen ranks' share of the hidden units and the points carried."""
        acc = list(self.bias)
        for r, n in enumerate(unseen):
            if n:
                f = n / 4.0
                acc = [a + f * w for a, w in zip(acc, self.dense[r], strict=True)]
        carried = max(-CARRY, min(CARRY, goal.carried or 0))
        return [a + w for a, w in zip(acc, self.sparse[CARRIED + CARRY + carried], strict=True)]


@functools.cache
def network() -> Network:
    return Network.from_json(json.loads(WEIGHTS.read_text()))


def _vsum(*rows: list[float]) -> list[float]:
    return [sum(xs) for xs in zip(*rows, strict=True)]


class Mover:
    """The afterstates of one seat's move, valued by the network for ``goal``: its grid
    ``cells`` before the move, the opponent's grid, and the unseen ranks before it (each
    placement says which rank, if any, the move lets the seat see: a drawn card)."""

    def __init__(
        self,
        net: Network,
        cells: Sequence[int],
        opponent: Sequence[int],
        unseen: Sequence[int],
        goal: Goal,
    ) -> None:
        self.net = net
        self.goal = goal
        sparse, dense = net.sparse, net.dense
        self.cells = list(cells)
        down = self.cells.count(DOWN)
        their_down = list(opponent).count(DOWN)
        self.expect = Expected(unseen)
        expected = self.expect.grid(opponent) / MARGIN_SCALE
        base = _vsum(
            net.base(unseen, goal),
            *(sparse[THEIRS + COLUMN_TYPE[opponent[a]][opponent[b]]] for a, b in COLUMNS),
            [expected * w for w in dense[EXPECT_THEIRS]],
        )
        # each of the mover's columns: its input row, and its share of the expected points
        columns = [
            _vsum(
                sparse[MINE + COLUMN_TYPE[cells[a]][cells[b]]],
                [
                    self.expect.column(cells[a], cells[b]) / MARGIN_SCALE * w
                    for w in dense[EXPECT_MINE]
                ],
            )
            for a, b in COLUMNS
        ]
        # a row but the placed card's column, per position (None: going out, counted
        # exactly); and a row but the card thrown on the pile
        self.slots: list[list[float] | None] = []
        for pos in range(6):
            old = cells[pos]
            left = down - (old == DOWN)
            if left == 0:
                self.slots.append(None)
                continue
            c = pos % 3
            self.slots.append(
                _vsum(
                    base,
                    columns[(c + 1) % 3],
                    columns[(c + 2) % 3],
                    sparse[TOP + old],
                    sparse[RACE + left * 5 + their_down],
                )
            )
        self.keep = _vsum(base, *columns, sparse[RACE + down * 5 + their_down])

    def swap(self, rank: int, pos: int, seen: int | None) -> float | None:
        """Placing ``rank`` at ``pos``; ``seen``: a rank the move shows the seat (its draw).
        None for a move that goes out (the caller counts it exactly)."""
        slot = self.slots[pos]
        if slot is None:
            return None
        net = self.net
        cells = self.cells
        a, b = COLUMNS[pos % 3]
        mate = cells[b] if pos == a else cells[a]
        column = net.sparse[MINE + COLUMN_TYPE[rank][mate]]
        m = self.expect.column(rank, mate) / MARGIN_SCALE
        expect = net.dense[EXPECT_MINE]
        if seen is None:
            pre = [x + y + m * e for x, y, e in zip(slot, column, expect, strict=True)]
        else:
            pre = [
                x + y + m * e + z
                for x, y, e, z in zip(slot, column, expect, net.seeing[seen], strict=True)
            ]
        return net.value(pre, self.goal)

    def throw(self, rank: int, seen: int | None) -> float:
        """Throwing ``rank`` on the pile (a card drawn, so ``seen`` is normally ``rank``)."""
        net = self.net
        top = net.sparse[TOP + rank]
        if seen is None:
            pre = [x + y for x, y in zip(self.keep, top, strict=True)]
        else:
            pre = [x + y + z for x, y, z in zip(self.keep, top, net.seeing[seen], strict=True)]
        return net.value(pre, self.goal)


def _swap(cells: Sequence[int], pos: int, rank: int) -> list[int]:
    after = list(cells)
    after[pos] = rank
    return after


def reply_value(
    net: Network,
    mine: Sequence[int],
    theirs: Sequence[int],
    top: int,
    unseen: Sequence[int],
    goal: Goal,
) -> float:
    """The mover's value of its afterstate (``mine`` after the move, ``top`` left on the pile
    or DOWN for a card turned up, ``unseen`` the ranks then unseen) once the opponent has
    made the reply the network rates best for it. A card turned up stays among the unseen
    in the opponent's inputs, whatever its rank turns out to be: a small error (measured once,
    about 0.03 points on average against counting each rank apart)."""
    if DOWN not in mine:
        return LastTurn(theirs, unseen).mover_value(grid_points(mine), goal)
    their_goal = goal.theirs()
    them = Mover(net, theirs, mine, unseen, their_goal)  # the opponent's move
    mine_last: list[LastTurn] = []  # the mover's one last turn, should the opponent go out

    def swaps(rank: int, seen: int | None) -> float:
        best = -math.inf
        for pos in range(6):
            v = them.swap(rank, pos, seen)
            if v is None:
                if not mine_last:
                    mine_last.append(LastTurn(mine, unseen))
                v = mine_last[0].mover_value(grid_points(_swap(theirs, pos, rank)), their_goal)
            if v > best:
                best = v
        return best

    total = sum(unseen)
    draw = 0.0
    takes: dict[int, float] = {}
    for r in range(13):
        n = unseen[r]
        if n:
            placed = swaps(r, r)
            takes[r] = placed  # the card turned up, if it is this rank
            draw += n / total * max(placed, them.throw(r, r))
    if top != DOWN:
        their_value = max(draw, swaps(top, None))
    else:
        their_value = sum(unseen[r] / total * max(draw, v) for r, v in takes.items())
    return 1.0 - their_value if goal.win else -their_value


# --- the search ----------------------------------------------------------------------------
#: Of the seat's placements of each card it may draw, how many are searched a ply deeper
#: (the network's best ones); every placement of a card already in hand is.
DRAW_CANDIDATES = 2


def _code(card: str | None) -> int:
    return DOWN if card is None else RANKS.index(rank_of(card))


def goal_of(view: View) -> Goal:
    """The win on the last hole of the match (with the points carried into it), the margin
    on every earlier one."""
    assert view.seat is not None
    if view.hole < view.holes:
        return MARGIN
    return Goal(view.totals[view.seat] - view.totals[1 - view.seat])


class Decision:
    """One turn of the seat whose view this is."""

    def __init__(self, view: View, rules: Rules, net: Network) -> None:
        assert view.seat is not None
        self.view = view
        self.net = net
        self.goal = goal_of(view)
        me = view.seat
        self.mine = [_code(c) for c in view.grids[me]]
        self.theirs = [_code(c) for c in view.grids[1 - me]]
        counts = unseen_ranks(view, rules)
        self.unseen = [counts.get(r, 0) for r in RANKS]
        self.last = view.finisher is not None and view.finisher != me
        self.mover = Mover(net, self.mine, self.theirs, self.unseen, self.goal)
        self._last_turn: LastTurn | None = None

    def after(self, rank: int, pos: int) -> tuple[list[int], int]:
        """The grid after placing ``rank`` at ``pos`` (-1: thrown away) and the card left on
        the pile (DOWN: a face-down card turned up)."""
        if pos < 0:
            return self.mine, rank
        return _swap(self.mine, pos, rank), self.mine[pos]

    def unseen_after(self, seen: int | None) -> list[int]:
        left = list(self.unseen)
        if seen is not None:
            left[seen] -= 1
        return left

    def shallow(self, rank: int, seen: int | None, positions: Sequence[int]) -> list[float]:
        """One-ply values of placing ``rank`` at each of ``positions`` (-1: thrown away);
        ``seen``: the rank the move lets the seat see (a drawn card), if any."""
        unseen = self.unseen_after(seen)
        if self.last:
            score = grid_points(self.theirs)
            return [
                final_value(self.after(rank, p)[0], score, unseen, self.goal) for p in positions
            ]
        values = []
        for p in positions:
            v = self.mover.swap(rank, p, seen) if p >= 0 else self.mover.throw(rank, seen)
            if v is None:  # going out: the opponent's last turn, from the turn's unseen cards
                if self._last_turn is None:
                    self._last_turn = LastTurn(self.theirs, self.unseen)
                v = self._last_turn.mover_value(grid_points(self.after(rank, p)[0]), self.goal)
            values.append(v)
        return values

    def deep(self, rank: int, seen: int | None, pos: int) -> float:
        """The value of placing ``rank`` at ``pos`` after the opponent's best reply."""
        grid, top = self.after(rank, pos)
        return reply_value(self.net, grid, self.theirs, top, self.unseen_after(seen), self.goal)

    def place(self, rank: int, seen: int | None, positions: Sequence[int], depth: int) -> float:
        """The best value over ``positions`` for ``rank``: the ``depth`` best by one ply
        searched a ply deeper (none on the seat's last turn, counted exactly)."""
        shallow = self.shallow(rank, seen, positions)
        if self.last:
            return max(shallow)
        order = sorted(range(len(positions)), key=lambda i: -shallow[i])[:depth]
        return max(self.deep(rank, seen, positions[i]) for i in order)

    def draw_choice(self, may_take: bool) -> Action:
        unseen, total = self.unseen, sum(self.unseen)
        drawn = 0.0
        for r in range(13):
            if unseen[r]:
                drawn += unseen[r] / total * self.place(r, r, range(-1, 6), DRAW_CANDIDATES)
        if may_take:
            top = _code(self.view.discard[-1])
            if self.place(top, None, range(6), DRAW_CANDIDATES) >= drawn:
                return TakeDiscard()
        return DrawFromStock()

    def placement(self, actions: list[Action]) -> Action:
        assert self.view.drawn_card is not None
        rank = _code(self.view.drawn_card)
        options: list[tuple[int, Action]] = []
        for action in actions:
            if isinstance(action, SwapCard):
                options.append((action.position, action))
            elif isinstance(action, DiscardDrawn) and action.flip is None:
                options.append((-1, action))
        positions = [p for p, _ in options]
        if self.last:
            values = self.shallow(rank, None, positions)
        else:
            values = [self.deep(rank, None, p) for p in positions]
        best = max(range(len(options)), key=lambda i: (values[i], -i))
        return options[best][1]


def choose(view: View, rules: Rules, rng: random.Random) -> Action:
    """The ``hard`` move on a table the network plays (:func:`applies`)."""
    actions = playable(view)
    if len(actions) == 1:
        return actions[0]
    if view.phase is Phase.FLIPS:
        return spread_flip(view, rules, rng)
    decision = Decision(view, rules, network())
    if view.phase is Phase.DRAW:
        return decision.draw_choice(TakeDiscard() in actions)
    return decision.placement(actions)
