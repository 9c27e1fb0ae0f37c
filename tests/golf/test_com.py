"""COM players: legal, deterministic, and deciding from the seat's view alone."""

from __future__ import annotations

import dataclasses
import random

import pytest

from golf import (
    PRESETS,
    DiscardDrawn,
    DrawFromStock,
    Rules,
    RulesError,
    SwapCard,
    TakeDiscard,
    decide,
    legal_actions,
    replay,
    start_match,
    view_for,
)
from golf.com import LEVELS, POLICIES, choose_action
from golf.com.evaluate import Evaluator
from golf.com.hint import explain, hint
from golf.com.policies import hard_policy
from golf.com.search import DEFAULT_BUDGET, Budget, search_policy
from golf.rules import FinalTurns
from golf.state import COM, HUMAN, State, evolve
from tests.golf.helpers import act, in_hand, opened
from tests.golf.invariants import shuffle_hidden

QUICK = Budget(samples=3, candidates=3, rounds=3)


def quick_hard(view, rules, rng):
    """``hard`` with a small search budget (the two-player six-card table plays the value)."""
    return hard_policy(view, rules, rng, QUICK)


QUICK_POLICIES = {**POLICIES, "hard": quick_hard}


def fits(rules: Rules, players: int) -> bool:
    try:
        rules.validate_for(players)
    except RulesError:
        return False
    return True


TABLES = [
    (preset, players, overrides)
    for preset in sorted(PRESETS)
    for players in (2, 3, 6)
    for overrides in (
        {},
        {"flip_on_discard": "always"},
        {"flip_on_discard": "optional", "negative_pairs_keep_value": True},
        {"lines": "rows_and_columns", "grid": "3x3", "final_turns": "none"},
    )
    if fits(Rules.from_preset(preset, **overrides), players)  # (one deck: no 6 x 3x3)
]


def random_states(count: int, seed: int = 0):
    """``count`` decision points from random matches over every preset and option."""
    rng = random.Random(seed)
    states: list[tuple[State, int]] = []
    while len(states) < count:
        preset, players, overrides = rng.choice(TABLES)
        rules = Rules.from_preset(preset, holes=1, **overrides)
        state = replay(start_match(rules, [COM] * players, rng.randbytes(32)))
        while not state.ended:
            seat = rng.choice(state.seats_to_act())
            if rng.random() < 0.3:
                states.append((state, seat))
            action = rng.choice(legal_actions(state, seat))
            for event in decide(state, seat, action):
                state = evolve(state, event)
    return states[:count]


STATES = random_states(1500)


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "normal", "hard"])
def test_every_policy_returns_a_legal_action(level):
    policy = QUICK_POLICIES[level]
    for i, (state, seat) in enumerate(STATES):
        view = view_for(state, seat)
        action = policy(view, state.rules, random.Random(i))
        assert action in legal_actions(state, seat), (level, state.phase, action)


def test_the_full_hard_budget_returns_legal_actions():
    for i, (state, seat) in enumerate(STATES[:40]):
        action = choose_action("hard", view_for(state, seat), state.rules, random.Random(i))
        assert action in legal_actions(state, seat)


@pytest.mark.parametrize("level", [*LEVELS, "greedy"])
def test_no_cheating_same_view_same_action(level):
    policy = QUICK_POLICIES[level]
    rng = random.Random(5)
    for i, (state, seat) in enumerate(STATES[:400]):
        twin = shuffle_hidden(state, seat, rng)
        assert view_for(twin, seat) == view_for(state, seat)
        mine = policy(view_for(state, seat), state.rules, random.Random(i))
        theirs = policy(view_for(twin, seat), twin.rules, random.Random(i))
        assert mine == theirs


@pytest.mark.parametrize("level", LEVELS)
def test_a_policy_is_deterministic_for_a_seed(level):
    policy = QUICK_POLICIES[level]
    for i, (state, seat) in enumerate(STATES[:200]):
        view = view_for(state, seat)
        assert policy(view, state.rules, random.Random(i)) == policy(
            view, state.rules, random.Random(i)
        )


def test_unknown_level():
    state, seat = STATES[0]
    with pytest.raises(ValueError, match="unknown COM level"):
        choose_action("grandmaster", view_for(state, seat), state.rules, random.Random(0))


def test_a_com_plays_a_whole_match_at_every_level():
    rules = Rules.from_preset("six-card", holes=2)
    state = replay(start_match(rules, [COM, COM, COM], bytes(32)))
    levels = ["easy", "normal", "hard"]
    rng = random.Random(1)
    while not state.ended:
        seat = state.seats_to_act()[0]
        action = QUICK_POLICIES[levels[seat]](view_for(state, seat), rules, rng)
        for event in decide(state, seat, action):
            state = evolve(state, event)
    assert len(state.hole_scores) == 2


def test_hints_are_legal_readable_and_from_the_view_alone():
    rng = random.Random(9)
    for state, seat in STATES[:15]:
        view = view_for(state, seat)
        given = hint(view, state.rules)
        assert given.action in legal_actions(state, seat)
        assert given.reason.endswith(".") and len(given.reason) < 200
        twin = shuffle_hidden(state, seat, rng)
        assert hint(view_for(twin, seat), twin.rules) == given


def test_hint_names_the_pair():
    rules = Rules.from_preset("six-card")
    grids = [["8S", "KH", "QC", "4D", "5C", "9H"], ["AH", "2H", "3H", "4H", "5H", "6H"]]
    state = opened(rules, grids, "8D", ["JC", "JD", "JS"], [HUMAN, COM])
    given = hint(view_for(state, 0), rules)
    assert given.action.to_json() == {"type": "take_discard"}
    assert "matches your column 1" in given.reason


def test_a_swap_that_saves_nothing_now_is_not_said_to_save_points():
    """The search may swap for a card no lower (for how the hole plays out): the reason then
    says what it costs now, never that it "saves 0 points" or "-3 points"."""
    rules, view = in_hand("8H", [None, "QH", "5D", "KS", "3C", "3D"], ["QS"] + [None] * 5)
    assert explain(view, rules, SwapCard(1)).startswith(
        "Swap the 8 for the queen at row 1, column 2: it saves 2 points."
    )
    assert explain(view, rules, SwapCard(2)) == (
        "Swap the 8 for the 5 at row 1, column 3: it costs 3 points now, but plays out "
        "better over the rest of the hole."
    )
    rules, view = in_hand("JH", ["QC", "KH", "5D", "KS", "3C", None], ["QS"] + [None] * 5)
    assert explain(view, rules, SwapCard(0)).startswith(
        "Swap the jack for the queen at row 1, column 1: it saves nothing now,"
    )


def test_hint_says_what_turning_up_the_last_card_does():
    rules, view = in_hand("2H", ["5S", "7C", "9D", "5H", "7D", None], ["QS"] + [None] * 5)
    swap = SwapCard(5)
    assert explain(view, rules, swap).endswith(
        "This turns up your last card: the others each have one more turn."
    )
    sudden = dataclasses.replace(rules, final_turns=FinalTurns.NONE)
    assert explain(view, sudden, swap).endswith("This turns up your last card and ends the hole.")
    last_turn = dataclasses.replace(view, finisher=1)  # the opponent is out already
    assert "last card" not in explain(last_turn, rules, swap)
    assert "last card" not in explain(view, rules, SwapCard(0))


@pytest.mark.parametrize(
    ("grid", "drawn"),
    [
        (["9D", None, None, "9C", None, None], "2H"),  # 9D ? ? / 9C ? ?
        ([None, "3C", "JH", None, None, "JD"], "4D"),  # ? 3C JH / ? ? JD
    ],
    ids=["nines", "jacks"],
)
def test_easy_never_breaks_a_matched_column_for_a_worse_card(grid, drawn):
    # the position as the issue gives it (the view is all a COM reads)
    rules, view = in_hand(drawn, tuple(grid), ("AH", None, "3H", None, None, None))
    matched = [p for p, card in enumerate(grid) if card and card[0] in "9J"]
    for seed in range(40):
        action = POLICIES["easy"](view, rules, random.Random(seed))
        assert action in view.legal_actions
        assert not (isinstance(action, SwapCard) and action.position in matched), seed


def test_greedy_takes_a_discard_only_to_lower_its_score_and_places_it_best():
    rules = Rules.from_preset("six-card")
    grids = [["KD", "3C", "JH", "9C", "5C", "JD"], ["AH", "2H", "3H", "4H", "5H", "6H"]]
    state = opened(rules, grids, "2S", ["QS", "KS", "KC"], [COM, COM])
    # KD ? JH / ? ? ?: the 2 on the pile (-2 points) is better than the jack (10)
    view = view_for(state, 0)
    assert POLICIES["greedy"](view, rules, random.Random(1)) == TakeDiscard()
    state, _ = act(state, 0, TakeDiscard())
    assert POLICIES["greedy"](view_for(state, 0), rules, random.Random(1)) == SwapCard(2)
    # the queen the other seat discards would lower nothing: greedy draws instead
    state, _ = act(state, 0, SwapCard(2))
    state, _ = act(state, 1, DrawFromStock())
    state, _ = act(state, 1, DiscardDrawn())
    view = view_for(state, 0)
    assert POLICIES["greedy"](view, rules, random.Random(1)) == DrawFromStock()


def five_in_hand(mine, theirs):  # type: ignore[no-untyped-def]
    return in_hand("5S", mine, theirs)


def test_normal_goes_out_when_the_opponent_has_more_to_gain_from_the_hole_going_on():
    # 2 5 3 / ? 5 2 with a 5 in hand: placing it at 3 goes out with 4 points, while the
    # opponent (? 4 2 / ? ? 3) has three face-down cards to improve. Its one last turn is
    # no reason to keep playing: it gets that turn, and more, if the hole goes on.
    mine = ("2C", "5D", "3C", None, "5H", "2D")
    theirs = (None, "4C", "2H", None, None, "3D")
    rules, view = five_in_hand(mine, theirs)
    assert POLICIES["normal"](view, rules, random.Random(1)) == SwapCard(3)


def test_hard_does_not_go_out_far_behind():
    # T J Q / 9 8 ? with a 5 in hand: at 5 it would go out with 52 points against a grid
    # showing K K A / K K ? (about 7); anywhere else it lowers its grid and plays on
    mine = ("TC", "JD", "QC", "9H", "8D", None)
    theirs = ("KS", "KH", "AC", "KD", "KC", None)
    rules, view = five_in_hand(mine, theirs)
    searched = Budget(clear_margin=1000.0)  # no shortcut: the rollouts are played
    for seed in range(3):
        action = search_policy(view, rules, random.Random(seed), searched)
        assert isinstance(action, SwapCard), seed
        assert action.position != 5, seed


@pytest.mark.parametrize(
    ("mine", "spot"),
    [
        (("AC", None, "5C", "AD", None, "5D"), 1),  # A ? 5 / A ? 5
        (("4C", None, "KC", None, None, None), 4),  # 4 ? K / ? ? ?
    ],
)
def test_hard_counts_what_a_high_card_left_face_up_is_worth_later(mine, spot):
    # A queen drawn: one turn deep, putting it face up in a face-down spot costs its 10
    # points against the unseen cards' mean, and discarding it looks better by nearly 6.
    # Played out, the swap is the better move (docs/benchmarks.md): the queen is a target
    # for every later card below it, and the spot is turned. Hard's look ahead sees it.
    theirs = (None, "4S", None, "7H", None, None)
    rules, view = in_hand("QS", mine, theirs)
    one_turn = Evaluator.from_view(view, rules)
    ahead = Evaluator.from_view(view, rules, look=DEFAULT_BUDGET.look)
    assert one_turn.swap_value(spot, "Q") - one_turn.discard_value("Q", None) > 5
    assert ahead.swap_value(spot, "Q") < ahead.discard_value("Q", None)
    # a later draw saves more with the queen to replace than with the card face down
    assert ahead.own_draw_gain(spot, "Q") > ahead.own_draw_gain(None, None)
    # and normal keeps its one-turn judgement: it discards the queen
    assert POLICIES["normal"](view, rules, random.Random(1)) == DiscardDrawn()


def last_turn(view, theirs, mine, hole=1, holes=1):  # type: ignore[no-untyped-def]
    """``view`` as seat 0's last turn of a match: seat 1 has gone out with ``theirs``."""
    return dataclasses.replace(
        view, grids=(mine, theirs), finisher=1, final_turns_left=1, hole=hole, holes=holes
    )


# seat 1 went out with 4 9 Q / 4 A Q: 10 points; seat 0 shows K K 3 / K K ? (3 and ?)
AHEAD = ("KS", "KH", "3C", "KD", "KC", None), ("4S", "9S", "QD", "4C", "AC", "QC")


def test_hard_takes_the_sure_win_on_the_last_turn_of_the_match():
    # a 6 in hand: at 5 it ends on 9 against 10, a sure win; discarding leaves 3 + ?, fewer
    # points expected (about 8) but a loss whenever ? is 8 or more
    mine, theirs = AHEAD
    rules, view = in_hand("6S", mine, theirs)
    view = last_turn(view, theirs, mine)
    assert POLICIES["normal"](view, rules, random.Random(1)) == DiscardDrawn()
    for seed in range(3):
        assert POLICIES["hard"](view, rules, random.Random(seed)) == SwapCard(5), seed


def test_hard_takes_the_gamble_that_can_still_win_the_match():
    # seat 1 went out with 4 2 Q / 4 4 Q: 2 points; seat 0 shows K K 4 / K K ? with an ace
    # in hand: at 5 it ends on a sure 5 (the fewest points expected, and a sure loss), at 2
    # on 1 + ?, which wins when ? is a 2 or an ace
    mine = ("KS", "KH", "4C", "KD", "KC", None)
    theirs = ("4S", "2S", "QD", "4D", "4H", "QC")
    rules, view = in_hand("AS", mine, theirs)
    view = last_turn(view, theirs, mine)
    assert POLICIES["normal"](view, rules, random.Random(1)) == SwapCard(5)
    for seed in range(3):
        assert POLICIES["hard"](view, rules, random.Random(seed)) == SwapCard(2), seed


def test_hard_takes_a_discard_that_wins_the_match_for_sure():
    mine, theirs = AHEAD
    rules = Rules.from_preset("six-card")
    grids = [["AS", "AC", "AD", "AH", "KS", "KC"], ["QS", "QC", "QD", "QH", "JS", "JC"]]
    state = opened(rules, grids, "6D", ["8H", "KH", "KD"], [COM, COM])
    view = last_turn(view_for(state, 0), theirs, mine)
    assert view.discard[-1] == "6D"
    for seed in range(3):
        assert POLICIES["hard"](view, rules, random.Random(seed)) == TakeDiscard(), seed


def test_the_last_turn_plays_for_points_before_the_last_hole_and_with_turns_to_come():
    from golf.com.endgame import last_turn_move

    mine, theirs = AHEAD
    rules, view = in_hand("6S", mine, theirs)
    assert last_turn_move(last_turn(view, theirs, mine), rules, random.Random(1)) == SwapCard(5)
    earlier = last_turn(view, theirs, mine, hole=1, holes=9)
    assert last_turn_move(earlier, rules, random.Random(1)) is None
    others_to_play = dataclasses.replace(last_turn(view, theirs, mine), final_turns_left=2)
    assert last_turn_move(others_to_play, rules, random.Random(1)) is None


def test_the_last_turn_counts_the_totals_carried_from_earlier_holes():
    # the AHEAD position, but seat 0 carries 20 points more from the earlier holes: no
    # move wins the match, so the points decide and the 6 is discarded
    mine, theirs = AHEAD
    rules, view = in_hand("6S", mine, theirs)
    view = dataclasses.replace(last_turn(view, theirs, mine, hole=9, holes=9), totals=(20, 0))
    assert POLICIES["hard"](view, rules, random.Random(1)) == DiscardDrawn()
    # 1 point carried instead: the sure 9 ties the match (10 each), while 3 + ? wins it
    # only below 6 and loses it at 7 or more, more often: the sure tie is kept
    view = dataclasses.replace(view, totals=(1, 0))
    assert POLICIES["hard"](view, rules, random.Random(1)) == SwapCard(5)
