import pytest

from golf import Rules, score_grid, winners_of
from golf.errors import EngineError

SIX = Rules.from_preset("six-card")
NINE = Rules.from_preset("nine-card")


def test_examples_from_the_rules_reference():
    assert score_grid(["KS", "5H", "JC", "KD", "5C", "2H"], SIX) == 8
    assert score_grid(["8S", "KH", "2C", "8D", "AC", "5H"], SIX) == 4
    assert score_grid(["2S", "KH", "KC", "2D", "KD", "KS"], SIX) == 0


def test_negative_pairs_keep_their_value():
    keep = SIX.with_overrides(negative_pairs_keep_value=True)
    assert score_grid(["2S", "KH", "KC", "2D", "KD", "KS"], keep) == -4
    # a positive pair still scores 0
    assert score_grid(["9S", "KH", "KC", "9D", "KD", "KS"], keep) == 0


def test_jack_and_queen_never_match():
    assert score_grid(["JS", "KH", "KC", "QD", "KD", "KS"], SIX) == 20


def test_rows_do_not_match_in_six_card():
    assert score_grid(["5S", "5H", "5C", "KD", "AD", "3S"], SIX) == 19


def test_nine_card_rows_and_columns():
    # a matched row of 7s
    assert (
        score_grid(["7S", "7H", "7C", "AD", "2D", "3S", "4S", "5H", "6C"], NINE)
        == 1 - 2 + 3 + 4 + 5 + 6
    )
    # a matched column of 9s
    assert (
        score_grid(["9S", "AH", "2C", "9D", "3D", "4S", "9H", "5H", "6C"], NINE)
        == 1 - 2 + 3 + 4 + 5 + 6
    )
    # a pair is not a line in nine-card
    assert (
        score_grid(["9S", "AH", "2C", "9D", "3D", "4S", "8H", "5H", "6C"], NINE)
        == 9 + 9 + 8 + 1 - 2 + 3 + 4 + 5 + 6
    )


def test_a_card_in_two_matched_lines_scores_zero_once():
    grid = ["8S", "8H", "8C", "8D", "AD", "3S", "8H", "5H", "6C"]
    assert score_grid(grid, NINE) == 1 + 3 + 5 + 6


def test_lines_none():
    plain = SIX.with_overrides(lines="none")
    assert score_grid(["KS", "5H", "JC", "KD", "5C", "2H"], plain) == 18


def test_jokers():
    jokers = Rules.from_preset("six-card-jokers")
    assert score_grid(["XR", "2H", "KC", "XB", "2D", "KS"], jokers) == 0  # jokers pair
    assert score_grid(["XR", "2H", "KC", "AS", "3D", "KS"], jokers) == -2 + 2 + 1 + 3
    keep = jokers.with_overrides(negative_pairs_keep_value=True)
    assert score_grid(["XR", "2H", "KC", "XB", "2D", "KS"], keep) == -4


def test_value_overrides():
    rules = SIX.with_overrides(values={"K": -1, "J": 11})
    assert score_grid(["KS", "JH", "AC", "QS", "2H", "3C"], rules) == -1 + 11 + 1 + 10 - 2 + 3


def test_grid_must_fit():
    with pytest.raises(EngineError):
        score_grid(["KS"], SIX)
    with pytest.raises(EngineError):
        score_grid(["KS", "5H", "JC", "KD", "5C", "??"], SIX)


def test_ties_share_the_win():
    assert winners_of([10, 3, 3]) == (1, 2)
    assert winners_of([4, 4]) == (0, 1)
    assert winners_of([-2, 5]) == (0,)
