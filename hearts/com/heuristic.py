"""A sound card player's rules of thumb, on a :class:`~hearts.com.table.Table`: the
``normal`` COM, and every seat in the ``hard`` COM's rollouts.

It reads only what the seat may know: its own hand, the trick, the cards played (and
removed) and the points each seat has taken. Its habits:

* pass the queen of spades unless four other spades guard it, the ace and king of spades
  when short in spades, then high hearts and the cards that empty a short suit;
* lead low, from the suit where the fewest lower cards are out; fish for the queen with
  spades below it; never lead the ace or king of spades while the queen is out elsewhere;
* follow with the highest card that still loses; take a trick that must be taken with the
  highest card (never the queen of spades); win the first trick high when it cannot
  hold points;
* when void, dump the queen of spades, then the ace and king of spades, then the highest
  heart, then the highest card of a short suit;
* watch for a moon shot (when the rules score one): when one seat has taken every point
  so far, the others try to take a point themselves; a seat that has taken them all keeps
  going for the rest. With ``shoot_the_moon: off`` 26 points are just 26: nobody shoots
  and nobody defends.
"""

from __future__ import annotations

from collections.abc import Sequence

from hearts.com.table import AS, FIRST_HEART, HEARTS, KS, QS, SPADES, Table

MOON_WATCH = 14  # points all taken by one seat before the others defend
MOON_GO = 17  # points all taken by a seat before it plays on for the moon


def shooter_of(taken: Sequence[int]) -> int | None:
    """The seat that has taken every point so far, once that is a threat."""
    total = sum(taken)
    if total < MOON_WATCH:
        return None
    for seat, pts in enumerate(taken):
        if pts == total:
            return seat
    return None


def _out_mask(t: Table, hand: Sequence[int]) -> int:
    """Cards still out in the other hands (or unknown): not played, removed, or mine."""
    mine = 0
    for c in hand:
        mine |= 1 << c
    return ~(t.played | mine) & ((1 << 52) - 1)


def _count(mask: int, low: int, high: int) -> int:
    """How many cards of ``mask`` lie in ``[low, high)``."""
    if high <= low:
        return 0
    return ((mask >> low) & ((1 << (high - low)) - 1)).bit_count()


def play(t: Table, seat: int, legal: list[int]) -> int:
    """The card this seat plays from ``legal``."""
    if len(legal) == 1:
        return legal[0]
    hand = t.hands[seat]
    shooter = shooter_of(t.taken) if t.moon else None
    if shooter is not None:
        if shooter == seat:
            if sum(t.taken) >= MOON_GO:
                return _shoot(t, legal)
        else:
            return _stop(t, seat, shooter, hand, legal)
    if not t.trick:
        return _lead(t, hand, legal)
    led = t.trick[0] // 13
    if legal[0] // 13 == led:
        return _follow(t, hand, legal, led)
    return _discard(t, hand, legal)


def _winning(t: Table) -> tuple[int, int]:
    """The card winning the trick so far and its position in the trick."""
    trick = t.trick
    led = trick[0] // 13
    best = 0
    for i in range(1, len(trick)):
        if trick[i] // 13 == led and trick[i] > trick[best]:
            best = i
    return trick[best], best


def _trick_points(trick: Sequence[int]) -> int:
    return sum(1 if c >= FIRST_HEART else 13 if c == QS else 0 for c in trick)


def _lead(t: Table, hand: Sequence[int], legal: list[int]) -> int:
    out = _out_mask(t, hand)
    queen_out = bool(out >> QS & 1)
    if queen_out:
        fishing = [c for c in legal if SPADES * 13 <= c < QS]
        if fishing and AS not in hand and KS not in hand:
            return fishing[-1]
    best = legal[0]
    best_key: tuple[int, int, int, int] | None = None
    for c in legal:
        base = c // 13 * 13
        lower = _count(out, base, c)
        higher = _count(out, c + 1, base + 13)
        risky = 1 if (queen_out and c in (KS, AS)) or c == QS else 0
        key = (risky, 0 if higher else 1, lower, -higher)
        if best_key is None or key < best_key:
            best, best_key = c, key
    return best


def _follow(t: Table, hand: Sequence[int], legal: list[int], led: int) -> int:
    top, _ = _winning(t)
    last = len(t.trick) == t.n - 1
    if t.first and not t.points_allowed:
        return legal[-1]  # the first trick holds no points: shed the highest club
    if led == SPADES and QS in legal and top > QS:
        return QS  # the ace or king is out in front: the queen goes under it
    under = [c for c in legal if c < top]
    if under:
        return under[-1]
    safe = [c for c in legal if c != QS]
    if last or not _trick_points(t.trick):
        if last:
            return safe[-1] if safe else legal[-1]
        out = _out_mask(t, hand)
        if led == SPADES and out >> QS & 1:
            return safe[0] if safe else legal[0]
        return safe[-1] if safe else legal[-1]
    return safe[0] if safe else legal[0]


def _discard(t: Table, hand: Sequence[int], legal: list[int]) -> int:
    if QS in legal:
        return QS
    out = _out_mask(t, hand)
    if out >> QS & 1:
        for big in (AS, KS):
            if big in legal:
                return big
    hearts = [c for c in legal if c >= FIRST_HEART]
    if hearts and (hearts[-1] % 13 >= 7 or len(hearts) == len(legal)):
        return hearts[-1]
    lengths = [0, 0, 0, 0]
    for c in hand:
        lengths[c // 13] += 1

    def danger(c: int) -> int:
        suit = c // 13
        lower = _count(out, suit * 13, c)
        return 3 * lower + (6 if lengths[suit] <= 2 else 0) + c % 13

    return max(legal, key=danger)


def _shoot(t: Table, legal: list[int]) -> int:
    """Go for every trick: lead and follow high; when void, shed a low non-point card."""
    if not t.trick:
        return legal[-1] if legal[-1] >= FIRST_HEART else max(legal, key=lambda c: c % 13)
    led = t.trick[0] // 13
    if legal[0] // 13 == led:
        top, _ = _winning(t)
        return legal[-1] if legal[-1] > top else legal[0]
    plain = [c for c in legal if c < FIRST_HEART and c != QS]
    return min(plain or legal, key=lambda c: c % 13)


def _stop(t: Table, seat: int, shooter: int, hand: Sequence[int], legal: list[int]) -> int:
    """Someone has taken every point so far: take one point away from them."""
    if not t.trick:
        hearts = [c for c in legal if c >= FIRST_HEART]
        out = _out_mask(t, hand)
        if hearts and not _count(out, hearts[-1] + 1, 52):
            return hearts[-1]  # the highest heart left: it wins a point
        return _lead(t, hand, legal)
    led = t.trick[0] // 13
    top, at = _winning(t)
    winner = (t.leader + at) % t.n
    if legal[0] // 13 == led:
        if winner == shooter and legal[-1] > top:
            return legal[-1]  # take the trick from the shooter
        return _follow(t, hand, legal, led)
    if winner != shooter:
        hearts = [c for c in legal if c >= FIRST_HEART]
        if hearts:
            return hearts[0]  # a point for someone else breaks the moon
    plain = [c for c in legal if c < FIRST_HEART and c != QS]
    return _discard(t, hand, plain) if plain else legal[0]


# --- passing -------------------------------------------------------------------------------
def choose_pass(hand: Sequence[int], count: int = 3) -> list[int]:
    """The ``count`` cards to pass: the most dangerous to keep."""
    return sorted(pass_order(hand)[:count])


def pass_order(hand: Sequence[int]) -> list[int]:
    """The hand, the most dangerous card to keep first."""
    lengths = [0, 0, 0, 0]
    for c in hand:
        lengths[c // 13] += 1
    spades = lengths[SPADES]
    has_queen = QS in hand

    def danger(c: int) -> int:
        suit, rank = divmod(c, 13)
        if c == QS:
            return 100 if spades - 1 < 4 else 0
        if c in (AS, KS):
            guarded = spades - (AS in hand) - (KS in hand) - has_queen >= 3
            return 0 if guarded else 90 + rank
        if suit == SPADES:
            return 0  # low spades guard against the queen
        if suit == HEARTS:
            return 2 * rank + (8 if rank >= 9 else 0)
        short = 12 if lengths[suit] <= 3 else 0
        return 2 * rank + short if rank >= 6 else rank + short // 2

    return sorted(hand, key=lambda c: (-danger(c), -c))
