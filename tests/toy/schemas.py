"""JSON Schemas (OpenAPI 3.0 flavour, like Golf's) of Toy's rules, action and view."""

from __future__ import annotations

from typing import Any

from cards.seating import KIND_SCHEMA
from tests.toy.engine import DECK, MAX_HAND, MAX_SEATS, MIN_HAND, PHASES, PRESETS

CARD = {"type": "string", "enum": list(DECK), "description": "a card code such as 'KS'"}
SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}
INT = {"type": "integer"}
HAND_SIZE_DOC = "cards dealt to each seat, and rounds played"
HAND_SIZE = {
    "type": "integer",
    "minimum": MIN_HAND,
    "maximum": MAX_HAND,
    "description": HAND_SIZE_DOC,
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _list(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _object(properties: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


PLAY = _object({"seat": SEAT, "card": CARD})
SCHEMAS: dict[str, dict[str, Any]] = {
    "ToyRules": {
        **_object({"preset": {"type": "string", "enum": sorted(PRESETS)}, "hand_size": HAND_SIZE}),
        "required": [],  # overrides name some options; a match's rules name them all
        "description": "Toy's rules",
    },
    "ToyAction": _object({"type": {"type": "string", "enum": ["play"]}, "card": CARD}),
    "ToyPlay": PLAY,
    "ToyView": {
        **_object(
            {
                "seat": {**SEAT, "nullable": True, "description": "null for a spectator"},
                "version": INT,
                "phase": {"type": "string", "enum": list(PHASES)},
                "round": INT,
                "rounds": INT,
                "players": _list(KIND_SCHEMA),
                "seats_to_act": _list(SEAT),
                "leader": SEAT,
                "hand": {**_list(CARD), "description": "your cards; empty for a spectator"},
                "hand_sizes": _list(INT),
                "table": _list(_ref("ToyPlay")),
                "rounds_played": _list(
                    _object({"round": INT, "winner": SEAT, "plays": _list(_ref("ToyPlay"))})
                ),
                "totals": _list(INT),
                "winners": _list(SEAT),
                "legal_actions": _list(_ref("ToyAction")),
                "auto_moves": _list(INT),  # added by the platform when turns time out
            },
            optional=("auto_moves",),
        ),
        "description": "A Toy table as one seat (or a spectator) may see it",
    },
}

EXAMPLES: dict[str, Any] = {
    "actions": [("Play the king of spades", {"type": "play", "card": "KS"})],
    "hint": {"action": {"type": "play", "card": "AS"}, "reason": "You lead: play your ace."},
}
