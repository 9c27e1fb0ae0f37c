"""The audit re-derives every derived event and re-decides every action of a log."""

import random
from dataclasses import replace

import pytest

from ninety_nine.audit import audit_log
from ninety_nine.decide import abort_match, start_match
from ninety_nine.events import (
    BidMade,
    CardPlayed,
    DealScored,
    DealStarted,
    MatchAborted,
    MatchFinished,
    Points,
    PremiumCalled,
    PremiumShown,
    TrickWon,
)
from ninety_nine.game import NINETY_NINE
from ninety_nine.rules import Rules
from ninety_nine.simulate import play, seed_bytes
from ninety_nine.state import replay


@pytest.fixture(scope="module")
def log():
    rules = Rules.from_preset(target_score=250)
    log = [event for event, _ in play(rules, seed_bytes(11), "random", random.Random(11))]
    assert any(isinstance(e, PremiumShown) for e in log)
    assert sum(isinstance(e, DealStarted) for e in log) >= 3
    return log


def test_a_whole_log_passes(log):
    audit = audit_log(log)
    assert audit.faults == [] and audit.state.ended
    assert audit.state == replay(log)
    assert audit.deals_checked == sum(isinstance(e, DealStarted) for e in log)
    assert NINETY_NINE.audit(log).faults == []


def _forged(log, kind, change, which=0):
    index = [i for i, e in enumerate(log) if isinstance(e, kind)][which]
    return [*log[:index], change(log[index]), *log[index + 1 :]]


def _points_plus_one(e):
    first = e.points[0]
    return replace(e, points=(Points(first.tricks, first.bonus + 1, first.premium), *e.points[1:]))


@pytest.mark.parametrize(
    ("kind", "change", "which"),
    [
        (DealStarted, lambda e: replace(e, hands=(e.hands[1], e.hands[0], e.hands[2])), 1),
        (DealStarted, lambda e: replace(e, trumps="C" if e.trumps != "C" else "H"), 1),
        (DealStarted, lambda e: replace(e, trumps="S"), 0),  # the first deal is no trump
        (DealStarted, lambda e: replace(e, dealer=(e.dealer + 1) % 3), 2),
        (PremiumShown, lambda e: replace(e, contract=e.contract + 1), 0),
        (PremiumShown, lambda e: replace(e, hand=e.hand[1:]), 0),
        (TrickWon, lambda e: replace(e, winner=(e.winner + 1) % 3), 4),
        (TrickWon, lambda e: replace(e, leader=(e.leader + 1) % 3), 0),
        (DealScored, lambda e: replace(e, made=tuple(not m for m in e.made)), 0),
        (DealScored, lambda e: replace(e, totals=(e.totals[0] + 1, *e.totals[1:])), 1),
        (DealScored, _points_plus_one, 0),
        (DealScored, lambda e: replace(e, bid_cards=(None, None, None)), 0),
        (MatchFinished, lambda e: replace(e, winners=(0, 1, 2)), 0),
        (MatchFinished, lambda e: replace(e, seed="00" * 32), 0),
        (CardPlayed, lambda e: replace(e, card="AH" if e.card != "AH" else "KH"), 3),
        (BidMade, lambda e: replace(e, cards=("6C", "7C", "8C")), 2),
        (PremiumCalled, lambda e: replace(e, seat=(e.seat + 1) % 3), 0),
    ],
)
def test_a_tampered_event_is_found(log, kind, change, which):
    forged = _forged(log, kind, change, which)
    assert forged != log
    faults = audit_log(forged).faults
    assert len(faults) == 1 and kind.name in faults[0]


def test_a_log_cut_inside_a_batch_is_found(log):
    index = next(i for i, e in enumerate(log) if isinstance(e, TrickWon))
    assert audit_log(log[:index]).faults  # after a trick's last card, its winner is owed
    assert audit_log(log[: index + 1]).faults == []
    deal_end = next(i for i, e in enumerate(log) if isinstance(e, DealScored))
    faults = audit_log(log[:deal_end]).faults
    assert faults and "deal_scored" in faults[0]


def test_an_event_the_rules_do_not_give_is_found(log):
    index = next(i for i, e in enumerate(log) if isinstance(e, CardPlayed))
    extra = [*log[: index + 1], log[index], *log[index + 1 :]]  # a card played twice
    assert audit_log(extra).faults
    assert audit_log(log[1:]).faults  # no match_started


def test_another_seed_is_found(log):
    other = start_match(log[0].rules, log[0].players, bytes(32))[0]
    faults = audit_log([other, *log[1:]]).faults
    assert faults and "deal_started" in faults[0]


def test_an_abort_must_reveal_the_seed(log):
    state = replay(log[:40])
    aborted = abort_match(state, "test")
    assert audit_log([*log[:40], *aborted]).faults == []
    wrong = MatchAborted("test", "11" * 32)
    assert audit_log([*log[:40], wrong]).faults
    assert audit_log([*log, *aborted]).faults  # the match had already ended
