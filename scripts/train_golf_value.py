"""Train the value network of the ``hard`` Golf COM (``golf/com/value.py``).

    .venv/bin/python scripts/train_golf_value.py [--out golf/com/value_net.json]
        [--hidden 64] [--seed 1] [--phases HOLES:RATE:EXPLORE:EXACT,...] [--report 20000]

Two-player six-card holes in self-play. In each hole both seats play for the same goal:
half the holes for the margin, half for the win with some points carried into the hole
(none in half of those, otherwise -``CARRY``..``CARRY``). A seat's opening flips are in two
columns in half the holes (as the COMs spread them), any two cards in the others. Each
seat picks the move whose afterstate the network values best for its goal (a draw from
the stock valued over the ranks it may bring, each with its best placement). Both values
of each afterstate a seat passes through are moved towards their lambda-returns
(TD(lambda), lambda 0.7, computed when the hole ends, the hole's result at the end), in
batches, by Adam on the win's cross-entropy plus the margin's squared error.

Training runs in phases ``HOLES:RATE:EXPLORE:EXACT``: the learning rate; the share of
turns on which a seat explores, playing a random move instead (without it the network
never learns that a move it rates badly is better than it thinks); and whether going out
and the last turn are counted exactly, as the COM counts them (slower; the last turn is
always counted exactly once EXACT is on). The weights are written at every report and at
the end, in the format ``golf.com.value`` reads, with the options that made them.

Deterministic for a seed (one process). Needs numpy, a development dependency; playing with
the network does not. The committed ``value_net.json`` was made by the defaults.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golf.com.value import (
    CARRIED,
    CARRY,
    COLUMN_TYPE,
    COLUMNS,
    DENSE,
    DOWN,
    EXPECT_MINE,
    EXPECT_THEIRS,
    MARGIN,
    MARGIN_SCALE,
    MINE,
    OUT,
    RACE,
    SPARSE,
    THEIRS,
    TOP,
    Expected,
    Goal,
    LastTurn,
    column_points,
    final_value,
    grid_points,
)

DEFAULT_PHASES = "100000:1e-3:0:0,150000:1e-3:0.1:1,100000:5e-4:0.1:1"
LAMBDA = 0.7
BATCH = 512
NONE = SPARSE  # an all-zero row: a sparse input left out


class Network:
    """The network of ``golf.com.value.Network`` in numpy, learning by Adam."""

    def __init__(self, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.p = {
            "sparse": rng.normal(0.0, 0.1, (SPARSE + 1, hidden)),
            "dense": rng.normal(0.0, 0.1, (DENSE, hidden)),
            "bias": np.zeros(hidden),
            "win": rng.normal(0.0, 0.1, hidden),
            "win_bias": np.zeros(()),
            "margin": rng.normal(0.0, 0.1, hidden),
            "margin_bias": np.zeros(()),
        }
        self.p["sparse"][NONE] = 0.0
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.steps = 0

    def forward(self, rows: np.ndarray, dense: np.ndarray) -> tuple[np.ndarray, ...]:
        p = self.p
        pre = p["sparse"][rows].sum(axis=1) + dense @ p["dense"] + p["bias"]
        h = np.maximum(pre, 0.0)
        win = 1.0 / (1.0 + np.exp(-(h @ p["win"] + p["win_bias"])))
        margin = h @ p["margin"] + p["margin_bias"]
        return win, margin, h, pre

    def learn(
        self,
        rows: np.ndarray,
        dense: np.ndarray,
        wins: np.ndarray,
        margins: np.ndarray,
        rate: float,
    ) -> float:
        p = self.p
        win, margin, h, pre = self.forward(rows, dense)
        n = len(wins)
        gw = (win - wins) / n  # cross-entropy at the logit
        gm = (margin - margins) / n  # half the squared error
        gh = (np.outer(gw, p["win"]) + np.outer(gm, p["margin"])) * (pre > 0)
        sparse = np.zeros_like(p["sparse"])
        np.add.at(sparse, rows.ravel(), np.repeat(gh, rows.shape[1], axis=0))
        sparse[NONE] = 0.0
        grads = {
            "sparse": sparse,
            "dense": dense.T @ gh,
            "bias": gh.sum(axis=0),
            "win": h.T @ gw,
            "win_bias": gw.sum(),
            "margin": h.T @ gm,
            "margin_bias": gm.sum(),
        }
        self.steps += 1
        for k, grad in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * grad
            self.v[k] = 0.999 * self.v[k] + 0.001 * grad**2
            m = self.m[k] / (1 - 0.9**self.steps)
            v = self.v[k] / (1 - 0.999**self.steps)
            p[k] = p[k] - rate * m / (np.sqrt(v) + 1e-8)
        eps = 1e-9
        cross = -np.mean(wins * np.log(win + eps) + (1 - wins) * np.log(1 - win + eps))
        return float(cross + np.mean((margin - margins) ** 2) / 2)

    def to_json(self, meta: dict[str, object]) -> dict[str, object]:
        def text(a: np.ndarray) -> str:
            return base64.b64encode(np.asarray(a, dtype="<f4").tobytes()).decode()

        p = self.p
        return {
            "format": 2,
            "hidden": int(p["bias"].shape[0]),
            "sparse": text(p["sparse"][:SPARSE]),
            "dense": text(p["dense"]),
            "bias": text(p["bias"]),
            "win": text(p["win"]),
            "win_bias": float(p["win_bias"]),
            "margin": text(p["margin"]),
            "margin_bias": float(p["margin_bias"]),
            "trained": meta,
        }


class Hole:
    """A two-player six-card hole, cards as rank indices (``golf.com.value.RANKS``)."""

    def __init__(self, rng: random.Random, first: int) -> None:
        deck = [r for r in range(13) for _ in range(4)]
        rng.shuffle(deck)
        self.rng = rng
        self.cards = [deck[0:6], deck[6:12]]
        self.up = [[False] * 6, [False] * 6]
        self.discard = [deck[12]]
        self.stock = deck[13:]
        self.turn = first
        self.finisher: int | None = None
        self.turns = 0
        for seat in (0, 1):  # two opening flips: in two columns, as the COMs spread them,
            # or in half the grids any two cards, as a person may choose them
            if rng.random() < 0.5:
                flips = [c + 3 * rng.randrange(2) for c in rng.sample(range(3), 2)]
            else:
                flips = rng.sample(range(6), 2)
            for p in flips:
                self.up[seat][p] = True

    def cells(self, seat: int) -> list[int]:
        return [self.cards[seat][p] if self.up[seat][p] else DOWN for p in range(6)]

    def unseen(self) -> list[int]:
        counts = [4] * 13
        for seat in (0, 1):
            for p in range(6):
                if self.up[seat][p]:
                    counts[self.cards[seat][p]] -= 1
        for r in self.discard:
            counts[r] -= 1
        return counts

    def draw(self) -> int:
        return self.stock.pop()

    def place(self, seat: int, pos: int, rank: int) -> None:
        self.discard.append(self.cards[seat][pos])
        self.cards[seat][pos] = rank
        self.up[seat][pos] = True

    def end_turn(self, seat: int) -> bool:
        """True when the hole is over. As in the engine, an empty stock is made again from
        the pile (all but its top card) before the next seat decides, so those cards are
        unseen again when it does; with no pile to make it from, the hole is over."""
        self.turns += 1
        if self.finisher is not None or self.turns >= 240:
            return True
        if all(self.up[seat]):
            self.finisher = seat
        self.turn = 1 - seat
        if not self.stock:
            if len(self.discard) < 2:
                return True
            pile = self.discard[:-1]
            self.rng.shuffle(pile)
            self.stock, self.discard = pile, self.discard[-1:]
        return False

    def score(self, seat: int) -> int:
        return sum(column_points(self.cards[seat][a], self.cards[seat][b]) for a, b in COLUMNS)


@dataclass
class Options:
    """Every afterstate of a turn: taking the top (six swaps), or drawing each rank and
    placing it anywhere or throwing it away. Sparse and dense inputs, and per afterstate
    (branch: "take" or the rank drawn; position, -1 thrown; the grid after)."""

    rows: np.ndarray
    dense: np.ndarray
    meta: list[tuple[object, int, list[int]]]


def options(
    mine: list[int], theirs: list[int], top: int | None, unseen: list[int], carried: int
) -> Options:
    their = [THEIRS + COLUMN_TYPE[theirs[a]][theirs[b]] for a, b in COLUMNS]
    their_down = theirs.count(DOWN)
    carry = CARRIED + CARRY + max(-CARRY, min(CARRY, carried))
    expect = Expected(unseen)
    base = np.zeros(DENSE)
    base[:13] = np.array(unseen) / 4.0
    base[EXPECT_THEIRS] = expect.grid(theirs) / MARGIN_SCALE
    down = mine.count(DOWN)
    columns = [COLUMN_TYPE[mine[a]][mine[b]] for a, b in COLUMNS]
    points = [expect.column(mine[a], mine[b]) for a, b in COLUMNS]
    grid_points_now = sum(points)
    rows: list[list[int]] = []
    expected: list[float] = []
    branch_of: list[int] = []  # 0: the take, 1 + r: a drawn r
    meta: list[tuple[object, int, list[int]]] = []

    def placements(branch: object, index: int, rank: int, may_keep: bool) -> None:
        for pos in range(6):
            c = pos % 3
            a, b = COLUMNS[c]
            mate = mine[b] if pos == a else mine[a]
            cols = list(columns)
            cols[c] = COLUMN_TYPE[rank][mate]
            left = down - (mine[pos] == DOWN)
            rows.append(
                [
                    *(MINE + t for t in cols),
                    *their,
                    TOP + mine[pos],
                    RACE + left * 5 + their_down,
                    OUT if not left else NONE,
                    carry,
                ]
            )
            expected.append(grid_points_now - points[c] + expect.column(rank, mate))
            branch_of.append(index)
            after = list(mine)
            after[pos] = rank
            meta.append((branch, pos, after))
        if may_keep:
            rows.append(
                [
                    *(MINE + t for t in columns),
                    *their,
                    TOP + rank,
                    RACE + down * 5 + their_down,
                    NONE,
                    carry,
                ]
            )
            expected.append(grid_points_now)
            branch_of.append(index)
            meta.append((branch, -1, list(mine)))

    bases = [base]
    if top is not None:
        placements("take", 0, top, False)
    for r in range(13):
        if unseen[r]:
            d = base.copy()
            d[r] -= 0.25
            bases.append(d)
            placements(r, len(bases) - 1, r, True)
    dense = np.array(bases)[branch_of]
    dense[:, EXPECT_MINE] = np.array(expected) / MARGIN_SCALE
    return Options(np.array(rows), dense, meta)


def play(net: Network, rng: random.Random, first: int, explore: float, exact: bool):
    """One hole in self-play: the goal of seat 0, the scores, and per seat the afterstates
    it passed through (inputs, and the win and margin values it saw there)."""
    hole = Hole(rng, first)
    goal = (
        MARGIN
        if rng.random() < 0.5
        else Goal(0 if rng.random() < 0.5 else rng.randint(-CARRY, CARRY))
    )
    goals = (goal, goal.theirs())
    seen: dict[int, list[tuple[list[int], np.ndarray, float, float]]] = {0: [], 1: []}
    while True:
        seat = hole.turn
        mine, theirs = hole.cells(seat), hole.cells(1 - seat)
        unseen = hole.unseen()
        last = hole.finisher is not None
        mine_goal = goals[seat]
        opts = options(mine, theirs, hole.discard[-1], unseen, mine_goal.carried or 0)
        win, margin = net.forward(opts.rows, opts.dense)[:2]
        v = (win if mine_goal.win else margin).copy()
        if last or exact:
            score = grid_points(theirs) if last else 0
            table = None
            for i, (branch, _, after) in enumerate(opts.meta):
                if last:
                    left = list(unseen)
                    if branch != "take":
                        left[branch] -= 1  # type: ignore[index]
                    v[i] = final_value(after, score, left, mine_goal)
                elif DOWN not in after:
                    table = table or LastTurn(theirs, unseen)
                    v[i] = table.mover_value(grid_points(after), mine_goal)
        take = [i for i, m in enumerate(opts.meta) if m[0] == "take"]
        best: dict[object, int] = {}
        for i, m in enumerate(opts.meta):
            if m[0] != "take" and (m[0] not in best or v[i] > v[best[m[0]]]):
                best[m[0]] = i
        total = sum(unseen)
        drawn = sum(unseen[r] / total * v[i] for r, i in best.items())  # type: ignore[index]
        exploring = bool(explore) and not last and rng.random() < explore
        taking = (rng.random() < 0.3) if exploring else max(v[i] for i in take) >= drawn
        if taking:
            i = rng.choice(take) if exploring else max(take, key=lambda j: v[j])
            hole.place(seat, opts.meta[i][1], hole.discard.pop())
        else:
            rank = hole.draw()
            if exploring:
                i = rng.choice([j for j, m in enumerate(opts.meta) if m[0] == rank])
            else:
                i = best[rank]
            pos = opts.meta[i][1]
            if pos < 0:
                hole.discard.append(rank)
            else:
                hole.place(seat, pos, rank)
        if not last:
            seen[seat].append((opts.rows[i], opts.dense[i], float(win[i]), float(margin[i])))
        if hole.end_turn(seat):
            break
    return goal, (hole.score(0), hole.score(1)), seen


def returns(values: list[float], final: float) -> list[float]:
    """The lambda-return of each of a seat's afterstates, ``final`` at the end."""
    out, g = [], final
    for v in reversed(values):
        out.append(g)
        g = (1 - LAMBDA) * v + LAMBDA * g
    return out[::-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("golf/com/value_net.json"))
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--phases", default=DEFAULT_PHASES, help="HOLES:RATE:EXPLORE:EXACT,...")
    parser.add_argument("--report", type=int, default=20000, help="holes between reports")
    args = parser.parse_args(argv)
    phases = []
    for part in args.phases.split(","):
        holes, rate, explore, exact = part.split(":")
        phases.append((int(holes), float(rate), float(explore), exact == "1"))
    net = Network(args.hidden, args.seed)
    rng = random.Random(args.seed)
    meta = {"hidden": args.hidden, "seed": args.seed, "phases": args.phases}
    batch: list[list] = [[], [], [], []]
    began, played, losses = time.perf_counter(), 0, []

    def write() -> None:
        args.out.write_text(json.dumps(net.to_json({**meta, "holes": played})) + "\n")

    for holes, rate, explore, exact in phases:
        for _ in range(holes):
            played += 1
            goal, scores, seen = play(net, rng, played % 2, explore, exact)
            for seat, seat_goal in ((0, goal), (1, goal.theirs())):
                diff = scores[1 - seat] - scores[seat] - (seat_goal.carried or 0)
                won = 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
                margin = (scores[1 - seat] - scores[seat]) / MARGIN_SCALE
                steps = seen[seat]
                wins = returns([s[2] for s in steps], won)
                margins = returns([s[3] for s in steps], margin)
                for (row, dense, _, _), w, m in zip(steps, wins, margins, strict=True):
                    for column, item in zip(batch, (row, dense, w, m), strict=True):
                        column.append(item)
            if len(batch[2]) >= BATCH:
                losses.append(net.learn(*(np.array(b) for b in batch), rate))
                batch = [[], [], [], []]
            if played % args.report == 0:
                recent = losses[-100:]
                print(
                    f"holes {played}: loss {sum(recent) / max(1, len(recent)):.4f}, "
                    f"{time.perf_counter() - began:.0f} s",
                    flush=True,
                )
                write()
    write()
    print(f"wrote {args.out} after {played} holes", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
