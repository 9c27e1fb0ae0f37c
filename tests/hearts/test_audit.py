"""The audit re-derives every derived event and re-decides every action of a log."""

import random
from dataclasses import replace

import pytest

from hearts.audit import audit_log
from hearts.decide import start_match
from hearts.events import (
    CardPlayed,
    CardsDealt,
    CardsPassed,
    DealScored,
    MatchFinished,
    PassesExchanged,
    TrickWon,
)
from hearts.rules import Rules
from hearts.simulate import play, seed_bytes


@pytest.fixture(scope="module")
def log():
    rules = Rules.from_preset("hearts-classic", target_score=40, jack_of_diamonds="minus_10")
    return [event for event, _ in play(rules, 4, seed_bytes(11), random.Random(11), "normal")]


def test_a_whole_log_passes(log):
    audit = audit_log(log)
    assert audit.faults == [] and audit.state.ended
    assert audit.deals_checked == sum(isinstance(e, CardsDealt) for e in log)


def _forged(log, kind, change):
    index = next(i for i, e in enumerate(log) if isinstance(e, kind))
    return [*log[:index], change(log[index]), *log[index + 1 :]]


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        (CardsDealt, lambda e: replace(e, hands=(e.hands[1], e.hands[0], *e.hands[2:]))),
        (PassesExchanged, lambda e: replace(e, direction="right")),
        (TrickWon, lambda e: replace(e, winner=(e.winner + 1) % 4)),
        (TrickWon, lambda e: replace(e, points=e.points + 1)),
        (DealScored, lambda e: replace(e, moon=0)),
        (DealScored, lambda e: replace(e, scores=(0,) * 4)),
        (DealScored, lambda e: replace(e, jack=None)),
        (MatchFinished, lambda e: replace(e, winners=(0, 1, 2, 3))),
        (CardPlayed, lambda e: replace(e, card="AH" if e.card != "AH" else "KH")),
        (CardsPassed, lambda e: replace(e, cards=(e.cards[0],) * 3)),  # one card, thrice
        (CardsPassed, lambda e: replace(e, cards=e.cards[:2])),
    ],
)
def test_a_forged_fact_is_found(log, kind, change):
    assert audit_log(_forged(log, kind, change)).faults


def test_a_log_cut_inside_a_batch_is_found(log):
    index = next(i for i, e in enumerate(log) if isinstance(e, TrickWon))
    assert audit_log(log[:index]).faults  # after the last card of a trick, its winner is owed
    assert audit_log(log[: index + 1]).faults == []
    deal_end = next(i for i, e in enumerate(log) if isinstance(e, DealScored))
    assert audit_log(log[:deal_end]).faults


def test_another_seed_is_found(log):
    other = start_match(log[0].rules, log[0].players, bytes(32))[0]
    assert audit_log([other, *log[1:]]).faults
