"""Cards as small integers and sets of cards as bit masks, for the COMs' fast inner loops.

A card is ``9 * suit + rank``: ``suit`` is what the suit counts as a bid card (diamonds
0, spades 1, hearts 2, clubs 3), ``rank`` 0 for a 6 up to 8 for an ace. A set of cards is
an ``int`` with bit ``card`` set for each card in it, so a suit is 9 adjacent bits and
the highest card of a suit in a set is its highest bit there.

>>> CARD_INDEX["AC"], CODES[CARD_INDEX["7S"]]
(35, '7S')
>>> codes_of(mask_of(["AS", "6D", "KH"]))
['6D', 'AS', 'KH']
>>> highest(mask_of(["7S", "QS"]) & SUIT_MASK[1]) == CARD_INDEX["QS"]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from cards.deck import CardCode

NO_TRUMP = -1
RANKS = "6789TJQKA"
SUIT_CODES = "DSHC"  # by index: what a bid card of the suit counts
CODES: tuple[CardCode, ...] = tuple(r + s for s in SUIT_CODES for r in RANKS)
CARD_INDEX: dict[CardCode, int] = {code: i for i, code in enumerate(CODES)}
SUIT_MASK: tuple[int, ...] = tuple(0x1FF << (9 * s) for s in range(4))
FULL = (1 << 36) - 1
SUIT_OF: tuple[int, ...] = tuple(i // 9 for i in range(36))
RANK_OF: tuple[int, ...] = tuple(i % 9 for i in range(36))
#: the cards of the same suit above ``card``
ABOVE: tuple[int, ...] = tuple(SUIT_MASK[i // 9] & ~((2 << i) - 1) for i in range(36))
#: the cards of the same suit below ``card``
BELOW: tuple[int, ...] = tuple(SUIT_MASK[i // 9] & ((1 << i) - 1) for i in range(36))


def suit_index(code: str | None) -> int:
    """The suit's index for a suit letter; :data:`NO_TRUMP` for ``None``."""
    return NO_TRUMP if code is None else SUIT_CODES.index(code)


def mask_of(codes: Iterable[CardCode]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << CARD_INDEX[code]
    return mask


def bits(mask: int) -> Iterator[int]:
    """The cards of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def codes_of(mask: int) -> list[CardCode]:
    return [CODES[i] for i in bits(mask)]


def highest(mask: int) -> int:
    """The highest card of a non-empty mask (within one suit: the best card)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def count(mask: int) -> int:
    return mask.bit_count()
