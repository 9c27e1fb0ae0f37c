"""The pure Golf rules engine: no framework imports, no clock, no global randomness.

The contract, in the spirit of OpenSpiel and event sourcing::

    events = start_match(rules, players, seed)      # the first events
    state = replay(events)                          # fold events into a state
    legal_actions(state, seat)                      # what a seat may do
    new_events = decide(state, seat, action)        # or an IllegalActionError
    state = replay(new_events, state)               # == evolve event by event
    view_for(state, seat)                           # what that seat may see

Randomness enters only through the seed given to :func:`start_match`.
"""

from cards.deck import Card, CardCode, Rank, Suit, build_deck
from cards.shuffle import commitment_of, new_seed
from golf.actions import (
    Action,
    DiscardDrawn,
    DrawFromStock,
    RevealCard,
    SwapCard,
    TakeDiscard,
    Undo,
    action_from_json,
)
from golf.decide import abort_match, decide, legal_actions, start_match
from golf.errors import (
    EngineError,
    IllegalActionError,
    MalformedActionError,
    MalformedEventError,
    RulesError,
)
from golf.events import (
    Event,
    event_from_json,
    event_from_payload,
    event_payload,
    event_to_json,
)
from golf.rules import PRESETS, Rules
from golf.scoring import Outcome, score_grid, winners_of
from golf.state import COM, HUMAN, Phase, State, evolve, replay
from golf.views import View, outcome, redact_event, spectator_view, view_for

__all__ = [
    "COM",
    "HUMAN",
    "PRESETS",
    "Action",
    "Card",
    "CardCode",
    "DiscardDrawn",
    "DrawFromStock",
    "EngineError",
    "Event",
    "IllegalActionError",
    "MalformedActionError",
    "MalformedEventError",
    "Outcome",
    "Phase",
    "Rank",
    "RevealCard",
    "Rules",
    "RulesError",
    "State",
    "Suit",
    "SwapCard",
    "TakeDiscard",
    "Undo",
    "View",
    "abort_match",
    "action_from_json",
    "build_deck",
    "commitment_of",
    "decide",
    "event_from_json",
    "event_from_payload",
    "event_payload",
    "event_to_json",
    "evolve",
    "legal_actions",
    "new_seed",
    "outcome",
    "redact_event",
    "replay",
    "score_grid",
    "spectator_view",
    "start_match",
    "view_for",
    "winners_of",
]
