import pytest

from cards.deck import CardError, rank_of
from golf import Card, Rank, Suit, build_deck


def test_every_code_round_trips():
    for code in set(build_deck(1, jokers=True)):
        assert Card.from_code(code).code == code


def test_notation():
    assert Card.from_code("KS") == Card(Rank.KING, Suit.SPADES)
    assert Card.from_code("TD") == Card(Rank.TEN, Suit.DIAMONDS)
    assert Card.from_code("XR").rank is Rank.JOKER
    assert rank_of("XR") == rank_of("XB") == "X"


@pytest.mark.parametrize("bad", ["", "K", "KX", "1S", "10S", "ks", "XZ", None, 12])
def test_bad_codes_are_rejected(bad):
    with pytest.raises(CardError):
        Card.from_code(bad)


def test_decks():
    assert len(build_deck(1, jokers=False)) == 52
    assert len(set(build_deck(1, jokers=False))) == 52
    assert len(build_deck(2, jokers=True)) == 108
    assert build_deck(1, jokers=True)[-2:] == ("XR", "XB")
