"""Deciding what happens: starting a match, the legal actions, and ``decide``.

``decide`` never changes a state: it checks the action against the rules and returns the
event it causes followed by the events that then follow by themselves (the premium
bidder's cards shown, a trick won, a deal scored, the next deal, the end of the match).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from cards import errors
from cards.deck import are_card_codes
from cards.seating import at_table, check_kinds, refuse_while_waiting, take_seat, waiting
from cards.shuffle import commitment_of
from cards.tricks import follow_suit, suit_of, trick_winner
from ninety_nine.actions import (
    DECLARE,
    PREMIUM_ACTIONS,
    REVEAL,
    Action,
    Bid,
    Declare,
    Pass,
    Play,
    Reveal,
)
from ninety_nine.errors import (
    AlreadyBidError,
    CardNotInHandError,
    MustFollowSuitError,
    NotThreeCardsError,
    PremiumBidsOffError,
    PremiumBidTakenError,
)
from ninety_nine.events import (
    BidMade,
    CardPlayed,
    DealScored,
    DealStarted,
    Event,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    PremiumCalled,
    PremiumShown,
    TrickWon,
)
from ninety_nine.pack import BID_SIZE, SUIT_NAMES, contract_of, deal_hands, sort_hand
from ninety_nine.rules import SEATS, Rules, Seat
from ninety_nine.scoring import next_trumps, score_deal, winners_of
from ninety_nine.state import Phase, State, evolve

SEED_BYTES_MIN = 16


def start_match(rules: Rules, players: Sequence[str], seed: bytes) -> list[Event]:
    """``match_started`` and the first deal; ``players`` gives each seat's kind."""
    kinds = tuple(players)
    if len(kinds) != SEATS:
        raise errors.RulesError("players", f"Ninety-Nine is played by exactly {SEATS}")
    check_kinds(kinds)
    if not isinstance(seed, bytes) or len(seed) < SEED_BYTES_MIN:
        raise errors.RulesError("seed", f"must be at least {SEED_BYTES_MIN} bytes")
    started = MatchStarted(rules, kinds, seed.hex(), commitment_of(seed))
    return [started, *automatic_events(evolve(None, started))]


def join_match(state: State, seat: Seat) -> list[Event]:
    """A player takes open ``seat``."""
    return [*take_seat(state.players, seat, ended=state.ended)]


def abort_match(state: State, reason: str) -> list[Event]:
    """Stop a running match now; the seed is revealed."""
    if state.ended:
        raise errors.MatchOverError("the match is already over")
    return [MatchAborted(reason, state.seed.hex())]


def automatic_events(state: State) -> list[Event]:
    """The events that follow by themselves from ``state`` (none while a seat must act)."""
    events: list[Event] = []
    while (event := _next_automatic(state)) is not None:
        events.append(event)
        state = evolve(state, event)
    return events


def match_over(state: State) -> bool:
    """After a scored deal: a total reached the target, or the last deal was played."""
    if state.deal == 0:
        return False
    limit = state.rules.max_deals
    return max(state.totals) >= state.rules.target_score or (
        limit is not None and state.deal >= limit
    )


def _next_automatic(s: State) -> Event | None:
    if s.phase is Phase.NOT_DEALT:
        if match_over(s):
            return MatchFinished(s.totals, winners_of(s.totals), s.seed.hex())
        deal = s.deal + 1
        dealer = (deal - 1) % SEATS
        trumps = None if s.last_deal is None else next_trumps(s.last_deal.made)
        return DealStarted(deal, dealer, trumps, deal_hands(s.seed, deal, dealer))
    if s.phase is Phase.PREMIUM and s.to_act is None and s.premium_seat is not None:
        seat, premium = s.premium_seat, s.premium or DECLARE
        bid = s.bids[seat]
        hand = s.hands[seat] if premium == REVEAL else ()
        return PremiumShown(seat, premium, bid, contract_of(bid), hand)
    if s.phase is Phase.PLAYING and len(s.trick) == SEATS:
        winner = trick_winner(s.trick, s.trumps)
        return TrickWon(len(s.tricks) + 1, s.trick[0][0], s.trick, winner)
    if s.phase is Phase.DEAL_OVER:
        return _score(s)
    return None


def _score(s: State) -> DealScored:
    contracts = tuple(contract_of(bid) for bid in s.bids)
    made, points = score_deal(contracts, s.tricks_won, s.premium_seat, s.premium)
    shown = tuple(m or seat == s.premium_seat for seat, m in enumerate(made))
    totals = tuple(t + p.total for t, p in zip(s.totals, points, strict=True))
    return DealScored(
        deal=s.deal,
        tricks=s.tricks_won,
        made=made,
        contracts=tuple(c if show else None for c, show in zip(contracts, shown, strict=True)),
        bid_cards=tuple(b if show else None for b, show in zip(s.bids, shown, strict=True)),
        premium_seat=s.premium_seat,
        premium=s.premium,
        points=points,
        totals=totals,
    )


# --- legality ---------------------------------------------------------------------------
def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now, in a stable order (bids: the 220 ways to lay
    aside three of twelve cards, in the hand's order)."""
    if not at_table(seat, SEATS):
        return []
    if waiting(state.players):
        return []
    if state.phase is Phase.BIDDING and not state.bids[seat]:
        return [Bid(cards) for cards in combinations(state.hands[seat], BID_SIZE)]
    if state.to_act != seat:
        return []
    if state.phase is Phase.PREMIUM:
        actions: list[Action] = [Pass()]
        if state.premium_seat is None:
            actions.append(Declare())
        if state.premium != REVEAL:
            actions.append(Reveal())
        return actions
    if state.phase is Phase.PLAYING:
        led = suit_of(state.trick[0][1]) if state.trick else None
        return [Play(card) for card in follow_suit(state.hands[seat], led)]
    return []


def decide(state: State, seat: Seat, action: Action) -> list[Event]:
    """The events ``action`` by ``seat`` causes, or a coded ``IllegalActionError``."""
    if not at_table(seat, SEATS):
        raise errors.NotASeatError(f"seat must be between 0 and {SEATS - 1}")
    if state.ended:
        raise errors.MatchOverError("the match is over")
    refuse_while_waiting(state.players)
    if isinstance(action, Bid):
        event: Event = _bid(state, seat, action)
    elif isinstance(action, Pass | Declare | Reveal):
        event = _call(state, seat, action)
    elif isinstance(action, Play):
        event = _play(state, seat, action)
    else:
        raise errors.MalformedActionError(f"not a Ninety-Nine action: {action!r}")
    return [event, *automatic_events(evolve(state, event))]


def _bid(state: State, seat: Seat, action: Bid) -> Event:
    if state.phase is not Phase.BIDDING:
        raise errors.WrongPhaseError("bids are made at the start of a deal, before the play")
    if state.bids[seat]:
        raise AlreadyBidError("you have laid aside your bid cards already")
    if not are_card_codes(action.cards):
        raise errors.MalformedActionError("a bid is a tuple of three card codes")
    cards = sort_hand(action.cards)  # the event holds them in the pack's order
    if len(cards) != BID_SIZE or len(set(cards)) != BID_SIZE:
        raise NotThreeCardsError("a bid is three different cards")
    missing = [c for c in cards if c not in state.hands[seat]]
    if missing:
        raise CardNotInHandError(f"{missing[0]} is not in your hand")
    return BidMade(seat, cards)


def _call(state: State, seat: Seat, action: Pass | Declare | Reveal) -> Event:
    if not state.rules.premium_bids:
        raise PremiumBidsOffError("this match has no premium bids")
    if state.phase is not Phase.PREMIUM:
        if state.premium == REVEAL and not isinstance(action, Pass):
            # the reveal of a seat nearer the dealer's left ended the premium round
            raise PremiumBidTakenError(f"seat {state.premium_seat} has already revealed")
        if state.phase is Phase.BIDDING:
            raise errors.WrongPhaseError("premium bids are made after everyone has bid")
        raise errors.WrongPhaseError("the premium round is over")
    if state.to_act != seat:
        raise errors.NotYourTurnError(
            "no premium call now" if state.to_act is None else f"seat {state.to_act} calls now"
        )
    if isinstance(action, Declare) and state.premium_seat is not None:
        raise PremiumBidTakenError(f"seat {state.premium_seat} has already bid a premium")
    if isinstance(action, Reveal) and state.premium == REVEAL:
        raise PremiumBidTakenError(f"seat {state.premium_seat} has already revealed")
    return PremiumCalled(seat, action.type)


def _play(state: State, seat: Seat, action: Play) -> Event:
    if state.phase is not Phase.PLAYING:
        raise errors.WrongPhaseError("cards are played after the bids")
    if state.to_act != seat:
        raise errors.NotYourTurnError(
            "no play now" if state.to_act is None else f"seat {state.to_act} plays now"
        )
    hand = state.hands[seat]
    if action.card not in hand:
        raise CardNotInHandError(f"{action.card} is not in your hand")
    led = suit_of(state.trick[0][1]) if state.trick else None
    if action.card not in follow_suit(hand, led):
        raise MustFollowSuitError(f"you hold {SUIT_NAMES[led or 'S']}: follow suit")
    return CardPlayed(seat, action.card)


def action_of(event: Event) -> tuple[Seat, Action] | None:
    """The seat and action an event records, for the events that record one."""
    if isinstance(event, BidMade):
        return event.seat, Bid(event.cards)
    if isinstance(event, PremiumCalled):
        return event.seat, PREMIUM_ACTIONS.get(event.call, Pass())
    if isinstance(event, CardPlayed):
        return event.seat, Play(event.card)
    return None
