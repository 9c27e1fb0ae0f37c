"""Another player's request made while a check is under way (test helpers)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any


def a_move_before_each_verification(
    monkeypatch: Any, match_id: object, players: Sequence[Any]
) -> None:
    """Before each verification of a match (``matches.verify.verify_match``), another
    connection (a thread: a player's request) makes the first legal move of the seat to
    act in ``match_id``; ``players[seat]`` is the account that holds each seat."""
    from django.db import connections

    from matches import verify
    from matches.models import Match
    from matches.selectors import match_view
    from matches.services import match_act

    real = verify.verify_match

    def move() -> None:
        match = Match.objects.get(pk=match_id)
        user = players[match.seats_to_act[0]]
        action = match_view(match, user)["legal_actions"][0]
        match_act(match_id=match_id, user=user, action=action)
        connections.close_all()

    def moved_then_verified(row: Any) -> Any:
        mover = threading.Thread(target=move)
        mover.start()
        mover.join()
        return real(row)

    monkeypatch.setattr(verify, "verify_match", moved_then_verified)
