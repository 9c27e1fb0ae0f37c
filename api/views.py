"""The REST API. Views are thin: parse, call one service or selector, render."""

from __future__ import annotations

import contextlib
import math
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, update_session_auth_hash
from django.contrib.auth.hashers import check_password
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.http import parse_etags
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from accounts import guard
from accounts.backends import locked_for, refused_as_suspended
from accounts.models import canonical_username
from accounts.tokens import TokenCheck, remembered
from api import push
from api import serializers as s
from api.authentication import (
    CHALLENGE,
    SessionAuthentication,
    TokenCheckingMixin,
    account_suspended,
    credential_of,
    still_admitted,
)
from api.openapi import GAME_ALIASES, RULE_SHORTCUTS
from api.problems import PROBLEM_CONTENT_TYPE, ApiProblem, check_query, invalid_field
from api.throttling import RegistrationRateThrottle, ScopedRateThrottle
from cards.protocol import Game
from games import DEFAULT_GAME, all_games, get_game
from matches import errors, selectors, services
from matches.models import Match, MatchStatus
from matches.notify import wait_for_version
from matches.pacing import HINTS, pacing
from matches.store import game_of, load_state, state_at

MAX_WAIT_SECONDS = push.MAX_WAIT_SECONDS
MAX_EVENT_PAGE = 500
#: Events a page of the log, or a stream's start, sends uncharged. More (a reader catching
#: up) count among the events the account's reads of a log read (``exported_events``):
#: pages of 500 at the whole request rate (1,200 a minute) read ten times that budget.
#: This many at that rate stay within it, and following a match live never reaches it.
FREE_EVENT_READ = 50
#: The audit record's pages are larger: most matches' whole log fits in one.
MAX_AUDIT_PAGE = 5000
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,128}$")


def check_after(match: Match, after: int, name: str = "after") -> None:
    """An event number a reader has seen is never past the match's last one (the log only
    grows): such a reader would wait for nothing. A clear 400 instead."""
    if after > match.version:
        raise invalid_field(
            name,
            f"{name} ({after}) is past the match's last event ({match.version})",
            f"at most {match.version}",
        )


@dataclass(frozen=True)
class IntParam:
    """A bounded integer query parameter: documented and checked from one declaration."""

    name: str
    default: int
    low: int
    high: int
    description: str

    def schema(self) -> OpenApiParameter:
        return OpenApiParameter(
            self.name,
            {"type": "integer", "minimum": self.low, "maximum": self.high},
            description=self.description,
            default=self.default,
        )

    def read(self, request: Request) -> int:
        raw = request.query_params.get(self.name)
        if raw is None:
            return self.default
        if not re.fullmatch(r"[0-9]{1,10}", raw) or not self.low <= int(raw) <= self.high:
            bounds = f"an integer in {self.low}..{self.high}"
            raise invalid_field(self.name, f"{self.name} must be {bounds}", bounds)
        return int(raw)


@dataclass(frozen=True)
class ChoiceParam:
    """An optional query parameter taking one of a few words (or of the words a function
    gives when asked: the registered games and their presets)."""

    name: str
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]]
    description: str = ""

    @property
    def words(self) -> tuple[str, ...]:
        return self.choices() if callable(self.choices) else self.choices

    def schema(self) -> OpenApiParameter:
        return OpenApiParameter(
            self.name, OpenApiTypes.STR, enum=list(self.words), description=self.description
        )

    def read(self, request: Request) -> str | None:
        raw = request.query_params.get(self.name)
        if raw is None or raw in self.words:
            return raw
        detail = f"{self.name} must be one of: {', '.join(self.words)}"
        raise invalid_field(self.name, detail, f"one of {list(self.words)}")


@dataclass(frozen=True)
class MatchIdParam:
    """An optional query parameter naming a match by its id."""

    name: str
    description: str

    def schema(self) -> OpenApiParameter:
        return OpenApiParameter(self.name, OpenApiTypes.UUID, description=self.description)

    def read(self, request: Request) -> uuid.UUID | None:
        raw = request.query_params.get(self.name)
        if raw is None:
            return None
        try:
            return uuid.UUID(raw)
        except ValueError:
            raise invalid_field(
                self.name, f"{self.name} must be a match's id", "a match id"
            ) from None


Param = IntParam | ChoiceParam | MatchIdParam


class QueryChecked:
    # A view whose reads take only the query parameters it declares in ``query`` (and
    # ``format``, which picks the answer's format), each once, and whose writes take none:
    # any other is a 400 naming it, so that a typo (``afer=5``) is not read as the default
    # without a word, nor a read's parameter on a write (``POST /api/matches?mine=true``)
    # ignored. (A comment, not a docstring: the schema would describe every operation of a
    # view without a docstring of its own by it.)

    query: tuple[Param, ...] = ()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # type: ignore[misc]  # (an APIView's)
        if request.method == "OPTIONS":
            return
        names = [param.name for param in self.query] if request.method in ("GET", "HEAD") else []
        check_query(request.query_params, names, {api_settings.URL_FORMAT_OVERRIDE})


PAGE = IntParam("page", 1, 1, 10**9, "page number")
PAGE_SIZE = IntParam("page_size", 20, 1, 100, "matches per page")
AFTER = IntParam(
    "after", 0, 0, 10**9, "events after this sequence number (at most the match's version)"
)
LIMIT = IntParam("limit", 100, 1, MAX_EVENT_PAGE, "events per page")
AUDIT_LIMIT = IntParam("limit", 1000, 1, MAX_AUDIT_PAGE, "events per page")
WAIT = IntParam("wait", 0, 0, MAX_WAIT_SECONDS, "long-poll up to this many seconds")


#: A read's conditional header, and its answer when the caller's copy is current.
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="the ETag of the copy you hold (several, comma-separated, or `*`): "
    "answered 304 while it is current",
)
NOT_MODIFIED = OpenApiResponse(
    description="the copy named by If-None-Match is current: no body, its ETag again"
)


def problems(*codes: int) -> dict[tuple[int, str], OpenApiResponse]:
    """Schema entries for an operation's own error responses: RFC 9457 problem documents.
    (Those any operation may answer, the schema hook adds: api/openapi.py COMMON_PROBLEMS.)"""
    described = {
        400: "malformed request or invalid fields (validation_error, malformed_action, ...)",
        401: "not authenticated",
        403: "not allowed (not_a_participant, permission_denied), or the account is "
        "suspended (account_suspended)",
        404: "unknown match (match_not_found)",
        409: "conflict (version_conflict, idempotency_key_reused, match_not_active, "
        "too_many_matches, cannot_leave, ...)",
        412: "stale If-Match (precondition_failed)",
        413: "request body too large",
        415: "the body is not JSON (unsupported_media_type)",
        422: "the rules do not allow the action (not_your_turn, must_swap_taken_discard, ...)",
        429: "throttled",
    }
    return {
        (c, PROBLEM_CONTENT_TYPE): OpenApiResponse(s.ProblemSerializer, description=described[c])
        for c in sorted(codes)
    }


# --- accounts -----------------------------------------------------------------------------
class RegisterView(QueryChecked, APIView):
    permission_classes = [AllowAny]
    # (no credentials asked: a stale token a client still sends beside them refuses nothing)
    authentication_classes: list[Any] = []
    throttle_scope = "auth"

    def get_throttles(self) -> list[BaseThrottle]:
        self.registrations = RegistrationRateThrottle()
        return [*super().get_throttles(), self.registrations]

    def finalize_response(
        self, request: Request, response: HttpResponseBase, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        """A registration that made no account (refused, or failed) gives back the place
        among the address's new accounts it held."""
        registrations = getattr(self, "registrations", None)
        if registrations is not None and response.status_code != status.HTTP_201_CREATED:
            registrations.give_back()
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(
        tags=["accounts"],
        summary="Create an account",
        description=(
            "A new account and its token (send it as `Authorization: Bearer <token>`). "
            "A username is unique whatever its case or width (NFKC, case-folded) and is of "
            "one script (Latin may go with Japanese, Chinese or Korean); new accounts are "
            "limited per address a day (429)."
        ),
        request=s.RegisterSerializer,
        responses={201: s.RegisteredSerializer, **problems(400, 429)},
        examples=[
            OpenApiExample(
                "New player",
                value={"username": "ada", "password": "correct-horse-battery"},
                request_only=True,
            )
        ],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = s.RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username = data.validated_data["username"]
        taken = ApiProblem(
            400,
            "username_taken",
            "Username taken",
            "this username (or one that differs from it only in case or width) is taken",
            errors={"username": ["this username is taken"]},
        )
        users = get_user_model().objects
        if users.filter(username_canonical=canonical_username(username)).exists():
            raise taken
        try:
            with transaction.atomic():
                user = users.create_user(
                    username=username,
                    password=data.validated_data["password"],
                    email=data.validated_data.get("email", ""),
                )
                token = Token.objects.create(user=user)
        except IntegrityError:  # registered at the same moment by another request
            raise taken from None
        remembered.put(token.key, user)  # (good: not held off with its address)
        return Response({**_user_json(user), "token": token.key}, status=status.HTTP_201_CREATED)


class TokenView(QueryChecked, APIView):
    throttle_scope = "auth"

    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_authenticators(self) -> list[Any]:
        """A log-in is answered on the credentials in its body: a stale token a client
        still sends beside them (one a new password revoked) does not refuse it."""
        method = getattr(self.request, "method", None)  # (no request: the schema's)
        return [] if method == "POST" else super().get_authenticators()

    @extend_schema(
        tags=["accounts"],
        summary="Obtain a token",
        request=s.CredentialsSerializer,
        responses={200: s.TokenSerializer, **problems(400, 401, 403, 429)},
        description=(
            "Failed log-ins are counted per account and per address; past a few, each further "
            "attempt must wait a delay that doubles every time (429 `login_locked` with "
            "`Retry-After`), the right password included; the failure that starts the wait "
            "is a 401 `invalid_credentials` with that `Retry-After`. A suspended account's "
            "right password is refused with 403 `account_suspended`."
        ),
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = s.CredentialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username, password = data.validated_data["username"], data.validated_data["password"]
        user = authenticate(request._request, username=username, password=password)
        if user is None and refused_as_suspended(request._request):
            raise account_suspended()
        if user is None and (wait := locked_for(request._request)):  # (its password unread)
            raise _login_locked(wait)
        invalid = ApiProblem(
            401, "invalid_credentials", "Invalid credentials", "wrong username or password"
        )
        if user is None or not user.is_active:
            raise _password_refused(
                request,
                username,
                401,
                "invalid_credentials",
                "Invalid credentials",
                "wrong username or password",
            )
        with transaction.atomic():
            # the token is made only while the account is still as its password was checked:
            # a new password or a suspension written meanwhile (each revoking the tokens it
            # finds, under this row's lock) is not outlived by a token made after it
            still = (
                get_user_model()
                .objects.select_for_update()
                .filter(pk=user.pk)
                .values_list("password", "is_active", "suspended_at")
                .first()
            )
            if still is not None and still[2] is not None:
                raise account_suspended()
            # (another log-in may have upgraded the hash meanwhile: the same password)
            same = still is not None and (
                still[0] == user.password or check_password(password, still[0])
            )
            if not same or still[1:] != (True, None):
                raise invalid
            token, _ = Token.objects.get_or_create(user=user)
        remembered.put(token.key, user)  # (good: not held off with its address)
        return Response({"token": token.key})

    @extend_schema(
        tags=["accounts"],
        summary="Revoke your token",
        description="The token you sent no longer works, on any device; log in for a new one. "
        "It takes no body (or `{}`): any other is refused, and the token kept.",
        request=None,
        responses={204: None, **problems(400, 401, 413, 415)},
    )
    def delete(self, request: Request) -> Response:
        s.NoBodySerializer(data=request.data).is_valid(raise_exception=True)
        Token.objects.filter(user=request.user).delete()
        if isinstance(request.auth, Token | TokenCheck):
            remembered.forget(request.auth.key)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _login_locked(wait: int) -> ApiProblem:
    return ApiProblem(
        429,
        "login_locked",
        "Too many failed log-ins",
        f"too many failed log-ins for this account or address: retry in {wait} s",
        headers={"Retry-After": str(wait)},
    )


def _password_refused(
    request: Request, username: str, status: int, code: str, title: str, detail: str, **extra: Any
) -> ApiProblem:
    """A wrong password's answer (a log-in's, a password change's). One that makes the next
    attempt wait says so, the wait its Retry-After: it was still a password checked, and
    wrong."""
    headers = None
    if wait := guard.wait_seconds(username, guard.client_address(request)):
        detail += (
            f"; too many failed log-ins for this account or address: the next attempt must "
            f"wait {wait} s"
        )
        headers = {"Retry-After": str(wait)}
    return ApiProblem(status, code, title, detail, headers=headers, **extra)


def _wrong_password(request: Request, username: str) -> ApiProblem:
    detail = "this is not your password"
    return _password_refused(
        request,
        username,
        400,
        "wrong_password",
        "Wrong password",
        detail,
        errors={"password": [detail]},
    )


class PasswordView(QueryChecked, APIView):
    throttle_scope = "auth"

    @extend_schema(
        tags=["accounts"],
        summary="Change your password",
        description=(
            "Your password now and the new one. The new password revokes the account's token "
            "on every device (and ends its other sessions): the answer is the new token. A "
            "wrong password now is a 400 `wrong_password` and counts as a failed log-in: past "
            "a few, the next check must wait (429 `login_locked` with `Retry-After`)."
        ),
        request=s.PasswordChangeSerializer,
        responses={200: s.TokenSerializer, **problems(400, 401, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        user = request.user
        data = s.PasswordChangeSerializer(data=request.data, context={"user": user})
        data.is_valid(raise_exception=True)
        current, new = data.validated_data["password"], data.validated_data["new_password"]
        username = user.get_username()
        checked = authenticate(request._request, username=username, password=current)
        if checked is None and refused_as_suspended(request._request):  # (suspended since)
            raise account_suspended()
        if checked is None and (wait := locked_for(request._request)):  # (its password unread)
            raise _login_locked(wait)
        if checked is None:
            if not get_user_model().objects.filter(pk=user.pk, is_active=True).exists():
                raise AuthenticationFailed("this account is no longer active")  # (meanwhile)
            raise _wrong_password(request, username)
        with transaction.atomic():
            # under the row's lock, the account as its password was checked (as at a log-in):
            # a suspension or deactivation written meanwhile is not outlived by a token made
            # here, nor an operator's new password or another change overwritten
            still = get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            if still is not None and still.suspended_at is not None:
                raise account_suspended()
            if still is None or not still.is_active:
                raise AuthenticationFailed("this account is no longer active")
            if still.password != checked.password and not check_password(current, still.password):
                raise _wrong_password(request, username)
            revoked = list(Token.objects.filter(user=still).values_list("key", flat=True))
            still.set_password(new)
            still.save(update_fields=["password"])  # revokes its tokens (accounts/models.py)
            token = Token.objects.create(user=still)
        for key in revoked:  # (the token a session-authenticated caller did not send too)
            remembered.forget(key)
        remembered.put(token.key, still)
        if isinstance(request.successful_authenticator, SessionAuthentication):
            update_session_auth_hash(request._request, still)  # this session goes on
        return Response({"token": token.key})


def _user_json(user: Any) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.username,
        "email": user.email,
        "is_staff": user.is_staff,
    }


class MeView(QueryChecked, APIView):
    @extend_schema(
        tags=["accounts"],
        summary="Who am I",
        description="The account the request's token or session is of.",
        responses={200: s.UserSerializer, **problems(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(_user_json(request.user))


# --- games and their rules -------------------------------------------------------------------
def options_json(game: Game, preset: str) -> list[dict[str, Any]]:
    values = game.preset_rules(preset)
    return [
        {
            "name": o.name,
            "doc": o.doc,
            "schema": services.option_schema(o.name, o.schema),
            "default": values.get(o.name),
        }
        for o in game.info.options
    ]


def _seats(game: Game, preset: str) -> dict[str, int]:
    low, high = game.seat_limits(game.rules(preset, {}))
    return {"min": low, "max": high}


def game_json(game: Game) -> dict[str, Any]:
    info = game.info
    return {
        "name": info.name,
        "title": info.title,
        "description": info.description,
        "round_name": info.round_name,
        "seats": {"min": info.min_seats, "max": info.max_seats},
        "presets": [
            {"name": p, "rules": game.preset_rules(p), "seats": _seats(game, p)}
            for p in info.presets
        ],
        "default_preset": info.default_preset,
        "options": options_json(game, info.default_preset),
        "com_levels": list(info.com_levels),
        "default_com_level": info.default_com_level,
        "com_level_aliases": dict(info.com_level_aliases),
        "default_seats": {preset: list(kinds) for preset, kinds in info.default_seats.items()},
        "pause_phases": list(info.pause_phases),
        "turn_goes_on_phases": list(info.turn_goes_on_phases),
        "ends_at_target": info.ends_at_target,
    }


class GamesView(QueryChecked, APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["rules"],
        summary="The games: their seats, presets, rule options and COM levels",
        description=(
            "Every game this service plays: how many seats, its presets (each with its rules "
            "and seats), every rule option with its schema and default, the COM levels and "
            "their aliases, and each preset's default table."
        ),
        responses={200: s.GameSerializer(many=True)},
        auth=[],
    )
    def get(self, request: Request) -> Response:
        return Response([game_json(game) for game in all_games()])


GAME = ChoiceParam("game", lambda: tuple(g.info.name for g in all_games()), "a game")


class RulesetsView(QueryChecked, APIView):
    permission_classes = [AllowAny]
    query = (GAME,)

    @extend_schema(
        tags=["rules"],
        summary="A game's presets with every rule option (by default Golf's)",
        description=(
            "Each preset's rules, and every option with its schema (type, bounds, choices) "
            "and that preset's value: a match request's `rules` override them one by one."
        ),
        parameters=[GAME.schema()],
        responses={200: s.RulesetSerializer(many=True), **problems(400)},
        auth=[],
    )
    def get(self, request: Request) -> Response:
        game = get_game(GAME.read(request) or DEFAULT_GAME)
        return Response(
            [
                {
                    "game": game.info.name,
                    "preset": p,
                    "rules": game.preset_rules(p),
                    "options": options_json(game, p),
                }
                for p in game.info.presets
            ]
        )


# --- matches ------------------------------------------------------------------------------
def summary_json(match: Match, user: Any) -> dict[str, Any]:
    seat = selectors.seat_index_for(match, user)
    seats = selectors.seats_json(match)
    return {
        "id": str(match.id),
        "preset": match.preset,
        "status": match.status,
        "version": match.version,
        "game": match.game,
        "round": match.round,
        "rounds": match.rounds,
        "totals": match.totals,
        "seats": seats,
        "your_seat": seat,
        "your_turn": seat is not None
        and match.status == MatchStatus.ACTIVE
        and seats[seat]["to_act"],
        "practice": bool(match.rules.get("undo")),
        "created_at": match.created_at.isoformat(),
        "updated_at": match.updated_at.isoformat(),
    }


def detail_json(match: Match, user: Any, view: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        **summary_json(match, user),
        "rules": match.rules,
        "hints_enabled": match.hints_enabled,
        "turn_timeout": match.turn_timeout,
        "round_pause_seconds": match.round_pause_seconds,
        "local": match.local,
        "seed_commitment": match.seed_commitment,
        "seed": selectors.logged_seed(match) if match.ended else None,
        "winners": match.winners,
        "can_abort": not match.ended and services.may_abort(match, user),
        "view": view if view is not None else selectors.match_view(match, user),
    }


def _version_tag(version: int) -> str:
    """The entity tag of a match at ``version`` (its detail, an action's answer)."""
    return f'"{version}"'


def _with_etag(response: Response, tag: str) -> Response:
    """``response`` with the entity tag ``tag`` (:func:`_version_tag`, :func:`_state_etag`)."""
    response["ETag"] = tag
    return response


def _state_etag(version: int, held: list[int]) -> str:
    """The entity tag of ``states/{version}`` for a caller holding the seats ``held`` (none:
    a spectator): that view is the state after ``version`` events from the caller's seat,
    the same for every read, but another once the caller takes a seat or hands one over.
    (A local match's view is that of the held seat to act at that version, which the
    version and the seats held fix: ``"12.0+1"``.)"""
    return f'"{version}.{"+".join(map(str, held)) if held else "s"}"'


def _unchanged(request: Request, etag: str) -> Response | None:
    """304 Not Modified, tagged, when ``If-None-Match`` names ``etag`` (or is ``*``): the
    copy the caller holds is the answer, and nothing is built again. Tags compare weakly
    (``W/"7"`` names ``"7"``), as RFC 9110 has it for ``If-None-Match``."""
    header = request.headers.get("If-None-Match")
    if not header:
        return None
    tags = parse_etags(header)
    if "*" not in tags and etag not in (tag.removeprefix("W/") for tag in tags):
        return None
    return _with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), etag)


class MatchPagination(PageNumberPagination):
    """Page number and size read (and refused when malformed) by their declarations. In
    the order of creation, the next page is the matches created before the last one shown
    (``before``): matches made or gone from the list meanwhile move no other across a page
    boundary, so none is repeated or skipped."""

    def get_next_link(self) -> str | None:
        request = self.request
        if ORDER.read(request) != "created" or not self.page.has_next():
            return super().get_next_link()
        url = replace_query_param(request.build_absolute_uri(), BEFORE.name, self.page[-1].id)
        return remove_query_param(url, self.page_query_param)

    def get_page_size(self, request: Request) -> int:
        return PAGE_SIZE.read(request)

    def get_page_number(self, request: Request, paginator: Any) -> int:
        return PAGE.read(request)


MINE = ChoiceParam("mine", ("true", "false"), "only matches you sit in or made (no open lobbies)")
ALL = ChoiceParam("all", ("true", "false"), "every match (staff only; not with mine)")
STATUS = ChoiceParam("status", tuple(MatchStatus.values))
PRESET = ChoiceParam(
    "preset", lambda: tuple(sorted({p for g in all_games() for p in g.info.presets}))
)
AWAITING = ChoiceParam("awaiting", ("me",), "matches waiting for your move")
JOINABLE = ChoiceParam(
    "joinable",
    ("true", "false"),
    "only the open lobbies you could join (you sit in none, and held none a COM took over)",
)


ORDER = ChoiceParam(
    "order",
    ("activity", "created"),
    "`activity` (the default): latest activity first, so a match that moves on while you "
    "page moves to the first page; `created`: newest first, an order that never changes, "
    "for paging through the whole list",
)


BEFORE = MatchIdParam(
    "before",
    "with `order=created`: only the matches created before this one (the `next` link pages "
    "so, and no match is repeated or skipped however the list changes meanwhile)",
)
LIST_QUERY = (
    MINE,
    ALL,
    GAME,
    STATUS,
    PRESET,
    AWAITING,
    JOINABLE,
    ORDER,
    BEFORE,
    PAGE,
    PAGE_SIZE,
)


# a list of an account's matches counts one more against its rate (``lists``) for each
# this many matches it has: the list reads them all (about 6 ms a thousand)
LIST_MATCHES_PER_COUNT = 5000


class MatchListView(QueryChecked, APIView):
    query = LIST_QUERY

    def get_throttles(self) -> list[BaseThrottle]:
        # a match created is kept for good (its log is append-only, even once aborted):
        # creating has a rate of its own; so has listing, whose count and order read every
        # match of the account's, and which is priced by their number (below)
        self.throttle_scope = "creates" if self.request.method == "POST" else "lists"
        return super().get_throttles()

    @extend_schema(
        tags=["matches"],
        summary="List matches",
        description=(
            "Your matches and the open lobbies (matches waiting for players with a seat "
            "free), latest activity first (`order=created`: newest first, for paging "
            "through a list that does not move). `mine=true` leaves the lobbies out, "
            "`joinable=true` keeps only the lobbies you could join; staff may ask for "
            "every match with `all=true`. A list counts and orders every match of yours: "
            "it has a rate of its own (`THROTTLE_LISTS`, 120 a minute), and with "
            f"{LIST_MATCHES_PER_COUNT:,} matches or more counts one more against it for each "
            f"{LIST_MATCHES_PER_COUNT:,} (`429 throttled` beyond; `awaiting=me` and "
            "`joinable=true` count one)."
        ),
        parameters=[param.schema() for param in LIST_QUERY],
        operation_id="matches_list",
        responses={200: s.MatchPageSerializer, **problems(400, 401, 403, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        everyone = ALL.read(request) == "true"
        if everyone and not request.user.is_staff:
            raise errors.PermissionDenied("only staff may list every match")
        if everyone and MINE.read(request) == "true":
            raise invalid_field("all", "all=true lists every match: not with mine", "not with mine")
        joinable = JOINABLE.read(request) == "true"
        if joinable and (everyone or MINE.read(request) == "true" or AWAITING.read(request)):
            detail = "joinable=true lists matches you do not sit in: not with mine, awaiting or all"
            raise invalid_field("joinable", detail, "not with mine, awaiting or all")
        by_creation = ORDER.read(request) == "created"
        before = BEFORE.read(request)
        if before is not None and not by_creation:
            detail = "before pages the list in the order of creation: with order=created only"
            raise invalid_field("before", detail, "with order=created")
        created_before = None
        if before is not None:
            created_before = selectors.creation_mark(before)
            if created_before is None:
                raise invalid_field("before", "before names no match", "a match id")
        # what it reads grows with the account's history, but for the lobbies (others') and
        # the matches awaiting the account's move (read from its seats to act)
        awaiting = AWAITING.read(request) == "me"
        if not everyone and not joinable and not awaiting:
            more = selectors.own_matches(request.user) // LIST_MATCHES_PER_COUNT
            if more:  # (not let through uncounted while the cache is down: a 503)
                _charge(request, "lists", more, priced=True)
        queryset = selectors.matches_for(
            request.user,
            mine=MINE.read(request) == "true",
            everyone=everyone,
            status=STATUS.read(request),
            game=GAME.read(request),
            preset=PRESET.read(request),
            awaiting_me=awaiting,
            joinable=joinable,
            by_creation=by_creation,
            created_before=created_before,
        )
        paginator = MatchPagination()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response([summary_json(m, request.user) for m in page or []])

    @extend_schema(
        tags=["matches"],
        summary="Create a match",
        description=(
            "A match of `game` (Golf if absent) from a preset and rule overrides, with its "
            "seats: `me`, `open` (for a player to join) or `com` with a `level`. Its seed is "
            "committed to (`seed_commitment`) and its first deal made at once. An account may "
            "be in 20 unfinished matches and have made 5 with COMs (409 `too_many_matches`)."
        ),
        request=s.MatchCreateSerializer,
        responses={201: s.MatchDetailSerializer, **problems(400, 401, 409, 429)},
        examples=[
            OpenApiExample(
                "You against two COMs",
                value={
                    "game": "golf",
                    "preset": "six-card",
                    "holes": 3,
                    "seats": [
                        {"type": "me"},
                        {"type": "com", "level": "hard"},
                        {"type": "com", "level": "easy"},
                    ],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Nine-card with a friend, custom rules",
                value={
                    "game": "golf",
                    "preset": "nine-card",
                    "rules": {"flip_on_discard": "optional", "jokers": True},
                    "seats": [{"type": "me"}, {"type": "open"}, {"type": "com", "level": "normal"}],
                    "turn_timeout": 86400,
                },
                request_only=True,
            ),
            s.PROBLEM_EXAMPLES[2],
        ],
    )
    def post(self, request: Request) -> Response:
        data = s.MatchCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        overrides = dict(v.get("rules") or {})
        # (the game is not checked yet: a name no game has is refused by match_create, and
        # has neither rules shortcuts nor a pause to refuse here)
        named = [g for g in all_games() if g.info.name == v["game"]]
        for shortcut in sorted(RULE_SHORTCUTS):  # request fields for rules options
            if shortcut in v and named and shortcut not in {o.name for o in named[0].info.options}:
                raise invalid_field(  # as the schema has it: not a field of that game's
                    shortcut, f"a {v['game']} match has no {shortcut} option", "unknown field"
                )
            if shortcut in v and shortcut in overrides:
                raise invalid_field(
                    shortcut, f"{shortcut} is given twice, on its own and in rules", "once"
                )
            if shortcut in v:
                overrides[shortcut] = v[shortcut]
        pauses = any(g.info.pause_phases for g in named)
        if "round_pause_seconds" in v and named and not pauses:  # as the schema has it, null too
            raise invalid_field(
                "round_pause_seconds",
                f"a {v['game']} match has no pause between rounds to bound",
                "only for a game with a pause between rounds",
            )
        for alias, owner in GAME_ALIASES.items():  # as the schema has it: that game's only
            if alias in v and v["game"] != owner:
                instead = "takes round_pause_seconds" if pauses else "has no pause between rounds"
                raise invalid_field(
                    alias,
                    f"{alias} is {owner}'s name for round_pause_seconds; a {v['game']} match "
                    f"{instead}",
                    f"only for {owner}",
                )
        if "round_pause_seconds" in v and "hole_pause_seconds" in v:
            raise invalid_field(
                "hole_pause_seconds", "hole_pause_seconds is Golf's round_pause_seconds", "once"
            )
        pause_field = "hole_pause_seconds" if "hole_pause_seconds" in v else "round_pause_seconds"
        pause = v.get(pause_field)
        option = named[0].info.pause_option if named else None
        if pause_field in v and option and overrides.get(option) is False:  # (null too)
            raise invalid_field(
                pause_field,
                f"with {option} off there is no pause between rounds to bound",
                f"not with {option} off",
            )
        match = services.match_create(
            creator=request.user,
            game=v["game"],
            preset=v.get("preset"),
            rules=overrides,
            seats=v.get("seats"),
            hints=v["hints"],
            turn_timeout=v.get("turn_timeout"),
            round_pause_seconds=pause,
            pause_field=pause_field,
            spectate=v["spectate"],
        )
        match = selectors.get_match(match.id)
        return _with_etag(
            Response(detail_json(match, request.user), status=201), _version_tag(match.version)
        )


class MatchDetailView(QueryChecked, APIView):
    @extend_schema(
        tags=["matches"],
        summary="A match as you see it",
        description=(
            "Its summary, seats and rules, and `view`: the state as your seat (or a "
            "spectator) may see it, with your legal actions. `ETag` is its version: send it "
            "back as `If-Match` with an action, or as `If-None-Match` to be answered 304 "
            "(no body) while the match is still at that version."
        ),
        parameters=[IF_NONE_MATCH],
        responses={200: s.MatchDetailSerializer, 304: NOT_MODIFIED, **problems(401, 404)},
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = selectors.get_match(match_id)
        tag = _version_tag(match.version)
        return _unchanged(request, tag) or _with_etag(
            Response(detail_json(match, request.user)), tag
        )


class JoinView(QueryChecked, APIView):
    @extend_schema(
        tags=["matches"],
        summary="Take an open seat",
        description=(
            "The first open seat, or the one named by `seat` (a seat not open is 409 "
            "`no_open_seat`). A `seat_taken` event is written; once no seat is open the match "
            "is active."
        ),
        request=s.JoinSerializer,
        responses={200: s.MatchDetailSerializer, **problems(400, 401, 404, 409)},
    )
    def post(self, request: Request, match_id: str) -> Response:
        data = s.JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.match_join(
            match_id=match_id, user=request.user, seat=data.validated_data.get("seat")
        )
        match = selectors.get_match(match_id)
        return _with_etag(Response(detail_json(match, request.user)), _version_tag(match.version))


class AbortView(QueryChecked, APIView):
    @extend_schema(
        tags=["matches"],
        summary=(
            "Abort a match (an operator with the admin's abort permission, or its creator "
            "while it waits for players or no one else has joined)"
        ),
        description=(
            "The match ends now (`match_aborted`, with `reason` if given, and the seed "
            "revealed); an ended match is 409 `match_not_active`."
        ),
        request=s.AbortSerializer,
        responses={200: s.MatchDetailSerializer, **problems(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, match_id: str) -> Response:
        data = s.AbortSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.match_abort(
            match_id=match_id, user=request.user, reason=data.validated_data.get("reason", "")
        )
        match = selectors.get_match(match_id)
        return _with_etag(Response(detail_json(match, request.user)), _version_tag(match.version))


class LeaveView(QueryChecked, APIView):
    @extend_schema(
        tags=["matches"],
        summary="Leave a match under way (a COM plays your seat from then on)",
        description=(
            "Your seat is handed to a COM of the game's middle level and the match plays on "
            "without you: you read it as a spectator from then on, and it no longer counts "
            "among your unfinished matches (unless you made it: that counts until it ends). "
            "The last player to leave aborts the match instead (`match_aborted`, the seed "
            "revealed; your seat stays yours). A lobby is not left (its creator may abort "
            "it, and it expires), nor a local match (abort it): `409 cannot_leave`. The log "
            "gains `seat_handed_over` (your seat's own event), so the version moves on. It "
            "takes no body (or `{}`): any other is refused, and nothing is done."
        ),
        request=None,
        responses={
            204: OpenApiResponse(description="you have left the match"),
            **problems(400, 401, 403, 404, 409, 413, 415),
        },
    )
    def post(self, request: Request, match_id: str) -> Response:
        s.NoBodySerializer(data=request.data).is_valid(raise_exception=True)
        services.match_leave(match_id=match_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


PLAIN_JSON = "application/json"
# The body of an action: one of the game's actions, with the version acted on if wished.
# An action request is one of the games' actions (each may carry ``expected_version``:
# api/openapi.py adds it to every action's schema).
ACTION_BODY = {"$ref": "#/components/schemas/GameAction"}
# Examples in the docs are the default game's.
DOCS_EXAMPLES = get_game(DEFAULT_GAME).json_schemas().examples

IF_MATCH = re.compile(r'^(?:\*|(?:W/)?"([0-9]{1,18})")$')


def _parse_if_match(request: Request) -> int | None:
    """The version ``If-Match`` names; ``None`` without one, or for ``*`` (any version)."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    found = IF_MATCH.fullmatch(header.strip())
    if not found:
        raise ApiProblem(
            400, "malformed_request", "Malformed request", 'If-Match must be "<version>" or *'
        )
    return None if found.group(1) is None else int(found.group(1))


class ActionSchema(AutoSchema):
    # drf-spectacular cannot tell that a oneOf body is required; an action always is.
    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        body = super()._get_request_body(direction)
        if body:
            body["required"] = True
        return body


# The token is checked by the action's own statements (api/authentication.py). (A
# comment, not the class's docstring: DRF shows that to clients answering OPTIONS.)
class ActionView(QueryChecked, TokenCheckingMixin, APIView):
    throttle_scope = "actions"
    schema = ActionSchema()

    @extend_schema(
        tags=["play"],
        summary="Take an action",
        description=(
            'One action for your seat. Send the version you acted on as `If-Match: "<version>"` '
            "(a stale one is 412) or as `expected_version` (a stale one is 409); both, when "
            "sent, must name the same version. With an "
            "`Idempotency-Key` header a repeated request returns the first response."
        ),
        request={PLAIN_JSON: ACTION_BODY},
        parameters=[
            OpenApiParameter(
                "If-Match",
                {"type": "string", "pattern": IF_MATCH.pattern},
                OpenApiParameter.HEADER,
                description='the version you acted on, as an entity tag: "<version>" (`*`: '
                "whatever the version)",
            ),
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "pattern": IDEMPOTENCY_KEY.pattern},
                OpenApiParameter.HEADER,
                description="1-128 visible ASCII characters (no spaces)",
            ),
        ],
        examples=[
            *(
                OpenApiExample(title, value=value, request_only=True)
                for title, value in DOCS_EXAMPLES.get("actions", [])
            ),
            OpenApiExample(
                "Drawn",
                value=DOCS_EXAMPLES.get("act_result"),
                response_only=True,
                status_codes=["200"],
            ),
            *s.PROBLEM_EXAMPLES[:2],
        ],
        responses={
            200: s.ActResultSerializer,
            **problems(400, 401, 403, 404, 409, 412, 413, 422, 429),
        },
    )
    def post(self, request: Request, match_id: str) -> Response:
        body = request.data
        if not isinstance(body, dict):
            raise ApiProblem(
                400, "malformed_request", "Malformed request", "the body must be a JSON object"
            )
        action = dict(body)
        expected = action.pop("expected_version", None)
        if expected is not None and (
            isinstance(expected, bool) or not isinstance(expected, int) or expected < 0
        ):
            raise invalid_field(
                "expected_version",
                "expected_version must be a version number",
                "a non-negative integer",
            )
        if_match = _parse_if_match(request)
        if None not in (if_match, expected) and if_match != expected:
            raise invalid_field(
                "expected_version",
                f"expected_version {expected} and If-Match {if_match} name different versions",
                "the version If-Match names, or left out",
            )
        key = request.headers.get("Idempotency-Key")
        if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
            raise ApiProblem(
                400,
                "malformed_request",
                "Malformed request",
                "Idempotency-Key must be 1-128 visible ASCII characters (no spaces)",
            )
        token = request.auth if isinstance(request.auth, TokenCheck) else None
        try:
            result = services.match_act(
                match_id=match_id,
                user=request.user,
                action=action,
                expected_version=if_match if if_match is not None else expected,
                idempotency_key=key,
                token=token,
            )
        except services.TokenRefused as exc:
            remembered.forget(token.key if token else "")
            raise AuthenticationFailed(str(exc)) from None
        except errors.VersionConflict as exc:
            if if_match is None:
                raise
            current = {"ETag": _version_tag(exc.extra["current_version"])}
            raise ApiProblem(
                412, "precondition_failed", "Precondition failed", exc.detail, current, **exc.extra
            ) from None
        match = result.match
        seat = selectors.seat_index_for(match, request.user)
        if result.state is None or result.rows is None:  # an idempotent repeat
            match = selectors.get_match(match_id)
            then = load_state(match) if match.version == result.version else None
            then = then or state_at(match, result.version)
            # the seat the first answer was for: in a local match the one to act then
            seat = selectors.seat_index_for(match, request.user, game_of(match).seats_to_act(then))
            view = selectors.view_json(match, then, seat)
            if match.version == result.version:  # (the match as it is now: its clock too)
                view = selectors.with_clock(view, match, seat)
            events = selectors.events_between(match, seat, result.first_seq, result.version)
        else:
            game = game_of(match)
            view = selectors.with_clock(selectors.view_json(match, result.state, seat), match, seat)
            events = [
                selectors.event_json(row, game, seat, match.ended, match) for row in result.rows
            ]
        body_out = {"version": result.version, "events": events, "view": view}
        response = _with_etag(Response(body_out), _version_tag(result.version))
        if result.replayed:
            response["Idempotent-Replayed"] = "true"
        return response


#: How long a hint is kept for the seat and version it was asked at (a version never
#: changes, so this only bounds the cache).
HINT_CACHE_SECONDS = 600
#: The longest an account's hint in progress holds off its next one (should the process
#: working it out die without saying so).
HINT_BUSY_SECONDS = 30


class HintView(QueryChecked, APIView):
    # a hint is a hard COM's search: throttled on its own and kept per version, so asking
    # again costs a cache read, and asking often is bounded per account
    throttle_scope = "hints"

    @extend_schema(
        tags=["play"],
        summary="A suggested move for your seat",
        description=(
            "The `hard` COM's move for your seat, with its reason. The same version always "
            "gives the same hint; hints have their own throttle (`THROTTLE_HINTS`), an "
            "account's are worked out one at a time (`429 hint_in_progress` meanwhile), and "
            "paced by the time their searches take, as its COMs' turns are (`429 "
            "hints_paced` with `Retry-After`)."
        ),
        responses={200: s.HintSerializer, **problems(401, 403, 404, 409, 429)},
        examples=[OpenApiExample("Hint", value=DOCS_EXAMPLES.get("hint"), response_only=True)],
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = selectors.get_match(match_id)
        seat = selectors.seat_index_for(match, request.user)
        if seat is None:
            raise errors.NotAParticipant("only a seated player can ask for a hint")
        if not match.hints_enabled:
            raise errors.HintsDisabled("hints are off in this match")
        if match.status != MatchStatus.ACTIVE:
            raise errors.MatchNotActive(
                "the match is waiting for players"
                if match.status == MatchStatus.WAITING
                else "the match has ended"
            )
        game, state = game_of(match), load_state(match)
        if seat not in game.seats_to_act(state):
            raise ApiProblem(409, "not_your_turn", "Not your turn", "hints are for the seat to act")
        key = f"hint:{match.id}:{match.version}:{seat}"
        hint = cache.get(key)
        if hint is None:
            with _one_hint_at_a_time(request.user.pk), _paced_hint(request.user.pk):
                hint = game.hint(state, seat)
                cache.set(key, hint, HINT_CACHE_SECONDS)
        return Response(hint)


@contextlib.contextmanager
def _one_hint_at_a_time(account: object) -> Iterator[None]:
    """An account's hints are worked out one at a time: a burst of them (the throttle lets
    THROTTLE_HINTS through at once) would be as many searches at once on the web
    processes. One asked for while another is worked out is refused; asked again, it is
    read from the cache if it was the same."""
    busy, since = f"hint-busy:{account}", time.monotonic()
    if not cache.add(busy, 1, HINT_BUSY_SECONDS):
        raise ApiProblem(
            429,
            "hint_in_progress",
            "Hint in progress",
            "your last hint is still being worked out; ask again in a moment",
            {"Retry-After": "1"},
        )
    try:
        yield
    finally:
        # given back while surely still this request's: past HINT_BUSY_SECONDS it has
        # expired, and may be another's by now
        if time.monotonic() - since < HINT_BUSY_SECONDS - 1:
            cache.delete(busy)


@contextlib.contextmanager
def _paced_hint(account: object) -> Iterator[None]:
    """An account's hints are paced by the time their searches take, as its COMs' turns
    are (matches/pacing.py, ``COM_SECONDS_PER_MINUTE``): one asked for too soon after
    others is refused with the seconds to wait. A search is charged the processor time of
    its thread, not the time it took, which the other threads' work (waiting for the
    interpreter's lock) would lengthen."""
    paced, hint = pacing(), f"hint:{uuid.uuid4().hex}"
    wait = paced.reserve(account, HINTS, hint)
    if wait > 0:
        paced.charge(account, HINTS, 0.0, hint)  # (none worked out: given back)
        seconds = math.ceil(wait)
        raise ApiProblem(
            429,
            "hints_paced",
            "Hints paced",
            f"your hints have used their share of the server's time for now; ask again in "
            f"{seconds} seconds",
            {"Retry-After": str(seconds)},
        )
    started = time.thread_time()
    try:
        yield
    finally:
        paced.charge(account, HINTS, time.thread_time() - started, hint)


EVENTS_QUERY = (AFTER, LIMIT, WAIT)


class EventsView(QueryChecked, APIView):
    query = EVENTS_QUERY

    @extend_schema(
        tags=["history"],
        summary="The event log as you may see it",
        description=(
            "The events after `after`, at most `limit`, each as your seat (a spectator "
            "otherwise) may see it, with the match's version and `next_after` to read on. "
            "With `wait`, a long-poll: when no event follows `after` yet, the answer waits up "
            "to that many seconds for one (an empty page if none comes). A page of more than "
            "50 events counts them among the events the reads of a whole log read "
            "(`THROTTLE_EXPORTED_EVENTS`; 429 beyond)."
        ),
        parameters=[param.schema() for param in EVENTS_QUERY],
        responses={200: s.EventPageSerializer, **problems(400, 401, 404)},
        examples=[
            OpenApiExample("Two events", value=DOCS_EXAMPLES.get("events"), response_only=True)
        ],
    )
    def get(self, request: Request, match_id: str) -> Response:
        after = AFTER.read(request)
        limit = LIMIT.read(request)
        wait = WAIT.read(request)
        match = selectors.get_match(match_id)
        check_after(match, after)
        if wait and match.version <= after and not match.ended:
            note = _push_note(request, match, "events", after=after, limit=limit, wait=wait)
            if push.under_router(request):  # the router waits, on its event loop
                return push.note_response(note)
            with _admitted(request):
                started = time.monotonic()
                wait_for_version(match.id, after, wait)
            if time.monotonic() - started >= push.READMIT_AFTER_SECONDS and not still_admitted(
                credential_of(request)
            ):
                raise ApiProblem.of(push.NO_LONGER_ADMITTED, {"WWW-Authenticate": CHALLENGE})
            match = selectors.get_match(match_id)
        if (behind := min(limit, match.version - after)) > FREE_EVENT_READ:
            _charge(request, "exported_events", behind)
        events = selectors.events_for(match, request.user, after=after, limit=limit)
        next_after = events[-1]["seq"] if events else after
        return Response(
            {
                "events": events,
                "version": match.version,
                "next_after": next_after,
                "has_more": next_after < match.version,
            }
        )


def _push_note(request: Request, match: Match, kind: str, **what: Any) -> dict[str, Any]:
    """What the router (api/push.py) is to wait for, as whom."""
    return {
        "kind": kind,
        "match": str(match.id),
        "seat": selectors.seat_index_for(match, request.user),
        "account": request.user.pk,
        "credential": credential_of(request),  # (a stream asks it again as it goes)
        **what,
    }


@contextlib.contextmanager
def _admitted(request: Request) -> Iterator[None]:
    try:
        with push.admission.enter(request.user.pk):
            yield
    except push.TooManyWaiters as exc:
        raise _too_many_waiters(exc) from None


def _room_to_wait(request: Request) -> None:
    """429 ``too_many_waiters`` now, before anything is charged, if the account holds as
    many waits, streams and exports as it may (the place itself is taken later; a HEAD
    takes none)."""
    if request.method == "HEAD":
        return
    try:
        push.admission.check(request.user.pk)
    except push.TooManyWaiters as exc:
        raise _too_many_waiters(exc) from None


def _too_many_waiters(exc: push.TooManyWaiters) -> ApiProblem:
    retry = {"Retry-After": str(settings.PUSH_RETRY_AFTER_SECONDS)}
    return ApiProblem.of(push.too_many_waiters_body(exc), retry)


def _held(request: Request, chunks: Iterator[bytes]) -> push.Held:
    """``chunks`` holding the reader's place among its account's waiters until the response
    is closed (429 ``too_many_waiters`` when it has none left)."""
    admitted = _admitted(request)
    admitted.__enter__()
    return push.Held(chunks, lambda: admitted.__exit__(None, None, None))


class OptionsInJSON:
    """A view answering in its own formats (an event stream, NDJSON) describes itself to
    ``OPTIONS`` in JSON, as every other view does (its own renderers would label the JSON
    ``text/event-stream``)."""

    def get_renderers(self) -> list[Any]:
        if self.request.method == "OPTIONS":  # type: ignore[attr-defined]  # (an APIView's)
            return [JSONRenderer()]
        return super().get_renderers()  # type: ignore[misc]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        """``OPTIONS ?format=sse`` (a format of the view's own) is described in JSON too."""
        own = {r.format for r in super().get_renderers()}  # type: ignore[misc]
        asked = request.query_params.get(api_settings.URL_FORMAT_OVERRIDE or "format")
        if request.method == "OPTIONS" and asked in own:
            return JSONRenderer(), JSONRenderer.media_type
        return super().perform_content_negotiation(request, force)  # type: ignore[misc]


class EventStreamRenderer(JSONRenderer):
    """Lets a client that asks for an event stream through content negotiation (a problem
    is still written as JSON)."""

    media_type = push.SSE
    format = "sse"


class NDJSONRenderer(JSONRenderer):
    media_type = push.NDJSON
    format = "ndjson"


LAST_EVENT_ID = re.compile(r"^[0-9]{1,10}$")
SSE_EVENT = {  # one Server-Sent Event of the stream
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "the event's sequence number"},
        "data": {"type": "string", "description": "the event as JSON, as in the events list"},
        "retry": {"type": "integer", "description": "milliseconds before reconnecting"},
    },
}


@dataclass(frozen=True)
class _Scope:
    throttle_scope: str
    priced: bool = False  # (:attr:`ScopedRateThrottle.PRICED`, for this charge)


def _charge(
    request: Request, scope: str, cost: int = 1, *, priced: bool = False
) -> ScopedRateThrottle:
    """Count ``cost`` against the account's rate of ``scope`` (429 beyond it): the
    throttle that counted it (to give it back). A ``priced`` charge (a read priced by
    what it costs) is not let through uncounted while the cache is down: a 503."""
    throttle = ScopedRateThrottle()
    throttle.cost = cost
    if not throttle.allow_request(request, _Scope(scope, priced)):
        raise Throttled(throttle.wait())
    return throttle


def charge_as_export(request: Request, events: int) -> None:
    """Count this request among the account's reads of a whole log (``exports``: an
    export, an audit page, a stream that starts with more than a page of events behind
    it), and its ``events`` among the events they read (``exported_events``). Refused by
    the second, it is not counted by the first."""
    export = _charge(request, "exports")
    if request.method == "HEAD":  # (a HEAD is sent no events)
        return
    try:  # (such a read's cost grows with the log: 100,000 events took seconds of a core)
        _charge(request, "exported_events", events)
    except Throttled:
        export.give_back()
        raise


class StreamView(OptionsInJSON, QueryChecked, APIView):
    renderer_classes = [EventStreamRenderer, NDJSONRenderer]
    query = (AFTER,)

    @extend_schema(
        tags=["history"],
        summary="The events as they happen (Server-Sent Events or NDJSON)",
        description=(
            "A stream of the events after `after` (or the `Last-Event-ID` header, which a "
            "browser's `EventSource` sends when it reconnects), as you may see them, each as "
            "soon as it is committed. As Server-Sent Events (`text/event-stream`, the "
            "default): one `id:` (the event's sequence number) and one `data:` line (the event "
            "as in the events list) per event, and a `: keep-alive` comment when nothing "
            "happened for a while. With `Accept: application/x-ndjson`: one JSON event per "
            "line, and an empty line to keep alive. The stream ends when the match has ended "
            "and after at most five minutes: reconnect with the last id; a match that has "
            "ended with nothing after that id answers 204, which stops `EventSource`. A "
            "stream that starts more than 500 events behind counts among the reads of a "
            "whole log (`THROTTLE_EXPORTS`, with the audit and the export); one that starts "
            "more than 50 behind counts its events among the events those read "
            "(`THROTTLE_EXPORTED_EVENTS`)."
        ),
        parameters=[
            AFTER.schema(),
            OpenApiParameter(
                "Last-Event-ID",
                {"type": "string", "pattern": LAST_EVENT_ID.pattern},
                OpenApiParameter.HEADER,
                description="resume after this event (takes precedence over `after`)",
            ),
        ],
        responses={
            (200, push.SSE): OpenApiResponse(SSE_EVENT, description="the event stream"),
            (200, push.NDJSON): OpenApiResponse(OpenApiTypes.STR, description="one event a line"),
            204: OpenApiResponse(description="the match has ended and nothing follows"),
            **problems(400, 401, 404, 429),
        },
    )
    def get(self, request: Request, match_id: str) -> HttpResponseBase:
        last_id = request.headers.get("Last-Event-ID")
        if last_id is not None and not LAST_EVENT_ID.fullmatch(last_id.strip()):
            raise invalid_field("Last-Event-ID", "Last-Event-ID must be an event id", "digits")
        after = AFTER.read(request)  # checked even when the header takes precedence
        if last_id is not None:
            after = int(last_id)
        match = selectors.get_match(match_id)
        check_after(match, after, "after" if last_id is None else "Last-Event-ID")
        if match.ended and after >= match.version:
            return Response(status=status.HTTP_204_NO_CONTENT)
        # a log's worth to send at once, or more than a few events (a HEAD is sent none)
        behind = match.version - after
        if behind > push.EXPORT_PAGE and request.method != "HEAD":
            _room_to_wait(request)
            charge_as_export(request, behind)
        elif behind > FREE_EVENT_READ and request.method != "HEAD":
            _charge(request, "exported_events", behind)
        media_type = push.NDJSON if request.accepted_renderer.format == "ndjson" else push.SSE
        note = _push_note(request, match, "stream", after=after, media_type=media_type)
        if push.under_router(request):  # the router streams, on its event loop
            return push.note_response(note)
        chunks = _held(request, push.blocking_stream(note))
        # Cache-Control: private, no-cache, as every API answer (api/middleware.py)
        return StreamingHttpResponse(
            chunks, content_type=f"{media_type}; charset=utf-8", headers=push.STREAM_HEADERS
        )


class StateView(QueryChecked, APIView):
    throttle_scope = "history"

    @extend_schema(
        tags=["history"],
        summary="The match as you saw it at a past version",
        description=(
            "The view of your seat (a spectator's otherwise) as it was after `version` "
            "events: what it showed then. Its `ETag` names the version and the seat it is "
            'seen from (`"12.0"`; `"12.s"` for a spectator, `"12.0+1"` in a local match, '
            "every seat you hold): send it as "
            "`If-None-Match` to be answered 304 (no body) while it shows the same."
        ),
        parameters=[IF_NONE_MATCH],
        responses={
            200: {"$ref": "#/components/schemas/GameView"},
            304: NOT_MODIFIED,
            **problems(400, 401, 404, 429),
        },
        examples=[
            OpenApiExample("Seat 0's view", value=DOCS_EXAMPLES.get("view"), response_only=True)
        ],
    )
    def get(self, request: Request, match_id: str, version: int) -> Response:
        match = selectors.get_match(match_id)
        etag = _state_etag(version, selectors.seats_held(match, request.user))
        if 1 <= version <= match.version and (unchanged := _unchanged(request, etag)):
            return unchanged
        return _with_etag(Response(selectors.state_view_at(match, request.user, version)), etag)


class NoSuchVersionView(QueryChecked, APIView):
    """``states/<anything but a number>`` (``-1``, ``abc``, ``1.0``): the 400 of a version
    out of range, not the router's bare 404 (for a match that exists)."""

    throttle_scope = "history"

    @extend_schema(exclude=True)
    def get(self, request: Request, match_id: str, version: str) -> Response:
        raise selectors.no_such_version(selectors.get_match(match_id))


class AuditView(QueryChecked, APIView):
    # (counted among the whole-log reads by the page it reads: charge_as_export)
    query = (AFTER, AUDIT_LIMIT)

    @extend_schema(
        tags=["history"],
        summary="The full record of an ended match",
        description="Every event in full with its hash, the seed and its commitment, in pages "
        "of `limit` events after `after`: `next_after` and `has_more` page on, and "
        "`chain_faults` are the page's (its first event checked against the one before it; "
        "the match's head of the chain on the last page).",
        parameters=[param.schema() for param in (AFTER, AUDIT_LIMIT)],
        responses={200: s.AuditSerializer, **problems(400, 401, 404, 409, 429)},
    )
    def get(self, request: Request, match_id: str) -> Response:
        match = selectors.get_match(match_id)
        after, limit = AFTER.read(request), AUDIT_LIMIT.read(request)
        if match.ended:  # (else a 409: nothing is read)
            charge_as_export(request, min(limit, max(0, match.version - after)))
        return Response(selectors.audit_record(match, after=after, limit=limit))


class ExportView(OptionsInJSON, QueryChecked, APIView):
    renderer_classes = [NDJSONRenderer]

    @extend_schema(
        tags=["history"],
        summary="The event log as NDJSON (one event per line, as you may see it)",
        description="The log as it is when asked (events written while it is read are not "
        "in it), sent 500 events at a time. While it is read it counts among the account's "
        "waits and streams (`429 too_many_waiters` beyond them).",
        parameters=[  # (one format: not one drf-spectacular names on its own)
            OpenApiParameter(
                "format", {"type": "string", "enum": ["ndjson"]}, OpenApiParameter.QUERY
            )
        ],
        responses={(200, "application/x-ndjson"): OpenApiTypes.STR, **problems(401, 404, 429)},
    )
    def get(self, request: Request, match_id: str) -> HttpResponseBase:
        match = selectors.get_match(match_id)
        _room_to_wait(request)
        charge_as_export(request, match.version)
        # the log as it is now (later events are not included), counted among the
        # account's waiters while it is read (a reader may take it slowly)
        note = _push_note(request, match, "export", upto=match.version)
        attachment = {"Content-Disposition": f'attachment; filename="match-{match.id}.ndjson"'}
        if push.under_router(request):  # the router sends it, on its event loop
            return push.note_response(note, attachment)
        chunks = _held(request, push.export_chunks(note))
        return StreamingHttpResponse(chunks, content_type=push.NDJSON, headers=attachment)
