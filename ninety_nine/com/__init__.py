"""Computer players (COM) and hints, decided from a seat's view alone."""

from ninety_nine.com.policies import LEVELS, POLICIES, choose_action

__all__ = ["LEVELS", "POLICIES", "choose_action"]
