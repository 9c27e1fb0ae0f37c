"""Deciding what happens: starting a match, the legal actions, and ``decide``.

``decide`` never changes a state: it checks the action against the rules and returns the
events it causes, followed by the automatic events that follow from them (a reshuffle of
an empty stock, the start of final turns, the scoring of a hole, the next deal, the end
of the match). Folding those events with :func:`~golf.state.evolve` gives the new
state.
"""

from __future__ import annotations

from collections.abc import Sequence

from cards.seating import (
    at_table,
    check_kinds,
    humans_to_be,
    refuse_while_waiting,
    take_seat,
    waiting,
)
from cards.shuffle import commitment_of, shuffle_cards
from golf import errors
from golf.actions import (
    Action,
    DiscardDrawn,
    DrawFromStock,
    Next,
    RevealCard,
    SwapCard,
    TakeDiscard,
    Undo,
)
from golf.dealing import deal_cards, reshuffle_label
from golf.events import (
    CardDiscarded,
    CardDrawn,
    CardRevealed,
    CardSwapped,
    Event,
    FinalTurnsBegan,
    HoleAcknowledged,
    HoleDealt,
    HoleScored,
    MatchAborted,
    MatchFinished,
    MatchStarted,
    StockReshuffled,
    Undone,
)
from golf.rules import FinalTurns, FlipOnDiscard, Rules, Seat
from golf.scoring import score_grid, winners_of
from golf.state import DISCARD, HUMAN, STOCK, Phase, State, evolve


def start_match(rules: Rules, players: int | Sequence[str], seed: bytes) -> list[Event]:
    """The first events of a match: ``match_started`` and the deal of hole 1.

    ``players`` is a seat count (all human) or each seat's kind, ``"human"``, ``"com"`` or
    ``"open"`` (``cards.seating``: a human's once taken). The dealer of hole 1 is the last
    seat, so seat 0 plays first.
    """
    if isinstance(players, int):  # (a count from a forged log may be any number: check it
        rules.validate_for(players)  # before a tuple of that many seats is built)
        players = (HUMAN,) * players
    kinds = tuple(players)
    check_kinds(kinds)
    rules.validate_for(len(kinds))
    humans = humans_to_be(kinds)
    if rules.undo and rules.local and humans < 1:
        raise errors.RulesError("undo", "undo needs a human seat")
    if rules.undo and not rules.local and humans != 1:
        raise errors.RulesError(
            "undo", "undo needs exactly one human seat, every other a COM, or a local match"
        )
    if not isinstance(seed, bytes) or len(seed) < 16:
        raise errors.RulesError("seed", "must be at least 16 bytes")
    started = MatchStarted(rules, kinds, seed.hex(), commitment_of(seed))
    state = evolve(None, started)
    return [started, *automatic_events(state)]


def join_match(state: State, seat: Seat) -> list[Event]:
    """A player takes open ``seat``."""
    return [*take_seat(state.players, seat, ended=state.ended)]


def abort_match(state: State, reason: str) -> list[Event]:
    """Stop a running match now; the seed is revealed."""
    if state.ended:
        raise errors.MatchOverError("the match is already over")
    return [MatchAborted(reason, state.seed.hex())]


def automatic_events(state: State) -> list[Event]:
    """The events that follow by themselves from ``state`` (none when a seat must act)."""
    events: list[Event] = []
    while (event := _next_automatic(state)) is not None:
        events.append(event)
        state = evolve(state, event)
    return events


def _next_automatic(s: State) -> Event | None:
    if s.phase is Phase.NOT_DEALT:
        if s.hole >= s.rules.holes:
            return MatchFinished(s.totals, winners_of(s.totals), s.seed.hex())
        hole = s.hole + 1
        dealer = (hole - 2) % s.seats  # the dealer moves one seat each hole
        grids, discard, stock = deal_cards(s.seed, hole, s.rules, s.seats, dealer)
        return HoleDealt(hole, dealer, grids, discard, stock)
    if s.phase is Phase.HOLE_OVER:
        if s.hole_scored:
            return None  # the pause: the humans' ``next`` deals the next hole
        return _score(s, s.end_reason or "grid_complete")
    if s.phase is Phase.DRAW:
        if s.finisher is None and s.rules.final_turns is FinalTurns.OTHERS_ONCE:
            for seat, up in enumerate(s.face_up):
                if all(up):
                    return FinalTurnsBegan(seat, s.seats - 1)
        if not s.stock:
            if len(s.discard) > 1:
                pile = s.discard[:-1]
                label = reshuffle_label(s.hole, s.reshuffles, pile if s.reshuffle_by_pile else ())
                return StockReshuffled(
                    s.hole, s.reshuffles, tuple(shuffle_cards(s.seed, label, pile))
                )
            return _score(s, "stock_exhausted")
    return None


def _score(s: State, reason: str) -> HoleScored:
    scores = tuple(score_grid(grid, s.rules) for grid in s.grids)
    totals = tuple(t + h for t, h in zip(s.totals, scores, strict=True))
    return HoleScored(s.hole, reason, s.grids, scores, totals)


# --- legality -------------------------------------------------------------------------------
def can_undo(state: State, seat: Seat) -> bool:
    """``seat`` may take back the last swap or discard (and the COM turns after it) until
    the seat that made it draws again. Elsewhere only that seat, the lone human among COMs,
    may; in a ``local`` match (one device) any human seat may, for the human who moved
    last, until the next human acts: the device has not been passed on yet."""
    point = state.undo_point
    if point is None or state.undo_depth <= 0 or point.to_act not in state.undo_seats:
        return False
    if state.rules.local:
        return seat in state.undo_seats
    return seat == point.to_act


def undoer(state: State) -> Seat:
    """The seat whose turn an undo takes back (the one that drew at the undo point)."""
    assert state.undo_point is not None and state.undo_point.to_act is not None
    return state.undo_point.to_act


def awaits_next(state: State, seat: Seat) -> bool:
    """The pause after a hole waits for ``seat``'s ``next``."""
    return state.phase is Phase.HOLE_OVER and seat in state.awaiting_next


def legal_actions(state: State, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now, in a stable order."""
    actions: list[Action] = []
    if not at_table(seat, state.seats) or state.ended or waiting(state.players):
        return actions
    up = state.face_up[seat] if state.face_up else ()
    face_down = [p for p, is_up in enumerate(up) if not is_up]
    if state.phase is Phase.HOLE_OVER:
        if awaits_next(state, seat):
            actions.append(Next())
    elif state.phase is Phase.FLIPS and state.flips_left[seat] > 0:
        if state.flipper in (None, seat):
            actions.extend(RevealCard(p) for p in face_down)
    elif state.to_act == seat and state.phase is Phase.DRAW:
        actions.append(DrawFromStock())
        if state.discard:
            actions.append(TakeDiscard())
    elif state.to_act == seat and state.phase is Phase.PLACE:
        actions.extend(SwapCard(p) for p in range(state.rules.cells))
        if state.drawn_from == STOCK:
            mode = state.rules.flip_on_discard
            if mode is not FlipOnDiscard.ALWAYS or not face_down:
                actions.append(DiscardDrawn())
            if mode is not FlipOnDiscard.NEVER:
                actions.extend(DiscardDrawn(p) for p in face_down)
        elif not state.rules.discard_take_must_swap:
            actions.append(DiscardDrawn())
    if can_undo(state, seat):
        actions.append(Undo())
    return actions


def decide(state: State, seat: Seat, action: Action) -> list[Event]:
    """The events ``action`` by ``seat`` causes, or an :class:`IllegalActionError`."""
    if not at_table(seat, state.seats):
        raise errors.NotASeatError(f"seat must be between 0 and {state.seats - 1}")
    if state.ended:
        raise errors.MatchOverError("the match is over")
    refuse_while_waiting(state.players)
    if isinstance(action, Undo):
        if not can_undo(state, seat):
            raise errors.UndoNotAvailableError(
                "nothing to undo: undo takes back your last swap or discard until you draw again"
                if state.rules.undo
                else "undo is off in this match"
            )
        events: list[Event] = [Undone(undoer(state), state.undo_depth)]
    elif isinstance(action, Next):
        events = [_acknowledge(state, seat)]
    elif isinstance(action, RevealCard):
        events = [_reveal(state, seat, action)]
    else:
        events = [_turn_action(state, seat, action)]
    after = state
    for event in events:
        after = evolve(after, event)
    return events + automatic_events(after)


def _check_position(state: State, position: int) -> None:
    if isinstance(position, bool) or not isinstance(position, int):
        raise errors.PositionOutOfRangeError("a position is an integer")
    if not 0 <= position < state.rules.cells:
        raise errors.PositionOutOfRangeError(
            f"position {position} is off the grid: positions are 0..{state.rules.cells - 1}"
        )


def _acknowledge(state: State, seat: Seat) -> Event:
    if state.phase is not Phase.HOLE_OVER or not state.hole_scored:
        raise errors.WrongPhaseError("'next' answers the pause after a scored hole")
    if not awaits_next(state, seat):
        if state.players[seat] != HUMAN:
            raise errors.NotYourTurnError("a COM seat is always ready for the next hole")
        raise errors.AlreadyAcknowledgedError("you are ready: the others have yet to say so")
    return HoleAcknowledged(state.hole, seat)


def _reveal(state: State, seat: Seat, action: RevealCard) -> Event:
    if state.phase is not Phase.FLIPS:
        raise errors.WrongPhaseError("cards are revealed only in the initial flips")
    if state.flips_left[seat] <= 0:
        raise errors.NoFlipsLeftError("you have made all your initial flips")
    flipper = state.flipper
    if flipper is not None and flipper != seat:
        raise errors.NotYourTurnError(
            f"the initial flips go one seat after another: it is seat {flipper}'s turn to flip"
        )
    _check_position(state, action.position)
    if state.face_up[seat][action.position]:
        raise errors.CardAlreadyFaceUpError(f"the card at position {action.position} is face up")
    return CardRevealed(seat, action.position, state.grids[seat][action.position])


def _turn_action(state: State, seat: Seat, action: Action) -> Event:
    if state.phase is Phase.FLIPS:
        raise errors.WrongPhaseError("every seat must make its initial flips first")
    if state.phase is Phase.HOLE_OVER:
        raise errors.WrongPhaseError("the hole is over: 'next' goes on to the next hole")
    if state.phase not in (Phase.DRAW, Phase.PLACE) or state.to_act != seat:
        raise errors.NotYourTurnError(
            f"it is seat {state.to_act}'s turn" if state.to_act is not None else "no turn now"
        )
    if isinstance(action, (DrawFromStock, TakeDiscard)):
        if state.phase is Phase.PLACE:
            raise errors.AlreadyDrawnError("you already hold a card: swap it or discard it")
        if isinstance(action, DrawFromStock):
            return CardDrawn(seat, STOCK, state.stock[0])
        if not state.discard:
            raise errors.DiscardPileEmptyError("the discard pile is empty")
        return CardDrawn(seat, DISCARD, state.discard[-1])
    if state.phase is not Phase.PLACE or state.drawn is None:
        raise errors.MustDrawFirstError("draw from the stock or take the discard first")
    if isinstance(action, SwapCard):
        _check_position(state, action.position)
        replaced = state.grids[seat][action.position]
        return CardSwapped(seat, action.position, state.drawn, replaced)
    if isinstance(action, DiscardDrawn):
        return _discard(state, seat, action)
    raise errors.MalformedActionError(f"unknown action {action!r}")


def _discard(state: State, seat: Seat, action: DiscardDrawn) -> Event:
    assert state.drawn is not None
    face_down = [p for p, up in enumerate(state.face_up[seat]) if not up]
    if state.drawn_from == DISCARD:
        if state.rules.discard_take_must_swap:
            raise errors.MustSwapTakenDiscardError(
                "a card taken from the discard pile must be swapped"
            )
        if action.flip is not None:
            raise errors.FlipNotAllowedError("no flip when throwing back the taken discard")
        return CardDiscarded(seat, state.drawn)
    mode = state.rules.flip_on_discard
    if action.flip is None:
        if mode is FlipOnDiscard.ALWAYS and face_down:
            raise errors.FlipRequiredError(
                "discarding must also turn up one of your face-down cards"
            )
        return CardDiscarded(seat, state.drawn)
    if mode is FlipOnDiscard.NEVER:
        raise errors.FlipNotAllowedError("this match does not flip a card on discard")
    _check_position(state, action.flip)
    if state.face_up[seat][action.flip]:
        raise errors.CardAlreadyFaceUpError(f"the card at position {action.flip} is face up")
    return CardDiscarded(seat, state.drawn, action.flip, state.grids[seat][action.flip])
