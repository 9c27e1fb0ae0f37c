"""bench/golf_ceiling.py measures the determinized search given cards no player can see; its
control (seeing nothing) must be that search itself on the arena's holes, and its seer must
keep exactly what it is let see, or the ceiling it reports measures something else."""

from __future__ import annotations

import random

from cards.deck import rank_of
from golf.arena import run_arena
from golf.com.knowledge import Knowledge
from golf.decide import start_match
from golf.rules import Rules
from golf.state import COM, replay
from golf.views import view_for
from tests.benches import load


def test_seeing_nothing_is_the_arena_to_the_last_point() -> None:
    bench = load("golf_ceiling")
    rules = Rules.from_preset("six-card")
    arena = run_arena(rules, ["hard", "normal"], 3, seed=3, choose=bench.searched)
    control = bench.play("none", 3, seed=3, jobs=1)
    assert control.scores == arena.scores
    assert (control.wins, control.ties) == (arena.wins, arena.ties)
    seeing = bench.play("all", 1, seed=3, jobs=1)  # the seer stands in for hard's sampler
    assert len(seeing.scores[0]) == len(seeing.scores[1]) == 1


def test_a_seer_keeps_the_cards_it_is_let_see_and_deals_the_rest() -> None:
    bench = load("golf_ceiling")
    rules = bench.RULES
    state = replay(start_match(rules, [COM, COM], bytes(32)))
    view = view_for(state, 0)
    know = Knowledge.from_view(view, rules)
    truth = [[rank_of(c) for c in grid] for grid in state.grids]
    every = sorted([r for grid in truth for r in grid] + [rank_of(c) for c in state.stock])
    for sees, shown in (("none", set()), ("own", {0}), ("all", {0, 1})):
        sim = bench.seer(state, sees)(view, rules, random.Random(1), know)
        for seat in (0, 1):
            if seat in shown:
                assert sim.grids[seat] == truth[seat]
        assert len(sim.stock) == view.stock_size
        assert sorted([r for grid in sim.grids for r in grid] + list(sim.stock)) == every
    # what is not shown is dealt anew: the opponent's grid when only its own is seen
    own = [bench.seer(state, "own")(view, rules, random.Random(s), know) for s in range(5)]
    assert any(sim.grids[1] != truth[1] for sim in own)
