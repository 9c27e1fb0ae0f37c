"""Bids as bit masks: scoring the 220 ways to lay three of twelve cards aside, and
turning a choice back into an action."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ninety_nine.actions import Bid, Play
from ninety_nine.com.bits import CARD_INDEX, CODES, NO_TRUMP, SUIT_MASK, bits, mask_of
from ninety_nine.com.estimate import (
    CALIBRATION,
    NO_TRUMP_DEAL,
    RUFF,
    SIDE_SUIT,
    TABLES,
    TRUMP_SUIT,
    bid_score,
)
from ninety_nine.pack import sort_hand
from ninety_nine.views import View


def bid_value(bid: int) -> int:
    """The contract three bid cards (a mask) make: diamonds 0, spades 1, hearts 2, clubs 3."""
    return (
        (bid & SUIT_MASK[1]).bit_count()
        + 2 * (bid & SUIT_MASK[2]).bit_count()
        + 3 * (bid & SUIT_MASK[3]).bit_count()
    )


def best_bids(hand: int, trumps: int, top: int = 1) -> list[tuple[float, int]]:
    """The ``top`` bids (masks of three cards) of ``hand`` with the lowest expected
    squared miss (:func:`~ninety_nine.com.estimate.bid_score`), with it."""
    scored = []
    for a, b, c in combinations(list(bits(hand)), 3):
        bid = (1 << a) | (1 << b) | (1 << c)
        scored.append((bid_score(hand & ~bid, bid_value(bid), trumps), bid))
    scored.sort()
    return scored[:top]


def bid_action(bid: int) -> Bid:
    return Bid(sort_hand(CODES[c] for c in bits(bid)))


def legal_cards(view: View) -> int:
    """The cards the view's legal actions may play, as a mask."""
    return mask_of(a.card for a in view.legal_actions if isinstance(a, Play))


__all__ = ["CARD_INDEX", "best_bid", "best_bids", "bid_action", "bid_value", "legal_cards"]


# --- the best bid, fast -----------------------------------------------------------------------
# A suit's part of the estimate depends only on the cards kept in it, so the best of the
# 220 bids is found suit by suit: for each way to take ``k`` cards out of a suit, the
# chances (mean, variance) of what is kept, tabled once per holding. The sums are taken in
# the estimate's own order, so the scores (and so the choice) are exactly
# :func:`~ninety_nine.com.estimate.bid_score`'s.
_OPTIONS: dict[tuple[int, int], tuple[tuple[tuple[float, float, int], ...], ...]] = {}


def _options(role: int, holding: int) -> tuple[tuple[tuple[float, float, int], ...], ...]:
    """By ``k`` from 0 to 3: ``(mean, variance, taken)`` for every way to take ``k`` cards
    out of ``holding`` (9 bits) in a suit of ``role``."""
    key = (role, holding)
    found = _OPTIONS.get(key)
    if found is None:
        table = TABLES[role]
        ranks = [r for r in range(9) if holding >> r & 1]
        by_k: list[tuple[tuple[float, float, int], ...]] = []
        for k in range(4):
            rows = []
            for taken in combinations(ranks, k):
                mask = sum(1 << r for r in taken)
                m, v = table[holding & ~mask]
                rows.append((m, v, mask))
            by_k.append(tuple(rows))
        found = _OPTIONS[key] = tuple(by_k)
    return found


@lru_cache(maxsize=1 << 16)
def best_bid(hand: int, trumps: int) -> tuple[float, int]:
    """The bid of ``hand`` (12 cards) with the lowest expected squared miss, and that
    miss: ``best_bids(hand, trumps)[0]``, found suit by suit.

    >>> from ninety_nine.com.bits import mask_of
    >>> hand = mask_of(["AS", "KS", "6S", "AH", "9H", "6C", "7C", "TC", "6D", "8D", "QD", "KD"])
    >>> best_bid(hand, 1) == best_bids(hand, 1)[0]
    True
    """
    holdings = [(hand >> (9 * s)) & 0x1FF for s in range(4)]
    counts = [h.bit_count() for h in holdings]
    if trumps == NO_TRUMP:
        roles = [NO_TRUMP_DEAL] * 4
    else:
        roles = [TRUMP_SUIT if s == trumps else SIDE_SUIT for s in range(4)]
    options = [_options(roles[s], holdings[s]) for s in range(4)]
    a, b = CALIBRATION[trumps]
    best: tuple[float, int] = (float("inf"), 0)
    for k0 in range(min(3, counts[0]) + 1):
        for k1 in range(min(3 - k0, counts[1]) + 1):
            for k2 in range(min(3 - k0 - k1, counts[2]) + 1):
                k3 = 3 - k0 - k1 - k2
                if k3 > counts[3]:
                    continue
                contract = k1 + 2 * k2 + 3 * k3
                ruffs = 0.0
                if trumps != NO_TRUMP:
                    kept = (counts[0] - k0, counts[1] - k1, counts[2] - k2, counts[3] - k3)
                    trump_count = kept[trumps]
                    if trump_count:
                        shortness = sum(max(0, 2 - kept[s]) for s in range(4) if s != trumps)
                        ruffs = min(shortness, trump_count - 1 if trump_count > 1 else 1) * RUFF
                for m0, v0, t0 in options[0][k0]:
                    for m1, v1, t1 in options[1][k1]:
                        mean1, var1 = 0.0 + m0 + m1, 0.0 + v0 + v1
                        for m2, v2, t2 in options[2][k2]:
                            mean2, var2 = mean1 + m2, var1 + v2
                            for m3, v3, t3 in options[3][k3]:
                                mean, var = mean2 + m3, var2 + v3
                                if ruffs:
                                    mean += ruffs
                                    var += ruffs * 0.5
                                miss = (a + b * mean - contract) ** 2 + var
                                if miss <= best[0]:
                                    bid = t0 | t1 << 9 | t2 << 18 | t3 << 27
                                    if miss < best[0] or bid < best[1]:
                                        best = (miss, bid)
    return best
