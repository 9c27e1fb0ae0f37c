"""Hearts' own refusals, each with a stable machine-readable ``code`` (the kernel's
errors, :mod:`cards.errors`, cover the rest: not a seat, not your turn, wrong phase,
match over, malformed)."""

from __future__ import annotations

from cards.errors import IllegalActionError


class CardNotInHandError(IllegalActionError):
    code = "card_not_in_hand"


class AlreadyPassedError(IllegalActionError):
    code = "already_passed"


class NotThreeCardsError(IllegalActionError):
    """A pass is three different cards (an action read from JSON is refused earlier)."""

    code = "not_three_cards"


class MustLeadOpeningCardError(IllegalActionError):
    """The first trick is led with the 2 of clubs (the 3 when the 2 is removed)."""

    code = "must_lead_opening_card"


class MustFollowSuitError(IllegalActionError):
    code = "must_follow_suit"


class HeartsNotBrokenError(IllegalActionError):
    code = "hearts_not_broken"


class NoPointsOnFirstTrickError(IllegalActionError):
    code = "no_points_on_first_trick"


class UndoNotAvailableError(IllegalActionError):
    code = "undo_not_available"
