"""Rules reference, sections 1 and 4: the table, the pack, the options and the preset."""

import pytest

from cards.errors import RulesError
from ninety_nine.decide import start_match
from ninety_nine.game import NINETY_NINE
from ninety_nine.pack import PACK, deal_hands
from ninety_nine.rules import PRESETS, Rules
from ninety_nine.state import Phase, replay


# --- section 1: the table ---------------------------------------------------------------
def test_the_pack_is_six_to_ace_in_four_suits():
    assert len(PACK) == len(set(PACK)) == 36
    assert {c[0] for c in PACK} == set("6789TJQKA")
    assert {c[1] for c in PACK} == set("CHSD")


def test_all_36_cards_are_dealt_twelve_each():
    state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
    assert [len(h) for h in state.hands] == [12, 12, 12]
    assert sorted(c for h in state.hands for c in h) == sorted(PACK)
    assert state.phase is Phase.BIDDING and state.deal == 1


@pytest.mark.parametrize("players", [["human"] * 2, ["human"] * 4, ["com"] * 5])
def test_exactly_three_players(players):
    with pytest.raises(RulesError) as caught:
        start_match(Rules(), players, bytes(32))
    assert caught.value.field == "players"
    assert NINETY_NINE.seat_limits(Rules()) == (3, 3)


def test_a_seat_is_human_or_com_and_the_seed_is_long_enough():
    with pytest.raises(RulesError) as caught:
        start_match(Rules(), ["human", "com", "robot"], bytes(32))
    assert caught.value.field == "players"
    with pytest.raises(RulesError) as caught:
        start_match(Rules(), ["human"] * 3, bytes(8))
    assert caught.value.field == "seed"


def test_the_dealer_is_seat_0_first_and_moves_left_each_deal():
    # a match played to its end at random: deal n is dealt by seat (n - 1) mod 3
    import random

    from ninety_nine.decide import decide, legal_actions
    from ninety_nine.events import DealStarted

    rng = random.Random(1)
    events = start_match(Rules(), ["human"] * 3, bytes(range(32)))
    state = replay(events)
    while not state.ended:
        seat = state.seats_to_act()[0]
        batch = decide(state, seat, rng.choice(legal_actions(state, seat)))
        events += batch
        state = replay(batch, state)
    deals = [e for e in events if isinstance(e, DealStarted)]
    assert len(deals) >= 2
    assert [d.dealer for d in deals] == [(d.deal - 1) % 3 for d in deals]
    assert [d.deal for d in deals] == list(range(1, len(deals) + 1))


def test_the_eldest_is_the_dealers_left():
    hands = deal_hands(bytes(32), 1, dealer=2)
    state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
    assert state.dealer == 0 and state.eldest == 1 and state.leader == 1
    assert [len(h) for h in hands] == [12, 12, 12]


# --- section 4: options and the preset ----------------------------------------------------
def test_the_preset_is_the_rules_defaults():
    assert sorted(PRESETS) == ["ninety-nine"]
    assert Rules.from_preset("ninety-nine").to_json() == {
        "preset": "ninety-nine",
        "premium_bids": "on",
        "target_score": 100,
        "max_deals": None,
    }
    assert NINETY_NINE.preset_rules("ninety-nine") == Rules().to_json()


def test_overrides_and_round_trip():
    rules = NINETY_NINE.rules("ninety-nine", {"premium_bids": "off", "max_deals": 50})
    assert (rules.premium_bids, rules.target_score, rules.max_deals) == (False, 100, 50)
    assert Rules.from_json(rules.to_json()) == rules
    assert NINETY_NINE.rules_from_json(NINETY_NINE.rules_to_json(rules)) == rules
    assert Rules.from_preset(target_score=1).target_score == 1
    assert Rules.from_preset(target_score=1000).target_score == 1000


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"premium_bids": True}, "premium_bids"),
        ({"premium_bids": "yes"}, "premium_bids"),
        ({"target_score": 0}, "target_score"),
        ({"target_score": 1001}, "target_score"),
        ({"target_score": "100"}, "target_score"),
        ({"target_score": True}, "target_score"),
        ({"max_deals": 0}, "max_deals"),
        ({"max_deals": 51}, "max_deals"),
        ({"max_deals": 2.5}, "max_deals"),
        ({"trumps": "clubs"}, "trumps"),
    ],
)
def test_a_bad_option_is_named(overrides, field):
    with pytest.raises(RulesError) as caught:
        Rules.from_preset("ninety-nine", **overrides)
    assert caught.value.field == field


def test_an_unknown_preset_is_named():
    with pytest.raises(RulesError) as caught:
        Rules.from_preset("hundred")
    assert caught.value.field == "preset"
    with pytest.raises(RulesError) as caught:
        Rules.from_json({"preset": "hundred"})
    assert caught.value.field == "preset"


@pytest.mark.parametrize(
    ("overrides", "most"),
    [({}, 34), ({"target_score": 1}, 1), ({"max_deals": 5}, 5), ({"target_score": 9}, 3)],
)
def test_the_most_deals_a_match_can_last(overrides, most):
    # every deal hands out at least 9 points (a point a trick), so after d deals the
    # highest total is at least 3d: the target is reached by deal ceil(target / 3)
    assert Rules.from_preset(**overrides).most_deals == most
