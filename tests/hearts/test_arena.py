"""The Hearts arena: deals rotated round the seats, or played once per rotation."""

from __future__ import annotations

import pytest

from hearts.arena import main, run_arena, summary
from hearts.rules import Rules


def test_every_rotation_of_a_deal_gives_each_entry_every_hand():
    # three rules-of-thumb players are one player in three seats: played in every
    # rotation, each entry's mean over a deal's games is the deal's 26 points shared out
    rules = Rules.from_preset("hearts", players=3)
    results = run_arena(rules, ["normal"] * 3, deals=4, seed=3, rotations=3)
    for deal in range(4):
        assert [results.scores[e][deal] for e in range(3)] == [pytest.approx(26 / 3)] * 3
    once = run_arena(rules, ["normal"] * 3, deals=4, seed=3)
    assert any(once.scores[e][d] != pytest.approx(26 / 3) for e in range(3) for d in range(4))
    moon = summary(results, ["normal"] * 3)["moon"]["normal"]
    assert moon["seat_deals"] == 3 * 4 * 3


def test_a_rotated_table_pairs_the_levels_over_the_same_hands():
    rules = Rules.from_preset("hearts", players=3)
    entries = ["random", "normal", "normal"]
    results = run_arena(rules, entries, deals=6, seed=1, rotations=3)
    for deal in range(6):
        total = sum(results.scores[e][deal] for e in range(3))
        assert total == pytest.approx(26)  # every game shares out 26 points
    assert run_arena(rules, entries, deals=6, seed=1, rotations=3).scores == results.scores


def test_rotations_are_checked(capsys):
    with pytest.raises(ValueError, match="rotations"):
        run_arena(Rules.from_preset("hearts", players=3), ["normal"] * 3, 2, 1, rotations=4)
    assert (
        main(
            [
                "--preset",
                "hearts",
                "--players",
                "3",
                "--deals",
                "2",
                "--seats",
                "normal",
                "--rotations",
                "all",
            ]
        )
        == 0
    )
    assert "level normal:   8.667 points/deal" in capsys.readouterr().out
