"""The rule set of a Ninety-Nine match (``docs/ninety-nine.md``): one frozen value.

Three options, each validated; an error names the option at fault:

>>> r = Rules.from_preset("ninety-nine", target_score=150)
>>> r.premium_bids, r.target_score, r.max_deals
(True, 150, None)
>>> Rules.from_json(r.to_json()) == r
True
>>> Rules.from_preset("ninety-nine", max_deals=0)
Traceback (most recent call last):
...
cards.errors.RulesError: max_deals: must be null (no limit) or an integer from 1 to 50
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from cards.errors import RulesError

Seat: TypeAlias = int

SEATS = 3
PRESET = "ninety-nine"
TARGET_RANGE = (1, 1000)
MAX_DEALS_RANGE = (1, 50)
ON, OFF = "on", "off"


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a Ninety-Nine match; build it with :meth:`from_preset` or
    :meth:`from_json` (which validate)."""

    preset: str = PRESET
    premium_bids: bool = True
    target_score: int = 100
    max_deals: int | None = None

    def __post_init__(self) -> None:
        """A value built directly is checked as one read from JSON:

        >>> Rules(target_score=0)
        Traceback (most recent call last):
        ...
        cards.errors.RulesError: target_score: must be an integer from 1 to 1000
        """
        if self.preset != PRESET:
            raise RulesError("preset", f"unknown preset {self.preset!r}; one of [{PRESET!r}]")
        if not isinstance(self.premium_bids, bool):
            raise RulesError("premium_bids", "must be True or False")
        _target_score(self.target_score)
        _max_deals(self.max_deals)

    @classmethod
    def from_preset(cls, preset: str = PRESET, /, **overrides: Any) -> Rules:
        """A preset with option overrides in their JSON spelling."""
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError("preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
        if overrides.get("preset", preset) != preset:
            raise RulesError("preset", "the preset is the match's 'preset', not a rules option")
        return cls.from_json({**PRESETS[preset].to_json(), **overrides, "preset": preset})

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        """Parse and validate the JSON form; a missing option takes the preset's value."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", "must be an object")
        preset = data.get("preset", PRESET)
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError("preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
        unknown = sorted(str(k) for k in set(data) - set(OPTIONS) - {"preset"})
        if unknown:
            raise RulesError(
                unknown[0], f"unknown rules option; the options are {', '.join(OPTIONS)}"
            )
        base = PRESETS[preset]
        values = {
            name: _PARSERS[name](data[name]) if name in data else getattr(base, name)
            for name in OPTIONS
        }
        return cls(preset=preset, **values)

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "premium_bids": ON if self.premium_bids else OFF,
            "target_score": self.target_score,
            "max_deals": self.max_deals,
        }

    @property
    def most_deals(self) -> int:
        """The most deals a match can last: ``max_deals``, or sooner the deal by which some
        total must have reached the target (every deal gives out at least 9 points, so
        after ``d`` deals the highest total is at least ``3 d``)."""
        bound = -(-self.target_score // SEATS)
        return bound if self.max_deals is None else min(bound, self.max_deals)


def _premium_bids(value: Any) -> bool:
    if value not in (ON, OFF):
        raise RulesError("premium_bids", f"must be {ON!r} or {OFF!r}")
    return bool(value == ON)


def _target_score(value: Any) -> int:
    low, high = TARGET_RANGE
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError("target_score", f"must be an integer from {low} to {high}")
    return value


def _max_deals(value: Any) -> int | None:
    low, high = MAX_DEALS_RANGE
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError("max_deals", f"must be null (no limit) or an integer from {low} to {high}")
    return value


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "premium_bids": _premium_bids,
    "target_score": _target_score,
    "max_deals": _max_deals,
}
OPTIONS: tuple[str, ...] = tuple(_PARSERS)
PRESETS: dict[str, Rules] = {PRESET: Rules()}

OPTION_DOCS: dict[str, str] = {
    "premium_bids": "on: after the bid each player in turn may pass, declare (bid cards face "
    "up: +30 if made, else 30 to each other player) or reveal (the whole hand face up too: "
    "+60, else 60 to each other); off: no premium bids",
    "target_score": "the match ends after the deal in which a total reaches this score; the "
    "highest total wins (ties share the win)",
    "max_deals": "null: no limit; else the match also ends after this many deals",
}
OPTION_SCHEMAS: dict[str, dict[str, Any]] = {
    "premium_bids": {"type": "string", "enum": [ON, OFF]},
    "target_score": {"type": "integer", "minimum": TARGET_RANGE[0], "maximum": TARGET_RANGE[1]},
    "max_deals": {
        "type": "integer",
        "minimum": MAX_DEALS_RANGE[0],
        "maximum": MAX_DEALS_RANGE[1],
        "nullable": True,
    },
}
