"""Ninety-Nine's own refusals, beside the kernel's (:mod:`cards.errors`); each has a
stable machine-readable ``code``."""

from __future__ import annotations

from cards.errors import IllegalActionError


class AlreadyBidError(IllegalActionError):
    code = "already_bid"


class NotThreeCardsError(IllegalActionError):
    code = "not_three_cards"


class CardNotInHandError(IllegalActionError):
    code = "card_not_in_hand"


class MustFollowSuitError(IllegalActionError):
    code = "must_follow_suit"


class PremiumBidsOffError(IllegalActionError):
    code = "premium_bids_off"


class PremiumBidTakenError(IllegalActionError):
    code = "premium_bid_taken"
