"""JSON Schemas (OpenAPI 3.0 flavour) of Ninety-Nine's rules, actions and view, with
examples: how the API documents them, and what its fuzzer checks responses against.

Plain data; ``ninety_nine.game.NinetyNine.json_schemas`` hands them to the platform,
which puts them in the OpenAPI schema under these ``Ninety-Nine*`` names (the platform names
a game's schemas by its title without spaces: ``Ninety-NineView``, ``Ninety-NineMatchCreate``).
"""

from __future__ import annotations

from typing import Any

from cards.seating import KIND_SCHEMA
from ninety_nine.actions import ACTION_TYPES, Declare, Pass
from ninety_nine.decide import decide, legal_actions, start_match
from ninety_nine.events import CODEC
from ninety_nine.pack import PACK, SUITS
from ninety_nine.rules import OPTION_SCHEMAS, PRESETS, SEATS, Rules
from ninety_nine.state import Phase, State, replay
from ninety_nine.views import redact_event, view_for

PREFIX = "Ninety-Nine"  # the title, "Ninety-Nine", without spaces
CARD: dict[str, Any] = {"type": "string", "enum": list(PACK), "description": "a card, e.g. 'TD'"}
HIDDEN_CARD: dict[str, Any] = {**CARD, "nullable": True, "description": "a card; null: hidden"}
SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": SEATS - 1}
INT: dict[str, Any] = {"type": "integer"}
SUIT: dict[str, Any] = {"type": "string", "enum": list(SUITS)}
CALL: dict[str, Any] = {"type": "string", "enum": ["pass", "declare", "reveal"]}
PREMIUM: dict[str, Any] = {"type": "string", "enum": ["declare", "reveal"]}


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{PREFIX}{name}"}


def _list(items: dict[str, Any], size: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "items": items}
    if size is not None:
        schema.update(minItems=size, maxItems=size)
    return schema


def _per_seat(items: dict[str, Any]) -> dict[str, Any]:
    """A list with one item per seat in a deal: empty before the first deal."""
    return {"type": "array", "items": items, "maxItems": SEATS}


def _null(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


def _object(properties: dict[str, Any], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = [name for name in properties if name not in optional]
    if required:  # OpenAPI 3.0: a "required" list, when given, is not empty
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


RULES = {
    **_object(
        {"preset": {"type": "string", "enum": sorted(PRESETS)}, **OPTION_SCHEMAS},
        optional=("preset", *OPTION_SCHEMAS),  # overrides name some; a match's rules all
    ),
    "description": "Ninety-Nine's rules, every option resolved (see GET /api/games)",
}

_ACTION_FIELDS: dict[str, dict[str, Any]] = {
    "bid": {"cards": {**_list(CARD, 3), "uniqueItems": True}},
    "pass": {},
    "declare": {},
    "reveal": {},
    "play": {"card": CARD},
}
assert set(_ACTION_FIELDS) == set(ACTION_TYPES)
_ACTION_DOCS = {
    "bid": "lay three of your twelve cards aside as your bid (clubs 3, hearts 2, spades 1, "
    "diamonds 0 tricks each)",
    "pass": "make no premium bid",
    "declare": "premium bid: show your bid cards (+30 if you make your contract)",
    "reveal": "premium bid: show your bid cards and play with your hand face up (+60)",
    "play": "play a card to the trick",
}
ACTIONS = {
    f"{PREFIX}Action_{kind}": {
        **_object({"type": {"type": "string", "enum": [kind]}, **extra}),
        "description": _ACTION_DOCS[kind],
    }
    for kind, extra in _ACTION_FIELDS.items()
}
ACTION = {
    "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in ACTIONS],
    "discriminator": {
        "propertyName": "type",
        "mapping": {k: f"#/components/schemas/{PREFIX}Action_{k}" for k in _ACTION_FIELDS},
    },
    "description": "one of the actions in a view's legal_actions",
}

PLAY = _object({"seat": SEAT, "card": CARD})
TRICK = _object({"trick": INT, "leader": SEAT, "plays": _list(ref("Play")), "winner": SEAT})
POINTS = _object({"tricks": INT, "bonus": INT, "premium": INT, "total": INT})
DEAL_RESULT = {
    **_object(
        {
            "deal": INT,
            "tricks": _list(INT, SEATS),
            "made": _list({"type": "boolean"}, SEATS),
            "contracts": _list(_null(INT), SEATS),
            "bid_cards": _list(_null(_list(CARD, 3)), SEATS),
            "premium_seat": _null(SEAT),
            "premium": _null(PREMIUM),
            "points": _list(ref("Points"), SEATS),
            "totals": _list(INT, SEATS),
        }
    ),
    "description": "a scored deal: contracts and bid cards shown for those who made theirs "
    "and for the premium bidder (null for the others)",
}
VIEW = {
    **_object(
        {
            "game": {
                "type": "string",
                "enum": ["ninety-nine"],
                "description": "the game of this view",
            },
            "seat": {**_null(SEAT), "description": "your seat; null for a spectator"},
            "version": INT,
            "phase": {"type": "string", "enum": [p.value for p in Phase]},
            "deal": {**INT, "description": "the deal being played, from 1"},
            "most_deals": {**INT, "description": "the most deals the match can last"},
            "target_score": INT,
            "premium_bids": {"type": "boolean"},
            "dealer": SEAT,
            "eldest": {**SEAT, "description": "the dealer's left: calls and leads first"},
            "trumps": {**_null(SUIT), "description": "the trump suit; null: no trumps"},
            "players": _list(KIND_SCHEMA, SEATS),
            "seats_to_act": _list(SEAT),
            "dealt": {
                **_per_seat(_null(_list(CARD))),
                "description": "each seat's 12 cards as dealt: yours; everyone's once the "
                "match has ended",
            },
            "hands": {
                **_per_seat(_null(_list(CARD))),
                "description": "the cards in each hand: yours, a revealer's; null: hidden",
            },
            "hand_sizes": _per_seat(INT),
            "has_bid": _per_seat({"type": "boolean"}),
            "bid_cards": {
                **_per_seat(_null(_list(CARD, 3))),
                "description": "yours once laid aside, and the premium bidder's once shown",
            },
            "contracts": _per_seat(_null({"type": "integer", "minimum": 0, "maximum": 9})),
            "premium": _object(
                {
                    "calls": _per_seat(_null(CALL)),
                    "seat": _null(SEAT),
                    "kind": _null(PREMIUM),
                    "shown": {"type": "boolean"},
                }
            ),
            "trick": _object({"leader": SEAT, "plays": _list(ref("Play"))}),
            "tricks": _list(ref("Trick")),
            "tricks_won": _per_seat(INT),
            "totals": _list(INT, SEATS),
            "deal_scores": _list(_list(INT, SEATS)),
            # (inline: OpenAPI 3.0 ignores "nullable" beside a $ref)
            "last_deal": _null(DEAL_RESULT),
            "winners": _list(SEAT),
            "end_reason": {
                **_null({"type": "string"}),
                "description": "why the match ended: target (a total reached the target "
                "score), deal_limit (the last deal the rules allow was played, every total "
                "below the target), or an abort's reason; null in play",
            },
            "legal_actions": _list(ref("Action")),
        },
    ),
    "description": "A Ninety-Nine table as one seat (or a spectator) may see it",
}

# Every event's data as a reader may see it: each field described once, by name.
_HANDS = {**_list(_list(HIDDEN_CARD)), "description": "by seat; null cards where hidden"}
_EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "rules": ref("Rules"),
    "players": _list(KIND_SCHEMA, SEATS),
    "seed": {**_null({"type": "string"}), "description": "null until the match ends"},
    "commitment": {"type": "string", "description": "SHA-256 of the seed"},
    "deal": {"type": "integer", "minimum": 1},
    "dealer": SEAT,
    "trumps": {**_null(SUIT), "description": "the trump suit; null: no trumps"},
    "hands": _HANDS,
    "seat": SEAT,
    "cards": {**_list(HIDDEN_CARD, 3), "description": "null cards where hidden"},
    "call": CALL,
    "premium": _null(PREMIUM),
    "contract": {"type": "integer", "minimum": 0, "maximum": 9},
    "hand": {**_list(CARD), "description": "a revealer's hand; empty for a declarer"},
    "card": CARD,
    "trick": {"type": "integer", "minimum": 1},
    "leader": SEAT,
    "plays": {
        **_list({**_list({"anyOf": [SEAT, CARD]}, 2)}),
        "description": "[seat, card] pairs in the order played",
    },
    "winner": SEAT,
    "tricks": _list(INT, SEATS),
    "made": _list({"type": "boolean"}, SEATS),
    "contracts": _list(_null(INT), SEATS),
    "bid_cards": _list(_null(_list(CARD, 3)), SEATS),
    "premium_seat": _null(SEAT),
    "points": _list(ref("Points"), SEATS),
    "totals": _list(INT, SEATS),
    "winners": _list(SEAT),
    "reason": {"type": "string"},
}
EVENTS = CODEC.payload_schemas(f"{PREFIX}Event_", _EVENT_FIELDS)
EVENT = {
    "anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in EVENTS],
    "description": "The data of a Ninety-Nine event, as the reader may see it (the event's "
    f"type says which: {PREFIX}Event_<type>)",
}

SCHEMAS: dict[str, dict[str, Any]] = {
    f"{PREFIX}Rules": RULES,
    f"{PREFIX}Action": ACTION,
    **ACTIONS,
    f"{PREFIX}Play": PLAY,
    f"{PREFIX}Trick": TRICK,
    f"{PREFIX}Points": POINTS,
    f"{PREFIX}DealResult": DEAL_RESULT,
    f"{PREFIX}View": VIEW,
    f"{PREFIX}Event": EVENT,
    **EVENTS,
}


# --- examples for the API's documentation, from a real (fixed) match ------------------------
def _example() -> tuple[State, list[dict[str, Any]]]:
    """A match played a little way with fixed choices: everyone bids, seat 1 declares,
    then the first cards are played. Returns the state and seat 0's last events."""
    state = replay(start_match(Rules(), ["human", "com", "com"], bytes(range(32))))
    events: list[Any] = []
    for step in range(7):
        seat = state.seats_to_act()[0]
        if state.phase is Phase.PREMIUM:
            action: Any = Declare() if seat == 1 else Pass()
        else:
            options = legal_actions(state, seat)
            action = options[(step * 37) % len(options)]
        events = decide(state, seat, action)
        state = replay(events, state)
    return state, [redact_event(e, 0, match_ended=False) | {"type": e.name} for e in events]


_STATE, _EVENTS = _example()
VIEW_EXAMPLE = view_for(_STATE, 0).to_json()
EVENTS_EXAMPLE = {
    "events": [
        {
            "seq": _STATE.version - len(_EVENTS) + i + 1,
            "type": data.pop("type"),
            "version": 1,
            "actor": "com:normal",
            "created_at": "2026-11-30T03:51:06.950077+00:00",
            "data": data,
        }
        for i, data in enumerate(_EVENTS)
    ],
    "version": _STATE.version,
    "next_after": _STATE.version,
    "has_more": False,
}
ACT_RESULT_EXAMPLE = {
    "version": _STATE.version,
    "events": EVENTS_EXAMPLE["events"],
    "view": VIEW_EXAMPLE,
}
HINT_EXAMPLE = {
    "action": {"type": "play", "card": "AS"},
    "reason": "Your contract is 3 and you have won 1 trick: the ace of spades should win "
    "this trick.",
}
ACTION_EXAMPLES = [
    ("Bid 3 + 2 + 0 = 5 tricks", {"type": "bid", "cards": ["6C", "QH", "9D"]}),
    ("No premium bid", {"type": "pass"}),
    ("Declare", {"type": "declare"}),
    ("Reveal", {"type": "reveal"}),
    ("Play the ace of spades", {"type": "play", "card": "AS"}),
]
EXAMPLES: dict[str, Any] = {
    "actions": ACTION_EXAMPLES,
    "view": VIEW_EXAMPLE,
    "act_result": ACT_RESULT_EXAMPLE,
    "events": EVENTS_EXAMPLE,
    "hint": HINT_EXAMPLE,
}
