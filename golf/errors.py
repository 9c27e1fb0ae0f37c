"""Golf's errors: the kernel's (:mod:`cards.errors`) and the rules' own, each with a stable
machine-readable ``code``."""

from __future__ import annotations

from cards.errors import (
    EngineError,
    IllegalActionError,
    MalformedActionError,
    MalformedEventError,
    MatchOverError,
    NotASeatError,
    NotYourTurnError,
    RulesError,
    WrongPhaseError,
)

__all__ = [
    "EngineError",
    "IllegalActionError",
    "MalformedActionError",
    "MalformedEventError",
    "MatchOverError",
    "NotASeatError",
    "NotYourTurnError",
    "RulesError",
    "WrongPhaseError",
]


class PositionOutOfRangeError(IllegalActionError):
    code = "position_out_of_range"


class CardAlreadyFaceUpError(IllegalActionError):
    code = "card_already_face_up"


class NoFlipsLeftError(IllegalActionError):
    code = "no_flips_left"


class MustDrawFirstError(IllegalActionError):
    code = "must_draw_first"


class AlreadyDrawnError(IllegalActionError):
    code = "already_drawn"


class DiscardPileEmptyError(IllegalActionError):
    code = "discard_pile_empty"


class MustSwapTakenDiscardError(IllegalActionError):
    code = "must_swap_taken_discard"


class FlipRequiredError(IllegalActionError):
    code = "flip_required"


class FlipNotAllowedError(IllegalActionError):
    code = "flip_not_allowed"


class UndoNotAvailableError(IllegalActionError):
    code = "undo_not_available"


class AlreadyAcknowledgedError(IllegalActionError):
    code = "already_acknowledged"
