"""Computer players (COM) and hints for Hearts, computed from a seat's view alone."""

from hearts.com.policies import LEVELS, POLICIES, choose_action

__all__ = ["LEVELS", "POLICIES", "choose_action"]
