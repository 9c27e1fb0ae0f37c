"""JSON Schemas of Golf's rules, actions, view and events: how the API documents them.

Plain data (the game stays free of any web framework); ``golf.game.Golf.json_schemas``
hands them to the platform, which puts them in the OpenAPI schema under ``Golf*`` names.
References between them use ``#/components/schemas/<name>``.
"""

from __future__ import annotations

from typing import Any

from cards.seating import KIND_SCHEMA
from golf.actions import ACTION_TYPES
from golf.events import CODEC
from golf.rules import CARD_VALUE_RANGE, FIELD_NAMES, OPTION_DOCS, PRESETS
from golf.state import Phase

CARD = {"type": "string", "description": "a card code such as 'KS', 'TD' or 'XR'"}
HIDDEN_CARD = {**CARD, "nullable": True, "description": "a card code; null when hidden"}
POSITION = {
    "type": "integer",
    "minimum": 0,
    "maximum": 8,
    "description": "a grid position, 0-based, row by row: position p is in row p // cols and "
    "column p % cols (the view's cols), so the columns of a 2x3 grid are (0,3) (1,4) (2,5)",
}
SEAT = {"type": "integer", "minimum": 0, "maximum": 5}


def _list(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (str, "string"))


def _typed_enum(values: list[Any]) -> dict[str, Any]:
    """An enum with the JSON type of its values; of mixed values, one typed enum per type
    (``"auto"`` or 1-3): client generators type a plain enum by its first value."""
    by_type: dict[str, list[Any]] = {}
    for value in values:
        kind = next(name for cls, name in _JSON_TYPES if isinstance(value, cls))
        by_type.setdefault(kind, []).append(value)
    typed = [{"type": kind, "enum": vals} for kind, vals in by_type.items()]
    return typed[0] if len(typed) == 1 else {"oneOf": typed}


def option_schema(name: str) -> dict[str, Any]:
    """A rules option as JSON Schema (from the option's documentation)."""
    doc = OPTION_DOCS[name]
    kinds = doc["type"].split("|")
    schema: dict[str, Any] = (
        {"type": kinds[0]} if len(kinds) == 1 else {"oneOf": [{"type": k} for k in kinds]}
    )
    if "allowed" in doc:
        schema = _typed_enum(list(doc["allowed"]))
    for bound in ("minimum", "maximum"):
        if isinstance(doc.get(bound), int):
            schema[bound] = doc[bound]
        elif bound in doc:
            schema["description"] = f"{bound} {doc[bound]}"
    if "description" in doc:
        schema["description"] = doc["description"]
    if doc["type"] == "object":  # the points table: rank -> points
        lo, hi = CARD_VALUE_RANGE
        schema["additionalProperties"] = {"type": "integer", "minimum": lo, "maximum": hi}
    return schema


POINTS = {
    "type": "object",
    "readOnly": True,
    "description": "derived, ignored when rules are read: the points of every rank "
    "character of these rules (A 2..9 T J Q K, and X, the joker, when jokers are in play), "
    "so a grid can be scored from the rules alone",
    "additionalProperties": {"type": "integer"},
}

RULES = {
    "type": "object",
    "description": "Golf's rules, every option resolved (see GET /api/games)",
    "properties": {
        "preset": {"type": "string", "enum": sorted(PRESETS)},
        **{name: option_schema(name) for name in FIELD_NAMES},
        "points": POINTS,
    },
    "required": ["preset", *FIELD_NAMES],
    "additionalProperties": False,
}

_ACTION_FIELDS: dict[str, dict[str, Any]] = {
    "reveal": {"position": POSITION},
    "draw": {},
    "take_discard": {},
    "swap": {"position": POSITION},
    "discard": {"flip": {**POSITION, "nullable": True}},
    "undo": {},
    "next": {},
}
ACTIONS = {
    f"GolfAction_{kind}": {
        "type": "object",
        "properties": {"type": {"type": "string", "enum": [kind]}, **fields},
        "required": ["type", *[f for f in fields if f != "flip"]],
        "additionalProperties": False,  # as the engine: an unknown field is refused
    }
    for kind, fields in _ACTION_FIELDS.items()
}
assert set(_ACTION_FIELDS) == set(ACTION_TYPES)
ACTION = {
    "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in ACTIONS],
    "discriminator": {
        "propertyName": "type",
        "mapping": {k: f"#/components/schemas/GolfAction_{k}" for k in _ACTION_FIELDS},
    },
}

VIEW: dict[str, Any] = {
    "type": "object",
    "description": "A Golf table as one seat (or a spectator) may see it",
    "properties": {
        "game": {"type": "string", "enum": ["golf"], "description": "the game of this view"},
        "seat": {**SEAT, "nullable": True, "description": "your seat; null for a spectator"},
        "version": {"type": "integer"},
        "phase": {
            "type": "string",
            "enum": [p.value for p in Phase],
            "description": "flips, draw, place; hole_over: the hole is scored and the match "
            "waits for the 'next' of the human seats in seats_to_act; finished, aborted",
        },
        "hole": {"type": "integer"},
        "holes": {"type": "integer"},
        "rows": {"type": "integer", "description": "rows of every grid"},
        "cols": {
            "type": "integer",
            "description": "columns of every grid: position p is in row p // cols, column p % cols",
        },
        "dealer": SEAT,
        "players": _list(KIND_SCHEMA),
        "seats_to_act": _list(SEAT),
        "grids": {
            **_list(_list(HIDDEN_CARD)),
            "description": "each seat's grid in position order (row by row); a face-down "
            "card is null until the match has ended (aborted too)",
        },
        "flips_left": _list({"type": "integer"}),
        "stock_size": {"type": "integer"},
        "discard": _list(CARD),
        "discard_top": HIDDEN_CARD,
        "drawn": {
            "type": "object",
            "nullable": True,
            "properties": {
                "seat": SEAT,
                "source": {"type": "string", "enum": ["stock", "discard"]},
                "card": HIDDEN_CARD,
            },
        },
        "turns_in_hole": {"type": "integer"},
        "max_turns": {"type": "integer"},
        "final_turns": {
            "type": "object",
            "nullable": True,
            "properties": {"finisher": SEAT, "turns_left": {"type": "integer"}},
        },
        "end_reason": {
            "type": "string",
            "nullable": True,
            "description": "why the hole (or the match) ended: grid_complete, "
            "final_turns_done, max_turns, stock_exhausted, or an abort's reason; null in play",
        },
        "face_up_totals": {
            **_list({"type": "integer"}),
            "description": "per seat, the points of its face-up cards summed as they are "
            "(no matched lines): not the grid's score",
        },
        "totals": _list({"type": "integer"}),
        "hole_scores": _list(_list({"type": "integer"})),
        "hole_finishers": {
            **_list({**SEAT, "nullable": True}),
            "description": "per scored hole, the seat that went out (its grid all face up "
            "first); null when nobody did (the stock ran out, or max_turns)",
        },
        "last_hole_grids": _list(_list(CARD)),
        "winners": _list(SEAT),
        "legal_actions": _list({"$ref": "#/components/schemas/GolfAction"}),
        "undo_available": {"type": "boolean"},
        "seen": _list(
            {
                "type": "object",
                "properties": {"seat": SEAT, "position": POSITION, "card": CARD},
            }
        ),
        "stock_seen": _list(CARD),
        "drawn_seen": {"type": "boolean"},
    },
}
# every field is always there (null where the schema says it may be)
VIEW["required"] = sorted(VIEW["properties"])
for _nested in ("drawn", "final_turns"):
    VIEW["properties"][_nested]["required"] = sorted(VIEW["properties"][_nested]["properties"])
VIEW["properties"]["seen"]["items"]["required"] = ["card", "position", "seat"]

# Every event's data as a reader may see it: each field described once, by name.
_CARDS = _list(HIDDEN_CARD)
_HIDDEN_LIST = {**_CARDS, "nullable": True, "description": "null until the match has ended"}
_EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "rules": {"$ref": "#/components/schemas/GolfRules"},
    "players": _list(KIND_SCHEMA),
    "seed": {"type": "string", "nullable": True, "description": "null until the match ends"},
    "commitment": {"type": "string", "description": "SHA-256 of the seed"},
    "reshuffle": {
        "type": "string",
        "enum": ["pile", "count"],
        "description": "how the reshuffles are labelled (docs/dealing.md)",
    },
    "hole": {"type": "integer", "minimum": 1},
    "dealer": SEAT,
    "grids": {
        **_list(_CARDS),
        "description": "each seat's grid in position order; null cards until they are shown",
    },
    "discard": CARD,
    "stock": {**_HIDDEN_LIST, "description": "the stock, top first; null until the end"},
    "seat": SEAT,
    "position": POSITION,
    "card": HIDDEN_CARD,
    "source": {"type": "string", "enum": ["stock", "discard"]},
    "replaced": CARD,
    "flip_position": {**POSITION, "nullable": True},
    "flip_card": {**CARD, "nullable": True},
    "count": {"type": "integer"},
    "turns_left": {"type": "integer"},
    "reason": {"type": "string"},
    "scores": _list({"type": "integer"}),
    "totals": _list({"type": "integer"}),
    "winners": _list(SEAT),
    "events": {"type": "integer", "description": "how many events the undo took back"},
}
_STOCK_SIZE = {"stock_size": {"type": "integer", "description": "before the end: the stock's size"}}
EVENTS = CODEC.payload_schemas(
    "GolfEvent_",
    _EVENT_FIELDS,
    # before the end, a dealt or reshuffled stock is a size
    extra={"hole_dealt": _STOCK_SIZE, "stock_reshuffled": _STOCK_SIZE},
)
for _name in ("GolfEvent_hole_dealt", "GolfEvent_stock_reshuffled"):
    EVENTS[_name]["required"].remove("stock_size")  # (the full stock, once the match ended)
EVENT = {
    "anyOf": [{"$ref": "#/components/schemas/" + name} for name in EVENTS],
    "description": "The data of a Golf event, as the reader may see it (the event's type "
    "says which: GolfEvent_<type>)",
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "GolfRules": RULES,
    "GolfAction": ACTION,
    **ACTIONS,
    "GolfView": VIEW,
    "GolfEvent": EVENT,
    **EVENTS,
}


# --- examples for the API's documentation --------------------------------------------------
VIEW_EXAMPLE = {
    "game": "golf",
    "seat": 0,
    "version": 9,
    "phase": "place",
    "hole": 1,
    "holes": 9,
    "rows": 2,
    "cols": 3,
    "dealer": 2,
    "players": ["human", "com", "com"],
    "seats_to_act": [0],
    "grids": [
        ["QH", None, None, None, "6D", None],
        ["4C", "KS", None, None, None, None],
        [None, "9H", None, "9C", None, None],
    ],
    "flips_left": [0, 0, 0],
    "stock_size": 32,
    "discard": ["JD"],
    "discard_top": "JD",
    "drawn": {"seat": 0, "source": "stock", "card": "KD"},
    "turns_in_hole": 0,
    "max_turns": 240,
    "final_turns": None,
    "end_reason": None,
    "face_up_totals": [16, 4, 18],
    "totals": [0, 0, 0],
    "hole_scores": [],
    "hole_finishers": [],
    "last_hole_grids": [],
    "winners": [],
    "legal_actions": [{"type": "swap", "position": p} for p in range(6)]
    + [{"type": "discard", "flip": None}],
    "undo_available": False,
    "seen": [],
    "stock_seen": [],
    "drawn_seen": False,
}
ACT_RESULT_EXAMPLE = {
    "version": 9,
    "events": [
        {
            "seq": 9,
            "type": "card_drawn",
            "schema_version": 1,
            "actor": "user:2:0",
            "seat": 0,
            "created_at": "2026-11-30T03:51:06.120077+00:00",
            "data": {"seat": 0, "source": "stock", "card": "KD"},
        }
    ],
    "view": VIEW_EXAMPLE,
}
EVENTS_EXAMPLE = {
    "events": [
        {
            "seq": 10,
            "type": "card_swapped",
            "schema_version": 1,
            "actor": "user:2:0",
            "seat": 0,
            "created_at": "2026-11-30T03:51:06.920077+00:00",
            "data": {"seat": 0, "position": 1, "card": "KD", "replaced": "3S"},
        },
        {
            "seq": 11,
            "type": "card_drawn",
            "schema_version": 1,
            "actor": "com:normal:1",
            "seat": 1,
            "created_at": "2026-11-30T03:51:06.950077+00:00",
            "data": {"seat": 1, "source": "stock", "card": None},
        },
    ],
    "version": 11,
    "next_after": 11,
    "has_more": False,
}
HINT_EXAMPLE = {
    "action": {"type": "take_discard"},
    "reason": "Take the 2 from the discard pile: it matches your column 1.",
}
ACTION_EXAMPLES = [
    ("Reveal (an initial flip)", {"type": "reveal", "position": 0}),
    ("Draw from the stock", {"type": "draw"}),
    ("Take the discard", {"type": "take_discard"}),
    ("Swap into position 4", {"type": "swap", "position": 4}),
    ("Discard, flipping position 2", {"type": "discard", "flip": 2}),
    ("Undo", {"type": "undo"}),
    ("Next hole (after a scored hole)", {"type": "next"}),
]
EXAMPLES: dict[str, Any] = {
    "actions": ACTION_EXAMPLES,
    "view": VIEW_EXAMPLE,
    "act_result": ACT_RESULT_EXAMPLE,
    "events": EVENTS_EXAMPLE,
    "hint": HINT_EXAMPLE,
}
