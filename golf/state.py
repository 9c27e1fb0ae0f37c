"""The state of a match and the one fold that builds it: ``evolve(state, event)``.

Live play and replay share :func:`evolve`, so a match is nothing but its event list:
``replay(events) == state`` by construction. States are frozen; evolving returns a new one.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeAlias

from cards.deck import CardCode
from cards.frozen import fold_in_place
from cards.frozen import replaced as _replace  # the hot path's copy of a state
from cards.protocol import COM, HUMAN
from cards.seating import (
    SeatHandedOver,
    SeatTaken,
    seat_handed_over_changes,
    seat_taken_changes,
    waiting,
)
from golf.errors import EngineError
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
from golf.rules import FinalTurns, OpeningFlips, Position, Rules, Seat

__all__ = ["COM", "HUMAN", "Phase", "State", "evolve", "replay"]

STOCK = "stock"
DISCARD = "discard"


class Phase(enum.Enum):
    NOT_DEALT = "not_dealt"  # before the first deal, and between holes
    FLIPS = "flips"  # initial flips: every seat with flips left may act (in_turn: one seat)
    DRAW = "draw"  # ``to_act`` draws from the stock or takes the discard
    PLACE = "place"  # ``to_act`` holds a card to swap in or discard
    # The hole has ended: waiting to be scored (only ever inside one ``decide``), then, once
    # scored with ``pause_between_holes`` and holes to come, waiting for the humans' ``next``.
    HOLE_OVER = "hole_over"
    FINISHED = "finished"
    ABORTED = "aborted"


ENDED = frozenset({Phase.FINISHED, Phase.ABORTED})


@dataclass(frozen=True)
class State:
    """One playthrough at one point. Seats are 0..n-1; holes count from 1; ``version`` is
    the number of events folded in."""

    rules: Rules
    players: tuple[str, ...]
    seed: bytes
    version: int = 0
    phase: Phase = Phase.NOT_DEALT
    hole: int = 0
    dealer: Seat = 0
    grids: tuple[tuple[CardCode, ...], ...] = ()
    face_up: tuple[tuple[bool, ...], ...] = ()
    flips_left: tuple[int, ...] = ()
    stock: tuple[CardCode, ...] = ()
    discard: tuple[CardCode, ...] = ()
    to_act: Seat | None = None
    drawn: CardCode | None = None
    drawn_from: str | None = None
    turns_in_hole: int = 0
    reshuffles: int = 0
    # the reshuffles' labels name the pile they shuffle (``MatchStarted.reshuffle``)
    reshuffle_by_pile: bool = False
    finisher: Seat | None = None
    final_turns_left: int | None = None
    end_reason: str | None = None
    totals: tuple[int, ...] = ()
    hole_scores: tuple[tuple[int, ...], ...] = ()
    last_hole_grids: tuple[tuple[CardCode, ...], ...] = ()
    # per scored hole: the seat that went out (whose grid was all face up first), or None
    hole_finishers: tuple[Seat | None, ...] = ()
    # the human seats whose ``next`` the pause after a scored hole (phase hole_over) awaits
    awaiting_next: tuple[Seat, ...] = ()
    winners: tuple[Seat, ...] = ()
    undo_point: State | None = None
    undo_depth: int = 0
    # What a seat that undid saw in undone turns and is hidden again (see ``_undone``), by
    # place and by the seat that saw it (the viewer): grid positions as sorted
    # ``(viewer, seat, position)``, how many cards at the top of the stock as sorted
    # ``(viewer, count)``, and the viewers who know the card in hand (drawn from the known
    # top of the stock).
    seen: tuple[tuple[Seat, Seat, Position], ...] = ()
    stock_seen: tuple[tuple[Seat, int], ...] = ()
    drawn_seen: tuple[Seat, ...] = ()
    # The piles this hole's reshuffles shuffled (discards, public), and what a seat that
    # undid saw of a stock a reshuffle may make again: sorted ``(viewer, reshuffle, pile,
    # count)``, the top ``count`` cards of the stock that this hole's ``reshuffle``-th
    # (0-based) reshuffle of ``pile`` makes (the same pile gets the same stock).
    reshuffled_piles: tuple[tuple[CardCode, ...], ...] = ()
    foreseen: tuple[tuple[Seat, int, tuple[CardCode, ...], int], ...] = ()

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def ended(self) -> bool:
        return self.phase in ENDED

    @property
    def humans(self) -> tuple[Seat, ...]:
        return tuple(s for s, kind in enumerate(self.players) if kind == HUMAN)

    @property
    def undo_seats(self) -> tuple[Seat, ...]:
        """The seats that may undo, when the rules allow undo: the lone human among COMs,
        or in a ``local`` match every human seat."""
        if not self.rules.undo:
            return ()
        humans = self.humans
        return humans if self.rules.local or len(humans) == 1 else ()

    @property
    def undo_seat(self) -> Seat | None:
        """The one seat that may undo, when there is exactly one (a lone human)."""
        seats = self.undo_seats
        return seats[0] if len(seats) == 1 else None

    @property
    def flipper(self) -> Seat | None:
        """With ``opening_flips: in_turn``, the seat whose initial flips come now: the first
        from the dealer's left with flips left."""
        if self.phase is not Phase.FLIPS or self.rules.opening_flips is not OpeningFlips.IN_TURN:
            return None
        n = self.seats
        for offset in range(1, n + 1):
            seat = (self.dealer + offset) % n
            if self.flips_left[seat] > 0:
                return seat
        return None

    @property
    def hole_scored(self) -> bool:
        """The current hole has been scored (it is over, or the match is)."""
        return self.hole > 0 and len(self.hole_scores) >= self.hole

    def seats_to_act(self) -> tuple[Seat, ...]:
        """Seats that have something to do now (several during simultaneous initial flips,
        and in the pause after a hole); none while a seat is open."""
        if waiting(self.players):
            return ()
        if self.phase is Phase.FLIPS:
            flipper = self.flipper
            if flipper is not None:
                return (flipper,)
            return tuple(s for s, left in enumerate(self.flips_left) if left > 0)
        if self.phase in (Phase.DRAW, Phase.PLACE) and self.to_act is not None:
            return (self.to_act,)
        if self.phase is Phase.HOLE_OVER:
            return self.awaiting_next
        return ()

    def seen_by(self, viewer: Seat | None) -> tuple[tuple[Seat, Position], ...]:
        """The grid places ``viewer`` saw in undone turns (cards face down again)."""
        if viewer is None or not self.seen:
            return ()
        return tuple((s, p) for v, s, p in self.seen if v == viewer)

    def stock_seen_by(self, viewer: Seat | None) -> int:
        """How many cards at the top of the stock ``viewer`` knows from undone turns."""
        for v, count in self.stock_seen:
            if v == viewer:
                return count
        return 0


def _set(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


Changes: TypeAlias = dict[str, Any]


# --- one function per event: each returns the fields that change ------------------------------
def _match_started(e: MatchStarted) -> State:
    return State(
        rules=e.rules,
        players=e.players,
        seed=bytes.fromhex(e.seed),
        version=1,
        reshuffle_by_pile=e.reshuffle == "pile",
        totals=(0,) * len(e.players),
    )


def _hole_dealt(s: State, e: HoleDealt) -> Changes:
    n = s.seats
    flips = s.rules.initial_flips
    return {
        "phase": Phase.FLIPS if flips else Phase.DRAW,
        "hole": e.hole,
        "dealer": e.dealer,
        "grids": e.grids,
        "face_up": ((False,) * s.rules.cells,) * n,
        "flips_left": (flips,) * n,
        "stock": e.stock,
        "discard": (e.discard,),
        "to_act": None if flips else (e.dealer + 1) % n,
        "drawn": None,
        "drawn_from": None,
        "turns_in_hole": 0,
        "reshuffles": 0,
        "finisher": None,
        "final_turns_left": None,
        "end_reason": None,
        "awaiting_next": (),
        "stock_seen": (),
        "reshuffled_piles": (),
        "foreseen": (),
    }


def _turn_up(s: State, seat: Seat, position: Position, changes: Changes) -> Changes:
    """Turn the card at ``position`` face up: it is public now, so no longer a seen mark."""
    changes["face_up"] = _set(s.face_up, seat, _set(s.face_up[seat], position, True))
    if s.seen:
        changes["seen"] = tuple(mark for mark in s.seen if mark[1:] != (seat, position))
    return changes


def _card_revealed(s: State, e: CardRevealed) -> Changes:
    flips_left = _set(s.flips_left, e.seat, s.flips_left[e.seat] - 1)
    changes = _turn_up(s, e.seat, e.position, {"flips_left": flips_left})
    if not any(flips_left):
        changes["phase"] = Phase.DRAW
        changes["to_act"] = (s.dealer + 1) % s.seats
    return changes


def _card_drawn(s: State, e: CardDrawn) -> Changes:
    changes: Changes = {"drawn": e.card, "drawn_from": e.source, "phase": Phase.PLACE}
    if e.source == STOCK:
        changes["stock"] = s.stock[1:]
        if s.stock_seen:
            changes["stock_seen"] = tuple((v, n - 1) for v, n in s.stock_seen if n > 1)
            changes["drawn_seen"] = tuple(v for v, _ in s.stock_seen)
    else:
        changes["discard"] = s.discard[:-1]
    if e.seat in s.undo_seats:
        # The moment right after a human's draw is where an undo returns to.
        changes["undo_point"] = _replace(
            s, {**changes, "undo_point": None, "undo_depth": 0, "version": s.version + 1}
        )
    return changes


def _end_turn(s: State, seat: Seat, changes: Changes) -> Changes:
    """Close ``seat``'s turn: count it, and either pass the turn on or end the hole."""
    face_up = changes.get("face_up", s.face_up)
    turns = s.turns_in_hole + 1
    complete = all(face_up[seat])
    finals = s.final_turns_left
    if finals is not None:
        finals -= 1
    reason = None
    if complete and s.rules.final_turns is FinalTurns.NONE:
        reason = "grid_complete"
    elif finals == 0:
        reason = "final_turns_done"
    elif turns >= s.rules.max_turns:
        reason = "max_turns"
    changes.update(drawn=None, drawn_from=None, turns_in_hole=turns, final_turns_left=finals)
    if s.drawn_seen:
        changes["drawn_seen"] = ()
    if reason is not None:
        changes.update(phase=Phase.HOLE_OVER, to_act=None, end_reason=reason)
    else:
        changes.update(phase=Phase.DRAW, to_act=(seat + 1) % s.seats)
    return changes


def _card_swapped(s: State, e: CardSwapped) -> Changes:
    changes: Changes = {
        "grids": _set(s.grids, e.seat, _set(s.grids[e.seat], e.position, e.card)),
        "discard": (*s.discard, e.replaced),
    }
    return _end_turn(s, e.seat, _turn_up(s, e.seat, e.position, changes))


def _card_discarded(s: State, e: CardDiscarded) -> Changes:
    changes: Changes = {"discard": (*s.discard, e.card)}
    if e.flip_position is not None:
        _turn_up(s, e.seat, e.flip_position, changes)
    return _end_turn(s, e.seat, changes)


def _stock_reshuffled(s: State, e: StockReshuffled) -> Changes:
    pile = s.discard[:-1]
    known = {
        viewer: count
        for viewer, number, foreseen_pile, count in s.foreseen
        if number == s.reshuffles and foreseen_pile == pile
    }
    return {
        "stock": e.stock,
        "discard": s.discard[-1:],
        "reshuffles": s.reshuffles + 1,
        "reshuffled_piles": (*s.reshuffled_piles, pile),
        "stock_seen": tuple(sorted(known.items())),
    }


def _final_turns_began(s: State, e: FinalTurnsBegan) -> Changes:
    return {"finisher": e.seat, "final_turns_left": e.turns_left}


def went_out(s: State) -> Seat | None:
    """The seat that went out this hole: the finisher the final turns began for, else (the
    hole ended with that very turn) the seat whose grid is all face up."""
    if s.finisher is not None:
        return s.finisher
    return next((seat for seat, up in enumerate(s.face_up) if up and all(up)), None)


def _hole_scored(s: State, e: HoleScored) -> Changes:
    # the pause after a hole (not after the last) awaits every human seat's ``next``
    awaiting = s.humans if s.rules.pause_between_holes and e.hole < s.rules.holes else ()
    return {
        "phase": Phase.HOLE_OVER if awaiting else Phase.NOT_DEALT,
        "to_act": None,
        "drawn": None,
        "drawn_from": None,
        "end_reason": e.reason,
        "totals": e.totals,
        "hole_scores": (*s.hole_scores, e.scores),
        "hole_finishers": (*s.hole_finishers, went_out(s)),
        "awaiting_next": awaiting,
        "last_hole_grids": e.grids,
        "face_up": tuple((True,) * len(g) for g in e.grids),
        "grids": e.grids,
        "undo_point": None,
        "seen": (),  # every card is face up
    }


def _hole_acknowledged(s: State, e: HoleAcknowledged) -> Changes:
    """A human seat is ready for the next hole; in a local match (one account plays every
    human seat) one ``next`` is enough. The last one lets the next hole be dealt."""
    awaiting = () if s.rules.local else tuple(x for x in s.awaiting_next if x != e.seat)
    if awaiting:
        return {"awaiting_next": awaiting}
    return {"awaiting_next": (), "phase": Phase.NOT_DEALT}


def _match_finished(s: State, e: MatchFinished) -> Changes:
    return {"phase": Phase.FINISHED, "to_act": None, "winners": e.winners}


def _match_aborted(s: State, e: MatchAborted) -> Changes:
    return {
        "phase": Phase.ABORTED,
        "to_act": None,
        "end_reason": e.reason,
        "undo_point": None,
        "awaiting_next": (),
    }


def _undone(s: State, e: Undone) -> Changes:
    """Go back to the undo point, which the seat that undid (the viewer) now knows better:
    undo never un-sees.

    Every grid card face down at the point and face up now was shown (flipped, or swapped
    onto the discard pile), and every card drawn from the stock since was shown (placed or
    discarded face up), except a card a COM still holds. Those cards are where they were
    at the point: face down again, and the top of the stock in draw order. The cards drawn
    from a stock reshuffled since the point were shown too: a reshuffle of the same pile
    makes the same stock again, so they are marked at its top if it does. The marks are
    the viewer's alone (in a local match other human seats keep their own marks, and see
    none of these: the device was not passed). They go into the point too, so that undoing
    to it again keeps them.
    """
    point = s.undo_point
    if point is None:
        raise EngineError("undone without an undo point")
    viewer = e.seat
    seen = set(point.seen)
    for seat, (before, now) in enumerate(zip(point.face_up, s.face_up, strict=True)):
        turned = (p for p, (was, up) in enumerate(zip(before, now, strict=True)) if up and not was)
        seen.update((viewer, seat, p) for p in turned)
    if s.reshuffles != point.reshuffles:  # the point's whole stock was drawn
        drawn = len(point.stock)
    else:
        drawn = len(point.stock) - len(s.stock) - (s.drawn_from == STOCK)
    stock = dict(point.stock_seen)
    stock[viewer] = max(stock.get(viewer, 0), drawn)
    foreseen = {(v, number, pile): count for v, number, pile, count in point.foreseen}
    first = s.reshuffles - len(s.reshuffled_piles)  # an older snapshot may lack them
    for number in range(max(point.reshuffles, first), s.reshuffles):  # each stock since
        pile = s.reshuffled_piles[number - first]
        shown = len(pile)  # all of it, but for the last stock's cards still in it or held
        if number == s.reshuffles - 1:
            shown -= len(s.stock) + (s.drawn_from == STOCK)
        key = (viewer, number, pile)
        foreseen[key] = max(foreseen.get(key, 0), shown)
    marked = _replace(
        point,
        {
            "seen": tuple(sorted(seen)),
            "stock_seen": tuple(sorted((v, n) for v, n in stock.items() if n > 0)),
            "foreseen": tuple(sorted((*key, n) for key, n in foreseen.items() if n > 0)),
        },
    )
    return {**marked.__dict__, "undo_point": marked}


_EVOLVERS: dict[type, Callable[[Any, Any], Changes]] = {
    SeatTaken: seat_taken_changes,
    # (the undo point goes: an undo back to it would give the seat back to its player)
    SeatHandedOver: partial(seat_handed_over_changes, undo_point=None),
    HoleDealt: _hole_dealt,
    CardRevealed: _card_revealed,
    CardDrawn: _card_drawn,
    CardSwapped: _card_swapped,
    CardDiscarded: _card_discarded,
    StockReshuffled: _stock_reshuffled,
    FinalTurnsBegan: _final_turns_began,
    HoleScored: _hole_scored,
    HoleAcknowledged: _hole_acknowledged,
    MatchFinished: _match_finished,
    MatchAborted: _match_aborted,
    Undone: _undone,
}


def evolve(state: State | None, event: Event) -> State:
    """Apply one event. ``state`` is ``None`` only for the first event, ``match_started``."""
    if state is None:
        if isinstance(event, MatchStarted):
            return _match_started(event)
        raise EngineError("the first event must be match_started")
    return _replace(state, _changes(state, event))


def _changes(state: State, event: Event) -> Changes:
    """The fields ``event`` changes in ``state`` (any event but the first)."""
    if isinstance(event, MatchStarted):
        raise EngineError("match_started must be the first event")
    changes = _EVOLVERS[type(event)](state, event)
    changes["version"] = state.version + 1
    # undo_depth counts the events since the undo point (a human's draw)
    if "undo_point" in changes or isinstance(event, Undone) or state.undo_point is None:
        changes["undo_depth"] = 0
    else:
        changes["undo_depth"] = state.undo_depth + 1
    return changes


def replay(events: Iterable[Event], state: State | None = None) -> State:
    """Fold ``events`` into a state, from scratch or on top of ``state`` (a snapshot): the
    state :func:`evolve` gives event by event. Only the last version is kept, so the fold
    copies the state once and changes that copy in place (``state`` is left as it was)."""
    folded = fold_in_place(events, state, evolve, _changes)
    if folded is None:
        raise EngineError("no events to replay")
    return folded
