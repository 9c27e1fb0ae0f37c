"""What a seat knows, read off its view (never the state) into bit masks.

A COM's own hand and bid; the cards played (and by whom); the suits each seat has shown
out of; the hand of a revealer and the bid cards of the standing premium bid; and so
the *unseen* cards: in the other hands or among the other seats' bid cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from ninety_nine.com.bits import CARD_INDEX as INDEX
from ninety_nine.com.bits import FULL, SUIT_MASK, mask_of, suit_index
from ninety_nine.pack import TRICKS, contract_of
from ninety_nine.rules import SEATS
from ninety_nine.state import Phase
from ninety_nine.views import View


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    phase: Phase
    trumps: int
    dealer: int
    hand: int
    bid: int  # 0 until the seat has bid
    contract: int | None
    played: int
    played_by: tuple[int, ...]
    history: tuple[tuple[tuple[int, int], ...], ...]  # each trick's (seat, card), this one last
    trick: tuple[int, ...]  # the cards of the trick being played
    leader: int
    won: tuple[int, ...]
    left: int  # tricks still to play, this one included
    void: tuple[int, ...]  # per seat: the cards of the suits it has shown out of
    known_hand: tuple[int | None, ...]
    known_bid: tuple[int | None, ...]
    contracts: tuple[int | None, ...]
    hand_sizes: tuple[int, ...]
    unseen: int
    premium_seat: int | None
    premium: str | None

    @classmethod
    def from_view(cls, view: View) -> Knowledge:
        if view.seat is None:
            raise ValueError("a COM needs a seat's view")
        me = view.seat
        hand = mask_of(view.hands[me] or ())
        history = [tuple((s, INDEX[c]) for s, c in t.plays) for t in view.tricks]
        history.append(tuple((s, INDEX[c]) for s, c in view.trick))
        played_by = [0] * SEATS
        void = [0] * SEATS
        for plays in history:
            if not plays:
                continue
            led = plays[0][1] // 9
            for s, card in plays:
                played_by[s] |= 1 << card
                if card // 9 != led:
                    void[s] |= SUIT_MASK[led]
        played = played_by[0] | played_by[1] | played_by[2]
        known_hand = tuple(
            None if s == me or h is None else mask_of(h) for s, h in enumerate(view.hands)
        )
        known_bid = tuple(None if b is None else mask_of(b) for b in view.bid_cards)
        seen = hand | played
        for m in (*known_hand, *known_bid):
            seen |= m or 0
        own_bid = view.bid_cards[me]
        return cls(
            seat=me,
            phase=view.phase,
            trumps=suit_index(view.trumps),
            dealer=view.dealer,
            hand=hand,
            bid=known_bid[me] or 0,
            contract=None if own_bid is None else contract_of(own_bid),
            played=played,
            played_by=tuple(played_by),
            history=tuple(history),
            trick=tuple(INDEX[card] for _, card in view.trick),
            leader=view.leader,
            won=view.tricks_won,
            left=TRICKS - len(view.tricks),
            void=tuple(void),
            known_hand=known_hand,
            known_bid=known_bid,
            contracts=view.contracts,
            hand_sizes=view.hand_sizes,
            unseen=FULL & ~seen,
            premium_seat=view.premium_seat if view.premium_shown else None,
            premium=view.premium if view.premium_shown else None,
        )

    @property
    def others(self) -> tuple[int, int]:
        return (self.seat + 1) % SEATS, (self.seat + 2) % SEATS

    def may_hold(self, seat: int) -> int:
        """The cards ``seat`` may hold in hand, as far as this seat knows."""
        if seat == self.seat:
            return self.hand
        known = self.known_hand[seat]
        if known is not None:
            return known
        return self.unseen & ~self.void[seat]

    def later(self) -> list[int]:
        """The seats still to play to the trick after this one."""
        return [(self.seat + k) % SEATS for k in range(1, SEATS - len(self.trick))]
