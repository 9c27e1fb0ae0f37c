"""Rules reference, section 3: a point a trick, the bonus for an exact contract, the
premiums, the most a deal can score, and the end of the match."""

from dataclasses import replace

import pytest

from ninety_nine.actions import Declare, Reveal
from ninety_nine.events import DealScored, DealStarted, MatchFinished
from ninety_nine.rules import Rules
from ninety_nine.scoring import score_deal, winners_of
from ninety_nine.state import Phase
from ninety_nine.views import view_for
from tests.ninety_nine.helpers import CLUBS, DIAMONDS, call_all, lead_spades, of_type, runaway

MADE_9, FAILED_8 = CLUBS[:3], ["6C", "7C", "AH"]  # seat 1 takes all nine tricks
ZERO_2, ZERO_0 = DIAMONDS[:3], DIAMONDS[3:6]  # seats 2 and 0 take none: bids of 0 made
FAIL_2, FAIL_0 = ["6H", "QD", "KD"], ["7H", "8H", "AD"]  # bids of 2 and 4: failed


def _played(runner_bid, bid_2, bid_0, calls=None, rules=None, totals=None):
    state, _ = runaway(1, runner_bid, {2: bid_2, 0: bid_0}, rules=rules)
    if totals is not None:
        state = replace(state, totals=totals)
    state, _ = call_all(state, calls)
    state, events = lead_spades(state)
    (scored,) = of_type(events, DealScored)
    return state, scored, events


@pytest.mark.parametrize(
    ("bids", "made", "bonus"),
    [
        ((MADE_9, FAIL_2, FAIL_0), (False, True, False), (0, 30, 0)),  # only one: 30
        ((FAILED_8, ZERO_2, FAIL_0), (False, False, True), (0, 0, 30)),
        ((MADE_9, ZERO_2, FAIL_0), (False, True, True), (0, 20, 20)),  # two: 20 each
        ((FAILED_8, ZERO_2, ZERO_0), (True, False, True), (20, 0, 20)),
        ((MADE_9, ZERO_2, ZERO_0), (True, True, True), (10, 10, 10)),  # all three: 10
        ((FAILED_8, FAIL_2, FAIL_0), (False, False, False), (0, 0, 0)),
    ],
)
def test_a_point_a_trick_and_the_bonus_by_how_many_made_it(bids, made, bonus):
    _, scored, _ = _played(*bids)
    assert scored.tricks == (0, 9, 0)
    assert scored.made == made
    assert tuple(p.tricks for p in scored.points) == (0, 9, 0)
    assert tuple(p.bonus for p in scored.points) == bonus
    assert tuple(p.premium for p in scored.points) == (0, 0, 0)
    assert scored.totals == tuple(p.total for p in scored.points)


def test_the_most_one_player_can_score_in_a_deal_is_99():
    _, scored, _ = _played(MADE_9, FAIL_2, FAIL_0, calls={1: Reveal()})
    assert scored.points[1].to_json() == {"tricks": 9, "bonus": 30, "premium": 60, "total": 99}
    assert scored.totals == (0, 99, 0)
    # and no contract, premium or trick count does better
    # (what counts of a contract is only whether it was hit: one that was not is taken
    # one above the tricks won)
    best = 0
    for tricks in [(t, u, 9 - t - u) for t in range(10) for u in range(10 - t)]:
        for hits in range(8):
            contracts = [t if hits >> s & 1 else t + 1 for s, t in enumerate(tricks)]
            for premium in (None, "declare", "reveal"):
                for seat in (0, 1, 2):
                    _, points = score_deal(contracts, tricks, seat if premium else None, premium)
                    best = max(best, *(p.total for p in points))
    assert best == 99


def test_nobody_wins_in_one_deal():
    state, scored, events = _played(MADE_9, FAIL_2, FAIL_0, calls={1: Reveal()})
    assert max(scored.totals) == 99 < 100
    assert not of_type(events, MatchFinished) and not state.ended
    assert state.deal == 2


def test_premiums_made_and_failed():
    # a made declaration: +30; a failed one pays 30 to each other player, made or not
    _, scored, _ = _played(MADE_9, ZERO_2, FAIL_0, calls={1: Declare()})
    assert [p.premium for p in scored.points] == [0, 30, 0]
    _, scored, _ = _played(FAILED_8, ZERO_2, FAIL_0, calls={1: Declare()})
    assert [p.premium for p in scored.points] == [30, 0, 30]
    # the same for a reveal, with 60
    _, scored, _ = _played(FAILED_8, ZERO_2, ZERO_0, calls={1: Reveal()})
    assert [(p.bonus, p.premium, p.total) for p in scored.points] == [
        (20, 60, 80),
        (0, 0, 9),
        (20, 60, 80),
    ]
    # a premium bid by a seat that takes no trick
    _, scored, _ = _played(FAILED_8, ZERO_2, FAIL_0, calls={2: Reveal()})
    assert [(p.bonus, p.premium, p.total) for p in scored.points] == [
        (0, 0, 0),
        (0, 0, 9),
        (30, 60, 90),
    ]


def test_the_totals_add_up_over_the_deals():
    state, scored, _ = _played(MADE_9, ZERO_2, FAIL_0, totals=(5, 40, 12))
    assert scored.totals == (5, 40 + 29, 12 + 20)
    assert state.totals == scored.totals and state.deal_scores == ((0, 29, 20),)
    assert view_for(state, None).last_deal == scored


def test_the_match_ends_when_a_total_reaches_the_target():
    state, scored, events = _played(MADE_9, ZERO_2, FAIL_0, totals=(0, 71, 0))
    assert scored.totals == (0, 100, 20)
    (finished,) = of_type(events, MatchFinished)
    assert finished.winners == (1,) and finished.totals == (0, 100, 20)
    assert state.phase is Phase.FINISHED and state.winners == (1,)
    assert not of_type(events, DealStarted)  # no further deal
    state, scored, events = _played(MADE_9, ZERO_2, FAIL_0, totals=(0, 70, 0))
    assert scored.totals == (0, 99, 20) and not state.ended


def test_two_pass_the_target_in_one_deal_and_the_highest_wins():
    # seat 1 scores 29 this deal, seat 2 only 20, but seat 2 ends higher
    state, scored, events = _played(MADE_9, ZERO_2, FAIL_0, totals=(60, 75, 85))
    assert scored.totals == (60, 104, 105)
    assert of_type(events, MatchFinished)[0].winners == (2,)
    assert state.winners == (2,)


def test_equal_highest_totals_share_the_win():
    state, scored, events = _played(FAILED_8, ZERO_2, ZERO_0, totals=(80, 95, 80))
    assert scored.totals == (100, 104, 100)
    assert state.winners == (1,)
    state, scored, events = _played(FAILED_8, ZERO_2, ZERO_0, totals=(80, 10, 80))
    assert scored.totals == (100, 19, 100)
    assert of_type(events, MatchFinished)[0].winners == (0, 2)
    assert winners_of((7, 7, 7)) == (0, 1, 2)


@pytest.mark.parametrize("target", [1, 9, 20])
def test_the_target_score_option(target):
    state, scored, _ = _played(MADE_9, FAIL_2, FAIL_0, rules=Rules.from_preset(target_score=target))
    assert scored.totals == (0, 39, 0)
    assert state.ended and state.winners == (1,)


def test_max_deals_ends_the_match_early():
    rules = Rules.from_preset(max_deals=1)
    state, scored, events = _played(FAILED_8, ZERO_2, FAIL_0, rules=rules)
    assert max(scored.totals) < 100
    (finished,) = of_type(events, MatchFinished)
    assert finished.winners == (2,) and state.phase is Phase.FINISHED
    assert finished.seed == state.seed.hex()
    # without it the match goes on
    state, _, events = _played(FAILED_8, ZERO_2, FAIL_0, rules=Rules.from_preset(max_deals=2))
    assert not state.ended and of_type(events, DealStarted)[0].deal == 2


def test_score_deal_directly():
    made, points = score_deal((3, 4, 2), (3, 4, 2), None, None)
    assert made == (True, True, True) and [p.total for p in points] == [13, 14, 12]
    made, points = score_deal((3, 4, 2), (2, 5, 2), 1, "declare")
    assert made == (False, False, True)
    assert [(p.tricks, p.bonus, p.premium) for p in points] == [(2, 0, 30), (5, 0, 0), (2, 30, 30)]
