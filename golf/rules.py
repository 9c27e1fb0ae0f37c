"""The rule set of a Golf match: every option of the rules reference, as one frozen value.

Build it from a preset plus field overrides; every field is validated and an error names
the field at fault:

>>> r = Rules.from_preset("six-card", holes=3)
>>> r.grid, r.lines, r.holes
((2, 3), <Lines.COLUMNS: 'columns'>, 3)
>>> Rules.from_json(r.to_json()) == r
True
>>> Rules.from_preset("nine-card", initial_flips=9)
Traceback (most recent call last):
...
cards.errors.RulesError: initial_flips: must be between 0 and 8 for a 3x3 grid
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, TypeAlias

from cards.deck import STANDARD_RANKS, CardCode, Rank, rank_of
from golf.errors import RulesError

Seat: TypeAlias = int
Position: TypeAlias = int

MIN_PLAYERS = 2
MAX_PLAYERS = 6
GRIDS: tuple[tuple[int, int], ...] = ((2, 2), (2, 3), (2, 4), (3, 3))
CARD_VALUE_RANGE = (-20, 50)


class Lines(enum.Enum):
    COLUMNS = "columns"
    ROWS_AND_COLUMNS = "rows_and_columns"
    NONE = "none"


class FinalTurns(enum.Enum):
    OTHERS_ONCE = "others_once"
    NONE = "none"


class FlipOnDiscard(enum.Enum):
    NEVER = "never"
    ALWAYS = "always"
    OPTIONAL = "optional"


class MatchBy(enum.Enum):
    """What the cards of a line must share to match: their rank, or their point value."""

    RANK = "rank"
    VALUE = "value"


class OpeningFlips(enum.Enum):
    """The initial flips: all seats at once, or one seat after another from the dealer's left."""

    SIMULTANEOUS = "simultaneous"
    IN_TURN = "in_turn"


AUTO = "auto"

_BASE_VALUES: dict[str, int] = {
    "A": 1,
    "2": -2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 0,
    "X": -2,
}
RANK_CHARS: tuple[str, ...] = tuple(_BASE_VALUES)
#: What two cards must share to match (:meth:`Rules.match_key`): a rank character, or points.
MatchKey: TypeAlias = str | int


def default_values(jokers: bool) -> dict[str, int]:
    """The default points table: 2 is -2, or +2 when jokers are in play."""
    values = dict(_BASE_VALUES)
    if jokers:
        values["2"] = 2
    return values


@functools.lru_cache(maxsize=256)
def _value_table(jokers: bool, overrides: tuple[tuple[str, int], ...]) -> Mapping[str, int]:
    table = default_values(jokers)
    table.update(overrides)
    return MappingProxyType(table)


@functools.lru_cache(maxsize=256)
def _match_keys(
    jokers: bool, overrides: tuple[tuple[str, int], ...], match_by: MatchBy
) -> Mapping[str, MatchKey]:
    if match_by is MatchBy.RANK:
        return MappingProxyType({r: r for r in RANK_CHARS})
    return _value_table(jokers, overrides)


@functools.lru_cache(maxsize=64)
def _line_positions(grid: tuple[int, int], lines: Lines) -> tuple[tuple[Position, ...], ...]:
    rows, cols = grid
    columns = tuple(tuple(r * cols + c for r in range(rows)) for c in range(cols))
    if lines is Lines.COLUMNS:
        return columns
    if lines is Lines.ROWS_AND_COLUMNS:
        row_lines = tuple(tuple(r * cols + c for c in range(cols)) for r in range(rows))
        return row_lines + columns
    return ()


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a Golf match. Construct with :meth:`from_preset` or :meth:`from_json`.

    ``values`` holds only the overrides of the default points table, as sorted
    ``(rank, points)`` pairs; :meth:`card_value` applies them.

    ``pause_between_holes`` defaults to true here and in every preset, but a stored rules
    object without it (a match started before the option existed) reads as false, so that
    its log replays with the flow it was recorded with (see :meth:`from_json`).
    """

    preset: str = "six-card"
    grid: tuple[int, int] = (2, 3)
    decks: int | str = AUTO
    jokers: bool = False
    values: tuple[tuple[str, int], ...] = ()
    lines: Lines = Lines.COLUMNS
    match_by: MatchBy = MatchBy.RANK
    negative_pairs_keep_value: bool = False
    final_turns: FinalTurns = FinalTurns.OTHERS_ONCE
    discard_take_must_swap: bool = True
    flip_on_discard: FlipOnDiscard = FlipOnDiscard.NEVER
    initial_flips: int = 2
    opening_flips: OpeningFlips = OpeningFlips.SIMULTANEOUS
    max_turns: int = 240
    holes: int = 9
    undo: bool = False
    local: bool = False
    pause_between_holes: bool = True

    # --- construction -----------------------------------------------------------------
    @classmethod
    def from_preset(cls, preset: str = "six-card", /, **overrides: Any) -> Rules:
        """A preset with field overrides; overrides use the JSON spelling of values."""
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError("preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
        data = PRESETS[preset].to_json()
        unknown = sorted(map(str, set(overrides) - set(FIELD_NAMES) - {"preset"}))
        if unknown:
            raise RulesError(
                unknown[0], f"unknown rules option; the options are {', '.join(FIELD_NAMES)}"
            )
        if overrides.get("preset", preset) != preset:
            raise RulesError(
                "preset", "the preset is chosen by the match's 'preset', not inside the rules"
            )
        data.update(overrides)
        data["preset"] = preset
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        """Parse and validate the JSON form. Missing fields take the preset's value, except
        the options added after matches were first stored (:data:`LEGACY_DEFAULTS`), which
        take the behaviour those matches were played with. ``points`` (derived, written by
        :meth:`to_json`) is ignored."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", "must be an object")
        preset = data.get("preset", "six-card")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError("preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
        unknown = sorted(map(str, set(data) - set(FIELD_NAMES) - {"preset", "points"}))
        if unknown:
            raise RulesError(
                unknown[0], f"unknown rules option; the options are {', '.join(FIELD_NAMES)}"
            )
        base = PRESETS[preset]
        kwargs: dict[str, Any] = {"preset": preset}
        for name in FIELD_NAMES:
            if name in data:
                kwargs[name] = _PARSERS[name](data[name])
            elif name in LEGACY_DEFAULTS:
                kwargs[name] = LEGACY_DEFAULTS[name]
            else:
                kwargs[name] = getattr(base, name)
        rules = cls(**kwargs)
        rules.validate()
        return rules

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "grid": f"{self.grid[0]}x{self.grid[1]}",
            "decks": self.decks,
            "jokers": self.jokers,
            "values": dict(self.values),
            "lines": self.lines.value,
            "match_by": self.match_by.value,
            "negative_pairs_keep_value": self.negative_pairs_keep_value,
            "final_turns": self.final_turns.value,
            "discard_take_must_swap": self.discard_take_must_swap,
            "flip_on_discard": self.flip_on_discard.value,
            "initial_flips": self.initial_flips,
            "opening_flips": self.opening_flips.value,
            "max_turns": self.max_turns,
            "holes": self.holes,
            "undo": self.undo,
            "local": self.local,
            "pause_between_holes": self.pause_between_holes,
            "points": self.points(),
        }

    def validate(self) -> None:
        """Check the options that do not depend on the number of players."""
        if self.grid not in GRIDS:
            raise RulesError("grid", "must be one of " + ", ".join(f"{r}x{c}" for r, c in GRIDS))
        if self.decks != AUTO and not (isinstance(self.decks, int) and 1 <= self.decks <= 3):
            raise RulesError("decks", "must be 'auto' or 1, 2 or 3")
        cells = self.cells
        if not 0 <= self.initial_flips < cells:
            raise RulesError(
                "initial_flips",
                f"must be between 0 and {cells - 1} for a {self.grid[0]}x{self.grid[1]} grid",
            )
        if not 1 <= self.max_turns <= 10_000:
            raise RulesError("max_turns", "must be between 1 and 10000")
        if not 1 <= self.holes <= 18:
            raise RulesError("holes", "must be between 1 and 18")
        if not self.jokers and "X" in dict(self.values):
            raise RulesError("values", "a joker value is set but jokers are off")

    def validate_for(self, players: int) -> None:
        """Check that ``players`` can play these rules (seats and cards in the decks)."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesError("players", f"must be between {MIN_PLAYERS} and {MAX_PLAYERS}")
        needed = players * self.cells + 1
        available = self.deck_count(players) * (54 if self.jokers else 52)
        if needed > available:
            raise RulesError(
                "decks",
                f"{players} players with {self.cells} cards each and a discard need {needed} "
                f"cards, but {self.deck_count(players)} deck(s) hold {available}",
            )

    def with_overrides(self, **overrides: Any) -> Rules:
        return Rules.from_json({**self.to_json(), **overrides})

    # --- derived values -----------------------------------------------------------------
    @property
    def rows(self) -> int:
        return self.grid[0]

    @property
    def cols(self) -> int:
        return self.grid[1]

    @property
    def cells(self) -> int:
        return self.grid[0] * self.grid[1]

    def deck_count(self, players: int) -> int:
        """Decks in play: explicit, or ``auto`` = one while players x cards <= 27, else two."""
        if isinstance(self.decks, int):
            return self.decks
        return 1 if players * self.cells <= 27 else 2

    def value_table(self) -> Mapping[str, int]:
        """Points by rank character, the defaults with this rule set's overrides."""
        return _value_table(self.jokers, self.values)

    def card_value(self, code: CardCode) -> int:
        return _value_table(self.jokers, self.values)[rank_of(code)]

    def points(self) -> dict[str, int]:
        """The whole points table of these rules by rank character, as in :meth:`to_json`
        (``X``, the joker, only when jokers are in play)."""
        table = self.value_table()
        return {r: table[r] for r in RANK_CHARS if r != "X" or self.jokers}

    def match_key(self, card: CardCode | str) -> MatchKey:
        """What ``card`` (a card code, or a rank character) must share with the other cards
        of a line for the line to match: its rank, or with ``match_by: value`` its points
        (so 10, J and Q match, and a joker matches a -2 two)."""
        return _match_keys(self.jokers, self.values, self.match_by)[card[0]]

    def match_keys(self) -> Mapping[str, MatchKey]:
        """:meth:`match_key` of every rank character, for loops that need it often."""
        return _match_keys(self.jokers, self.values, self.match_by)

    def line_positions(self) -> tuple[tuple[Position, ...], ...]:
        """The position groups that score 0 when all their cards match."""
        return _line_positions(self.grid, self.lines)


# --- parsing of the JSON spelling -----------------------------------------------------------
def _parse_bool(name: str) -> Any:
    def parse(value: Any) -> bool:
        if not isinstance(value, bool):
            raise RulesError(name, "must be true or false")
        return value

    return parse


def _parse_int(name: str) -> Any:
    def parse(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(name, "must be an integer")
        return value

    return parse


def _parse_enum(name: str, kind: type[enum.Enum]) -> Any:
    def parse(value: Any) -> enum.Enum:
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in kind)
            raise RulesError(name, f"must be one of {allowed}") from None

    return parse


# ASCII digits (str.isdigit takes "²"), and few of them (int refuses over 4,300)
_GRID = re.compile(r"([0-9]{1,9})x([0-9]{1,9})")


def _parse_grid(value: Any) -> tuple[int, int]:
    if isinstance(value, str) and (written := _GRID.fullmatch(value)):
        return int(written[1]), int(written[2])
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(type(v) is int for v in value):
        return int(value[0]), int(value[1])
    raise RulesError("grid", "must be written ROWSxCOLS, e.g. '2x3'")


def _parse_decks(value: Any) -> int | str:
    if value == AUTO:
        return AUTO
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("decks", "must be 'auto' or 1, 2 or 3")
    return value


def _parse_values(value: Any) -> tuple[tuple[str, int], ...]:
    if isinstance(value, (list, tuple)):  # the stored form: [rank, points] pairs
        try:
            value = dict(value)
        except (TypeError, ValueError):
            value = None
    if not isinstance(value, Mapping):
        raise RulesError("values", 'must map ranks to points, e.g. {"K": 0}')
    lo, hi = CARD_VALUE_RANGE
    parsed: dict[str, int] = {}
    for rank, points in value.items():
        if rank not in RANK_CHARS:
            raise RulesError("values", f"unknown rank {rank!r}; ranks are {''.join(RANK_CHARS)}")
        if isinstance(points, bool) or not isinstance(points, int) or not lo <= points <= hi:
            raise RulesError("values", f"points for {rank!r} must be an integer in {lo}..{hi}")
        parsed[rank] = points
    return tuple(sorted(parsed.items(), key=lambda kv: RANK_CHARS.index(kv[0])))


_PARSERS: dict[str, Any] = {
    "grid": _parse_grid,
    "decks": _parse_decks,
    "jokers": _parse_bool("jokers"),
    "values": _parse_values,
    "lines": _parse_enum("lines", Lines),
    "match_by": _parse_enum("match_by", MatchBy),
    "negative_pairs_keep_value": _parse_bool("negative_pairs_keep_value"),
    "final_turns": _parse_enum("final_turns", FinalTurns),
    "discard_take_must_swap": _parse_bool("discard_take_must_swap"),
    "flip_on_discard": _parse_enum("flip_on_discard", FlipOnDiscard),
    "initial_flips": _parse_int("initial_flips"),
    "opening_flips": _parse_enum("opening_flips", OpeningFlips),
    "max_turns": _parse_int("max_turns"),
    "holes": _parse_int("holes"),
    "undo": _parse_bool("undo"),
    "local": _parse_bool("local"),
    "pause_between_holes": _parse_bool("pause_between_holes"),
}
FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.name != "preset")
assert set(_PARSERS) == set(FIELD_NAMES)

#: Options stored rules may lack because they came later, with the value that reproduces how
#: those matches were played (a preset's value would change an old match's flow).
LEGACY_DEFAULTS: dict[str, Any] = {"pause_between_holes": False}

_SIX = Rules()
_NINE = replace(
    _SIX,
    preset="nine-card",
    grid=(3, 3),
    lines=Lines.ROWS_AND_COLUMNS,
    final_turns=FinalTurns.NONE,
    holes=6,
)
PRESETS: dict[str, Rules] = {
    "six-card": _SIX,
    "six-card-instant": replace(
        _SIX,
        preset="six-card-instant",
        final_turns=FinalTurns.NONE,
        discard_take_must_swap=False,
    ),
    "six-card-jokers": replace(_SIX, preset="six-card-jokers", jokers=True),
    "nine-card": _NINE,
    # The products of the seeds (docs/golf.md quotes the sentence behind every choice).
    # Flick Nines: nine-card golf against two COMs; three cards of the same value in a row or
    # a column score 0 (10, J and Q alike, -2 and 0 too); play ends when any grid is face up.
    "flick-nines": replace(_NINE, preset="flick-nines", match_by=MatchBy.VALUE),
    # Vanikar's six-card golf: the players flip their two cards one after another from the
    # dealer's left; one deck for 2-4 players, two for 5-6 (decks: auto), no jokers.
    "vanikar-six": replace(_SIX, preset="vanikar-six", opening_flips=OpeningFlips.IN_TURN),
    # Yorimichi's three modes: one 52-card deck (54 with the jokers) at every table. Its undo
    # is ``undo: true`` on a table that allows it (docs/golf.md says why it is not preset).
    "yorimichi-basic": replace(_SIX, preset="yorimichi-basic", decks=1),
    "yorimichi-instant": replace(
        _SIX,
        preset="yorimichi-instant",
        decks=1,
        final_turns=FinalTurns.NONE,
        discard_take_must_swap=False,
    ),
    "yorimichi-jokers": replace(_SIX, preset="yorimichi-jokers", decks=1, jokers=True),
}

#: Each preset's default table, seat kinds as a match request names them (``me``: the
#: requester, ``com``: a computer player), for a request that gives no seats.
DEFAULT_SEATS: dict[str, tuple[str, ...]] = {
    name: ("me", "com", "com") if rules.grid == (3, 3) else ("me", "com")
    for name, rules in PRESETS.items()
}

OPTION_DOCS: dict[str, dict[str, Any]] = {
    "grid": {
        "type": "string",
        "allowed": [f"{r}x{c}" for r, c in GRIDS],
        "description": "rows x columns of each player's grid of cards",
    },
    "decks": {
        "type": "string|integer",
        "allowed": [AUTO, 1, 2, 3],
        "description": "52-card decks in play; auto: one while players x grid cells <= 27, "
        "else two",
    },
    "jokers": {"type": "boolean", "description": "two jokers per deck (worth -2 by default)"},
    "values": {
        "type": "object",
        "description": "points overrides by rank character "
        f"({''.join(RANK_CHARS)}, X = joker), "
        f"each in {CARD_VALUE_RANGE[0]}..{CARD_VALUE_RANGE[1]}",
    },
    "lines": {
        "type": "string",
        "allowed": [m.value for m in Lines],
        "description": "which full lines of matching cards score nothing: columns, rows and "
        "columns, or none",
    },
    "match_by": {
        "type": "string",
        "allowed": [m.value for m in MatchBy],
        "description": "what the cards of a line must share to match: the same rank (J and Q "
        "never match), or the same point value (10, J and Q match; so do a joker and a -2 two)",
    },
    "negative_pairs_keep_value": {
        "type": "boolean",
        "description": "a matched line of negative cards keeps its (negative) value "
        "instead of scoring nothing",
    },
    "final_turns": {
        "type": "string",
        "allowed": [m.value for m in FinalTurns],
        "description": "when a grid is all face up: every other player gets one more turn "
        "(others_once), or the hole ends at once (none)",
    },
    "discard_take_must_swap": {
        "type": "boolean",
        "description": "a card taken from the discard pile must be swapped into the grid",
    },
    "flip_on_discard": {
        "type": "string",
        "allowed": [m.value for m in FlipOnDiscard],
        "description": "whether discarding a card drawn from the stock turns up one of your "
        "face-down cards: never, optional or always",
    },
    "initial_flips": {
        "type": "integer",
        "minimum": 0,
        "maximum": "grid cells - 1",
        "description": "face-down cards each player turns up before the first turn",
    },
    "opening_flips": {
        "type": "string",
        "allowed": [m.value for m in OpeningFlips],
        "description": "the initial flips: every player at once (simultaneous), or one "
        "player after another from the dealer's left, each making all its flips (in_turn)",
    },
    "max_turns": {
        "type": "integer",
        "minimum": 1,
        "maximum": 10_000,
        "description": "turns in a hole after which it is scored as it lies",
    },
    "holes": {
        "type": "integer",
        "minimum": 1,
        "maximum": 18,
        "description": "holes (rounds) in the match",
    },
    "undo": {
        "type": "boolean",
        "description": "a human may take back its last swap or discard (and the COM turns "
        "after it) until it draws again; needs a lone human among COMs, or a local match",
    },
    "local": {
        "type": "boolean",
        "description": "pass-and-play: one account plays every human seat on one device; "
        "undo is then allowed with several humans, until the next human acts, and one "
        "'next' ends the pause between holes",
    },
    "pause_between_holes": {
        "type": "boolean",
        "description": "after each hole but the last, wait in phase hole_over (final grids "
        "and scores shown) until every human seat sends 'next'; off: deal the next hole at "
        "once (matches stored before this option replay that way)",
    },
}
assert set(OPTION_DOCS) == set(FIELD_NAMES)

__all__ = [
    "AUTO",
    "DEFAULT_SEATS",
    "FIELD_NAMES",
    "LEGACY_DEFAULTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTION_DOCS",
    "PRESETS",
    "STANDARD_RANKS",
    "FinalTurns",
    "FlipOnDiscard",
    "Lines",
    "MatchBy",
    "MatchKey",
    "OpeningFlips",
    "Position",
    "Rank",
    "Rules",
    "Seat",
    "default_values",
]
