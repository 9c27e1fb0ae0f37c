"""Moves made for the tests: random legal ones, through the match service."""

from __future__ import annotations

import random

from golf import legal_actions
from matches import services
from matches.models import Match
from matches.store import load_state


def play_randomly(match_id: str, players: list, moves: int, rng: random.Random) -> None:
    """Up to ``moves`` random legal moves of the seats to act (``players[seat]`` making
    each), fewer if the match ends first."""
    for _ in range(moves):
        state = load_state(Match.objects.get(pk=match_id))
        if state.ended:
            return
        seat = rng.choice(state.seats_to_act())
        action = rng.choice(legal_actions(state, seat)).to_json()
        services.match_act(match_id=match_id, user=players[seat], action=action)
