"""Computer players (COM) and hints, computed from a seat's view alone."""

from golf.com.policies import LEVELS, POLICIES, choose_action

__all__ = ["LEVELS", "POLICIES", "choose_action"]
