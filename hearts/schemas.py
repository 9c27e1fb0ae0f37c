"""JSON Schemas (OpenAPI 3.0 flavour) of Hearts' rules, actions and view, with examples:
how the API documents them under ``Hearts*`` names, and what a fuzzer checks responses
against. Plain data: the game stays free of any web framework.
"""

from __future__ import annotations

from typing import Any

from cards.seating import KIND_SCHEMA
from hearts.events import CODEC
from hearts.rules import OPTION_NAMES, OPTION_SCHEMAS
from hearts.state import Phase

REF = "#/components/schemas/"
CARD = {"type": "string", "pattern": "^[2-9TJQKA][SHDC]$", "description": "a card: 'QS', 'TD'"}
HIDDEN_CARD = {**CARD, "nullable": True, "description": "a card; null when hidden"}
SEAT = {"type": "integer", "minimum": 0, "maximum": 4}
NULLABLE_SEAT = {**SEAT, "nullable": True}
DIRECTION = {
    "type": "string",
    "enum": ["left", "right", "across", "hold"],
    "description": "where this deal's passes go (left: seat + 1); hold: no passing",
}


def _list(items: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **more}


def _object(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": sorted(properties),
        "additionalProperties": False,
        **more,
    }


RULES = _object(
    {"preset": {"type": "string", "enum": ["hearts", "hearts-classic"]}}
    | {name: dict(OPTION_SCHEMAS[name]) for name in OPTION_NAMES},
    description="Hearts' rules, every option resolved (see GET /api/games)",
)

ACTIONS = {
    "HeartsAction_pass": _object(
        {
            "type": {"type": "string", "enum": ["pass"]},
            "cards": _list(CARD, minItems=3, maxItems=3, uniqueItems=True),
        },
        description="pass three cards of your hand (a passing deal, before the first trick)",
    ),
    "HeartsAction_play": _object(
        {"type": {"type": "string", "enum": ["play"]}, "card": CARD},
        description="play a card of your hand to the trick",
    ),
    "HeartsAction_undo": _object(
        {"type": {"type": "string", "enum": ["undo"]}},
        description="take back your last card played (undo on, one human among COMs)",
    ),
}
ACTION = {
    "oneOf": [{"$ref": REF + name} for name in ACTIONS],
    "discriminator": {
        "propertyName": "type",
        "mapping": {name.split("_", 1)[1]: REF + name for name in ACTIONS},
    },
}

TRICK = _object(
    {
        "trick": {"type": "integer", "minimum": 1, "description": "from 1 in the deal"},
        "leader": SEAT,
        "cards": _list(CARD, description="in play order, the leader's first"),
        "winner": SEAT,
        "points": {"type": "integer", "description": "hearts 1, queen of spades 13, jack -10"},
    }
)
DEAL_RESULT = _object(
    {
        "deal": {"type": "integer", "minimum": 1},
        "taken": _list({"type": "integer"}, description="heart and queen points taken"),
        "jack": {**NULLABLE_SEAT, "description": "who took the jack of diamonds, if it counts"},
        "moon": {**NULLABLE_SEAT, "description": "who shot the moon, if anyone"},
        "scores": _list({"type": "integer"}),
        "totals": _list({"type": "integer"}),
    }
)
PASS = _object(
    {
        "cards": _list(CARD, description="the three cards you pass (chosen or sent)"),
        "to": SEAT,
        "received": {
            **_list(CARD),
            "nullable": True,
            "description": "what you received; null until everyone has chosen",
        },
        "from": NULLABLE_SEAT,
    },
    nullable=True,
    description="your pass in this deal; null before you choose or in a deal with no passing",
)

VIEW = _object(
    {
        "game": {"type": "string", "enum": ["hearts"], "description": "the game of this view"},
        "seat": {**NULLABLE_SEAT, "description": "your seat; null for a spectator"},
        "version": {"type": "integer"},
        "phase": {"type": "string", "enum": [p.value for p in Phase]},
        "deal": {"type": "integer", "minimum": 0, "description": "from 1; 0 before the first"},
        "deals": {"type": "integer", "description": "the most deals the rules allow"},
        "dealer": SEAT,
        "players": _list(KIND_SCHEMA),
        "seats_to_act": _list(SEAT),
        "direction": DIRECTION,
        "hand": _list(CARD, description="your hand (clubs, diamonds, spades, hearts)"),
        "hands": _list(
            {**_list(CARD), "nullable": True},
            description="every seat's hand, null when hidden (all shown once the match ended)",
        ),
        "hand_sizes": _list({"type": "integer"}),
        "removed": _list(CARD, description="cards out of play at this table size"),
        "pass": PASS,
        "passes_chosen": _list(
            {"type": "boolean"}, description="while passing: who has chosen (not what)"
        ),
        "leader": NULLABLE_SEAT,
        "to_act": NULLABLE_SEAT,
        "trick": _list(_object({"seat": SEAT, "card": CARD}), description="the trick in play"),
        "tricks": _list(TRICK, description="the tricks taken in this deal"),
        "taken": _list({"type": "integer"}, description="heart and queen points, this deal"),
        "jack": {
            **NULLABLE_SEAT,
            "description": "who took the jack of diamonds this deal, where it counts "
            "(jack_of_diamonds: minus_10); else null",
        },
        "hearts_broken": {"type": "boolean"},
        "totals": _list({"type": "integer"}),
        "deal_scores": _list(_list({"type": "integer"})),
        "last_deal": {**DEAL_RESULT, "nullable": True},
        "target_score": {"type": "integer"},
        "winners": _list(SEAT),
        "end_reason": {
            "type": "string",
            "nullable": True,
            "description": "why the match ended: target (a total reached the target "
            "score), deal_limit (the last deal the rules allow was played, every total "
            "below the target), or an abort's reason; null in play",
        },
        "legal_actions": _list({"$ref": REF + "HeartsAction"}),
        "undo_available": {"type": "boolean"},
        "seen": _list(
            _object({"seat": SEAT, "card": CARD}),
            description="undo seat only: cards an undone play showed you, back in that hand",
        ),
    },
    description="A Hearts table as one seat (or a spectator) may see it",
)

# Every event's data as a reader may see it: each field described once, by name.
_HANDS = _list(_list(HIDDEN_CARD), description="by seat; null cards where hidden")
_EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "rules": {"$ref": REF + "HeartsRules"},
    "players": _list(KIND_SCHEMA),
    "seed": {"type": "string", "nullable": True, "description": "null until the match ends"},
    "commitment": {"type": "string", "description": "SHA-256 of the seed"},
    "deal": {"type": "integer", "minimum": 1},
    "dealer": SEAT,
    "hands": _HANDS,
    "removed": _list(CARD),
    "direction": DIRECTION,
    "seat": SEAT,
    "to": SEAT,
    "cards": _list(HIDDEN_CARD, description="null cards where hidden from the reader"),
    "passes": _HANDS,
    "card": CARD,
    "trick": {"type": "integer", "minimum": 1},
    "leader": SEAT,
    "winner": SEAT,
    "points": {"type": "integer"},
    "taken": _list({"type": "integer"}),
    "jack": NULLABLE_SEAT,
    "moon": NULLABLE_SEAT,
    "scores": _list({"type": "integer"}),
    "totals": _list({"type": "integer"}),
    "winners": _list(SEAT),
    "reason": {"type": "string"},
    "events": {"type": "integer", "description": "how many events the undo took back"},
}
EVENTS = CODEC.payload_schemas("HeartsEvent_", _EVENT_FIELDS)
EVENT = {
    "anyOf": [{"$ref": REF + name} for name in EVENTS],
    "description": "The data of a Hearts event, as the reader may see it (the event's type "
    "says which: HeartsEvent_<type>)",
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "HeartsRules": RULES,
    "HeartsAction": ACTION,
    **ACTIONS,
    "HeartsView": VIEW,
    "HeartsEvent": EVENT,
    **EVENTS,
}


# --- examples for the API's documentation --------------------------------------------------
VIEW_EXAMPLE: dict[str, Any] = {
    "game": "hearts",
    "seat": 0,
    "version": 14,
    "phase": "playing",
    "deal": 1,
    "deals": 16,
    "dealer": 0,
    "players": ["human", "com", "com", "com"],
    "seats_to_act": [0],
    "direction": "left",
    "hand": ["5C", "9C", "JC", "3D", "8D", "KD", "2S", "7S", "QS", "4H", "TH", "AH"],
    "hands": [
        ["5C", "9C", "JC", "3D", "8D", "KD", "2S", "7S", "QS", "4H", "TH", "AH"],
        None,
        None,
        None,
    ],
    "hand_sizes": [12, 12, 11, 11],
    "removed": [],
    "pass": {"cards": ["KS", "AS", "QH"], "to": 1, "received": ["9C", "8D", "4H"], "from": 3},
    "passes_chosen": [],
    "leader": 2,
    "to_act": 0,
    "trick": [{"seat": 2, "card": "6D"}, {"seat": 3, "card": "JD"}],
    "tricks": [
        {"trick": 1, "leader": 1, "cards": ["2C", "AC", "KC", "7C"], "winner": 2, "points": 0},
    ],
    "taken": [0, 0, 0, 0],
    "jack": None,
    "hearts_broken": False,
    "totals": [0, 0, 0, 0],
    "deal_scores": [],
    "last_deal": None,
    "target_score": 100,
    "winners": [],
    "end_reason": None,
    "legal_actions": [{"type": "play", "card": c} for c in ("3D", "8D", "KD")],
    "undo_available": False,
    "seen": [],
}
ACTION_EXAMPLES = [
    ("Pass three cards", {"type": "pass", "cards": ["KS", "AS", "QH"]}),
    ("Play a card", {"type": "play", "card": "2C"}),
    ("Undo", {"type": "undo"}),
]
EVENTS_EXAMPLE = {
    "events": [
        {
            "seq": 14,
            "type": "card_played",
            "schema_version": 1,
            "actor": "com:normal:3",
            "seat": 3,
            "created_at": "2026-11-30T03:51:06.950077+00:00",
            "data": {"seat": 3, "card": "JD"},
        },
    ],
    "version": 14,
    "next_after": 14,
    "has_more": False,
}
EXAMPLES: dict[str, Any] = {
    "actions": ACTION_EXAMPLES,
    "view": VIEW_EXAMPLE,
    "act_result": {
        "version": 15,
        "events": [
            {
                "seq": 15,
                "type": "card_played",
                "schema_version": 1,
                "actor": "user:2:0",
                "seat": 0,
                "created_at": "2026-11-30T03:51:07.120077+00:00",
                "data": {"seat": 0, "card": "8D"},
            }
        ],
        "view": VIEW_EXAMPLE,
    },
    "events": EVENTS_EXAMPLE,
    "hint": {
        "action": {"type": "play", "card": "8D"},
        "reason": "Play the 8 of diamonds: the highest diamond that stays under the jack.",
    },
}
