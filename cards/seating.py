"""Open seats: a match is dealt when it is created, but a seat left open waits for a player.

A seat's kind in ``match_started`` is ``human``, ``com`` or ``open``. Each player who takes
an open seat adds a ``seat_taken`` event (the seat becomes ``human``), so joining is in the
log like every other fact of a match and moves its version on. While a seat is open
nobody acts: no seat is to act, no action is legal and every one is refused
(``waiting_for_players``), so the deal waits untouched for the table to fill.

A player's seat becomes a COM's when its player leaves a match under way, or staff hand
it over (a suspension): ``seat_handed_over``, so that too is in the log, and every reader
learns of it. The COM plays the seat from then on (its moves' actor names its level).

Every game shares the events and these rules; each folds them into its own state with
:func:`seated` and :func:`handed_over` (a game with undo also forgets its undo point,
:func:`seat_handed_over_changes`: an undo never returns a seat to a player who has gone).

>>> take_seat(("human", "open"), 1, ended=False)
[SeatTaken(seat=1)]
>>> seated(("human", "open"), 1)
('human', 'human')
>>> take_seat(("human", "com"), 1, ended=False)
Traceback (most recent call last):
...
cards.seating.SeatNotOpenError: seat 1 is not open
>>> hand_over(("human", "human"), 0, ended=False)
[SeatHandedOver(seat=0)]
>>> handed_over(("human", "human"), 0)
('com', 'human')
>>> hand_over(("com", "human"), 0, ended=False)
Traceback (most recent call last):
...
cards.seating.SeatNotHumanError: seat 0 is not a player's
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeGuard

from cards.errors import IllegalActionError, MatchOverError, RulesError
from cards.protocol import COM, HUMAN, OPEN

KINDS = (HUMAN, COM, OPEN)
#: The JSON Schema of a seat's kind, as views and ``match_started`` show it.
KIND_SCHEMA: dict[str, Any] = {
    "type": "string",
    "enum": list(KINDS),
    "description": "human, com, or open: a seat waiting for a player (until seat_taken)",
}


@dataclass(frozen=True)
class SeatTaken:
    """A player took an open seat (it is a human's from now on)."""

    seat: int
    name: ClassVar[str] = "seat_taken"
    version: ClassVar[int] = 1


@dataclass(frozen=True)
class SeatHandedOver:
    """A player's seat is a COM's from now on (its player left, or staff handed it over)."""

    seat: int
    name: ClassVar[str] = "seat_handed_over"
    version: ClassVar[int] = 1


class SeatNotOpenError(IllegalActionError):
    code = "seat_not_open"


class SeatNotHumanError(IllegalActionError):
    code = "seat_not_human"


class WaitingForPlayersError(IllegalActionError):
    code = "waiting_for_players"


def reader(seat: object) -> int | None:
    """``seat`` as a reader of events: a seat's number, or ``None`` (a spectator) for
    anything that is not an ``int`` (``True`` is not seat 1).

    >>> reader(2), reader(True), reader("0"), reader(None)
    (2, None, None, None)
    """
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def at_table(seat: object, seats: int) -> TypeGuard[int]:
    """Whether ``seat`` is one of ``seats`` seats' numbers (an ``int``, and not a ``bool``).

    >>> at_table(1, 2), at_table(2, 2), at_table(True, 2), at_table("1", 2)
    (True, False, False, False)
    """
    number = reader(seat)
    return number is not None and 0 <= number < seats


def check_kinds(kinds: Sequence[str]) -> None:
    """A ``RulesError`` unless every seat's kind is ``human``, ``com`` or ``open``."""
    if any(kind not in KINDS for kind in kinds):
        raise RulesError("players", "each seat is 'human', 'com' or 'open'")


def humans_to_be(kinds: Sequence[str]) -> int:
    """The human seats a match will have once its open seats are taken."""
    return sum(1 for kind in kinds if kind in (HUMAN, OPEN))


def waiting(players: Sequence[str]) -> bool:
    """Some seat is still open: nobody may act yet."""
    return OPEN in players


def refuse_while_waiting(players: Sequence[str]) -> None:
    if waiting(players):
        raise WaitingForPlayersError("the match is waiting for players to take its open seats")


def take_seat(players: Sequence[str], seat: int, *, ended: bool) -> list[SeatTaken]:
    """The events of a player taking open ``seat``, or the error that says why not."""
    if ended:
        raise MatchOverError("the match is over")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(players):
        raise SeatNotOpenError(f"seat must be between 0 and {len(players) - 1}")
    if players[seat] != OPEN:
        raise SeatNotOpenError(f"seat {seat} is not open")
    return [SeatTaken(seat)]


def seated(players: Sequence[str], seat: int) -> tuple[str, ...]:
    """``players`` after ``seat_taken`` for ``seat``."""
    return tuple(HUMAN if i == seat else kind for i, kind in enumerate(players))


def seat_taken_changes(state: Any, event: SeatTaken) -> dict[str, Any]:
    """What ``seat_taken`` changes in a game's state (any state with ``players``): each
    game's fold takes it as its own evolver."""
    return {"players": seated(state.players, event.seat)}


def hand_over(players: Sequence[str], seat: int, *, ended: bool) -> list[SeatHandedOver]:
    """The events of a player's ``seat`` handed to a COM, or the error that says why not."""
    if ended:
        raise MatchOverError("the match is over")
    if not at_table(seat, len(players)):
        raise SeatNotHumanError(f"seat must be between 0 and {len(players) - 1}")
    if players[seat] != HUMAN:
        raise SeatNotHumanError(f"seat {seat} is not a player's")
    return [SeatHandedOver(seat)]


def handed_over(players: Sequence[str], seat: int) -> tuple[str, ...]:
    """``players`` after ``seat_handed_over`` for ``seat``."""
    return tuple(COM if i == seat else kind for i, kind in enumerate(players))


def seat_handed_over_changes(state: Any, event: SeatHandedOver, **reset: Any) -> dict[str, Any]:
    """What ``seat_handed_over`` changes in a game's state (any state with ``players``),
    and the fields ``reset`` sets (a game with undo: ``undo_point=None``)."""
    return {"players": handed_over(state.players, event.seat), **reset}
