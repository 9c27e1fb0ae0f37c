"""COM players and hints: legal, deterministic, from the seat's view alone."""

import random

import pytest

from ninety_nine.actions import Bid, Declare, Pass, Play, Reveal
from ninety_nine.com import LEVELS, POLICIES, choose_action
from ninety_nine.com.hint import hint
from ninety_nine.com.knowledge import Knowledge
from ninety_nine.decide import decide, legal_actions, start_match
from ninety_nine.game import NINETY_NINE
from ninety_nine.hidden import resample_hidden
from ninety_nine.rules import Rules
from ninety_nine.state import Phase, State, replay
from ninety_nine.views import view_for
from tests.ninety_nine.helpers import CLUBS, DIAMONDS, HEARTS, SPADES, bid_all, play, table

ALL_LEVELS = ["random", *LEVELS]


def _positions(count: int, seed: int) -> list[tuple[State, int]]:
    """``count`` states (with a seat to act) along matches of mixed random and ``normal``
    moves, some with premium bids off, some with trumps: every phase is covered."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    match = 0
    while len(found) < count * 3:
        rules = Rules.from_preset(premium_bids="off" if match % 3 == 2 else "on")
        state = replay(start_match(rules, ["com"] * 3, rng.randbytes(32)))
        match += 1
        while not state.ended and len(found) < count * 3:
            seat = rng.choice(state.seats_to_act())
            found.append((state, seat))
            view = view_for(state, seat)
            level = "random" if rng.random() < 0.3 else "normal"
            state = replay(decide(state, seat, POLICIES[level](view, rng)), state)
    picked = rng.sample(found, count)
    phases = {s.phase for s, _ in picked}
    assert phases >= {Phase.BIDDING, Phase.PLAYING}, phases
    return picked


POSITIONS = _positions(90, seed=1)


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_level_picks_a_legal_action_from_its_view(level):
    positions = POSITIONS if level != "hard" else POSITIONS[:30]
    for state, seat in positions:
        view = view_for(state, seat)
        action = POLICIES[level](view, random.Random(3))
        assert action in legal_actions(state, seat), (level, state.phase, action)
        assert NINETY_NINE.com_action(state, seat, level, random.Random(3)) == action


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_never_change_a_choice(level):
    rng = random.Random(11)
    positions = POSITIONS[::2] if level != "hard" else POSITIONS[1:40:2]
    changed = 0
    for state, seat in positions:
        chosen = NINETY_NINE.com_action(state, seat, level, random.Random(7))
        for _ in range(2 if level != "hard" else 1):
            other = resample_hidden(state, seat, rng)
            changed += other.hands != state.hands or other.bids != state.bids
            assert view_for(other, seat) == view_for(state, seat)
            assert NINETY_NINE.com_action(other, seat, level, random.Random(7)) == chosen
    assert changed >= len(positions) // 2  # the hidden cards did move


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_each_level_is_deterministic_for_a_seed(level):
    for state, seat in POSITIONS[:12]:
        view = view_for(state, seat)
        first = choose_action(level, view, random.Random(42))
        assert choose_action(level, view, random.Random(42)) == first


def test_an_unknown_level_is_refused():
    state, seat = POSITIONS[0]
    with pytest.raises(ValueError):
        choose_action("grandmaster", view_for(state, seat), random.Random(0))
    with pytest.raises(ValueError):
        POLICIES["normal"](view_for(state, None), random.Random(0))


def test_easy_never_bids_a_premium():
    premium = [(s, seat) for s, seat in POSITIONS if s.phase is Phase.PREMIUM]
    assert premium
    for state, seat in premium:
        assert POLICIES["easy"](view_for(state, seat), random.Random(0)) == Pass()


def _contract_made_table():
    """No trumps, seat 1 (eldest) bid 0 with three diamonds and holds the low hearts and
    clubs: it should lose every trick, ducking under the others' cards."""
    hands = [
        [*HEARTS[6:], *CLUBS[6:], *SPADES[:6]],
        [*HEARTS[:3], *CLUBS[:3], *DIAMONDS[:6]],
        [*HEARTS[3:6], *CLUBS[3:6], *SPADES[6:], *DIAMONDS[6:]],
    ]
    state, _ = table(hands, Rules.from_preset(premium_bids="off"))
    state, _ = bid_all(state, {0: SPADES[:3], 1: DIAMONDS[:3], 2: DIAMONDS[6:]})
    return state


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_seat_that_has_its_contract_ducks(level):
    state = _contract_made_table()
    assert state.contracts[1] == 0 and state.to_act == 1
    # seat 1 leads: it keeps low cards, so a low one loses to the others
    lead = choose_action(level, view_for(state, 1), random.Random(0))
    assert isinstance(lead, Play)
    state, _ = play(state, lead.card)
    state, _ = play(state, choose_action("normal", view_for(state, 2), random.Random(0)).card)
    state, _ = play(state, choose_action("normal", view_for(state, 0), random.Random(0)).card)
    assert lead.card[1] != "D"  # no higher diamond is in a hand: a diamond lead would win
    assert state.tricks[-1].winner != 1, (lead, state.tricks[-1])


def test_knowledge_reads_voids_and_shown_cards():
    state, seat = next(
        (s, seat) for s, seat in POSITIONS if s.phase is Phase.PLAYING and len(s.tricks) >= 3
    )
    know = Knowledge.from_view(view_for(state, seat))
    assert know.hand == sum(1 << _index(c) for c in state.hands[seat])
    played = {c for t in state.tricks for _, c in t.plays} | {c for _, c in state.trick}
    assert know.played == sum(1 << _index(c) for c in played)
    assert not know.unseen & know.hand and not know.unseen & know.played
    for s in know.others:
        held = know.may_hold(s)
        assert held == know.known_hand[s] if know.known_hand[s] is not None else held
        assert held & sum(1 << _index(c) for c in state.hands[s]) == sum(
            1 << _index(c) for c in state.hands[s]
        )  # what a seat really holds, it may hold


def _index(card):
    from ninety_nine.com.bits import CARD_INDEX

    return CARD_INDEX[card]


# --- hints --------------------------------------------------------------------------------------
def test_hints_are_legal_explained_and_deterministic():
    rng = random.Random(2)
    for state, seat in POSITIONS[:24]:
        given = hint(view_for(state, seat))
        assert given.action in legal_actions(state, seat)
        assert given.reason.endswith(".") and len(given.reason) > 25
        assert given.reason[0].isupper()
        assert hint(view_for(state, seat)) == given
        again = NINETY_NINE.hint(resample_hidden(state, seat, rng), seat)
        assert again == given.to_json()


def test_hint_reasons_name_the_move():
    for state, seat in POSITIONS[:40]:
        given = hint(view_for(state, seat))
        if isinstance(given.action, Bid):
            assert given.reason.startswith("Lay aside ") and "contract of" in given.reason
        elif isinstance(given.action, Play):
            assert given.reason.startswith("Play the ")
        else:
            word = {Pass: "Pass", Declare: "Declare", Reveal: "Reveal"}[type(given.action)]
            assert given.reason.startswith(word + ":") and "%" in given.reason


def test_a_hint_needs_a_seat_to_act():
    state, _ = POSITIONS[0]
    with pytest.raises(ValueError):
        hint(view_for(state, None))


def test_the_fast_best_bid_is_the_best_of_all_220():
    from ninety_nine.com.bidding import best_bid, best_bids

    rng = random.Random(8)
    for trumps in (-1, 0, 1, 2, 3):
        for _ in range(40):
            hand = sum(1 << c for c in rng.sample(range(36), 12))
            assert best_bid(hand, trumps) == best_bids(hand, trumps, 220)[0]


def test_normal_bids_its_best_estimate():
    from ninety_nine.com.bidding import best_bids
    from ninety_nine.com.bits import CODES

    for state, seat in POSITIONS:
        if state.phase is not Phase.BIDDING or state.bids[seat]:
            continue
        action = POLICIES["normal"](view_for(state, seat), random.Random(0))
        know = Knowledge.from_view(view_for(state, seat))
        best = best_bids(know.hand, know.trumps)[0][1]
        assert set(action.cards) == {CODES[c] for c in range(36) if best >> c & 1}
