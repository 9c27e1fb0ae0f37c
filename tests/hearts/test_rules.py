"""Rules reference, sections 1 and 4: the table, the options and the presets."""

import pytest

from cards.errors import RulesError
from hearts.decide import start_match
from hearts.rules import (
    DEAL_CAP,
    PRESETS,
    FirstTrickPoints,
    JackOfDiamonds,
    Moon,
    Passing,
    Rules,
)


def test_the_hearts_preset_is_the_seed_exactly():
    rules = Rules.from_preset("hearts")
    assert rules.to_json() == {
        "preset": "hearts",
        "players": None,
        "passing": "none",
        "points_on_first_trick": "never",
        "shoot_the_moon": "off",
        "jack_of_diamonds": "off",
        "target_score": 100,
        "max_deals": None,
        "undo": False,
    }
    assert rules.seat_range() == (3, 5)


def test_the_classic_preset():
    rules = Rules.from_preset("hearts-classic")
    assert rules.players == 4 and rules.passing is Passing.ROTATE
    assert rules.shoot_the_moon is Moon.OTHERS_GET_26 and rules.target_score == 100
    assert rules.jack_of_diamonds is JackOfDiamonds.OFF
    assert rules.points_on_first_trick is FirstTrickPoints.NEVER
    assert rules.seat_range() == (4, 4)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_round_trip(preset):
    rules = Rules.from_preset(preset, jack_of_diamonds="minus_10", max_deals=3)
    assert Rules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"passing": "sideways"}, "passing"),
        ({"players": 6}, "players"),
        ({"players": "4"}, "players"),
        ({"target_score": 0}, "target_score"),
        ({"target_score": 1001}, "target_score"),
        ({"target_score": True}, "target_score"),
        ({"max_deals": 51}, "max_deals"),
        ({"shoot_the_moon": "on"}, "shoot_the_moon"),
        ({"jack_of_diamonds": True}, "jack_of_diamonds"),
        ({"points_on_first_trick": "sometimes"}, "points_on_first_trick"),
        ({"undo": "yes"}, "undo"),
        ({"trumps": "spades"}, "trumps"),
    ],
)
def test_a_bad_option_is_named(overrides, field):
    with pytest.raises(RulesError) as caught:
        Rules.from_preset("hearts", **overrides)
    assert caught.value.field == field


def test_contradictions_name_the_option_overridden():
    with pytest.raises(RulesError) as caught:
        Rules.from_preset("hearts", players=3, passing="across")
    assert caught.value.field == "passing"
    across = Rules.from_preset("hearts", passing="across")
    assert across.seat_range() == (4, 4)
    with pytest.raises(RulesError) as caught:
        across.with_overrides(players=5)
    assert caught.value.field == "players"
    with pytest.raises(RulesError) as caught:
        Rules.from_preset("hearts-classic", passing="across", players=3)
    assert caught.value.field == "passing"


def test_the_table_size_must_fit_the_rules():
    with pytest.raises(RulesError) as caught:
        start_match(Rules.from_preset("hearts"), 6, bytes(32))
    assert caught.value.field == "players"
    with pytest.raises(RulesError) as caught:
        start_match(Rules.from_preset("hearts-classic"), 3, bytes(32))
    assert caught.value.field == "players"
    with pytest.raises(RulesError) as caught:
        start_match(Rules.from_preset("hearts", passing="across"), 5, bytes(32))
    assert caught.value.field == "passing"
    with pytest.raises(RulesError) as caught:
        start_match(Rules.from_preset("hearts", undo=True), ["human", "human", "com"], bytes(32))
    assert caught.value.field == "undo"


def test_passing_directions():
    rotate = Rules.from_preset("hearts", passing="rotate")
    assert [rotate.direction(d, 4) for d in range(1, 9)] == [
        "left",
        "right",
        "across",
        "hold",
        "left",
        "right",
        "across",
        "hold",
    ]
    assert [rotate.direction(d, 5) for d in range(1, 7)] == [
        "left",
        "right",
        "hold",
        "left",
        "right",
        "hold",
    ]
    assert Rules.from_preset("hearts").direction(3, 4) == "hold"
    assert Rules.from_preset("hearts", passing="right").direction(7, 3) == "right"


def test_deal_limit():
    assert Rules.from_preset("hearts", max_deals=7).deal_limit(4) == 7
    # every deal adds 26 points to the sum of the totals: 4 * 99 // 26 + 1
    assert Rules.from_preset("hearts").deal_limit(4) == 16
    assert Rules.from_preset("hearts", jack_of_diamonds="minus_10").deal_limit(5) == 31
    assert Rules.from_preset("hearts", shoot_the_moon="shooter_minus_26").deal_limit(4) == DEAL_CAP
