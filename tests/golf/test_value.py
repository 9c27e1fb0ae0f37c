"""The learned value of two-player six-card golf and the ``hard`` search on it."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest

from golf import (
    Rules,
    SwapCard,
    TakeDiscard,
    decide,
    legal_actions,
    replay,
    start_match,
    view_for,
)
from golf.com import POLICIES
from golf.com import value as gv
from golf.com.value import (
    DOWN,
    MARGIN,
    MARGIN_SCALE,
    Goal,
    LastTurn,
    Mover,
    final_value,
    grid_dist,
    grid_points,
)
from golf.state import COM, Phase, evolve
from tests.benches import load
from tests.golf.helpers import in_hand, opened

RANK = {r: i for i, r in enumerate(gv.RANKS)}


def cells(*codes: str | None) -> list[int]:
    return [DOWN if c is None else RANK[c] for c in codes]


def brute_dist(grid: list[int], unseen: list[int]) -> dict[int, float]:
    """Every face-down cell drawn on its own from ``unseen``, by enumeration."""
    total = sum(unseen)
    down = [p for p, c in enumerate(grid) if c == DOWN]
    dist: dict[int, float] = {}
    for ranks in itertools.product(range(13), repeat=len(down)):
        p = math.prod(unseen[r] / total for r in ranks)
        if p:
            filled = list(grid)
            for pos, r in zip(down, ranks, strict=True):
                filled[pos] = r
            s = grid_points(filled)
            dist[s] = dist.get(s, 0.0) + p
    return dist


def brute_mean(grid: list[int], unseen: list[int]) -> float:
    return sum(s * p for s, p in brute_dist(grid, unseen).items())


def beats(dist: dict[int, float], score: int) -> float:
    return sum(p for s, p in dist.items() if s < score) + sum(
        p / 2 for s, p in dist.items() if s == score
    )


UNSEEN = [3, 2, 4, 1, 3, 4, 2, 3, 1, 4, 2, 3, 4]


@pytest.mark.parametrize(
    "grid",
    [
        cells("A", None, "5", "A", None, None),
        cells(None, None, None, None, "K", "Q"),
        cells("2", "7", "J", "2", "7", "Q"),
    ],
)
def test_a_grid_s_points_are_counted_exactly(grid):
    exact = dict(grid_dist(grid, UNSEEN))
    brute = brute_dist(grid, UNSEEN)
    assert exact.keys() == brute.keys()
    for s, p in brute.items():
        assert exact[s] == pytest.approx(p)
    assert sum(exact.values()) == pytest.approx(1.0)
    mean = sum(s * p for s, p in brute.items())
    for score in (-4, 0, 7, 15, 30):
        assert final_value(grid, score, UNSEEN, Goal(0)) == pytest.approx(beats(brute, score))
        # carrying 3 points more than the opponent, the grid must beat score - 3
        assert final_value(grid, score, UNSEEN, Goal(3)) == pytest.approx(beats(brute, score - 3))
        assert final_value(grid, score, UNSEEN, MARGIN) == pytest.approx(
            (score - mean) / MARGIN_SCALE
        )


def test_going_out_counts_the_opponent_s_best_last_turn():
    theirs = cells("3", None, "9", None, "4", None)
    table = LastTurn(theirs, UNSEEN)
    total = sum(UNSEEN)

    def best(rank: int, keep: bool, worth) -> float:  # type: ignore[no-untyped-def]
        """The opponent's best placement of ``rank`` (or keeping its grid), by ``worth``."""
        grids = []
        for pos in range(6):
            grid = list(theirs)
            grid[pos] = rank
            grids.append(grid)
        if keep:
            grids.append(theirs)
        return max(worth(brute_dist(g, UNSEEN)) for g in grids)

    def opponent(worth) -> float:  # type: ignore[no-untyped-def]
        """It sees the card turned up, then takes it or draws."""
        draw = sum(n / total * best(r, True, worth) for r, n in enumerate(UNSEEN) if n)
        return sum(n / total * max(draw, best(r, False, worth)) for r, n in enumerate(UNSEEN) if n)

    for score in (2, 9, 14, 25):
        chance = opponent(lambda d, s=score: beats(d, s))
        assert table.mover_value(score, Goal(0)) == pytest.approx(1.0 - chance)
        # carrying 4 more points, the opponent need only get below score + 4
        chance = opponent(lambda d, s=score: beats(d, s + 4))
        assert table.mover_value(score, Goal(4)) == pytest.approx(1.0 - chance)
        # for the margin the opponent makes its expected points as few as it can
        fewest = -opponent(lambda d: -sum(s * p for s, p in d.items()))
        assert table.mover_value(score, MARGIN) == pytest.approx((fewest - score) / MARGIN_SCALE)
    # the lower the score the seat goes out with, the better
    chances = [table.mover_value(s, Goal(0)) for s in range(-4, 40)]
    assert chances == sorted(chances, reverse=True)


def test_the_network_is_read_in_full():
    net = gv.network()
    assert len(net.sparse) == gv.SPARSE and len(net.dense) == gv.DENSE
    assert {len(net.bias), len(net.win), len(net.margin)} == {net.hidden}
    assert all(len(row) == net.hidden for row in (*net.sparse, *net.dense))


def direct(
    net: gv.Network, rows: list[int], unseen: list[int], expected: list[float], goal: Goal
) -> float:
    """The network's output computed the plain way, input by input."""
    pre = list(net.bias)
    for i in [*rows, gv.CARRIED + gv.CARRY + (goal.carried or 0)]:
        pre = [a + b for a, b in zip(pre, net.sparse[i], strict=True)]
    dense = [n / 4 for n in unseen] + [x / MARGIN_SCALE for x in expected]
    for r, x in enumerate(dense):
        pre = [a + x * b for a, b in zip(pre, net.dense[r], strict=True)]
    weights, bias = (net.win, net.win_bias) if goal.win else (net.margin, net.margin_bias)
    z = bias + sum(max(x, 0.0) * w for x, w in zip(pre, weights, strict=True))
    return 1 / (1 + math.exp(-z)) if goal.win else z


def columns(grid: list[int], offset: int) -> list[int]:
    return [offset + gv.COLUMN_TYPE[grid[a]][grid[b]] for a, b in gv.COLUMNS]


@pytest.mark.parametrize("goal", [MARGIN, Goal(0), Goal(-7)], ids=["margin", "win", "win-7"])
def test_the_quick_sums_are_the_network_s_output(goal):
    net = gv.network()
    mine = cells("4", None, "Q", None, None, "4")
    theirs = cells(None, "K", None, "2", None, None)
    unseen = list(UNSEEN)
    mover = Mover(net, mine, theirs, unseen, goal)
    seen = [unseen[r] - (r == 6) for r in range(13)]  # a 7 drawn
    theirs_expected = brute_mean(theirs, unseen)
    for pos in range(6):
        after = list(mine)
        after[pos] = 6
        race = gv.RACE + after.count(DOWN) * 5 + theirs.count(DOWN)
        rows = [*columns(after, gv.MINE), *columns(theirs, gv.THEIRS), gv.TOP + mine[pos], race]
        expected = [brute_mean(after, unseen), theirs_expected]
        assert mover.swap(6, pos, 6) == pytest.approx(
            direct(net, rows, seen, expected, goal), abs=1e-9
        )
    race = gv.RACE + mine.count(DOWN) * 5 + theirs.count(DOWN)
    rows = [*columns(mine, gv.MINE), *columns(theirs, gv.THEIRS), gv.TOP + 6, race]
    expected = [brute_mean(mine, unseen), theirs_expected]
    assert mover.throw(6, 6) == pytest.approx(direct(net, rows, seen, expected, goal), abs=1e-9)
    # a move that goes out is left to the exact count
    going = Mover(net, cells("4", "5", "Q", "A", "K", None), theirs, unseen, goal)
    assert going.swap(6, 5, 6) is None


def test_the_network_plays_only_the_table_it_learnt():
    _, view = in_hand("5S", (None,) * 6, (None,) * 6)

    def applies(preset: str, players: int = 2, **overrides: object) -> bool:
        seated = dataclasses.replace(view, players=("com",) * players)
        return gv.applies(seated, Rules.from_preset(preset, **overrides))

    assert applies("six-card") and applies("six-card", holes=1) and applies("vanikar-six")
    assert applies("six-card", max_turns=500)
    assert not applies("six-card", players=3)
    assert not applies("nine-card")
    assert not applies("six-card-jokers")
    # each rule the network did not learn, changed on its own
    for rule, other in [
        ("grid", "2x4"),
        ("lines", "rows_and_columns"),
        ("match_by", "value"),
        ("values", {"K": 5}),
        ("jokers", True),
        ("negative_pairs_keep_value", True),
        ("final_turns", "none"),
        ("discard_take_must_swap", False),
        ("flip_on_discard", "always"),
        ("initial_flips", 1),
        ("decks", 2),
        ("max_turns", 100),
    ]:
        assert not applies("six-card", **{rule: other}), rule


def two_seat_states(count: int, seed: int = 0):
    """Decision points of two-player six-card holes, its seats playing as ``normal`` now
    and then at random."""
    rng = random.Random(seed)
    rules = Rules.from_preset("six-card", holes=1)
    found = []
    while len(found) < count:
        state = replay(start_match(rules, [COM, COM], rng.randbytes(32)))
        while not state.ended:
            seat = state.seats_to_act()[0]
            view = view_for(state, seat)
            if rng.random() < 0.3:
                found.append((state, seat))
            if rng.random() < 0.3:
                action = rng.choice(legal_actions(state, seat))
            else:
                action = POLICIES["normal"](view, rules, rng)
            for event in decide(state, seat, action):
                state = evolve(state, event)
    return found[:count]


def test_hard_on_the_six_card_table_is_legal_deterministic_and_reads_only_the_view():
    from tests.golf.invariants import shuffle_hidden

    states = two_seat_states(60)
    rng = random.Random(3)
    for i, (state, seat) in enumerate(states):
        view = view_for(state, seat)
        move = POLICIES["hard"](view, state.rules, random.Random(i))
        assert move in legal_actions(state, seat)
        if view.phase is not Phase.FLIPS:  # only the blind opening flips draw on the seed
            chosen = gv.choose(view, state.rules, random.Random(i))
            assert gv.choose(view, state.rules, random.Random(i + 1)) == chosen
        twin = shuffle_hidden(state, seat, rng)
        assert POLICIES["hard"](view_for(twin, seat), twin.rules, random.Random(i)) == move


def test_the_last_hole_is_played_for_the_match_and_every_other_for_points():
    _, view = in_hand("5S", (None,) * 6, (None,) * 6)
    assert (view.hole, view.holes) == (1, 9)
    assert gv.goal_of(view) == MARGIN
    last = dataclasses.replace(view, hole=9, totals=(40, 33))
    assert gv.goal_of(last) == Goal(7)
    assert gv.goal_of(dataclasses.replace(last, seat=1)) == Goal(-7)


def test_hard_goes_out_on_the_last_hole_when_that_wins_for_sure():
    # K K 3 / K K ? with a 2 in hand: at 5 it goes out with 1 point; the opponent shows
    # Q Q J / J ? ? (at least 20 with two cards to turn, and one last turn): a sure win...
    mine = ("KS", "KH", "3C", "KD", "KC", None)
    theirs = ("QS", "QC", "JC", "JD", None, None)
    rules, view = in_hand("2S", mine, theirs)
    last_hole = dataclasses.replace(view, hole=9)
    assert gv.choose(last_hole, rules, random.Random(1)) == SwapCard(5)
    # ...unless it carries so many points more into the hole that going out all but loses
    # (the opponent need only end below 56, and it has one last turn): then it plays on
    behind = dataclasses.replace(last_hole, totals=(55, 0))
    decision = gv.Decision(behind, rules, gv.network())
    going_out = LastTurn(decision.theirs, decision.unseen).mover_value(1, Goal(55))
    assert going_out < 0.02
    assert gv.choose(behind, rules, random.Random(1)) != SwapCard(5)


def test_hard_goes_out_far_behind_on_the_last_hole_when_that_wins_most_often():
    # the same grids, 35 points behind: going out at 1 wins only if the opponent ends on
    # 37 or more (36 ties), about 72% of the time; playing on gives it more turns to mend
    mine = ("KS", "KH", "3C", "KD", "KC", None)
    theirs = ("QS", "QC", "JC", "JD", None, None)
    rules, view = in_hand("2S", mine, theirs)
    behind = dataclasses.replace(view, hole=9, totals=(35, 0))
    decision = gv.Decision(behind, rules, gv.network())
    going_out = LastTurn(decision.theirs, decision.unseen).mover_value(1, Goal(35))
    assert 0.6 < going_out < 0.8
    playing_on = [decision.deep(RANK["2"], None, p) for p in range(-1, 5)]
    assert max(playing_on) < going_out
    assert gv.choose(behind, rules, random.Random(1)) == SwapCard(5)


def test_the_further_behind_a_seat_is_the_lower_its_chance_of_winning():
    """The carried points are read one by one (each its own input), yet ten more carried
    always lower the win the network gives a move, wherever sampled."""
    net = gv.network()
    rng = random.Random(9)
    compared = 0
    for state, seat in two_seat_states(40):
        view = view_for(state, seat)
        if view.phase is Phase.FLIPS or not gv.applies(view, state.rules):
            continue
        decision = gv.Decision(view, state.rules, net)
        rank = rng.choice([r for r, n in enumerate(decision.unseen) if n])  # a card drawn
        by_carry = {
            carried: Mover(net, decision.mine, decision.theirs, decision.unseen, Goal(carried))
            for carried in range(-gv.CARRY, gv.CARRY + 1, 10)
        }
        for pos in range(6):
            wins = [mover.swap(rank, pos, rank) for mover in by_carry.values()]
            if wins[0] is not None:
                assert wins == sorted(wins, reverse=True), wins
                compared += 1
    assert compared > 100


def test_hard_does_not_go_out_far_behind_when_points_count():
    # T J Q / 9 8 ? with a 5 in hand on the first hole of nine: going out at 5 ends on 52
    # points against a grid showing K K A / K K ?; anywhere else it lowers its grid
    mine = ("TC", "JD", "QC", "9H", "8D", None)
    theirs = ("KS", "KH", "AC", "KD", "KC", None)
    rules, view = in_hand("5S", mine, theirs)
    assert gv.choose(view, rules, random.Random(1)) != SwapCard(5)


def test_hard_takes_the_card_that_pairs_a_column():
    # 8 ? Q / ? ? ? with an 8 on the pile: the pair is worth 16 points to it
    rules = Rules.from_preset("six-card")
    grids = [["8S", "KH", "QC", "4D", "5C", "9H"], ["AH", "2H", "3H", "4H", "5H", "6H"]]
    state = opened(rules, grids, "8D", ["JC", "JD", "JS"], [COM, COM])
    view = view_for(state, 0)
    assert gv.choose(view, rules, random.Random(1)) == TakeDiscard()


def test_the_match_bench_plays_whole_matches_for_both_hards():
    bench = load("golf_matches")
    for hard in ("value", "search"):
        shares, totals, times = bench.play((1, 3, 2, hard))  # two holes, hard in seat 1
        assert shares[0] in (0.0, 0.5, 1.0)
        assert len(totals) == 2 and times
        won = totals[0] < totals[1]
        assert (shares[0] == 1.0) == won
