import json

import pytest

from golf import PRESETS, Rules, RulesError
from golf.rules import FinalTurns, FlipOnDiscard, Lines


def test_presets_match_the_rules_reference():
    six = Rules.from_preset("six-card")
    assert (six.grid, six.lines, six.final_turns, six.holes) == (
        (2, 3),
        Lines.COLUMNS,
        FinalTurns.OTHERS_ONCE,
        9,
    )
    assert six.initial_flips == 2 and six.max_turns == 240 and six.discard_take_must_swap
    assert six.flip_on_discard is FlipOnDiscard.NEVER and not six.jokers and not six.undo
    instant = Rules.from_preset("six-card-instant")
    assert instant.final_turns is FinalTurns.NONE and not instant.discard_take_must_swap
    jokers = Rules.from_preset("six-card-jokers")
    assert jokers.jokers and jokers.card_value("2H") == 2 and jokers.card_value("XR") == -2
    nine = Rules.from_preset("nine-card")
    assert (nine.grid, nine.lines, nine.final_turns, nine.holes) == (
        (3, 3),
        Lines.ROWS_AND_COLUMNS,
        FinalTurns.NONE,
        6,
    )


def test_default_card_values():
    six = Rules.from_preset("six-card")
    assert [six.card_value(c) for c in ["AS", "2S", "5S", "TS", "JS", "QS", "KS"]] == [
        1,
        -2,
        5,
        10,
        10,
        10,
        0,
    ]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_json_round_trip(preset):
    rules = Rules.from_preset(preset, values={"K": -1}, max_turns=100)
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_overrides_apply_field_by_field():
    rules = Rules.from_preset(
        "six-card", grid="2x4", decks=2, flip_on_discard="optional", undo=True, holes=18
    )
    assert rules.grid == (2, 4) and rules.decks == 2 and rules.holes == 18 and rules.undo
    assert rules.flip_on_discard is FlipOnDiscard.OPTIONAL


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"grid": "4x4"}, "grid"),
        ({"grid": "big"}, "grid"),
        ({"decks": 4}, "decks"),
        ({"decks": "many"}, "decks"),
        ({"jokers": "yes"}, "jokers"),
        ({"lines": "diagonals"}, "lines"),
        ({"final_turns": "sometimes"}, "final_turns"),
        ({"flip_on_discard": True}, "flip_on_discard"),
        ({"initial_flips": 6}, "initial_flips"),
        ({"initial_flips": -1}, "initial_flips"),
        ({"max_turns": 0}, "max_turns"),
        ({"holes": 19}, "holes"),
        ({"holes": 0}, "holes"),
        ({"holes": 2.5}, "holes"),
        ({"values": {"Z": 3}}, "values"),
        ({"values": {"K": "zero"}}, "values"),
        ({"values": {"X": -5}}, "values"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_invalid_options_name_the_field(overrides, field):
    with pytest.raises(RulesError) as info:
        Rules.from_preset("six-card", **overrides)
    assert info.value.field == field
    assert str(info.value).startswith(field)


def test_unknown_preset():
    with pytest.raises(RulesError) as info:
        Rules.from_preset("hearts")
    assert info.value.field == "preset"


def test_auto_decks_follow_the_table_size():
    six = Rules.from_preset("six-card")
    assert [six.deck_count(n) for n in (2, 4, 5, 6)] == [1, 1, 2, 2]
    nine = Rules.from_preset("nine-card")
    assert [nine.deck_count(n) for n in (3, 4)] == [1, 2]


def test_more_cards_dealt_than_the_decks_hold_is_an_error_naming_decks():
    with pytest.raises(RulesError) as info:
        Rules.from_preset("nine-card", decks=1).validate_for(6)
    assert info.value.field == "decks"
    Rules.from_preset("nine-card", decks=1).validate_for(5)  # 46 cards fit


@pytest.mark.parametrize("players", [1, 7])
def test_player_count(players):
    with pytest.raises(RulesError) as info:
        Rules.from_preset("six-card").validate_for(players)
    assert info.value.field == "players"


@pytest.mark.parametrize("values", [[None, None], [[1, 2, 3]], "K0", 7])
def test_malformed_values_are_a_rules_error(values):
    with pytest.raises(RulesError) as caught:
        Rules.from_preset("six-card", values=values)
    assert caught.value.field == "values"
