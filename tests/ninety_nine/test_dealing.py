"""The verifiable seeded shuffle (``docs/dealing.md``; the deal labels in
``docs/ninety-nine.md``): every deal follows from the seed, which is committed to at the
start and revealed at the end."""

import hashlib
import random

import pytest

from cards.shuffle import commitment_of, shuffle_cards
from ninety_nine.decide import decide, legal_actions, start_match
from ninety_nine.events import DealStarted, MatchFinished, MatchStarted
from ninety_nine.pack import PACK, deal_hands, deal_label
from ninety_nine.rules import Rules
from ninety_nine.state import replay
from tests.ninety_nine import reference

PINNED = (
    ("8C", "9C", "7H", "8H", "JH", "AH", "6S", "9S", "QS", "KS", "JD", "QD"),
    ("7C", "QC", "KC", "AC", "9H", "TH", "QH", "KH", "8S", "6D", "7D", "8D"),
    ("6C", "TC", "JC", "6H", "7S", "TS", "JS", "AS", "9D", "TD", "KD", "AD"),
)


def test_the_label_of_deal_n():
    assert deal_label(1) == "ninety-nine/deal/1"
    assert deal_label(17) == "ninety-nine/deal/17"


def test_the_pack_is_shuffled_in_the_canonical_order():
    assert list(PACK) == reference.PACK
    assert PACK[:9] == ("AS", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS")


@pytest.mark.parametrize("deal", [1, 2, 3, 10])
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_the_deal_follows_the_written_specification(deal, dealer):
    seed = hashlib.sha256(f"deal-test:{deal}:{dealer}".encode()).digest()
    assert reference.shuffle(seed, deal_label(deal), PACK) == shuffle_cards(
        seed, deal_label(deal), PACK
    )
    hands = deal_hands(seed, deal, dealer)
    assert [set(h) for h in hands] == reference.deal(seed, deal, dealer)
    # one card at a time from the dealer's left: eldest gets the first shuffled card
    first = shuffle_cards(seed, deal_label(deal), PACK)[0]
    assert first in hands[(dealer + 1) % 3]


def test_a_pinned_deal():
    # a regression pin of the whole chain (stream, shuffle, deal, sort) for one seed,
    # the deal docs/ninety-nine.md shows
    assert deal_hands(bytes(32), 1, dealer=0) == PINNED


def test_hands_are_shown_in_the_packs_display_order():
    for hand in deal_hands(bytes(range(32)), 4, 0):
        keys = [("CHSD".index(c[1]), "6789TJQKA".index(c[0])) for c in hand]
        assert keys == sorted(keys)


def test_the_commitment_is_public_and_the_seed_deals_every_deal():
    seed = bytes(range(100, 132))
    rng = random.Random(3)
    events = start_match(Rules.from_preset(max_deals=4, target_score=1000), ["human"] * 3, seed)
    state = replay(events)
    while not state.ended:
        seat = state.seats_to_act()[0]
        batch = decide(state, seat, rng.choice(legal_actions(state, seat)))
        events += batch
        state = replay(batch, state)
    started = events[0]
    assert isinstance(started, MatchStarted)
    assert started.commitment == hashlib.sha256(seed).hexdigest() == commitment_of(seed)
    (finished,) = [e for e in events if isinstance(e, MatchFinished)]
    revealed = bytes.fromhex(finished.seed)
    assert hashlib.sha256(revealed).hexdigest() == started.commitment
    deals = [e for e in events if isinstance(e, DealStarted)]
    assert len(deals) == 4
    for dealt in deals:
        expected = reference.deal(revealed, dealt.deal, dealt.dealer)
        assert [set(h) for h in dealt.hands] == expected


def test_other_seeds_and_other_deals_give_other_hands():
    a = deal_hands(bytes(32), 1, 0)
    assert deal_hands(bytes(32), 2, 0) != a
    assert deal_hands(b"\x01" + bytes(31), 1, 0) != a
    assert deal_hands(bytes(32), 1, 0) == a
