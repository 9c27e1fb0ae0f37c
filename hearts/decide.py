"""Deciding what happens: starting a match, the legal actions, and ``decide``.

``decide`` never changes a state: it checks an action against the rules and returns the
events it causes, then the automatic ones that follow (the exchange of passes once every
seat has chosen, a full trick's winner, a deal's scores, the next deal, the end).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from cards.deck import are_card_codes
from cards.errors import (
    IllegalActionError,
    MalformedActionError,
    MatchOverError,
    NotASeatError,
    NotYourTurnError,
    RulesError,
    WrongPhaseError,
)
from cards.seating import (
    at_table,
    check_kinds,
    humans_to_be,
    refuse_while_waiting,
    take_seat,
    waiting,
)
from cards.shuffle import commitment_of
from cards.tricks import follow_suit, suit_of, trick_winner
from hearts import errors
from hearts.actions import PASS_SIZE, Action, PassCards, PlayCard, Undo
from hearts.dealing import deal_hands, dealer_of
from hearts.events import (
    CardPlayed,
    CardsDealt,
    CardsPassed,
    DealScored,
    Event,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    PassesExchanged,
    TrickWon,
    Undone,
)
from hearts.rules import REMOVED, FirstTrickPoints, Rules, Seat
from hearts.scoring import is_points_card, score_deal, trick_points, winners_of
from hearts.state import HUMAN, Phase, State, evolve, opening_card


def start_match(rules: Rules, players: int | Sequence[str], seed: bytes) -> list[Event]:
    """``match_started`` and the first deal. ``players``: a seat count (all human) or each
    seat's kind, ``"human"``, ``"com"`` or ``"open"`` (``cards.seating``)."""
    if isinstance(players, int):  # (a count from a forged log may be any number: check it
        rules.validate_for(players)  # before a tuple of that many seats is built)
        players = (HUMAN,) * players
    kinds = tuple(players)
    check_kinds(kinds)
    rules.validate_for(len(kinds))
    if rules.undo and humans_to_be(kinds) != 1:
        raise RulesError("undo", "undo needs exactly one human seat, every other a COM")
    if not isinstance(seed, bytes) or len(seed) < 16:
        raise RulesError("seed", "must be at least 16 bytes")
    started = MatchStarted(rules, kinds, seed.hex(), commitment_of(seed))
    return [started, *automatic_events(evolve(None, started))]


def join_match(state: State, seat: Seat) -> list[Event]:
    """A player takes open ``seat``."""
    return [*take_seat(state.players, seat, ended=state.ended)]


def abort_match(state: State, reason: str) -> list[Event]:
    if state.ended:
        raise MatchOverError("the match is already over")
    return [MatchAborted(reason, state.seed.hex())]


def automatic_events(state: State) -> list[Event]:
    """The events that follow by themselves from ``state`` (none while a seat must act)."""
    found: list[Event] = []
    while (event := _next_automatic(state)) is not None:
        found.append(event)
        state = evolve(state, event)
    return found


def _next_automatic(s: State) -> Event | None:
    phase = s.phase
    if phase is Phase.PLAYING:
        if len(s.trick) < s.seats or s.leader is None:
            return None
        plays = s.trick_plays()
        winner = trick_winner(plays, trump=None)
        return TrickWon(
            len(s.tricks) + 1, s.leader, s.trick, winner, trick_points(s.trick, s.rules)
        )
    if phase is Phase.PASSING:
        if any(chosen is None for chosen in s.passes):
            return None
        return PassesExchanged(s.deal, s.direction, tuple(p or () for p in s.passes))
    if phase is Phase.NOT_DEALT:
        if s.deal and _match_over(s):
            return MatchFinished(s.totals, winners_of(s.totals), s.seed.hex())
        deal = s.deal + 1
        n = s.seats
        hands = deal_hands(s.seed, deal, n)
        return CardsDealt(deal, dealer_of(deal, n), hands, REMOVED[n], s.rules.direction(deal, n))
    if phase is Phase.DEAL_OVER:
        scores, moon = score_deal(s.taken, s.jack, s.rules)
        jack = s.jack if s.rules.jack_of_diamonds.value != "off" else None
        totals = tuple(t + d for t, d in zip(s.totals, scores, strict=True))
        return DealScored(s.deal, s.taken, jack, moon, scores, totals)
    return None


def _match_over(s: State) -> bool:
    if any(total >= s.rules.target_score for total in s.totals):
        return True
    return s.deal >= s.rules.deal_limit(s.seats)


# --- legality -------------------------------------------------------------------------------
def can_undo(state: State, seat: Seat) -> bool:
    return state.undo_depth > 0 and state.undo_point is not None and seat == state.undo_seat


def playable_cards(state: State, seat: Seat) -> list[str]:
    """The cards ``seat`` may play now (none when it is not its turn to play)."""
    if state.phase is not Phase.PLAYING or state.to_act != seat:
        return []
    return legal_plays(
        state.hands[seat],
        state.trick[0][1] if state.trick else None,
        first_trick=not state.tricks,
        hearts_broken=state.hearts_broken,
        opening=opening_card(state.removed),
        points_allowed=state.rules.points_on_first_trick is FirstTrickPoints.ALLOWED,
    )


def legal_plays(
    hand: Sequence[str],
    led: str | None,
    *,
    first_trick: bool,
    hearts_broken: bool,
    opening: str,
    points_allowed: bool,
) -> list[str]:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (``None``:
    this hand leads), in hand order: rules 3 to 6 of the reference, section 2.

    >>> legal_plays(["2C", "5D", "AH"], None, first_trick=True, hearts_broken=False,
    ...             opening="2C", points_allowed=False)
    ['2C']
    >>> legal_plays(["QS", "2H", "AH"], "C", first_trick=True, hearts_broken=False,
    ...             opening="2C", points_allowed=False)
    ['QS', '2H', 'AH']
    >>> legal_plays(["5D", "2H"], None, first_trick=False, hearts_broken=False,
    ...             opening="2C", points_allowed=False)
    ['5D']
    """
    if led is None:
        if first_trick:
            return [opening] if opening in hand else list(hand)
        if hearts_broken:
            return list(hand)
        unbroken = [c for c in hand if c[1] != "H"]
        return unbroken or list(hand)
    allowed = follow_suit(hand, led)
    if first_trick and not points_allowed and suit_of(allowed[0]) != led:
        clean = [c for c in allowed if not is_points_card(c)]
        return clean or allowed
    return allowed


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now, in a stable order."""
    if not at_table(seat, state.seats) or state.ended or waiting(state.players):
        return []
    found: list[Action] = []
    if state.phase is Phase.PASSING and state.passes[seat] is None:
        found.extend(PassCards(c) for c in combinations(state.hands[seat], PASS_SIZE))
    else:
        found.extend(PlayCard(c) for c in playable_cards(state, seat))
    if can_undo(state, seat):
        found.append(Undo())
    return found


def decide(state: State, seat: Seat, action: Action) -> list[Event]:
    """The events ``action`` of ``seat`` causes, or an :class:`IllegalActionError`."""
    if not at_table(seat, state.seats):
        raise NotASeatError(f"seat must be between 0 and {state.seats - 1}")
    if state.ended:
        raise MatchOverError("the match is over")
    refuse_while_waiting(state.players)
    if isinstance(action, Undo):
        if not can_undo(state, seat):
            raise errors.UndoNotAvailableError(
                "nothing to undo: undo takes back your last card played, until you play again"
                if state.rules.undo
                else "undo is off in this match"
            )
        first: Event = Undone(seat, state.undo_depth)
    elif isinstance(action, PassCards):
        first = _pass(state, seat, action)
    elif isinstance(action, PlayCard):
        first = _play(state, seat, action)
    else:
        raise MalformedActionError(f"not a Hearts action: {action!r}")
    return [first, *automatic_events(evolve(state, first))]


def _pass(state: State, seat: Seat, action: PassCards) -> Event:
    if not are_card_codes(action.cards):
        raise MalformedActionError("a pass is a tuple of three card codes")
    if state.phase is not Phase.PASSING:
        raise WrongPhaseError("cards are passed only before the first trick of a passing deal")
    if state.passes[seat] is not None:
        raise errors.AlreadyPassedError("you have chosen your pass; wait for the others")
    if len(action.cards) != PASS_SIZE or len(set(action.cards)) != PASS_SIZE:
        raise errors.NotThreeCardsError("a pass is three different cards")
    missing = [c for c in action.cards if c not in state.hands[seat]]
    if missing:
        raise errors.CardNotInHandError(f"{missing[0]} is not in your hand")
    return CardsPassed(seat, state.receiver(seat), action.cards)


def _play(state: State, seat: Seat, action: PlayCard) -> Event:
    if state.phase is Phase.PASSING:
        raise WrongPhaseError("every seat must pass its three cards first")
    if state.phase is not Phase.PLAYING or state.to_act != seat:
        raise NotYourTurnError(
            f"it is seat {state.to_act}'s turn" if state.to_act is not None else "no turn now"
        )
    card = action.card
    hand = state.hands[seat]
    if card not in hand:
        raise errors.CardNotInHandError(f"{card} is not in your hand")
    if card not in playable_cards(state, seat):
        raise _why_not(state, hand, card)
    return CardPlayed(seat, card)


def _why_not(state: State, hand: Sequence[str], card: str) -> IllegalActionError:
    if not state.trick:
        if not state.tricks:
            return errors.MustLeadOpeningCardError(
                f"the first trick is led with the {opening_card(state.removed)}"
            )
        return errors.HeartsNotBrokenError(
            "hearts are not broken: lead another suit (or a heart when you hold only hearts)"
        )
    led = state.trick[0][1]
    if card[1] != led and any(c[1] == led for c in hand):
        return errors.MustFollowSuitError(f"follow suit: you hold {_SUITS[led]}")
    return errors.NoPointsOnFirstTrickError(
        "no heart and not the queen of spades on the first trick, unless you hold nothing else"
    )


_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
