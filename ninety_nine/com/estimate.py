"""A quick estimate of the tricks a nine-card hand takes: its mean and its spread.

Each card gets a chance to win a trick from its rank, the length of its suit and
whether its suit is trumps (an ace almost surely wins, a guarded king often, a long
trump suit wins its small cards too). The tricks are the sum of those chances and
their variance the sum of ``p (1 - p)``; a bid is good when its contract is close to
the mean of what is left and the spread is small: the expected squared miss
``(mean - contract)^2 + variance`` is what :func:`bid_score` minimises.

The chances are tabled per suit holding (9 bits: which ranks of the suit are held) and
role (no-trump deal, trump suit, side suit of a trump deal), so a whole hand costs four
lookups.

>>> from ninety_nine.com.bits import mask_of, NO_TRUMP
>>> mean, var = estimate(mask_of(["AS", "KS", "AH", "6C", "7C", "8C", "6D", "7D", "8D"]), NO_TRUMP)
>>> round(mean, 1)
3.3
"""

from __future__ import annotations

from ninety_nine.com.bits import NO_TRUMP, SUIT_MASK

NO_TRUMP_DEAL, TRUMP_SUIT, SIDE_SUIT = 0, 1, 2
ACE = 8

# chance to win with the card ``k`` places below the suit's top still out, by role;
# the honours need guards (low cards in the suit) to survive.
_TOP = {
    NO_TRUMP_DEAL: (0.97, 0.72, 0.42, 0.2, 0.08),
    TRUMP_SUIT: (0.99, 0.85, 0.62, 0.4, 0.25),
    SIDE_SUIT: (0.9, 0.6, 0.3, 0.12, 0.04),
}
_LENGTH = {NO_TRUMP_DEAL: (4, 0.45), TRUMP_SUIT: (3, 0.75), SIDE_SUIT: (5, 0.2)}


def _chances(holding: int, role: int) -> list[float]:
    ranks = [r for r in range(9) if holding >> r & 1]
    length = len(ranks)
    top = _TOP[role]
    chances = []
    for r in ranks:
        gap = ACE - r  # higher cards of the suit not in this hand, at most
        mine_above = sum(1 for q in ranks if q > r)
        missing = gap - mine_above  # higher cards held elsewhere (or laid aside)
        guards = length - 1 - mine_above  # my lower cards in the suit
        p = top[missing] if missing < len(top) else 0.0
        if missing and guards < missing:
            p *= 0.35 + 0.2 * guards  # an unguarded honour falls under the higher ones
        chances.append(p)
    start, value = _LENGTH[role]
    for i in range(length - start):
        # the long cards: once the others are out of the suit they win (if not ruffed)
        j = sorted(range(length), key=lambda k: chances[k])[i]
        chances[j] = max(chances[j], min(0.95, value + 0.1 * i))
    return chances


def _table(role: int) -> tuple[tuple[float, float], ...]:
    rows = []
    for holding in range(512):
        ps = _chances(holding, role)
        rows.append((sum(ps), sum(p * (1 - p) for p in ps)))
    return tuple(rows)


TABLES: dict[int, tuple[tuple[float, float], ...]] = {
    role: _table(role) for role in (NO_TRUMP_DEAL, TRUMP_SUIT, SIDE_SUIT)
}
_NT, _TR, _SIDE = TABLES[NO_TRUMP_DEAL], TABLES[TRUMP_SUIT], TABLES[SIDE_SUIT]
RUFF = 0.35  # a short side suit lets a trump win, while trumps last
#: ``tricks = a + b * sum of chances``, by trump suit (no trumps first), fitted on deals
#: played out by ``normal`` (every deal has 9 tricks: 3 a player on average)
CALIBRATION: dict[int, tuple[float, float]] = {
    NO_TRUMP: (0.89, 0.83),
    0: (1.18, 0.77),
    1: (0.89, 0.85),
    2: (0.76, 0.84),
    3: (0.31, 0.95),
}


def estimate(hand: int, trumps: int) -> tuple[float, float]:
    """The mean and variance of the tricks ``hand`` (a bit mask) takes."""
    mean = var = 0.0
    if trumps == NO_TRUMP:
        for suit in range(4):
            m, v = _NT[(hand >> (9 * suit)) & 0x1FF]
            mean += m
            var += v
        a, b = CALIBRATION[NO_TRUMP]
        return a + b * mean, var
    trump_count = (hand & SUIT_MASK[trumps]).bit_count()
    shortness = 0
    for suit in range(4):
        holding = (hand >> (9 * suit)) & 0x1FF
        if suit == trumps:
            m, v = _TR[holding]
        else:
            m, v = _SIDE[holding]
            shortness += max(0, 2 - holding.bit_count())
        mean += m
        var += v
    if trump_count:
        ruffs = min(shortness, trump_count - 1 if trump_count > 1 else 1) * RUFF
        mean += ruffs
        var += ruffs * 0.5
    a, b = CALIBRATION[trumps]
    return a + b * mean, var


def bid_score(rest: int, contract: int, trumps: int) -> float:
    """The expected squared miss of ``contract`` by the hand ``rest``: lower is better."""
    mean, var = estimate(rest, trumps)
    return (mean - contract) ** 2 + var
