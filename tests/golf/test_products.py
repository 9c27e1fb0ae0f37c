"""The presets of the three source products (docs/golf.md), each played as it is, and the
options they needed: ``match_by``, ``opening_flips``, ``local`` undo, the pause after a
hole with its ``next``, and the ``medium`` COM level."""

from __future__ import annotations

import itertools
import random

import pytest

from golf import (
    PRESETS,
    DiscardDrawn,
    DrawFromStock,
    RevealCard,
    Rules,
    SwapCard,
    Undo,
    decide,
    legal_actions,
    replay,
    start_match,
    view_for,
)
from golf import errors as e
from golf.actions import Next
from golf.com import choose_action
from golf.scoring import face_up_total, score_grid
from golf.state import COM, HUMAN, Phase, State, evolve
from tests.golf.helpers import act, flip_all, names, table

PRODUCTS = [
    "flick-nines",
    "vanikar-six",
    "yorimichi-basic",
    "yorimichi-instant",
    "yorimichi-jokers",
]
GRID_A = ["AS", "2S", "3S", "4S", "5S", "6S"]
GRID_B = ["AH", "2H", "3H", "4H", "5H", "6H"]
STOCK = ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "7D", "8D", "9D"]


def play_out(rules: Rules, kinds: list[str], seed: int) -> tuple[State, list]:
    """A whole match: COM seats play ``normal``, human seats random legal moves."""
    rng = random.Random(seed)
    log = start_match(rules, kinds, bytes([seed]) * 32)
    state = replay(log)
    while not state.ended:
        seat = rng.choice(state.seats_to_act())
        if kinds[seat] == COM:
            action = choose_action("normal", view_for(state, seat), rules, rng)
        else:
            action = rng.choice(legal_actions(state, seat))
        events = decide(state, seat, action)
        log += events
        for event in events:
            state = evolve(state, event)
    return state, log


@pytest.mark.parametrize("preset", PRODUCTS)
def test_every_product_preset_plays_a_whole_match(preset):
    rules = Rules.from_preset(preset, holes=2)
    state, log = play_out(rules, [HUMAN, COM, COM], seed=PRODUCTS.index(preset) + 1)
    assert state.phase is Phase.FINISHED and len(state.hole_scores) == 2
    assert names(log).count("hole_acknowledged") == 1  # the human's "next" after hole 1
    assert replay(log) == state


# --- Flick Nines: a line of the same value scores nothing ---------------------------------
FLICK = Rules.from_preset("flick-nines")


def test_flick_nines_rows_of_ten_jack_queen_and_of_twos_and_kings_score_zero():
    # rows: 10-J-Q (10 points each), three -2s, three kings (0): all matched
    assert score_grid(["TS", "JH", "QC", "2D", "2C", "2H", "KS", "KD", "KH"], FLICK) == 0
    # by rank (nine-card) only the twos and the kings match
    assert (
        score_grid(["TS", "JH", "QC", "2D", "2C", "2H", "KS", "KD", "KH"], PRESETS["nine-card"])
        == 30
    )


def test_a_ten_jack_queen_row_scores_nothing_in_a_flick_nines_hole():
    grid_0 = ["TS", "JH", "5C", "4D", "8C", "9H", "3S", "6D", "7H"]
    grid_1 = ["AS", "AH", "AC", "AD", "3C", "3H", "4S", "4C", "4H"]
    grid_2 = ["5S", "5H", "5D", "6S", "6H", "6C", "7S", "7C", "7D"]
    rules = FLICK.with_overrides(max_turns=1)  # the hole ends after one turn
    state, _ = table(rules, [grid_0, grid_1, grid_2], "KD", ["QD", "8S", "9S"], dealer=2)
    state = flip_all(state, (0, 1))
    state, _ = act(state, 0, DrawFromStock())
    state, events = act(state, 0, SwapCard(2))  # the queen of diamonds beside 10 and J
    scored = next(ev for ev in events if ev.name == "hole_scored")
    assert scored.reason == "max_turns" and list(scored.grids[0][:3]) == ["TS", "JH", "QD"]
    assert scored.scores[0] == 4 + 8 + 9 + 3 + 6 + 7  # the top row is worth nothing
    assert scored.scores[2] == 0  # three rows of one value each: 5s, 6s, 7s


def test_flick_nines_ends_the_hole_the_moment_any_grid_is_face_up():
    _, log = play_out(FLICK.with_overrides(holes=3), [HUMAN, COM, COM], seed=7)
    assert "final_turns_began" not in names(log)  # nobody gets one more turn
    moves = ("card_revealed", "card_swapped", "card_discarded")
    state, completed = None, 0
    for event, following in itertools.pairwise(log):
        state = evolve(state, event)
        if event.name in moves and any(all(up) for up in state.face_up):
            completed += 1  # a move turned a grid all face up: the hole is scored at once
            assert following.name == "hole_scored" and following.reason == "grid_complete"
    assert completed  # (some hole ended that way)


def test_match_by_value_matches_a_joker_with_a_minus_two_two():
    jokers = Rules.from_preset("six-card-jokers")
    # with jokers a 2 is +2 and a joker -2; by value the joker column does not match the 2s
    assert jokers.with_overrides(match_by="value").match_key("XR") == -2
    assert jokers.with_overrides(match_by="value").match_key("2S") == 2
    plain = Rules.from_preset("six-card", match_by="value")
    assert plain.match_key("TS") == plain.match_key("JH") == plain.match_key("QC") == 10
    assert plain.match_key("KS") == 0 and plain.match_key("KS") != plain.match_key("AS")


# --- Vanikar: the opening flips one seat after another from the dealer's left ---------------
VANIKAR = Rules.from_preset("vanikar-six")


def test_in_turn_opening_flips_go_round_from_the_dealers_left_and_refuse_an_early_flip():
    state, _ = table(VANIKAR, [GRID_A, GRID_B, GRID_A[::-1]], "KD", STOCK, dealer=1)
    assert state.seats_to_act() == (2,)
    with pytest.raises(e.NotYourTurnError):
        decide(state, 0, RevealCard(0))
    assert legal_actions(state, 0) == []
    state, _ = act(state, 2, RevealCard(0))
    assert state.seats_to_act() == (2,)  # all its flips first
    state, _ = act(state, 2, RevealCard(5))
    assert state.seats_to_act() == (0,)
    for seat in (0, 1):
        state, _ = act(state, seat, RevealCard(0))
        state, _ = act(state, seat, RevealCard(1))
    assert state.phase is Phase.DRAW


def test_simultaneous_opening_flips_let_every_seat_flip_at_once():
    state, _ = table(PRESETS["six-card"], [GRID_A, GRID_B], "KD", STOCK)
    assert state.seats_to_act() == (0, 1)


def test_medium_is_another_name_of_normal():
    state, _ = table(VANIKAR, [GRID_A, GRID_B], "KD", STOCK)
    state = flip_all(state)
    view = view_for(state, state.to_act)
    same = [choose_action(level, view, VANIKAR, random.Random(3)) for level in ("medium", "normal")]
    assert same[0] == same[1]
    with pytest.raises(ValueError, match="medium"):
        choose_action("expert", view, VANIKAR, random.Random(3))


# --- Yorimichi's local play: undo with several humans, before the device is passed ----------
LOCAL = Rules.from_preset("yorimichi-basic", undo=True, local=True)


def test_undo_needs_a_lone_human_or_a_local_match():
    with pytest.raises(e.RulesError, match="undo"):
        start_match(Rules.from_preset("yorimichi-basic", undo=True), [HUMAN, HUMAN], bytes(32))
    start_match(LOCAL, [HUMAN, HUMAN], bytes(32))  # accepted


def test_a_local_match_undoes_the_last_human_turn_until_the_next_human_acts():
    state, _ = table(LOCAL, [GRID_A, GRID_B], "KD", STOCK)
    state = flip_all(state)
    state, _ = act(state, 0, DrawFromStock())  # the 7 of clubs
    state, _ = act(state, 0, DiscardDrawn())
    assert state.seats_to_act() == (1,)
    # the device is still in seat 0's hands: seat 1's view offers the undo
    assert Undo() in legal_actions(state, 1) and view_for(state, 1).undo_available
    undone, events = act(state, 1, Undo())
    assert names(events) == ["undone"] and events[0].seat == 0  # seat 0's turn, taken back
    assert undone.phase is Phase.PLACE and undone.to_act == 0 and undone.drawn == "7C"
    # once seat 1 has drawn, seat 0's turn is history
    state, _ = act(state, 1, DrawFromStock())
    with pytest.raises(e.UndoNotAvailableError):
        decide(state, 0, Undo())
    assert not any(a == Undo() for a in legal_actions(state, 0))


def test_undo_in_a_local_match_never_unsees():
    state, _ = table(LOCAL, [GRID_A, GRID_B], "KD", STOCK)
    state = flip_all(state)
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, SwapCard(4))  # the 5 of spades goes face up on the discard pile
    state, _ = act(state, 1, Undo())
    view = view_for(state, 0)
    assert view.grids[0][4] is None and (0, 4, "5S") in view.seen
    assert view_for(state, 1).seen == ()  # the marks are the seat's that saw it


# --- the pause after a hole --------------------------------------------------------------
def test_the_pause_after_a_hole_waits_for_every_humans_next():
    rules = Rules.from_preset("six-card", holes=2, max_turns=3)
    state, _ = table(rules, [GRID_A, GRID_B, GRID_A[::-1]], "KD", STOCK, [HUMAN, HUMAN, COM])
    state = flip_all(state)
    for seat in (0, 1, 2):
        state, _ = act(state, seat, DrawFromStock())
        state, events = act(state, seat, DiscardDrawn())
    assert names(events)[-1] == "hole_scored" and state.phase is Phase.HOLE_OVER
    assert state.seats_to_act() == (0, 1)  # the humans; a COM is always ready
    view = view_for(state, 0)
    assert view.last_hole_grids and view.hole_scores == state.hole_scores
    assert legal_actions(state, 0) == [Next()]
    state, events = act(state, 0, Next())
    assert names(events) == ["hole_acknowledged"] and state.seats_to_act() == (1,)
    with pytest.raises(e.AlreadyAcknowledgedError):
        decide(state, 0, Next())
    state, events = act(state, 1, Next())
    assert names(events) == ["hole_acknowledged", "hole_dealt"] and state.hole == 2


def test_a_table_of_coms_does_not_pause_and_the_last_hole_does_not_either():
    state, log = play_out(Rules.from_preset("six-card", holes=2), [COM, COM], seed=3)
    assert state.phase is Phase.FINISHED and "hole_acknowledged" not in names(log)


def test_face_up_totals_sum_the_face_up_cards_as_they_are():
    rules = PRESETS["six-card"]
    assert (
        face_up_total(["KS", "5H", "2C", "KD", "5C", "2H"], [True, True, True] + [False] * 3, rules)
        == 3
    )
