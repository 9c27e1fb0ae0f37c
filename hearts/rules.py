"""The rule set of a Hearts match (``docs/hearts.md``, section 4 of the rules reference):
every option as one frozen value, built from a preset plus overrides and validated, with
an error that names the option at fault.

>>> r = Rules.from_preset("hearts-classic", target_score=50)
>>> r.passing, r.shoot_the_moon, r.target_score
(<Passing.ROTATE: 'rotate'>, <Moon.OTHERS_GET_26: 'others_get_26'>, 50)
>>> Rules.from_json(r.to_json()) == r
True
>>> Rules.from_preset("hearts", players=3, passing="across")
Traceback (most recent call last):
...
cards.errors.RulesError: passing: 'across' passing needs 4 players, and players is 3
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, TypeAlias

from cards.deck import CardCode
from cards.errors import RulesError

Seat: TypeAlias = int

MIN_PLAYERS = 3
MAX_PLAYERS = 5
TARGET_RANGE = (1, 1000)
MAX_DEALS_RANGE = (1, 50)
#: Without ``max_deals`` and with ``shooter_minus_26`` (a deal that can lower the totals)
#: the rules set no bound on the number of deals; the engine stops such a match here.
DEAL_CAP = 500

#: Cards removed so that the deal comes out even, by table size (public, never dealt).
REMOVED: dict[int, tuple[CardCode, ...]] = {3: ("2D",), 4: (), 5: ("2D", "2C")}


class Passing(enum.Enum):
    NONE = "none"
    ROTATE = "rotate"
    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"


class FirstTrickPoints(enum.Enum):
    NEVER = "never"
    ALLOWED = "allowed"


class Moon(enum.Enum):
    OFF = "off"
    OTHERS_GET_26 = "others_get_26"
    SHOOTER_MINUS_26 = "shooter_minus_26"


class JackOfDiamonds(enum.Enum):
    OFF = "off"
    MINUS_10 = "minus_10"


#: Where the cards of one deal go, as a seat offset (``None``: no passing that deal).
DIRECTIONS: dict[str, int | None] = {"left": 1, "right": -1, "across": 2, "hold": None}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a Hearts match. ``players`` is ``None`` when any table of 3 to 5
    may play the rules (the seed's own game)."""

    preset: str = "hearts"
    players: int | None = None
    passing: Passing = Passing.NONE
    points_on_first_trick: FirstTrickPoints = FirstTrickPoints.NEVER
    shoot_the_moon: Moon = Moon.OFF
    jack_of_diamonds: JackOfDiamonds = JackOfDiamonds.OFF
    target_score: int = 100
    max_deals: int | None = None
    undo: bool = False

    # --- construction -----------------------------------------------------------------
    @classmethod
    def from_preset(cls, preset: str = "hearts", /, **overrides: Any) -> Rules:
        """A preset with overrides (in their JSON spelling). A contradiction between the
        options names an overridden one."""
        base = _preset(preset)
        _check_names(overrides)
        if overrides.get("preset", preset) != preset:
            raise RulesError("preset", "the preset is chosen by the match, not inside the rules")
        data = {**base.to_json(), **overrides, "preset": preset}
        return cls._parse(data, blame=tuple(overrides))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        """Parse and validate the JSON form; a missing option takes its preset's value."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", "must be an object")
        return cls._parse(data, blame=())

    @classmethod
    def _parse(cls, data: Mapping[str, Any], blame: tuple[str, ...]) -> Rules:
        preset = data.get("preset", "hearts")
        base = _preset(preset)
        _check_names(data)
        values = {
            name: _PARSERS[name](data[name]) if name in data else getattr(base, name)
            for name in OPTION_NAMES
        }
        rules = cls(preset=preset, **values)
        rules._check_contradictions(blame)
        return rules

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "players": self.players,
            "passing": self.passing.value,
            "points_on_first_trick": self.points_on_first_trick.value,
            "shoot_the_moon": self.shoot_the_moon.value,
            "jack_of_diamonds": self.jack_of_diamonds.value,
            "target_score": self.target_score,
            "max_deals": self.max_deals,
            "undo": self.undo,
        }

    def with_overrides(self, **overrides: Any) -> Rules:
        return Rules._parse({**self.to_json(), **overrides}, blame=tuple(overrides))

    def _check_contradictions(self, blame: tuple[str, ...]) -> None:
        if self.passing is Passing.ACROSS and self.players not in (None, 4):
            field = "players" if "players" in blame and "passing" not in blame else "passing"
            raise RulesError(
                field, f"'across' passing needs 4 players, and players is {self.players}"
            )

    def validate_for(self, players: int) -> None:
        """Check that a table of ``players`` can play these rules."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError("players", f"Hearts is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if self.players is not None and players != self.players:
            raise RulesError("players", f"these rules are for {self.players} players")
        if self.passing is Passing.ACROSS and players != 4:
            raise RulesError("passing", "'across' passing needs 4 players")

    # --- derived values -----------------------------------------------------------------
    def seat_range(self) -> tuple[int, int]:
        if self.players is not None:
            return self.players, self.players
        if self.passing is Passing.ACROSS:
            return 4, 4
        return MIN_PLAYERS, MAX_PLAYERS

    def direction(self, deal: int, players: int) -> str:
        """Where the cards go in deal ``deal`` (from 1): ``left``, ``right``, ``across`` or
        ``hold`` (no passing).

        >>> r = Rules.from_preset("hearts-classic")
        >>> [r.direction(d, 4) for d in range(1, 6)]
        ['left', 'right', 'across', 'hold', 'left']
        >>> [r.direction(d, 3) for d in range(1, 5)]
        ['left', 'right', 'hold', 'left']
        """
        if self.passing is Passing.NONE:
            return "hold"
        if self.passing is Passing.ROTATE:
            cycle = (
                ("left", "right", "across", "hold") if players == 4 else ("left", "right", "hold")
            )
            return cycle[(deal - 1) % len(cycle)]
        return str(self.passing.value)

    def deal_limit(self, players: int) -> int:
        """The most deals these rules allow a table of ``players``: ``max_deals``, or the
        deals after which some total must have reached the target.

        Each deal adds at least 26 points to the sum of the totals (16 with the jack of
        diamonds), unless a moon shot takes 26 off; while every total is below the target
        the sum is below ``players * target``.
        """
        if self.max_deals is not None:
            return self.max_deals
        if self.shoot_the_moon is Moon.SHOOTER_MINUS_26:
            return DEAL_CAP
        per_deal = 16 if self.jack_of_diamonds is JackOfDiamonds.MINUS_10 else 26
        return min(DEAL_CAP, players * (self.target_score - 1) // per_deal + 1)


# --- parsing of the JSON spelling -----------------------------------------------------------
def _preset(name: object) -> Rules:
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesError("preset", f"unknown preset {name!r}; one of {sorted(PRESETS)}")
    return PRESETS[name]


def _check_names(data: Mapping[str, Any]) -> None:
    unknown = sorted(map(str, set(data) - set(OPTION_NAMES) - {"preset"}))
    if unknown:
        raise RulesError(
            unknown[0], f"unknown rules option; the options are {', '.join(OPTION_NAMES)}"
        )


def _integer(name: str, bounds: tuple[int, int], *, nullable: bool = False) -> Callable[..., Any]:
    low, high = bounds

    def parse(value: Any) -> int | None:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            extra = " or null" if nullable else ""
            raise RulesError(name, f"must be an integer from {low} to {high}{extra}")
        return value

    return parse


def _choice(name: str, kind: type[enum.Enum]) -> Callable[..., Any]:
    def parse(value: Any) -> enum.Enum:
        try:
            return kind(value)
        except (ValueError, TypeError):
            allowed = ", ".join(repr(m.value) for m in kind)
            raise RulesError(name, f"must be one of {allowed}") from None

    return parse


def _players(value: Any) -> int | None:
    if value is None or (type(value) is int and MIN_PLAYERS <= value <= MAX_PLAYERS):
        return value
    raise RulesError("players", "must be 3, 4, 5 or null (any of them)")


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError("undo", "must be true or false")
    return value


_PARSERS: dict[str, Callable[..., Any]] = {
    "players": _players,
    "passing": _choice("passing", Passing),
    "points_on_first_trick": _choice("points_on_first_trick", FirstTrickPoints),
    "shoot_the_moon": _choice("shoot_the_moon", Moon),
    "jack_of_diamonds": _choice("jack_of_diamonds", JackOfDiamonds),
    "target_score": _integer("target_score", TARGET_RANGE),
    "max_deals": _integer("max_deals", MAX_DEALS_RANGE, nullable=True),
    "undo": _flag,
}
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.name != "preset")
assert set(_PARSERS) == set(OPTION_NAMES)

_SEED = Rules()
PRESETS: dict[str, Rules] = {
    "hearts": _SEED,
    "hearts-classic": replace(
        _SEED,
        preset="hearts-classic",
        players=4,
        passing=Passing.ROTATE,
        shoot_the_moon=Moon.OTHERS_GET_26,
    ),
}

#: Each option's JSON Schema (OpenAPI 3.0: ``nullable``) with its meaning.
OPTION_SCHEMAS: dict[str, dict[str, Any]] = {
    "players": {
        "type": "integer",
        "enum": [3, 4, 5],
        "nullable": True,
        "description": "the table size these rules are for; null: any of 3, 4 or 5 "
        "(3 players: the 2 of diamonds is removed; 5: the 2s of diamonds and clubs)",
    },
    "passing": {
        "type": "string",
        "enum": [m.value for m in Passing],
        "description": "cards passed before each deal's play (3 cards, all at once): none; "
        "rotate (4 players: left, right, across, hold; 3 or 5: left, right, hold); or "
        "always left, right or across (4 players only)",
    },
    "points_on_first_trick": {
        "type": "string",
        "enum": [m.value for m in FirstTrickPoints],
        "description": "never: no heart and not the queen of spades on the first trick, "
        "unless the hand holds nothing else; allowed: any card when void in clubs",
    },
    "shoot_the_moon": {
        "type": "string",
        "enum": [m.value for m in Moon],
        "description": "a player who takes all 26 points: off (they score 26); "
        "others_get_26 (they score 0, everyone else 26); shooter_minus_26 (they score "
        "-26, everyone else 0)",
    },
    "jack_of_diamonds": {
        "type": "string",
        "enum": [m.value for m in JackOfDiamonds],
        "description": "minus_10: whoever takes the jack of diamonds scores -10 for it "
        "(not part of shooting the moon)",
    },
    "target_score": {
        "type": "integer",
        "minimum": TARGET_RANGE[0],
        "maximum": TARGET_RANGE[1],
        "description": "the match ends after a deal in which a total reaches this; the "
        "lowest total wins, equal lowest totals share the win",
    },
    "max_deals": {
        "type": "integer",
        "minimum": MAX_DEALS_RANGE[0],
        "maximum": MAX_DEALS_RANGE[1],
        "nullable": True,
        "description": "the match also ends after this many deals; null: no such limit",
    },
    "undo": {
        "type": "boolean",
        "description": "a practice match: the lone human (every other seat a COM) may take "
        "back their last card played and the COM plays after it; undo never un-sees",
    },
}
assert set(OPTION_SCHEMAS) == set(OPTION_NAMES)
