"""Request and response shapes of the API (also the OpenAPI schema's components)."""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from drf_spectacular.utils import OpenApiExample, PolymorphicProxySerializer
from rest_framework import serializers

from golf import PRESETS
from matches.models import ComLevel, MatchStatus


def card_field(**kwargs: object) -> serializers.CharField:
    return serializers.CharField(
        allow_null=True, help_text="card code such as 'KS' or 'XR'; null when hidden", **kwargs
    )


class StrictSerializer(serializers.Serializer):
    """A request body read as JSON means it: no unknown fields, no coerced types.

    DRF would turn ``"3"`` into 3, ``1`` into true and ``7`` into "7", and ignore fields
    it does not know; a client that sends any of these has a bug it should hear about.
    """

    def to_internal_value(self, data: object) -> object:
        if isinstance(data, dict):
            errors: dict[str, list[str]] = {}
            for name, value in data.items():
                field = self.fields.get(name)
                if field is None or field.read_only:
                    errors[name] = ["unknown field"]
                elif value is not None and (wanted := _json_type_missed(field, value)):
                    errors[name] = [f"must be {wanted}"]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


def _json_type_missed(field: serializers.Field, value: object) -> str | None:
    """What JSON type ``field`` wants, when ``value`` is not of it; ``None`` when it is."""
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "true or false"
    if isinstance(field, serializers.IntegerField):
        return None if isinstance(value, int) and not isinstance(value, bool) else "an integer"
    if isinstance(field, serializers.CharField | serializers.ChoiceField):
        return None if isinstance(value, str) else "a string"
    return None  # lists, objects and nested serializers check their own contents


# --- problems -----------------------------------------------------------------------------
class ProblemSerializer(serializers.Serializer):
    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField(help_text="stable machine-readable error code")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="field -> messages, for validation problems",
    )


# --- accounts -----------------------------------------------------------------------------
class RegisterSerializer(StrictSerializer):
    username = serializers.RegexField(r"^[\w.@+-]{3,150}$", max_length=150)
    password = serializers.CharField(
        write_only=True, max_length=128, style={"input_type": "password"}
    )
    email = serializers.EmailField(required=False, allow_blank=True)

    def validate(self, attrs: dict[str, str]) -> dict[str, str]:
        user = get_user_model()(username=attrs["username"], email=attrs.get("email", ""))
        password_validation.validate_password(attrs["password"], user)
        return attrs


class CredentialsSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send as 'Authorization: Token <token>'")


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    is_staff = serializers.BooleanField()


class RegisteredSerializer(UserSerializer):
    token = serializers.CharField()


# --- rules --------------------------------------------------------------------------------
class RuleOptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.CharField()
    default = serializers.JSONField()
    allowed = serializers.ListField(child=serializers.JSONField(), required=False)
    description = serializers.CharField(required=False)
    minimum = serializers.JSONField(required=False)
    maximum = serializers.JSONField(required=False)


class RulesetSerializer(serializers.Serializer):
    preset = serializers.CharField()
    rules = serializers.DictField(help_text="every option with this preset's value")
    options = RuleOptionSerializer(many=True)


# --- actions ------------------------------------------------------------------------------
class _ActionBase(serializers.Serializer):
    expected_version = serializers.IntegerField(
        required=False, min_value=0, help_text="the version you acted on (or send If-Match)"
    )


class RevealActionSerializer(_ActionBase):
    type = serializers.ChoiceField(choices=["reveal"])
    position = serializers.IntegerField(min_value=0, help_text="an initial flip")


class DrawActionSerializer(_ActionBase):
    type = serializers.ChoiceField(choices=["draw"], help_text="draw from the stock")


class TakeDiscardActionSerializer(_ActionBase):
    type = serializers.ChoiceField(choices=["take_discard"])


class SwapActionSerializer(_ActionBase):
    type = serializers.ChoiceField(choices=["swap"])
    position = serializers.IntegerField(min_value=0)


class DiscardActionSerializer(_ActionBase):
    type = serializers.ChoiceField(choices=["discard"])
    flip = serializers.IntegerField(
        min_value=0, required=False, allow_null=True, help_text="a face-down position to turn up"
    )


class UndoActionSerializer(_ActionBase):
    type = serializers.ChoiceField(choices=["undo"])


ACTION_SERIALIZERS = {
    "reveal": RevealActionSerializer,
    "draw": DrawActionSerializer,
    "take_discard": TakeDiscardActionSerializer,
    "swap": SwapActionSerializer,
    "discard": DiscardActionSerializer,
    "undo": UndoActionSerializer,
}

ActionRequest = PolymorphicProxySerializer(
    component_name="Action",
    serializers=ACTION_SERIALIZERS,
    resource_type_field_name="type",
)

ACTION_EXAMPLES = [
    OpenApiExample(
        "Reveal (initial flip)", value={"type": "reveal", "position": 0}, request_only=True
    ),
    OpenApiExample(
        "Draw from the stock", value={"type": "draw", "expected_version": 7}, request_only=True
    ),
    OpenApiExample("Take the discard", value={"type": "take_discard"}, request_only=True),
    OpenApiExample(
        "Swap into position 4", value={"type": "swap", "position": 4}, request_only=True
    ),
    OpenApiExample(
        "Discard, flipping position 2", value={"type": "discard", "flip": 2}, request_only=True
    ),
    OpenApiExample("Undo", value={"type": "undo"}, request_only=True),
]


class LegalActionSerializer(serializers.Serializer):
    type = serializers.CharField()
    position = serializers.IntegerField(required=False)
    flip = serializers.IntegerField(required=False, allow_null=True)


# --- views of a match ---------------------------------------------------------------------
class DrawnSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    source = serializers.ChoiceField(choices=["stock", "discard"])
    card = card_field()


class FinalTurnsSerializer(serializers.Serializer):
    finisher = serializers.IntegerField()
    turns_left = serializers.IntegerField()


class SeenCardSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    position = serializers.IntegerField()
    card = serializers.CharField()


class GameViewSerializer(serializers.Serializer):
    """A match as one seat (or a spectator) may see it."""

    seat = serializers.IntegerField(allow_null=True, help_text="your seat; null for a spectator")
    version = serializers.IntegerField()
    phase = serializers.ChoiceField(
        choices=["not_dealt", "flips", "draw", "place", "hole_over", "finished", "aborted"]
    )
    hole = serializers.IntegerField()
    holes = serializers.IntegerField()
    dealer = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    seats_to_act = serializers.ListField(child=serializers.IntegerField())
    grids = serializers.ListField(
        child=serializers.ListField(child=card_field()),
        help_text="each seat's grid in position order; null = face down",
    )
    flips_left = serializers.ListField(child=serializers.IntegerField())
    stock_size = serializers.IntegerField()
    discard = serializers.ListField(child=serializers.CharField(), help_text="bottom to top")
    discard_top = card_field()
    drawn = DrawnSerializer(allow_null=True)
    turns_in_hole = serializers.IntegerField()
    max_turns = serializers.IntegerField()
    final_turns = FinalTurnsSerializer(allow_null=True)
    totals = serializers.ListField(child=serializers.IntegerField())
    hole_scores = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField())
    )
    last_hole_grids = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField())
    )
    winners = serializers.ListField(child=serializers.IntegerField())
    legal_actions = LegalActionSerializer(many=True)
    undo_available = serializers.BooleanField()
    seen = SeenCardSerializer(
        many=True,
        help_text="face-down cards you were shown by a turn you undid, where they lie now "
        "(undo never un-sees); empty for everyone else",
    )
    stock_seen = serializers.ListField(
        child=serializers.CharField(),
        help_text="the cards you know on top of the stock, top first (shown by undone turns)",
    )
    drawn_seen = serializers.BooleanField(
        help_text="the card in hand came from the top of the stock you know: drawn.card shows it"
    )
    auto_moves = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="sequence numbers of moves the server made for you when your turn timed out",
    )


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["human", "com", "open"])
    username = serializers.CharField(allow_null=True)
    com_level = serializers.CharField(allow_null=True)
    to_act = serializers.BooleanField()


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    preset = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.values)
    version = serializers.IntegerField()
    hole = serializers.IntegerField()
    holes = serializers.IntegerField()
    totals = serializers.ListField(child=serializers.IntegerField())
    seats = SeatSerializer(many=True)
    your_seat = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    practice = serializers.BooleanField(
        help_text="a practice match: undo is on, so a turn can be taken back"
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MatchPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="matches in all pages")
    next = serializers.URLField(allow_null=True, help_text="the next page, if any")
    previous = serializers.URLField(allow_null=True, help_text="the previous page, if any")
    results = MatchSummarySerializer(many=True)


class MatchDetailSerializer(MatchSummarySerializer):
    rules = serializers.DictField()
    hints_enabled = serializers.BooleanField()
    turn_timeout = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField(help_text="SHA-256 of the secret seed, from the start")
    seed = serializers.CharField(allow_null=True, help_text="revealed once the match has ended")
    winners = serializers.ListField(child=serializers.IntegerField())
    view = GameViewSerializer()


class SeatRequestSerializer(StrictSerializer):
    type = serializers.ChoiceField(choices=["me", "open", "com"])
    level = serializers.ChoiceField(choices=ComLevel.values, required=False)


class MatchCreateSerializer(StrictSerializer):
    preset = serializers.ChoiceField(choices=sorted(PRESETS), default="six-card")
    rules = serializers.DictField(
        required=False, help_text="rule overrides by option name (see GET /api/rulesets)"
    )
    holes = serializers.IntegerField(required=False, min_value=1, max_value=18)
    undo = serializers.BooleanField(required=False)
    seats = SeatRequestSerializer(many=True, min_length=2, max_length=6)
    hints = serializers.BooleanField(default=True)
    spectate = serializers.BooleanField(
        default=False,
        help_text="create a match you only watch: no seat is 'me' (COMs and open seats)",
    )
    turn_timeout = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=10,
        max_value=30 * 24 * 3600,
        help_text="seconds a human may take for a turn before the server moves for them",
    )


class JoinSerializer(StrictSerializer):
    seat = serializers.IntegerField(required=False, min_value=0, max_value=5)


class AbortSerializer(StrictSerializer):
    reason = serializers.CharField(required=False, max_length=200, allow_blank=True)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    version = serializers.IntegerField()
    actor = serializers.CharField()
    created_at = serializers.DateTimeField()
    data = serializers.DictField(help_text="the event's data as you may see it")


class ActResultSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    view = GameViewSerializer()


class EventPageSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    version = serializers.IntegerField(help_text="the match's version now")
    next_after = serializers.IntegerField(help_text="pass as 'after' to read on")
    has_more = serializers.BooleanField()


class HintSerializer(serializers.Serializer):
    action = LegalActionSerializer()
    reason = serializers.CharField()


class AuditEventSerializer(EventSerializer):
    hash = serializers.CharField()


class AuditSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    status = serializers.CharField()
    rules = serializers.DictField()
    seed = serializers.CharField(allow_null=True)
    seed_commitment = serializers.CharField()
    chain_faults = serializers.ListField(child=serializers.CharField())
    events = AuditEventSerializer(many=True)


# --- examples shown in the API docs ------------------------------------------------------
VIEW_EXAMPLE = {
    "seat": 0,
    "version": 9,
    "phase": "place",
    "hole": 1,
    "holes": 9,
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
    "totals": [0, 0, 0],
    "hole_scores": [],
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
            "version": 1,
            "actor": "user:2",
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
            "version": 1,
            "actor": "user:2",
            "created_at": "2026-11-30T03:51:06.920077+00:00",
            "data": {"seat": 0, "position": 1, "card": "KD", "replaced": "3S"},
        },
        {
            "seq": 11,
            "type": "card_drawn",
            "version": 1,
            "actor": "com:normal",
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
PROBLEM_EXAMPLES = [
    OpenApiExample(
        "Not your turn",
        value={
            "type": "tag:golf-backend,2026:problem/not_your_turn",
            "title": "Illegal action",
            "status": 422,
            "detail": "it is seat 1's turn",
            "code": "not_your_turn",
        },
        response_only=True,
        status_codes=["422"],
    ),
    OpenApiExample(
        "Stale If-Match",
        value={
            "type": "tag:golf-backend,2026:problem/precondition_failed",
            "title": "Precondition failed",
            "status": 412,
            "detail": "the match is at version 12, not 9",
            "code": "precondition_failed",
            "current_version": 12,
        },
        response_only=True,
        status_codes=["412"],
    ),
    OpenApiExample(
        "Invalid rules",
        value={
            "type": "tag:golf-backend,2026:problem/invalid_rules",
            "title": "Invalid rules",
            "status": 400,
            "detail": "grid: must be one of 2x2, 2x3, 2x4, 3x3",
            "code": "invalid_rules",
            "errors": {"rules.grid": ["grid: must be one of 2x2, 2x3, 2x4, 3x3"]},
        },
        response_only=True,
        status_codes=["400"],
    ),
]
