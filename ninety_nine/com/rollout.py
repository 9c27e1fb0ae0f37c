"""Playing a deal out to its end with every hand known: how ``hard`` looks ahead.

A *world* is one way the cards a COM cannot see may lie: every seat's hand and contract.
:func:`play_out` plays the rest of the deal in it, every seat following the tactics of
:mod:`ninety_nine.com.tactics` with the other hands in view, and returns the tricks
each seat won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ninety_nine.com.bits import SUIT_MASK, SUIT_OF
from ninety_nine.com.tactics import beats, choose, mode

SEATS = 3
BLIND = False


def play_out(
    hands: Sequence[int],
    contracts: Sequence[int],
    won: Sequence[int],
    trick: Sequence[int],
    leader: int,
    trumps: int,
    left: int,
    blind: bool = BLIND,
) -> list[int]:
    """Play to the end from a trick led by ``leader`` holding ``trick`` so far, with
    ``left`` tricks (this one included) to go; returns the tricks each seat won.

    ``blind``: each seat sees only which cards the other two hold between them, not who
    holds which (as a player does), rather than every hand."""
    hands = list(hands)
    won = list(won)
    cards = list(trick)
    while left:
        if len(cards) == SEATS:
            best = 0
            for i in (1, 2):
                if beats(cards[i], cards[best], trumps):
                    best = i
            leader = (leader + best) % SEATS
            won[leader] += 1
            cards = []
            left -= 1
            continue
        seat = (leader + len(cards)) % SEATS
        hand = hands[seat]
        legal = hand
        if cards:
            follow = hand & SUIT_MASK[SUIT_OF[cards[0]]]
            if follow:
                legal = follow
        if legal & (legal - 1):  # a choice to make
            if blind:
                out = hands[(seat + 1) % SEATS] | hands[(seat + 2) % SEATS]
                opponents: tuple[int, ...] = (out, out)
                later = [out] * (SEATS - 1 - len(cards))
            else:
                opponents = (hands[(seat + 1) % SEATS], hands[(seat + 2) % SEATS])
                later = [hands[(seat + k) % SEATS] for k in range(1, SEATS - len(cards))]
            want = mode(contracts[seat] - won[seat], left, hand, opponents, trumps)
            card = choose(legal, hand, cards, trumps, want, later, opponents)
        else:
            card = legal.bit_length() - 1
        hands[seat] = hand & ~(1 << card)
        cards.append(card)
    return won


def _distinct(legal: int, others: int) -> list[int]:
    """One card of each run of ``legal`` cards equal in effect, every hand known: cards of
    a suit with no other seat's card between them."""
    out = []
    previous = -1
    for card in _bits(legal):
        if previous >= 0 and SUIT_OF[previous] == SUIT_OF[card]:
            between = ((1 << card) - 1) & ~((2 << previous) - 1)
            if not others & between:
                previous = card
                continue
        out.append(card)
        previous = card
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def best_out(
    hands: Sequence[int],
    contracts: Sequence[int],
    won: Sequence[int],
    trick: Sequence[int],
    leader: int,
    trumps: int,
    left: int,
    me: int,
    depth: int,
    score: Callable[[Sequence[int]], float],
) -> float:
    """The best ``score(tricks)`` that ``me`` reaches from here when it tries every
    distinct card at its next ``depth`` choices (and plays the tactics after them), the
    other seats playing the tactics throughout: a search of its own line of play against
    opponents whose play it foresees."""
    hands = list(hands)
    won = list(won)
    cards = list(trick)
    while left:
        if len(cards) == SEATS:
            best = 0
            for i in (1, 2):
                if beats(cards[i], cards[best], trumps):
                    best = i
            leader = (leader + best) % SEATS
            won[leader] += 1
            cards = []
            left -= 1
            continue
        seat = (leader + len(cards)) % SEATS
        hand = hands[seat]
        legal = hand
        if cards:
            follow = hand & SUIT_MASK[SUIT_OF[cards[0]]]
            if follow:
                legal = follow
        if legal & (legal - 1):
            if seat == me and depth > 0:
                others = hands[(seat + 1) % SEATS] | hands[(seat + 2) % SEATS]
                outcome = -1e9
                for card in _distinct(legal, others):
                    after = list(hands)
                    after[seat] = hand & ~(1 << card)
                    outcome = max(
                        outcome,
                        best_out(
                            after,
                            contracts,
                            won,
                            [*cards, card],
                            leader,
                            trumps,
                            left,
                            me,
                            depth - 1,
                            score,
                        ),
                    )
                return outcome
            opponents = (hands[(seat + 1) % SEATS], hands[(seat + 2) % SEATS])
            later = [hands[(seat + k) % SEATS] for k in range(1, SEATS - len(cards))]
            want = mode(contracts[seat] - won[seat], left, hand, opponents, trumps)
            card = choose(legal, hand, cards, trumps, want, later, opponents)
        else:
            card = legal.bit_length() - 1
        hands[seat] = hand & ~(1 << card)
        cards.append(card)
    return score(won)


def play_out_seen(
    hands: Sequence[int],
    unseen: Sequence[int],
    void: Sequence[int],
    contracts: Sequence[int],
    won: Sequence[int],
    trick: Sequence[int],
    leader: int,
    trumps: int,
    left: int,
    me: int,
    shown: int | None = None,
) -> list[int]:
    """:func:`play_out` with every other seat playing as a player does, from what it has
    seen: ``unseen[s]`` is what seat ``s`` cannot place (every card not in its hand or
    among its bid cards, nor played, nor shown to it), ``void[s]`` the cards of the suits
    ``s`` has shown out of; ``shown``: a revealer, whose hand everyone sees. ``me`` plays
    seeing every hand (its own search's stand-in)."""
    hands = list(hands)
    won = list(won)
    cards = list(trick)
    unseen = list(unseen)
    void = list(void)
    while left:
        if len(cards) == SEATS:
            best = 0
            for i in (1, 2):
                if beats(cards[i], cards[best], trumps):
                    best = i
            leader = (leader + best) % SEATS
            won[leader] += 1
            cards = []
            left -= 1
            continue
        seat = (leader + len(cards)) % SEATS
        hand = hands[seat]
        legal = hand
        if cards:
            follow = hand & SUIT_MASK[SUIT_OF[cards[0]]]
            if follow:
                legal = follow
            elif not void[seat] & SUIT_MASK[SUIT_OF[cards[0]]]:
                void[seat] |= SUIT_MASK[SUIT_OF[cards[0]]]
        if legal & (legal - 1):  # a choice to make
            if seat == me:
                opponents: tuple[int, ...] = (
                    hands[(seat + 1) % SEATS],
                    hands[(seat + 2) % SEATS],
                )
                later = [hands[(seat + k) % SEATS] for k in range(1, SEATS - len(cards))]
            else:
                mine = unseen[seat]
                held = [
                    hands[o] if o == shown else mine & ~void[o]
                    for o in ((seat + 1) % SEATS, (seat + 2) % SEATS)
                ]
                opponents = (held[0], held[1])
                later = held[: SEATS - 1 - len(cards)]
            want = mode(contracts[seat] - won[seat], left, hand, opponents, trumps)
            card = choose(legal, hand, cards, trumps, want, later, opponents)
        else:
            card = legal.bit_length() - 1
        gone = ~(1 << card)
        hands[seat] = hand & gone
        unseen = [u & gone for u in unseen]
        cards.append(card)
    return won
