"""COM players and hints: legal, deterministic, from the seat's view alone."""

import random

import pytest

from hearts.actions import PassCards, PlayCard
from hearts.com.hint import hint
from hearts.com.knowledge import Knowledge
from hearts.com.policies import LEVELS, POLICIES, choose_action
from hearts.com.table import legal_ints, to_code, to_int
from hearts.decide import legal_actions, legal_plays, start_match
from hearts.game import HEARTS
from hearts.hidden import resample_hidden
from hearts.rules import Rules
from hearts.state import Phase, replay
from hearts.views import view_for
from tests.hearts.helpers import CLUBS_3_TO_A, hands_with, table

CLASSIC = Rules.from_preset("hearts-classic")


def _positions(rules=CLASSIC, players=4, steps=60, seed=0):
    """States along a match played by ``normal`` COMs."""
    rng = random.Random(seed)
    state = replay(start_match(rules, players, bytes([seed]) * 32))
    found = []
    for _ in range(steps):
        if state.ended:
            break
        seat = state.seats_to_act()[0]
        found.append((state, seat))
        action = choose_action("normal", view_for(state, seat), rules, rng)
        state = replay(HEARTS.decide(state, seat, action), state)
    return found


@pytest.mark.parametrize("level", ["random", *LEVELS])
def test_coms_choose_legal_actions_and_are_deterministic(level):
    for state, seat in _positions(steps=30)[::3]:
        view = view_for(state, seat)
        first = POLICIES[level](view, state.rules, random.Random(5))
        assert first in legal_actions(state, seat)
        assert POLICIES[level](view, state.rules, random.Random(5)) == first


@pytest.mark.parametrize("level", LEVELS)
def test_coms_decide_from_their_view_alone(level):
    rng = random.Random(9)
    for state, seat in _positions(steps=40, seed=1)[::4]:
        chosen = HEARTS.com_action(state, seat, level, random.Random(1))
        other = resample_hidden(state, seat, rng)
        assert HEARTS.com_action(other, seat, level, random.Random(1)) == chosen


def test_the_integer_legal_plays_match_the_rules():
    rng = random.Random(4)
    for rules in (CLASSIC, Rules.from_preset("hearts", points_on_first_trick="allowed")):
        for state, seat in _positions(rules, steps=200, seed=2):
            if state.phase is not Phase.PLAYING:
                continue
            hand = state.hands[seat]
            led = state.trick[0][1] if state.trick else None
            for first in (True, False):
                for broken in (True, False):
                    expected = legal_plays(
                        hand,
                        led,
                        first_trick=first,
                        hearts_broken=broken,
                        opening="2C",
                        points_allowed=rules.points_on_first_trick.value == "allowed",
                    )
                    got = legal_ints(
                        sorted(to_int(c) for c in hand),
                        [to_int(c) for c in state.trick],
                        first,
                        broken,
                        to_int("2C"),
                        rules.points_on_first_trick.value == "allowed",
                    )
                    assert [to_code(c) for c in got] == expected
            assert rng


def test_knowledge_reads_voids_and_the_cards_passed():
    state = replay(start_match(CLASSIC, 4, bytes(32)))
    for seat in range(4):
        state = replay(HEARTS.decide(state, seat, PassCards(state.hands[seat][-3:])), state)
    know = Knowledge.from_view(view_for(state, 0), CLASSIC)
    passed = sorted(to_int(c) for c in state.passes[0])
    assert sorted(know.known[1]) == passed
    for sample in (know.sample(random.Random(i)) for i in range(20)):
        assert set(passed) <= set(sample[1])
        assert sorted(c for h in sample for c in h) == list(range(52))


def test_the_sampler_respects_voids():
    # seat 1 holds every club but the 2 (seat 3 leads it): seat 2 shows a void in clubs
    hands = hands_with(4, {1: [*CLUBS_3_TO_A, "AH"]})
    state, _ = table(Rules.from_preset("hearts"), hands)
    for _ in range(4):
        state = replay(
            HEARTS.decide(state, state.to_act, legal_actions(state, state.to_act)[0]), state
        )
    know = Knowledge.from_view(view_for(state, 0), state.rules)
    for i in range(10):
        sample = know.sample(random.Random(i))
        assert not [c for c in sample[2] if c < 13]  # no clubs
        assert sorted(c for h in sample for c in h) == sorted(know.unseen() + know.hand)


def _moon_table(taken, trick, hand, leader):
    rules = Rules.from_preset("hearts-classic")
    hands = [[], [], [], []]
    hands[0] = sorted(to_int(c) for c in hand)
    played = [to_int(c) for c in ("2C", "3C", "4C", "5C", "QS", "2H", "3H", "4H", "5H", "6H")]
    from hearts.com.table import Table, mask_of

    return Table(
        hands,
        rules,
        leader=leader,
        trick=[to_int(c) for c in trick],
        played=mask_of(played) | mask_of(to_int(c) for c in trick),
        taken=list(taken),
        broken=True,
        first=False,
    )


def test_normal_stops_a_moon_shot():
    from hearts.com import heuristic

    # seat 3 has every point so far and leads a heart: seat 0 takes it with its ace
    table_ = _moon_table([0, 0, 0, 18], ["9H"], ["7H", "AH", "8D"], leader=3)
    assert to_code(heuristic.play(table_, 0, table_.legal(0))) == "AH"
    # without the threat, seat 0 ducks
    quiet = _moon_table([9, 0, 0, 9], ["9H"], ["7H", "AH", "8D"], leader=3)
    assert to_code(heuristic.play(quiet, 0, quiet.legal(0))) == "7H"


def test_normal_plays_on_for_the_moon():
    from hearts.com import heuristic

    table_ = _moon_table([18, 0, 0, 0], [], ["7H", "AH", "8D"], leader=0)
    assert to_code(heuristic.play(table_, 0, table_.legal(0))) == "AH"


def test_hints_are_legal_explained_and_deterministic():
    for state, seat in _positions(steps=20, seed=3)[::4]:
        given = hint(view_for(state, seat), state.rules)
        assert given.action in legal_actions(state, seat)
        assert given.reason.endswith(".") and len(given.reason) > 20
        assert hint(view_for(state, seat), state.rules) == given
        again = HEARTS.hint(resample_hidden(state, seat, random.Random(2)), seat)
        assert again == given.to_json()


def test_hint_explains_a_pass():
    state = replay(start_match(CLASSIC, 4, bytes(32)))
    given = hint(view_for(state, 0), CLASSIC)
    assert isinstance(given.action, PassCards) and given.reason.startswith("Pass the ")


def test_the_first_lead_hint():
    hands = hands_with(4, {0: ["2C", *CLUBS_3_TO_A]})
    state, _ = table(Rules.from_preset("hearts"), hands)
    given = hint(view_for(state, 0), state.rules)
    assert given.action == PlayCard("2C") and "only legal card" in given.reason
