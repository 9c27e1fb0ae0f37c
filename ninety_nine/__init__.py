"""Ninety-Nine: David Parlett's three-player exact-bidding trick game, as one pure package
(no web framework, no database): rules, events, state, decisions, views, the audit and
the computer players. The platform reaches it only through ``ninety_nine.game.NINETY_NINE``
(registered in ``games``)."""
