"""Computer players (COM) and hints, computed from a seat's view alone."""

from golf.com.policies import LEVEL_ALIASES, LEVELS, POLICIES, choose_action, resolve_level

__all__ = ["LEVELS", "LEVEL_ALIASES", "POLICIES", "choose_action", "resolve_level"]
