"""Request and response shapes of the API (also the OpenAPI schema's components)."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from accounts.models import CANONICAL_MAX, canonical_username, validate_one_script
from games import DEFAULT_GAME
from matches.models import MatchStatus


class StrictSerializer(serializers.Serializer):
    # A request body read as JSON means it: no unknown fields, no coerced types. DRF would
    # turn "3" into 3, 1 into true and 7 into "7", and ignore fields it does not know; a
    # client that sends any of these has a bug it should hear about. (A comment, not a
    # docstring: the schema would give a docstring to every request shape built on this.)
    # The schema says the same: these shapes take no other properties (api/openapi.py).

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
    current_version = serializers.IntegerField(
        required=False,
        help_text="the match's version now (version_conflict, precondition_failed): read it again",
    )
    limit = serializers.IntegerField(
        required=False, help_text="the bound that was reached (too_many_matches, match_too_long)"
    )


USERNAME_MAX = 150  # the column's length (Django's AbstractUser.username)
USERNAME_MIN = 3


# --- accounts -----------------------------------------------------------------------------
class RegisterSerializer(StrictSerializer):
    # (no pattern in the schema: JSON Schema's \w is ASCII's, the service's Unicode's)
    username = serializers.CharField(
        min_length=USERNAME_MIN,
        max_length=USERNAME_MAX,
        help_text="letters and digits (of any one script, or Latin with Japanese, Chinese or "
        "Korean), and @ . + - _; unique, compared without case; 3 to 150 characters once "
        "normalised (NFKC)",
    )
    password = serializers.CharField(  # as typed: a space at either end is a character
        write_only=True, max_length=128, trim_whitespace=False, style={"input_type": "password"}
    )
    email = serializers.EmailField(required=False, allow_blank=True, max_length=254)

    def validate_username(self, value: str) -> str:
        # stored as given after NFKC (Django's normalize_username), and compared canonically:
        # either can be longer than the name sent (one character can spell eighteen)
        model = get_user_model()
        stored = model.normalize_username(value)
        if len(stored) > USERNAME_MAX or len(canonical_username(stored)) > CANONICAL_MAX:
            raise serializers.ValidationError("this username is too long once normalised")
        if len(stored) < USERNAME_MIN:  # (NFKC joins letters too: "a\u1100\u1161" is "a가")
            raise serializers.ValidationError("this username is too short once normalised")
        try:  # the model's own validators (the admin's form runs them on the stored name):
            model._meta.get_field("username").run_validators(stored)  # "ﷺ" spells 18, spaces too
        except DjangoValidationError:
            raise serializers.ValidationError(
                "this username, once normalised, holds characters a username may not"
            ) from None
        try:
            validate_one_script(stored)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from None
        return value

    def validate(self, attrs: dict[str, str]) -> dict[str, str]:
        user = get_user_model()(username=attrs["username"], email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as exc:  # the password's, so a form can show it there
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class CredentialsSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=128, trim_whitespace=False, style={"input_type": "password"}
    )


class PasswordChangeSerializer(StrictSerializer):
    password = serializers.CharField(
        max_length=128,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="your password now",
    )
    new_password = serializers.CharField(
        max_length=128,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="the password from now on, checked as a new account's is (long enough, "
        "not common, not all digits, not like the username)",
    )

    def validate(self, attrs: dict[str, str]) -> dict[str, str]:
        try:
            password_validation.validate_password(attrs["new_password"], self.context["user"])
        except DjangoValidationError as exc:  # the new password's, so a form can show it there
            raise serializers.ValidationError({"new_password": list(exc.messages)}) from None
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send as 'Authorization: Token <token>'")


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    is_staff = serializers.BooleanField()


class RegisteredSerializer(UserSerializer):
    token = serializers.CharField()


# --- games --------------------------------------------------------------------------------
# A game's own shapes (its rules, actions and views) are JSON Schemas the game provides;
# api/openapi.py puts every registered game's into the schema, with these unions of them.
@extend_schema_field({"$ref": "#/components/schemas/GameRules"})
class GameRulesField(serializers.DictField):
    pass


@extend_schema_field({"$ref": "#/components/schemas/GameAction"})
class GameActionField(serializers.DictField):
    pass


@extend_schema_field({"$ref": "#/components/schemas/GameView"})
class GameViewField(serializers.DictField):
    pass


@extend_schema_field({"$ref": "#/components/schemas/GameEventData"})
class GameEventDataField(serializers.DictField):
    pass


class GameOptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    doc = serializers.CharField(help_text="what the option does")
    schema = serializers.DictField(help_text="its JSON Schema: type, allowed values, bounds")
    default = serializers.JSONField(help_text="its value in the game's default preset")


class SeatLimitsSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class PresetSerializer(serializers.Serializer):
    name = serializers.CharField()
    rules = GameRulesField(help_text="every option with this preset's value")
    seats = SeatLimitsSerializer(help_text="the table sizes this preset can be played with")


class GameSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="what `game` names in a match")
    title = serializers.CharField()
    description = serializers.CharField()
    round_name = serializers.CharField(help_text="what the game calls a round (hole, deal)")
    seats = SeatLimitsSerializer()
    presets = PresetSerializer(many=True)
    default_preset = serializers.CharField()
    options = GameOptionSerializer(many=True)
    com_levels = serializers.ListField(child=serializers.CharField(), help_text="weakest first")
    default_com_level = serializers.CharField(
        help_text="the level of the COMs in a preset's default table (default_seats); a COM "
        "seat a request lists names its own level"
    )
    com_level_aliases = serializers.DictField(
        child=serializers.CharField(),
        help_text="other names of levels, accepted wherever a level is named",
    )
    default_seats = serializers.DictField(
        child=serializers.ListField(child=serializers.ChoiceField(choices=["me", "com"])),
        help_text="by preset, the table a match request without seats gets",
    )
    pause_phases = serializers.ListField(
        child=serializers.CharField(),
        help_text="phases that are a pause between rounds (round_pause_seconds bounds them)",
    )
    turn_goes_on_phases = serializers.ListField(
        child=serializers.CharField(),
        help_text="phases in which a seat goes on with the turn it began: its turn clock "
        "(turn_deadline) runs on; every other move starts a new one",
    )
    ends_at_target = serializers.BooleanField(
        help_text="true: a match ends once a total reaches the rules' target_score, so a "
        "match's `rounds` is the most it can last (false: the rounds it plays)"
    )


class RulesetSerializer(serializers.Serializer):
    game = serializers.CharField()
    preset = serializers.CharField()
    rules = GameRulesField(help_text="every option with this preset's value")
    options = GameOptionSerializer(many=True)


# --- actions ------------------------------------------------------------------------------
class ActionRequestSerializer(serializers.Serializer):
    """The body of ``POST .../actions``: one of the match's game's actions."""

    expected_version = serializers.IntegerField(
        required=False, min_value=0, help_text="the version you acted on (or send If-Match)"
    )


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["human", "com", "open"])
    username = serializers.CharField(allow_null=True)
    com_level = serializers.CharField(allow_null=True)
    to_act = serializers.BooleanField()


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    preset = serializers.CharField()
    status = serializers.ChoiceField(choices=MatchStatus.values)
    version = serializers.IntegerField()
    round = serializers.IntegerField(help_text="1-based; Golf calls a round a hole")
    rounds = serializers.IntegerField(
        help_text="the rounds the match plays; for a game that ends at a target score "
        "(GET /api/games: `ends_at_target`), the most it can last"
    )
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
    rules = GameRulesField()
    hints_enabled = serializers.BooleanField()
    turn_timeout = serializers.IntegerField(allow_null=True)
    round_pause_seconds = serializers.IntegerField(
        allow_null=True,
        help_text="how long the pause between rounds waits; null: turn_timeout bounds it "
        "(when set)",
    )
    local = serializers.BooleanField(help_text="pass-and-play: the creator holds every human seat")
    seed_commitment = serializers.CharField(help_text="SHA-256 of the secret seed, from the start")
    seed = serializers.CharField(allow_null=True, help_text="revealed once the match has ended")
    winners = serializers.ListField(child=serializers.IntegerField())
    can_abort = serializers.BooleanField(
        help_text="whether you may abort the match now (POST /api/matches/{id}/abort): its "
        "creator while it waits for players or no one else has joined; an operator always"
    )
    view = GameViewField(help_text="the table as you may see it (the shape of its game)")


class SeatRequestSerializer(StrictSerializer):
    type = serializers.ChoiceField(choices=["me", "open", "com"])
    level = serializers.CharField(
        required=False,
        max_length=16,
        trim_whitespace=False,  # taken as written, as every name a request gives
        help_text="a COM's level, one of its game's (GET /api/games)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("type") == "com" and "level" not in attrs:
            raise serializers.ValidationError(
                {"level": ["a COM seat names its level, one of its game's (GET /api/games)"]}
            )
        return attrs


class MatchCreateSerializer(StrictSerializer):
    game = serializers.CharField(
        default=DEFAULT_GAME,
        max_length=32,
        trim_whitespace=False,
        help_text="the game (GET /api/games)",
    )
    preset = serializers.CharField(
        required=False,
        max_length=32,
        trim_whitespace=False,
        help_text="one of the game's presets; its default if absent",
    )
    rules = serializers.DictField(
        required=False, help_text="rule overrides by option name (GET /api/games)"
    )
    holes = serializers.IntegerField(
        required=False, min_value=1, max_value=18, help_text="Golf: rules.holes"
    )
    undo = serializers.BooleanField(required=False, help_text="rules.undo")
    local = serializers.BooleanField(
        required=False,
        help_text="rules.local (Golf): pass-and-play, every human seat is 'me', on one device",
    )
    seats = SeatRequestSerializer(
        many=True,
        min_length=1,
        max_length=16,
        required=False,
        help_text="the table; the preset's default table when absent (GET /api/games: "
        "default_seats)",
    )
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
    round_pause_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=24 * 3600,
        help_text="seconds the pause after a round (Golf: after a hole, phase hole_over) waits "
        "for every human's 'next' before the server sends it; absent or null: as long as a "
        "turn (turn_timeout), or, without one, for good",
    )
    hole_pause_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=24 * 3600,
        help_text="Golf's name for round_pause_seconds",
    )


class JoinSerializer(StrictSerializer):
    # (the match bounds it: a seat past its last is refused with that bound, once the
    # match is found)
    seat = serializers.IntegerField(
        required=False, min_value=0, help_text="a seat index of the match (0: the first)"
    )


class NoBodySerializer(StrictSerializer):
    # what a request that takes no body may carry: nothing, or {} (a malformed or unknown
    # body is refused before anything is done: a leave or a log-out is not undone)
    pass


def _no_control_characters(value: str) -> None:
    # (nor line or paragraph separators: a reason is one line of text)
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in value):
        raise serializers.ValidationError("no control or format characters, nor line breaks")


class AbortSerializer(StrictSerializer):
    reason = serializers.CharField(
        required=False, max_length=200, allow_blank=True, validators=[_no_control_characters]
    )


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="1, 2, 3, ...: the match's version after it")
    type = serializers.CharField()
    schema_version = serializers.IntegerField(
        help_text="the version of this type's payload it was stored in (`data` is always "
        "in today's shape: an older event is upcast before it is shown)"
    )
    actor = serializers.CharField(
        help_text=(
            "who caused it: user:<id>:<seat> (user:<id> for a match's creation, and in older "
            "logs), com:<level>:<seat>, timer:<seat>, system, staff:<id>"
        )
    )
    seat = serializers.IntegerField(
        allow_null=True,
        help_text="the seat of its actor: whose move caused it (the move's own event and "
        "those that follow from it in the same write, a deal or a trick's end, alike; the "
        "creator's for the first events); null for the system or staff",
    )
    created_at = serializers.DateTimeField()
    data = GameEventDataField(
        help_text="the event's data as you may see it: its game's <Title>Event_<type>"
    )


class ActResultSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    view = GameViewField()


class EventPageSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    version = serializers.IntegerField(help_text="the match's version now")
    next_after = serializers.IntegerField(help_text="pass as 'after' to read on")
    has_more = serializers.BooleanField()


class HintSerializer(serializers.Serializer):
    action = GameActionField()
    reason = serializers.CharField()


class AuditEventSerializer(EventSerializer):
    hash = serializers.CharField()


class AuditSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    status = serializers.CharField()
    rules = GameRulesField()
    seed = serializers.CharField(allow_null=True)
    seed_commitment = serializers.CharField()
    version = serializers.IntegerField(help_text="the number of events in the match's log")
    chain_faults = serializers.ListField(
        child=serializers.CharField(),
        help_text="faults in this page's sequence numbers and hash chain (empty when sound)",
    )
    events = AuditEventSerializer(many=True)
    next_after = serializers.IntegerField(help_text="the `after` of the next page")
    has_more = serializers.BooleanField()


# --- examples shown in the API docs (the games' own are theirs) ----------------------------
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
