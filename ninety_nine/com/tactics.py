"""Trick-by-trick tactics for an exact contract: whether to try to win this trick or to
lose it, and the card that does it best.

One policy serves two purposes. ``normal`` plays it from its own view, where what the
other seats "may hold" is every card it has not seen (less the suits they have shown out
of); ``hard``'s searches play it for every seat inside sampled deals, where each seat's
"may hold" is exactly its hand. Cards and sets of cards are as in
:mod:`ninety_nine.com.bits`.

The idea: count the tricks the hand can surely still win (its *masters*: cards no other
seat can beat in their suit, which cannot be ruffed); while those fall short of the
tricks still needed, win this trick as cheaply as possible; otherwise lose it, shedding
the most dangerous card that loses. A seat that already won more than it bid, or needs
more than the tricks left, grabs what it can.
"""

from __future__ import annotations

from collections.abc import Sequence

from ninety_nine.com.bits import (
    ABOVE,
    BELOW,
    NO_TRUMP,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    count,
    highest,
    lowest,
)

WIN, LOSE = True, False


def beats(card: int, best: int, trumps: int) -> bool:
    """Whether ``card`` beats ``best``, the card winning the trick so far."""
    suit = SUIT_OF[card]
    if suit == SUIT_OF[best]:
        return card > best
    return suit == trumps


def winning_card(cards: Sequence[int], trumps: int) -> int:
    """The card that wins (so far) a trick of ``cards`` in the order played."""
    best = cards[0]
    for card in cards[1:]:
        if beats(card, best, trumps):
            best = card
    return best


def can_be_beaten(card: int, led: int, trumps: int, later: Sequence[int]) -> bool:
    """Whether a seat still to play to the trick may beat ``card`` (the winning card so
    far): ``later`` holds what each of those seats may hold."""
    suit = SUIT_OF[card]
    for held in later:
        follows = held & SUIT_MASK[led]
        if suit == led:
            if held & ABOVE[card]:
                return True
            if not follows and trumps not in (NO_TRUMP, suit) and held & SUIT_MASK[trumps]:
                return True  # void in the suit led and holds a trump
        elif not follows and held & ABOVE[card]:
            return True  # our trump on a side suit: void there, it may over-trump
    return False


def masters(hand: int, opponents: Sequence[int], trumps: int) -> int:
    """How many tricks ``hand`` can surely still win: in each suit, its cards above every
    card an opponent may hold there; in a side suit of a trump deal, only as many rounds
    as every opponent who may hold a trump can follow."""
    held_by_others = 0
    for held in opponents:
        held_by_others |= held
    total = 0
    for suit in range(4):
        mine = hand & SUIT_MASK[suit]
        if not mine:
            continue
        theirs = held_by_others & SUIT_MASK[suit]
        top = highest(theirs) if theirs else -1
        above = mine if top < 0 else mine & ABOVE[top]
        wins = count(above)
        if wins and trumps != NO_TRUMP and suit != trumps:
            for held in opponents:
                if held & SUIT_MASK[trumps]:
                    wins = min(wins, count(held & SUIT_MASK[suit]))
        total += wins
    return total


def mode(need: int, left: int, hand: int, opponents: Sequence[int], trumps: int) -> bool:
    """WIN or LOSE this trick, for a seat that needs ``need`` more tricks of ``left``."""
    if need < 0 or need >= left:
        return WIN  # the contract is lost (grab tricks) or every trick is needed
    if need == 0:
        return LOSE
    return WIN if masters(hand, opponents, trumps) < need else LOSE


def _danger(card: int, trumps: int) -> int:
    """How likely a card is to win a trick later on: trumps most, then by rank."""
    return RANK_OF[card] + (9 if SUIT_OF[card] == trumps else 0)


def choose(
    legal: int,
    hand: int,
    trick: Sequence[int],
    trumps: int,
    want: bool,
    later: Sequence[int],
    opponents: Sequence[int],
) -> int:
    """The card to play from ``legal`` (a subset of ``hand``) to ``trick`` (the cards so
    far), trying to win it (``want`` = WIN) or to lose it. ``later``: what each seat still
    to play to this trick may hold; ``opponents``: what each other seat may hold."""
    if not trick:
        return _lead(legal, trumps, want, opponents)
    led = SUIT_OF[trick[0]]
    best = winning_card(trick, trumps)
    beating = [c for c in _cards(legal) if beats(c, best, trumps)]
    losing = legal & ~_mask(beating)
    if want is WIN:
        if beating:
            safe = [c for c in beating if not can_be_beaten(c, led, trumps, later)]
            if safe:
                return min(safe, key=lambda c: (_danger(c, trumps), c))
            return max(beating, key=lambda c: (c if SUIT_OF[c] == led else -1, -c))
        return _cheapest(losing, trumps)
    # LOSE
    if losing:
        return max(_cards(losing), key=lambda c: (_danger(c, trumps), c))
    if not later:  # the trick is ours whatever we play: keep the low cards
        return max(beating, key=lambda c: (_danger(c, trumps), c))
    # someone may still beat us: play the card most likely to be beaten
    return min(beating, key=lambda c: (_danger(c, trumps), c))


def _lead(legal: int, trumps: int, want: bool, opponents: Sequence[int]) -> int:
    cards = _cards(legal)
    if want is WIN:
        safe = [c for c in cards if _sure_lead(c, trumps, opponents)]
        if safe:
            return min(safe, key=lambda c: (SUIT_OF[c] == trumps, c))
        # no sure winner: lead the card with the fewest higher cards out against it
        return min(cards, key=lambda c: (_higher_out(c, opponents), -RANK_OF[c]))
    beaten = [c for c in cards if _higher_out(c, opponents)]
    if beaten:
        # the lowest card someone can beat, from the suit with most higher cards out
        return min(beaten, key=lambda c: (RANK_OF[c], -_higher_out(c, opponents)))
    return min(cards, key=lambda c: (_danger(c, trumps), c))


def _sure_lead(card: int, trumps: int, opponents: Sequence[int]) -> bool:
    suit = SUIT_OF[card]
    for held in opponents:
        if held & ABOVE[card]:
            return False
        if (
            suit != trumps
            and trumps != NO_TRUMP
            and not held & SUIT_MASK[suit]
            and held & SUIT_MASK[trumps]
        ):
            return False
    return True


def _higher_out(card: int, opponents: Sequence[int]) -> int:
    n = 0
    for held in opponents:
        n += count(held & ABOVE[card])
    return n


def _cheapest(cards: int, trumps: int) -> int:
    """The card least useful later: the lowest side card."""
    return min(_cards(cards), key=lambda c: (_danger(c, trumps), count(cards & BELOW[c])))


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


__all__ = ["LOSE", "WIN", "beats", "choose", "lowest", "masters", "mode", "winning_card"]
