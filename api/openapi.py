"""The games' own shapes in the OpenAPI schema (a drf-spectacular post-processing hook).

Every registered game hands over JSON Schemas of its rules, actions and views
(``game.json_schemas()``); they go in as components under the game's names
(``GolfRules``, ``GolfAction``, ``GolfView``, ...), and the platform's schema refers to
them through unions over the games: ``GameRules``, ``GameAction``, ``GameView``.
``MatchCreate`` becomes one variant per game (``GolfMatchCreate``, ...): the same fields,
with that game's presets and rules; ``game`` is the default game when absent.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any, ClassVar

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from api.problems import check_query
from cards.protocol import Schemas
from games import DEFAULT_GAME, all_games
from matches.services import option_schema

#: Fields of a match request that stand for a rules option of the same name.
RULE_SHORTCUTS = frozenset({"holes", "undo", "local"})
#: Fields of a match request only some games have: the game's name for a platform field.
GAME_ALIASES = {"hole_pause_seconds": "golf"}


#: Keys the platform adds to a game's view (``matches.selectors.match_view``): present
#: only in matches with a turn timer or a bounded pause between rounds.
PLATFORM_VIEW_KEYS = {
    "turn_started_at": {
        "type": "string",
        "format": "date-time",
        "description": "when the wait for the seats to act began (timed matches, while active)",
    },
    "turn_deadline": {
        "type": "string",
        "format": "date-time",
        "description": "when the server moves for them (timed matches, while active)",
    },
    "auto_moves": {
        "type": "array",
        "items": {"type": "integer"},
        "description": "the sequence numbers of the events the server made for you when your "
        "time ran out (a seated player in a timed match)",
    },
}

#: The optional field of an action request that the If-Match header may stand for.
EXPECTED_VERSION = {
    "type": "integer",
    "minimum": 0,
    "description": "the version you acted on (or send If-Match); a stale one is 409",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _union(names: list[str], keyword: str = "oneOf") -> dict[str, Any]:
    """One of the games' shapes: ``oneOf`` where they exclude each other (rules name their
    game's presets, a match request its game), ``anyOf`` where they may coincide (an
    action such as ``{"type": "undo"}`` is one in more than one game)."""
    refs = [_ref(name) for name in names]
    return refs[0] if len(refs) == 1 else {keyword: refs}


def _overrides(rules: dict[str, Any]) -> dict[str, Any]:
    """The schema of a request's rule overrides, from the schema of a game's whole rules:
    any of the options (none required), the preset not among them (it has its own field)."""
    options = copy.deepcopy(
        {
            k: v
            for k, v in rules.get("properties", {}).items()
            if k != "preset" and not v.get("readOnly")  # derived (Golf's points): not sent
        }
    )
    for name, option in options.items():  # absent, an option takes its preset's value
        option.pop("default", None)
        option.update(option_schema(name, option))  # (this service's bounds on a new match)
    return {
        "type": "object",
        "description": "overrides of the preset's options, by name (GET /api/games)",
        "properties": options,
        "additionalProperties": False,
    }


def _subclasses(cls: type) -> list[type]:
    return [sub for direct in cls.__subclasses__() for sub in (direct, *_subclasses(direct))]


def close_request_bodies(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """Request shapes say ``additionalProperties: false``: the service refuses a field it
    does not know (``StrictSerializer``) rather than ignore it. Their fields' defaults go
    into the descriptions: generators (openapi-typescript) make a field with a
    ``default`` required, which a request field the service defaults is not."""
    from api.serializers import StrictSerializer

    components = result.get("components", {}).get("schemas", {})
    for cls in _subclasses(StrictSerializer):
        component = components.get(cls.__name__.removesuffix("Serializer"))
        if component is None or component.get("type") != "object":
            continue
        component["additionalProperties"] = False
        for field in component.get("properties", {}).values():
            if "default" in field:
                default = json.dumps(field.pop("default"))
                said = field.get("description", "")
                field["description"] = f"{said} (default: {default})".lstrip()
    return result


#: The responses that carry an ``ETag``, and what it names: the match version (send it
#: back as If-Match, or If-None-Match) or a past state as one seat sees it.
ETAG_OPERATIONS = {
    ("/api/matches", "post", "201"): "version",
    ("/api/matches/{match_id}", "get", "200"): "version",
    ("/api/matches/{match_id}", "get", "304"): "version",
    ("/api/matches/{match_id}/join", "post", "200"): "version",
    ("/api/matches/{match_id}/abort", "post", "200"): "version",
    ("/api/matches/{match_id}/actions", "post", "200"): "version",
    ("/api/matches/{match_id}/actions", "post", "412"): "version",  # the version it is at
    ("/api/matches/{match_id}/states/{version}", "get", "200"): "state",
    ("/api/matches/{match_id}/states/{version}", "get", "304"): "state",
}
ETAGS = {
    "version": {
        "description": 'the match version the body shows, as an entity tag: "<version>" '
        "(send it back as If-Match, or as If-None-Match)",
        "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
    },
    "state": {
        "description": 'the version and the seat the view is seen from: "<version>.<seat>", '
        '"<version>.s" for a spectator, "<version>.0+1" in a local match (every seat held) '
        "(send it back as If-None-Match)",
        "schema": {"type": "string", "pattern": '^"[0-9]+\\.([0-9]+(\\+[0-9]+)*|s)"$'},
    },
}
HEADERS = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 0},
    },
    "Idempotent-Replayed": {
        "description": "present (true) when an Idempotency-Key repeated an earlier request: "
        "the body is that request's result",
        "schema": {"type": "string", "enum": ["true"]},
    },
}


#: Problems any operation may answer that the views do not list one by one: before the
#: view (the URL's and headers' size, a token sent even where none is needed, the Accept
#: header, the throttles), a query parameter it does not take or a ``format`` it has no
#: answer in, and a database briefly away.
COMMON_PROBLEMS = {
    "400": "a query parameter the request does not take, or one given twice, or a format "
    "it cannot answer in (validation_error, naming it)",
    "401": "a token that is not valid (authentication_failed), sent even where none is needed",
    "403": "the token's account is suspended (account_suspended)",
    "406": "the Accept header allows none of the types this answer is sent in (not_acceptable)",
    "414": "the URL is longer than 2 KiB (uri_too_long)",
    "429": "too many requests (throttled, too_many_waiters, login_locked): retry after "
    "Retry-After seconds",
    "431": "a header over 8 KiB, or 32 KiB of headers (headers_too_large)",
    "503": "the database is briefly unreachable: retry (service_unavailable)",
}
#: ... and those of an operation that reads a body.
BODY_PROBLEMS = {
    "413": "the body is larger than the service takes (request_too_large)",
    "415": "the body is not JSON (unsupported_media_type)",
}


def declare_every_problem(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """Every operation may answer the :data:`COMMON_PROBLEMS`, and one that reads a body
    refuses a body that is not JSON (415) or too large (413): each says so, as a problem
    document."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            wanted = dict(COMMON_PROBLEMS)
            if "requestBody" in operation:
                wanted.update(BODY_PROBLEMS)
            for code, description in wanted.items():
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {"application/problem+json": {"schema": _ref("Problem")}},
                    },
                )
            operation["responses"] = dict(sorted(responses.items()))
    return result


def declare_headers(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """The response headers the service sends, declared where it sends them: ``ETag``
    (:data:`ETAG_OPERATIONS`), ``Retry-After`` with every 429 and 503, and
    ``Idempotent-Replayed`` on an action's 200."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            for code, response in operation.get("responses", {}).items():
                names = []
                etag = ETAG_OPERATIONS.get((path, method, code))
                if etag is not None:
                    response.setdefault("headers", {})["ETag"] = {
                        **copy.deepcopy(ETAGS[etag]),
                        "required": True,
                    }
                if code in ("429", "503"):
                    names.append("Retry-After")
                if path.endswith("/actions") and method == "post" and code == "200":
                    names.append("Idempotent-Replayed")
                if names:
                    headers = response.setdefault("headers", {})
                    for name in names:
                        headers[name] = copy.deepcopy(HEADERS[name])
                        # always sent there (a replay's marker only on a replay)
                        headers[name]["required"] = name != "Idempotent-Replayed"
    return result


def name_the_enums(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """Plain strings of the platform's shapes that take one of the registered games'
    names become enums: games, presets, COM levels (with their aliases where a request
    names one), and a match's status."""
    from matches.models import MatchStatus

    games = all_games()
    names = [g.info.name for g in games]
    presets = sorted({p for g in games for p in g.info.presets})
    levels = sorted({lv for g in games for lv in g.info.com_levels})
    aliases = sorted({a for g in games for a in g.info.com_level_aliases})
    enums: dict[tuple[str, str], list[Any]] = {
        ("Audit", "status"): list(MatchStatus.values),
        ("Game", "name"): names,
        ("Game", "default_preset"): presets,
        ("Game", "default_com_level"): levels,
        ("Seat", "com_level"): [*levels, None],
        ("SeatRequest", "level"): [*levels, *aliases],
    }
    for component in ("MatchDetail", "MatchSummary", "Ruleset"):
        enums[component, "game"] = names
        enums[component, "preset"] = presets
    components = result.get("components", {}).get("schemas", {})
    for (component, field), values in enums.items():
        schema = components.get(component, {}).get("properties", {}).get(field)
        if schema is not None and schema.get("type") == "string":
            schema["enum"] = values
            schema.pop("maxLength", None)
    return result


def split_seat_requests(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """``SeatRequest`` as the union it is: ``{"type": "me"}``, ``{"type": "open"}``, or
    ``{"type": "com", "level": ...}``; only a COM seat has a level. The schema asks a
    client to name the level (the service takes a COM seat without one as its game's
    default level, which a client should say rather than assume)."""
    components = result.get("components", {}).get("schemas", {})
    seat = components.get("SeatRequest")
    if seat is None or "properties" not in seat:
        return result
    level = seat["properties"]["level"]
    variants = {
        "HumanSeatRequest": ("me", "your seat", None),
        "OpenSeatRequest": ("open", "a seat another account may join", None),
        "ComSeatRequest": ("com", "a computer player", level),
    }
    for name, (kind, description, level_schema) in variants.items():
        properties: dict[str, Any] = {"type": {"type": "string", "enum": [kind]}}
        if level_schema is not None:
            properties["level"] = {
                **copy.deepcopy(level_schema),
                "description": (
                    "a COM's level: one of its game's levels or their other names (GET "
                    "/api/games: com_levels, com_level_aliases). The enum lists every game's; "
                    "a level of another game only is a 400 validation_error"
                ),
            }
        components[name] = {
            "type": "object",
            "description": description,
            "properties": properties,
            "required": sorted(properties),
            "additionalProperties": False,
        }
    components["SeatRequest"] = {
        "oneOf": [_ref(name) for name in variants],
        "discriminator": {
            "propertyName": "type",
            "mapping": {kind: _ref(name)["$ref"] for name, (kind, _, _) in variants.items()},
        },
    }
    return result


def add_game_schemas(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    games = all_games()
    shapes = {game.info.name: game.json_schemas() for game in games}
    for schemas in shapes.values():
        components.update(copy.deepcopy(dict(schemas.components)))
    for game in games:  # a match's rules hold every option; say each one's usual value
        rules = components[shapes[game.info.name].rules]
        rules["required"] = sorted(rules.get("properties", {}))
        usual = game.preset_rules(game.info.default_preset)
        for name, option in rules.get("properties", {}).items():
            if name in usual:
                option["default"] = copy.deepcopy(usual[name])
    components["GameRules"] = _union([s.rules for s in shapes.values()])
    components["GameAction"] = _union([s.action for s in shapes.values()], "anyOf")
    for schemas in shapes.values():  # every action may say the version it was chosen at
        union = components[schemas.action]
        for ref in union.get("oneOf", union.get("anyOf", [union])):
            variant = components[ref["$ref"].rsplit("/", 1)[1]] if "$ref" in ref else ref
            variant.setdefault("properties", {})["expected_version"] = EXPECTED_VERSION
    for schemas in shapes.values():  # what the platform adds to every game's view
        properties = components[schemas.view].setdefault("properties", {})
        properties.update(copy.deepcopy(PLATFORM_VIEW_KEYS))
        required = components[schemas.view].get("required", [])
        if set(required) & set(PLATFORM_VIEW_KEYS):
            components[schemas.view]["required"] = [
                k for k in required if k not in PLATFORM_VIEW_KEYS
            ]
    components["GameView"] = _union([s.view for s in shapes.values()])
    if len(shapes) > 1:  # every view says its game
        components["GameView"]["discriminator"] = {
            "propertyName": "game",
            "mapping": {name: _ref(s.view)["$ref"] for name, s in shapes.items()},
        }
    events = [s.event for s in shapes.values()]
    for envelope in ("Event", "AuditEvent"):
        if envelope in components and all(events):
            components[envelope] = _events_by_type(components, envelope, shapes.values())
    components["GameEventData"] = (
        {"anyOf": [_ref(name) for name in events]}
        if all(events)
        else {"type": "object", "description": "the event's data, as you may see it"}
    )
    base = components.get("MatchCreate")
    if base is not None:
        variants = []
        for game in games:
            name = f"{game.info.title.replace(' ', '')}MatchCreate"
            variant = copy.deepcopy(base)
            properties = variant.setdefault("properties", {})
            properties["game"] = {"type": "string", "enum": [game.info.name]}
            properties["preset"] = {
                "type": "string",
                "enum": list(game.info.presets),
                "description": f"one of {game.info.title}'s presets; "
                f"{game.info.default_preset} if absent",
            }
            options = {option.name for option in game.info.options}
            for shortcut in RULE_SHORTCUTS - options:  # a shortcut for an option it lacks
                properties.pop(shortcut, None)
            if not game.info.pause_phases:  # no pause between rounds to bound
                properties.pop("round_pause_seconds", None)
            if "seats" in properties:
                properties["seats"]["minItems"] = game.info.min_seats
                properties["seats"]["maxItems"] = game.info.max_seats
            for alias, owner in GAME_ALIASES.items():
                if owner != game.info.name:
                    properties.pop(alias, None)
            overrides = f"{game.info.title.replace(' ', '')}RuleOverrides"
            components[overrides] = _overrides(components[shapes[game.info.name].rules])
            properties["rules"] = _ref(overrides)
            if game.info.name == DEFAULT_GAME:
                properties["game"]["description"] = f"the game; {DEFAULT_GAME} if absent"
            else:
                variant["required"] = sorted({*variant.get("required", []), "game"})
            components[name] = variant
            variants.append(name)
        components["MatchCreate"] = _union(variants)
    return result


def _events_by_type(
    components: dict[str, Any], envelope: str, shapes: Iterable[Schemas]
) -> dict[str, Any]:
    """An event as the union it is, discriminated by ``type``: one shape per event type
    (``Event_card_drawn``, ...), whose ``data`` is that type's payload in the games that
    have it (``GolfEvent_card_drawn``; ``HeartsEvent_card_played`` or
    ``Ninety-NineEvent_card_played``)."""
    by_type: dict[str, list[str]] = {}
    for schemas in shapes:
        prefix = f"{schemas.event}_"
        for name in schemas.components:
            if name.startswith(prefix):
                by_type.setdefault(name.removeprefix(prefix), []).append(name)
    base = components[envelope]
    mapping = {}
    for kind, payloads in sorted(by_type.items()):
        record = copy.deepcopy(base)
        record["properties"]["type"] = {"type": "string", "enum": [kind]}
        record["properties"]["data"] = {
            **_union(payloads, "anyOf"),
            "description": "the event's data in full (the audit of an ended match)"
            if envelope == "AuditEvent"
            else "the event's data as you may see it (hidden cards are null)",
        }
        components[f"{envelope}_{kind}"] = record
        mapping[kind] = _ref(f"{envelope}_{kind}")["$ref"]
    return {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }


def _demands(document: dict[str, Any], schema: dict[str, Any]) -> bool:
    """Whether a body of this schema must be sent: it requires a field (in every shape it
    may take). A body of optional fields alone may be left out (the service takes it as
    ``{}``)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return _demands(document, document["components"]["schemas"][name])
    shapes = schema.get("oneOf") or schema.get("anyOf")
    if shapes:
        return all(_demands(document, shape) for shape in shapes)
    return bool(schema.get("required"))


def _plain_refs_to_unions(node: Any, unions: set[str]) -> None:
    """``allOf: [$ref]`` (drf-spectacular's way to describe a field) around a discriminated
    union becomes the plain ``$ref``: openapi-typescript reads such an allOf as a subtype
    and drops the discriminator (``Omit<GameView, "game">``), which no client can narrow."""
    if isinstance(node, dict):
        for key, value in node.items():
            parts = value.get("allOf") if isinstance(value, dict) else None
            if parts and len(parts) == 1 and parts[0].get("$ref", "").rsplit("/", 1)[-1] in unions:
                node[key] = {"$ref": parts[0]["$ref"]}
            else:
                _plain_refs_to_unions(value, unions)
    elif isinstance(node, list):
        for value in node:
            _plain_refs_to_unions(value, unions)


def _null_in_nullable_enums(node: Any) -> None:
    """OpenAPI 3.0.3: a nullable enum allows null only when it lists it."""
    if isinstance(node, dict):
        if node.get("nullable") and "enum" in node and None not in node["enum"]:
            node["enum"] = [*node["enum"], None]
        for value in node.values():
            _null_in_nullable_enums(value)
    elif isinstance(node, list):
        for value in node:
            _null_in_nullable_enums(value)


def type_the_requests(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """Query parameters that take ``true`` or ``false`` are booleans (a client sends its
    booleans as those words); a body is required where the service requires one; a nullable
    enum lists ``null``; a field of a discriminated union refers to it plainly."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if sorted(schema.get("enum", [])) == ["false", "true"]:
                    parameter["schema"] = {"type": "boolean"}
            body = operation.get("requestBody")
            if body is not None:
                media = body.get("content", {}).get("application/json", {})
                body["required"] = _demands(result, media.get("schema", {}))
    _null_in_nullable_enums(result)
    schemas = result.get("components", {}).get("schemas", {})
    _plain_refs_to_unions(result, {n for n, c in schemas.items() if "discriminator" in c})
    return result


class ProblemsInJSON:
    """The schema and its pages answer in their own formats (YAML, HTML); a problem (a 405,
    a 406) and an ``OPTIONS`` description in JSON, as every other answer under ``/api``:
    the pages' HTML renderer has no template for them (``OPTIONS`` was a 500, a 405 read
    "405 Method Not Allowed" labelled as a problem, and the schema's problems were YAML)."""

    # the query they take: the document's format, and what the pages pass on to it (a
    # language or version the document is not built in: one document, see SchemaView)
    query = ("format", "lang", "version")

    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        """Any other query parameter, or one given twice, is a 400 naming it (as everywhere
        under ``/api``: a typo is not read as the default without a word)."""
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        if request.method == "OPTIONS":
            return
        check_query(request.query_params, self.query)

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        if request.method == "OPTIONS" or (
            isinstance(response, Response) and response.status_code >= 400
        ):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]


class SwaggerView(ProblemsInJSON, SpectacularSwaggerView):
    pass


class RedocView(ProblemsInJSON, SpectacularRedocView):
    pass


class SchemaView(ProblemsInJSON, SpectacularAPIView):
    """The OpenAPI document of this API: YAML, or JSON with `?format=json`."""

    # Built once per process for each set of games (it depends on the code and settings
    # alone): building it took about 350 ms of a core, on every request, which anyone could
    # ask for 60 times a minute per address. A setting changed (as tests do) builds it
    # again. One document, in the service's language: ``?lang=`` and ``?version=`` (no
    # version is declared) are not taken, so no query makes a new one to build and keep.

    built: ClassVar[dict[tuple[Any, ...], Any]] = {}
    # and the document as sent, per format: rendering its YAML took about 50 ms of a core
    # on every request (the JSON about 10), which one account could ask for 20 times a
    # second under the general rate
    rendered: ClassVar[dict[tuple[Any, ...], bytes]] = {}

    @extend_schema(exclude=True)  # (as the view it stands for: the document is not in itself)
    def get(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        with translation.override(settings.LANGUAGE_CODE):
            return self._get_schema_response(request)

    def _get_schema_response(self, request: Any) -> HttpResponse:
        if not self.serve_public:  # (one per account: not to be kept)
            return super()._get_schema_response(request)
        version = self.api_version or request.version
        key = (version, tuple(g.info.name for g in all_games()))
        schema = self.built.get(key)
        if schema is None:
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            schema = self.built[key] = generator.get_schema(
                request=request, public=self.serve_public
            )
        filename = self._get_filename(request, version)
        renderer, media_type = request.accepted_renderer, request.accepted_media_type
        body = self.rendered.get((*key, renderer.format, media_type))
        if body is None:
            context = {"request": request, "view": self}
            body = renderer.render(schema, media_type, context)
            self.rendered[(*key, renderer.format, media_type)] = body
        charset = f"; charset={renderer.charset}" if renderer.charset else ""
        response = HttpResponse(body, content_type=f"{renderer.media_type}{charset}")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
        return response


@receiver(setting_changed)
def _forget_built_schemas(**_: Any) -> None:
    SchemaView.built.clear()
    SchemaView.rendered.clear()
