"""Rules reference, section 2 (a deal) and section 3 (scoring, the end of the match), each
rule on a hand-built deal that forces its edge."""

import pytest

from cards.errors import NotYourTurnError, WrongPhaseError
from hearts import errors
from hearts.actions import PassCards, PlayCard
from hearts.dealing import deal_hands, dealer_of, deck_for
from hearts.decide import legal_actions, start_match
from hearts.events import DealScored, MatchFinished, TrickWon
from hearts.rules import Rules
from hearts.state import Phase, replay
from hearts.views import view_for
from tests.hearts.helpers import CLUBS_3_TO_A, act, cards_of, hands_with, play, play_out, table

SEED_RULES = Rules.from_preset("hearts")


# --- section 1: the table -------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "removed", "size"), [(3, ["2D"], 17), (4, [], 13), (5, ["2D", "2C"], 10)]
)
def test_removed_cards_and_hand_sizes(players, removed, size):
    state = replay(start_match(SEED_RULES, players, bytes(32)))
    assert list(state.removed) == removed
    assert [len(h) for h in state.hands] == [size] * players
    dealt = sorted(c for h in state.hands for c in h)
    assert dealt == sorted(deck_for(players)) and not set(removed) & set(dealt)


def test_the_dealer_moves_left_each_deal():
    assert [dealer_of(d, 4) for d in range(1, 6)] == [0, 1, 2, 3, 0]
    hands = deal_hands(bytes(32), 2, 3)
    assert [len(h) for h in hands] == [17, 17, 17]


# --- section 2, rule 3: the opening lead ------------------------------------------------
def test_the_two_of_clubs_leads():
    hands = hands_with(4, {2: ["2C", *CLUBS_3_TO_A]})
    state, _ = table(SEED_RULES, hands)
    assert state.to_act == 2 and cards_of(legal_actions(state, 2)) == ["2C"]
    with pytest.raises(errors.MustLeadOpeningCardError):
        act(state, 2, PlayCard("AC"))
    with pytest.raises(NotYourTurnError):
        act(state, 0, PlayCard(state.hands[0][0]))


def test_with_five_players_the_three_of_clubs_leads():
    hands = hands_with(5, {3: ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]})
    state, _ = table(SEED_RULES, hands)
    assert state.removed == ("2D", "2C")
    assert state.to_act == 3 and cards_of(legal_actions(state, 3)) == ["3C"]


def test_three_players_remove_the_two_of_diamonds_and_the_two_of_clubs_leads():
    state = replay(start_match(SEED_RULES, 3, bytes(range(32))))
    holder = next(s for s, h in enumerate(state.hands) if "2C" in h)
    assert state.removed == ("2D",) and state.to_act == holder


# --- rule 4: follow suit, the highest card of the suit led wins --------------------------
def test_follow_suit_and_the_highest_of_the_suit_led_wins():
    hands = hands_with(
        4,
        {
            0: ["2C", "KC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"],
            1: ["3C", "AS", "KS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"],
        },
    )
    state, _ = table(SEED_RULES, hands)
    state = play(state, "2C")
    assert cards_of(legal_actions(state, 1)) == ["3C"]
    with pytest.raises(errors.MustFollowSuitError):
        act(state, 1, PlayCard("AS"))
    state = play(state, "3C")
    state = play(state, legal_actions(state, 2)[0].card)
    state, events = act(state, 3, legal_actions(state, 3)[0])
    won = next(e for e in events if isinstance(e, TrickWon))
    assert won.leader == 0 and won.cards[:2] == ("2C", "3C")
    assert won.winner == max(
        range(4),
        key=lambda s: "23456789TJQKA".index(won.cards[s][0]) if won.cards[s][1] == "C" else -1,
    )


# --- rule 5: leading hearts ---------------------------------------------------------------
LEADS_2C = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2S"]
HEARTS_2_TO_J = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH"]


def _seat_0_wins_the_first_trick(seat_0, rules=SEED_RULES):
    """Seat 3 leads the 2 of clubs; seat 0's only club is the ace, nobody else has one."""
    state, _ = table(rules, hands_with(4, {0: ["AC", *seat_0], 3: LEADS_2C}))
    for _ in range(4):
        state = act(state, state.to_act, legal_actions(state, state.to_act)[0])[0]
    assert state.tricks[0].winner == 0 and state.to_act == 0
    return state


def test_hearts_cannot_be_led_until_broken():
    state = _seat_0_wins_the_first_trick([*HEARTS_2_TO_J, "3D", "4D"])
    assert not state.hearts_broken
    assert cards_of(legal_actions(state, 0)) == ["3D", "4D"]
    with pytest.raises(errors.HeartsNotBrokenError):
        act(state, 0, PlayCard("2H"))


def test_a_hand_of_only_hearts_may_lead_hearts_before_they_are_broken():
    state = _seat_0_wins_the_first_trick([*HEARTS_2_TO_J, "QH", "KH"])
    assert not state.hearts_broken
    assert cards_of(legal_actions(state, 0)) == [*HEARTS_2_TO_J, "QH", "KH"]
    state = play(state, "2H")
    assert state.hearts_broken


def test_the_queen_of_spades_may_be_led_before_hearts_are_broken_and_breaks_them():
    state = _seat_0_wins_the_first_trick(["QS", *HEARTS_2_TO_J, "3D"])
    assert not state.hearts_broken
    assert cards_of(legal_actions(state, 0)) == ["3D", "QS"]
    state = play(state, "QS")
    assert state.hearts_broken and state.trick == ("QS",)
    assert "AH" not in state.hands[1] or cards_of(legal_actions(state, 1))


# --- rule 6: the first trick ----------------------------------------------------------------
def test_void_on_the_first_trick_may_not_play_points_when_it_has_another_card():
    hands = hands_with(
        4,
        {
            0: LEADS_2C,
            1: ["QS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "2D"],
        },
    )
    state, _ = table(SEED_RULES, hands)
    state = play(state, "2C")
    assert cards_of(legal_actions(state, 1)) == ["2D"]
    with pytest.raises(errors.NoPointsOnFirstTrickError):
        act(state, 1, PlayCard("QS"))


def test_void_on_the_first_trick_holding_only_points_cards_may_play_any_of_them():
    only_points = ["QS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]
    hands = hands_with(4, {0: LEADS_2C, 1: only_points})
    state, _ = table(SEED_RULES, hands)
    state = play(state, "2C")
    assert sorted(cards_of(legal_actions(state, 1))) == sorted(only_points)
    state = play(state, "QS")
    assert state.hearts_broken


def test_points_on_the_first_trick_allowed():
    hands = hands_with(
        4,
        {
            0: LEADS_2C,
            1: ["QS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "2D"],
        },
    )
    state, _ = table(Rules.from_preset("hearts", points_on_first_trick="allowed"), hands)
    state = play(state, "2C")
    assert "QS" in cards_of(legal_actions(state, 1))


# --- section 3: scoring, moon shots, the jack, the end -------------------------------------
def _sweep(rules):
    """Seat 1 holds every club but the two and the ace of hearts: it wins all 13 tricks."""
    hands = hands_with(4, {1: [*CLUBS_3_TO_A, "AH"]})
    state, events = table(rules, hands)
    state, played = play_out(state)
    scored = next(e for e in played if isinstance(e, DealScored))
    assert scored.taken == (0, 26, 0, 0)
    return scored, state, events + played


@pytest.mark.parametrize(
    ("moon", "scores", "shooter"),
    [
        ("off", (0, 26, 0, 0), None),
        ("others_get_26", (26, 0, 26, 26), 1),
        ("shooter_minus_26", (0, -26, 0, 0), 1),
    ],
)
def test_shooting_the_moon(moon, scores, shooter):
    scored, _, _ = _sweep(Rules.from_preset("hearts", shoot_the_moon=moon))
    assert scored.scores == scores and scored.moon == shooter


@pytest.mark.parametrize(
    ("moon", "scores"),
    [
        ("off", (0, 16, 0, 0)),
        ("others_get_26", (26, -10, 26, 26)),
        ("shooter_minus_26", (0, -36, 0, 0)),
    ],
)
def test_the_jack_of_diamonds_scores_minus_10_and_is_not_part_of_the_moon(moon, scores):
    rules = Rules.from_preset("hearts", shoot_the_moon=moon, jack_of_diamonds="minus_10")
    scored, _, _ = _sweep(rules)
    assert scored.jack == 1 and scored.scores == scores


def test_the_jack_counts_only_with_its_option():
    scored, _, _ = _sweep(SEED_RULES)
    assert scored.jack is None and scored.scores == (0, 26, 0, 0)


@pytest.mark.parametrize(("option", "shown"), [("off", None), ("minus_10", 1)])
def test_the_view_names_who_took_the_jack_only_where_it_counts(option, shown):
    """As the deal's score does: a client shows the jack's -10 from ``view.jack``."""
    _, _, events = _sweep(Rules.from_preset("hearts", jack_of_diamonds=option))
    taken = next(i for i, e in enumerate(events) if isinstance(e, TrickWon) and "JD" in e.cards)
    state = replay(events[: taken + 1])
    assert view_for(state, None).jack == view_for(state, 0).jack == shown


def test_target_reached_by_several_players_at_once_ends_the_match():
    rules = Rules.from_preset("hearts", shoot_the_moon="others_get_26", target_score=26)
    _, state, events = _sweep(rules)
    finished = events[-1]
    assert isinstance(finished, MatchFinished)
    assert finished.totals == (26, 0, 26, 26) and finished.winners == (1,)
    assert state.phase is Phase.FINISHED and state.winners == (1,)


def test_equal_lowest_totals_share_the_win():
    _, state, _events = _sweep(Rules.from_preset("hearts", target_score=20))
    assert state.totals == (0, 26, 0, 0) and state.winners == (0, 2, 3)
    assert state.end_reason == "target"


def test_below_the_target_the_next_deal_follows():
    _, state, _events = _sweep(SEED_RULES)
    assert state.deal == 2 and state.totals == (0, 26, 0, 0) and state.phase is Phase.PLAYING


def test_max_deals_ends_the_match():
    _, state, _ = _sweep(Rules.from_preset("hearts", max_deals=1))
    assert state.phase is Phase.FINISHED and state.winners == (0, 2, 3)
    assert state.totals == (0, 26, 0, 0) and state.end_reason == "deal_limit"  # all below 100


def test_no_pass_in_a_deal_without_passing():
    state, _ = table(SEED_RULES, hands_with(4, {}))
    with pytest.raises(WrongPhaseError):
        act(state, 0, PassCards(state.hands[0][:3]))
