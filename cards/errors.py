"""The errors a game raises. Each carries a stable machine-readable ``code``, which the API
answers with.

``MalformedActionError`` means the request could not be understood at all;
``IllegalActionError`` (and its subclasses, a game adds its own) means it was understood
but the rules do not allow it now. ``RulesError`` names the rules option that is wrong.
"""

from __future__ import annotations


class EngineError(ValueError):
    code = "engine_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RulesError(EngineError):
    """Rules that cannot be played: ``field`` names the option at fault."""

    code = "invalid_rules"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class MalformedActionError(EngineError):
    code = "malformed_action"


class MalformedEventError(EngineError):
    code = "malformed_event"


class IllegalActionError(EngineError):
    """An action the rules do not allow in this state."""

    code = "illegal_action"


class NotASeatError(IllegalActionError):
    code = "not_a_seat"


class MatchOverError(IllegalActionError):
    code = "match_over"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class WrongPhaseError(IllegalActionError):
    code = "wrong_phase"


#: What replaying a stored log through the rules may raise when the log was not written by
#: them: their own refusals (``EngineError``), and a field a forger filled with something the
#: rules cannot read at all (a card that is no card, a seed that is not hex, a seat that is
#: not a number). A game's ``audit`` reports each as a fault, never as a crash (so would a
#: defect of the rules on a sound log be, which the contract test's audits of every playout
#: would then show).
UNREADABLE_LOG = (ValueError, TypeError, LookupError)
