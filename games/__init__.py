"""The registry of games: the platform's only way to a game.

The match store, the API, the workers, the admin and the verifier ask
``get_game(match.game)`` and talk to the :class:`cards.protocol.Game` they get; none of
them imports a game package (an import-linter contract checks it). A new game is one
pure package and one line here.
"""

from __future__ import annotations

import importlib
import os

from cards.protocol import Game
from golf.game import GOLF
from hearts.game import HEARTS
from ninety_nine.game import NINETY_NINE

_GAMES: dict[str, Game] = {}


class UnknownGame(LookupError):
    """No game of that name is registered."""


def register(game: Game) -> Game:
    """Make ``game`` available under ``game.info.name`` (tests register toy games too)."""
    _GAMES[game.info.name] = game
    return game


def unregister(name: str) -> None:
    _GAMES.pop(name, None)


def get_game(name: str) -> Game:
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game {name!r}; the games are {sorted(_GAMES)}") from None


def all_games() -> list[Game]:
    """Every registered game, in name order."""
    return [_GAMES[name] for name in sorted(_GAMES)]


def event_types() -> list[str]:
    """Every registered game's event types, sorted: a game's event schema has one
    component ``<event>_<type>`` per type (``GolfEvent_card_drawn``)."""
    found: set[str] = set()
    for game in all_games():
        schemas = game.json_schemas()
        if schemas.event:
            prefix = f"{schemas.event}_"
            found.update(n.removeprefix(prefix) for n in schemas.components if n.startswith(prefix))
    return sorted(found)


def register_from(spec: str) -> Game:
    """Import and register ``"package.module:NAME"``: how a game outside this list (a test's
    toy game) reaches every process of a deployment, web and workers alike, through
    ``EXTRA_GAMES``."""
    module, _, attribute = spec.partition(":")
    game: Game = getattr(importlib.import_module(module), attribute)
    return register(game)


DEFAULT_GAME = "golf"
register(GOLF)
register(HEARTS)
register(NINETY_NINE)
for _spec in filter(None, os.environ.get("EXTRA_GAMES", "").split(",")):
    register_from(_spec.strip())
