"""bench/hearts_posterior.py reports how well hard's samples place the unseen cards; a
chain that reads the plays must place them better, and explain the plays better, than
a deal that knows only the voids."""

from __future__ import annotations

from tests.benches import load


def test_the_chain_places_the_unseen_cards_better_than_the_voids_alone() -> None:
    bench = load("hearts_posterior")
    figures = bench.measure(players=5, deals=2, samples=10, seed=7)
    voids, chain, strict = (figures[name] for name in bench.SAMPLERS)
    assert all(0 < share <= 1 for share, _ in figures.values())
    assert chain[0] > voids[0] and strict[0] > voids[0]
    assert strict[1] < chain[1] < voids[1]
