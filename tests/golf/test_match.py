"""A whole match: dealing from the seed, dealer rotation, the end, undo."""

import random

import pytest

from cards.deck import build_deck
from cards.shuffle import commitment_of, shuffle_cards
from golf import (
    DiscardDrawn,
    DrawFromStock,
    RevealCard,
    Rules,
    RulesError,
    SwapCard,
    TakeDiscard,
    Undo,
    abort_match,
    decide,
    evolve,
    legal_actions,
    replay,
    start_match,
)
from golf import errors as e
from golf.dealing import deal_cards
from golf.simulate import play_random, seed_bytes
from golf.state import Phase
from tests.golf.helpers import SEED, act, flip_all, names, table

SIX = Rules.from_preset("six-card")


def test_start_commits_to_the_seed_and_deals_hole_one():
    events = start_match(SIX, ["human", "com", "com"], SEED)
    assert names(events) == ["match_started", "hole_dealt"]
    started, dealt = events
    assert started.commitment == commitment_of(SEED) and started.players == ("human", "com", "com")
    assert dealt.hole == 1 and dealt.dealer == 2  # seat 0 plays first
    grids, discard, stock = deal_cards(SEED, 1, SIX, 3, 2)
    assert (dealt.grids, dealt.discard, dealt.stock) == (grids, discard, stock)
    assert len(stock) == 52 - 3 * 6 - 1


def test_seat_after_the_dealer_deals_first_card():
    grids, _, _ = deal_cards(SEED, 1, SIX, 3, dealer=0)
    deck = shuffle_cards(SEED, "golf/deal/1", build_deck(1, False))
    assert grids[1][0] == deck[0] and grids[2][0] == deck[1] and grids[0][0] == deck[2]


def test_start_validates_the_table():
    with pytest.raises(RulesError):
        start_match(SIX, 7, SEED)
    with pytest.raises(RulesError) as info:
        start_match(SIX, ["human", "robot"], SEED)
    assert info.value.field == "players"
    with pytest.raises(RulesError) as info:
        start_match(SIX, 2, b"short")
    assert info.value.field == "seed"


def play(rules, players, seed=SEED, rng_seed=1):
    return [ev for ev, _ in play_random(rules, players, seed, random.Random(rng_seed))]


def test_dealer_rotates_each_hole_and_the_match_finishes():
    events = play(SIX.with_overrides(holes=5), 3)
    deals = [ev for ev in events if ev.name == "hole_dealt"]
    assert [d.dealer for d in deals] == [2, 0, 1, 2, 0]
    assert [d.hole for d in deals] == [1, 2, 3, 4, 5]
    finished = events[-1]
    assert finished.name == "match_finished" and finished.seed == SEED.hex()
    scored = [ev for ev in events if ev.name == "hole_scored"]
    assert finished.totals == tuple(sum(s.scores[i] for s in scored) for i in range(3))
    best = min(finished.totals)
    assert finished.winners == tuple(i for i, t in enumerate(finished.totals) if t == best)
    state = replay(events)
    assert state.phase is Phase.FINISHED and legal_actions(state, 0) == []
    with pytest.raises(e.MatchOverError):
        decide(state, 0, DrawFromStock())


def test_the_first_to_act_is_after_the_dealer():
    events = play(SIX.with_overrides(holes=3, initial_flips=0), 3)
    state = None
    for ev in events:
        state = evolve(state, ev)
        if ev.name == "hole_dealt":
            assert state.to_act == (ev.dealer + 1) % 3


GRIDS_TIE = [["KS", "KH", "AS", "KD", "KC", "2S"], ["KS", "KH", "AH", "KD", "KC", "2H"]]
ONE_HOLE = Rules.from_preset("six-card-instant", holes=1, initial_flips=5)


def test_the_lowest_total_wins():
    state, _ = table(ONE_HOLE, GRIDS_TIE, "9D", ["5C", "6C"])
    state = flip_all(state, positions=(0, 1, 2, 3, 4))
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    state, _ = act(state, 1, DrawFromStock())  # 6C
    state, events = act(state, 1, SwapCard(5))  # replaces 2H: seat 1 completes its grid
    assert names(events) == ["card_swapped", "hole_scored", "match_finished"]
    # seat 0 (face down 2S is scored too): K K A / K K 2 -> -1; seat 1: K K A / K K 6 -> 7
    assert events[1].scores == (-1, 7) and events[2].winners == (0,)


def test_tied_lowest_totals_share_the_win():
    state, _ = table(ONE_HOLE, GRIDS_TIE, "9D", ["2C", "6C"])
    state = flip_all(state, positions=(0, 1, 2, 3, 4))
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())  # 2C on the pile
    state, _ = act(state, 1, TakeDiscard())
    state, events = act(state, 1, SwapCard(5))  # 2C replaces 2H: both grids score -1
    assert events[1].scores == (-1, -1) and events[2].winners == (0, 1)


def test_abort_reveals_the_seed():
    state = replay(start_match(SIX, 2, SEED))
    (aborted,) = abort_match(state, "staff")
    assert aborted.seed == SEED.hex()
    state = replay([aborted], state)
    assert state.phase is Phase.ABORTED and state.seats_to_act() == ()
    with pytest.raises(e.MatchOverError):
        abort_match(state, "again")


# --- undo -------------------------------------------------------------------------------------
UNDO = SIX.with_overrides(undo=True)
GRID_A = ["AS", "2S", "3S", "4S", "5S", "6S"]
GRID_B = ["AH", "2H", "3H", "4H", "5H", "6H"]
GRID_C = ["AC", "2C", "3C", "4C", "5C", "6C"]
STOCK = ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "7D", "8D", "9D"]


def undo_table():
    state, _ = table(UNDO, [GRID_A, GRID_B, GRID_C], "KD", STOCK, ["human", "com", "com"])
    return flip_all(state)


def test_undo_takes_back_the_swap_and_the_com_turns_after_it():
    state = undo_table()
    state, _ = act(state, 0, DrawFromStock())
    after_draw = state
    assert Undo() not in legal_actions(state, 0)  # a draw is never taken back
    state, _ = act(state, 0, SwapCard(4))
    for com in (1, 2):
        state, _ = act(state, com, DrawFromStock())
        state, _ = act(state, com, DiscardDrawn())
    assert state.to_act == 0 and Undo() in legal_actions(state, 0)
    assert Undo() not in legal_actions(state, 1)  # COMs never undo
    state, events = act(state, 0, Undo())
    assert names(events) == ["undone"] and events[0].events == 5
    assert state.to_act == 0 and state.drawn == "7C" and state.phase is Phase.PLACE
    assert (state.grids, state.face_up, state.stock, state.discard) == (
        after_draw.grids,
        after_draw.face_up,
        after_draw.stock,
        after_draw.discard,
    )
    assert Undo() not in legal_actions(state, 0)
    # the human plays on differently; undo is again possible, and only back to this draw
    state, _ = act(state, 0, DiscardDrawn())
    state, events = act(state, 0, Undo())
    assert state.drawn == "7C"


def test_undo_ends_with_the_next_draw():
    state = undo_table()
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    for com in (1, 2):
        state, _ = act(state, com, DrawFromStock())
        state, _ = act(state, com, DiscardDrawn())
    state, _ = act(state, 0, DrawFromStock())
    with pytest.raises(e.UndoNotAvailableError):
        decide(state, 0, Undo())


def test_no_undo_before_any_draw_or_of_the_initial_flips():
    state, _ = table(UNDO, [GRID_A, GRID_B, GRID_C], "KD", STOCK, ["human", "com", "com"])
    state, _ = act(state, 0, RevealCard(0))
    with pytest.raises(e.UndoNotAvailableError):
        decide(state, 0, Undo())


def test_a_scored_hole_is_never_taken_back():
    rules = Rules.from_preset("six-card-instant", undo=True, initial_flips=5)
    state, _ = table(rules, [GRID_A, GRID_B], "KD", STOCK, ["human", "com"])
    state = flip_all(state, positions=(0, 1, 2, 3, 4))
    state, _ = act(state, 0, DrawFromStock())
    state, events = act(state, 0, SwapCard(5))
    assert "hole_scored" in names(events)
    with pytest.raises(e.UndoNotAvailableError):
        decide(state, 0, Undo())


def test_undo_is_off_by_default_and_needs_a_lone_human():
    state = flip_all(table(SIX, [GRID_A, GRID_B], "KD", STOCK, ["human", "com"])[0])
    state, _ = act(state, 0, DrawFromStock())
    state, _ = act(state, 0, DiscardDrawn())
    with pytest.raises(e.UndoNotAvailableError, match="off"):
        decide(state, 0, Undo())
    with pytest.raises(RulesError) as info:
        start_match(UNDO, ["human", "human"], SEED)
    assert info.value.field == "undo"


def test_same_seed_same_match_and_different_seeds_different_deals():
    assert play(SIX.with_overrides(holes=2), 3) == play(SIX.with_overrides(holes=2), 3)
    first = start_match(SIX, 3, seed_bytes(1))[1]
    second = start_match(SIX, 3, seed_bytes(2))[1]
    assert first.grids != second.grids


def test_the_version_counts_the_events():
    events = play(SIX.with_overrides(holes=1), 2)
    assert replay(events).version == len(events)
    assert replay(events[:1]).version == 1
