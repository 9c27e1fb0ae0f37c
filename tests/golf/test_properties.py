"""Random playouts across all presets and 2-6 players check the engine's contract."""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from golf import (
    PRESETS,
    Rules,
    RulesError,
    Undo,
    decide,
    event_from_json,
    event_to_json,
    legal_actions,
    redact_event,
    replay,
    start_match,
    view_for,
)
from golf.state import Phase, evolve
from tests.golf.invariants import (
    Sight,
    assert_cards_conserved,
    assert_view_hides_what_it_must,
    cards_in,
    shuffle_hidden,
    view_marks,
)

EXAMPLES = int(os.environ.get("GOLF_PROPERTY_EXAMPLES", "1000"))

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "jokers": st.booleans(),
        "flip_on_discard": st.sampled_from(["never", "always", "optional"]),
        "discard_take_must_swap": st.booleans(),
        "negative_pairs_keep_value": st.booleans(),
        "final_turns": st.sampled_from(["others_once", "none"]),
        "max_turns": st.integers(min_value=1, max_value=80),
        "initial_flips": st.integers(min_value=0, max_value=3),
        "grid": st.sampled_from(["2x2", "2x3", "2x4", "3x3"]),
    },
)


@st.composite
def tables(draw, undo=None):
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(OPTIONS)
    overrides["holes"] = draw(st.integers(min_value=1, max_value=2))
    players = draw(st.integers(min_value=2, max_value=6))
    if undo is None:
        undo = draw(st.booleans())
    kinds = ["human"] + ["com"] * (players - 1) if undo else ["human"] * players
    rules = Rules.from_preset(preset, undo=undo, **overrides)
    try:  # (one deck, as the Yorimichi presets deal, holds no six 3x3 grids)
        rules.validate_for(players)
    except RulesError:
        assume(False)
    seed = draw(st.binary(min_size=16, max_size=32))
    return rules, kinds, seed, draw(st.integers(0, 2**32))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_random_playouts_keep_every_invariant(table):
    rules, kinds, seed, rng_seed = table
    rng = random.Random(rng_seed)
    log = start_match(rules, kinds, seed)
    state = replay(log)
    turns_per_hole = 0
    while not state.ended:
        # the seat to act always has a legal action
        to_act = state.seats_to_act()
        assert to_act, state.phase
        for seat in to_act:
            assert legal_actions(state, seat)
        seat = rng.choice(to_act)
        action = rng.choice(legal_actions(state, seat))
        events = decide(state, seat, action)
        for event in events:
            # every event round-trips through JSON
            assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
            state = evolve(state, event)
            log.append(event)
            if event.name == "hole_dealt":
                turns_per_hole = 0
        turns_per_hole += 1
        # every hole terminates: turns are capped, undo aside
        assert turns_per_hole <= 4 * rules.max_turns * len(kinds) + 100
        assert_cards_conserved(state)
        viewers = [*range(state.seats), None]
        for viewer in viewers:
            assert_view_hides_what_it_must(state, viewer)
        # a viewer cannot tell apart states that differ only in what it cannot see
        viewer = rng.choice(viewers)
        twin = shuffle_hidden(state, viewer, rng)
        assert view_for(twin, viewer) == view_for(state, viewer)
    # replaying the log gives the live state, also on top of a snapshot, which the replay
    # leaves as it was (it changes a copy of its own in place)
    assert replay(log) == state
    middle = rng.randrange(1, len(log))
    snapshot = replay(log[:middle])
    assert replay(log[middle:], snapshot) == state
    assert snapshot == replay(log[:middle]) != state
    assert replay([], snapshot) is snapshot
    assert state.phase is Phase.FINISHED
    # redacted events reveal nothing while the match runs
    for event in log:
        if event.name in ("match_finished",):
            continue
        for viewer in (0, None):
            payload = redact_event(event, viewer, match_ended=False)
            assert payload.get("seed") is None
            if event.name in ("hole_dealt", "stock_reshuffled"):
                assert payload["stock"] is None
            if event.name == "hole_dealt":
                assert not cards_in(payload["grids"])
            if event.name == "card_drawn" and event.source == "stock" and event.seat != viewer:
                assert payload["card"] is None


@settings(
    max_examples=max(EXAMPLES // 4, 20),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(tables(undo=True), st.sampled_from([None, 1, 2, 4, 8]))
def test_undo_never_unsees_and_shows_only_what_was_seen(table, short_stock):
    """After every event, the human's view shows as seen exactly the hidden cards it was
    shown and can still place, as :class:`Sight` follows them card by card; no other
    viewer sees any of them. A short first stock makes reshuffles frequent, and the human
    also undoes in the middle of a COM's turn."""
    rules, kinds, seed, rng_seed = table
    rng = random.Random(rng_seed)
    sight = Sight(0)
    state = None

    def fold(events):
        nonlocal state
        for event in events:
            state = evolve(state, event)
            sight.apply(event, state)
            assert view_marks(view_for(state, 0).to_json()) == sight.expected(state)
            for other in (*range(1, state.seats), None):
                assert view_marks(view_for(state, other).to_json()) == {}

    started, dealt = start_match(rules, kinds, seed)
    fold([started, replace(dealt, stock=dealt.stock[:short_stock])])
    while not state.ended:
        # undo often on the human's turn, now and then in the middle of the COMs' turns
        chance = 0.5 if 0 in state.seats_to_act() else 0.05
        if Undo() in legal_actions(state, 0) and rng.random() < chance:
            fold(decide(state, 0, Undo()))
            continue
        seat = rng.choice(state.seats_to_act())
        fold(decide(state, seat, rng.choice(legal_actions(state, seat))))


@settings(max_examples=max(EXAMPLES // 4, 20), deadline=None)
@given(tables(), st.integers(0, 2**32))
def test_same_seed_same_match_different_seed_different_deal(table, rng_seed):
    rules, kinds, seed, _ = table
    assert start_match(rules, kinds, seed) == start_match(rules, kinds, seed)
    other = bytes(b ^ 0xFF for b in seed)
    assert start_match(rules, kinds, other)[1] != start_match(rules, kinds, seed)[1]
