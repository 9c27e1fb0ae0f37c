"""The OpenAPI schema is valid, complete and served with its docs."""

import json

import pytest
from django.core.management import call_command


def test_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for path in (
        "/api/accounts/register",
        "/api/auth/token",
        "/api/me",
        "/api/rulesets",
        "/api/matches/{match_id}/actions",
        "/api/matches/{match_id}/hint",
        "/api/matches/{match_id}/events",
        "/api/matches/{match_id}/states/{version}",
        "/api/matches/{match_id}/audit",
        "/api/matches/{match_id}/export",
    ):
        assert path in text
    assert "Problem" in text and "Action" in text and "take_discard" in text


@pytest.mark.django_db
@pytest.mark.parametrize("slash", ["", "/"])
def test_docs_pages_are_served_with_or_without_a_trailing_slash(client, slash):
    assert client.get(f"/api/schema{slash}").status_code == 200
    swagger = client.get(f"/api/docs{slash}").content.decode()
    assert "swagger-ui" in swagger.lower() and '"/api/schema"' in swagger  # the schema's URL
    assert b"redoc" in client.get(f"/api/redoc{slash}").content.lower()


@pytest.mark.django_db
def test_request_shapes_refuse_other_fields_and_no_description_is_internal(client):
    """What the service refuses (unknown fields) the schema says; descriptions are for the
    client authors who read them in generated code: no implementation notes, no
    signatures a dataclass made up for itself."""
    import re

    document = client.get("/api/schema/?format=json").json()
    components = document["components"]["schemas"]
    # generators send a bearer token by default: the service takes it
    assert document["components"]["securitySchemes"]["tokenAuth"] == {
        **document["components"]["securitySchemes"]["tokenAuth"],
        "type": "http",
        "scheme": "bearer",
    }
    for name in (
        "Register",
        "Credentials",
        "HumanSeatRequest",
        "OpenSeatRequest",
        "ComSeatRequest",
        "Join",
        "Abort",
        "GolfMatchCreate",
    ):
        assert components[name]["additionalProperties"] is False, name
        # a default would make generated request types require the field
        assert not any("default" in f for f in components[name]["properties"].values()), name
    assert "(default: true)" in components["GolfMatchCreate"]["properties"]["hints"]["description"]
    # strings that take one of a known set of values say which
    from games import all_games

    assert set(components["MatchSummary"]["properties"]["preset"]["enum"]) == {
        p for game in all_games() for p in game.info.presets
    }
    assert None in components["Seat"]["properties"]["com_level"]["enum"]
    assert "medium" in components["ComSeatRequest"]["properties"]["level"]["enum"]
    # a seat is one of three shapes, and only a COM seat has a level
    assert components["SeatRequest"]["discriminator"]["propertyName"] == "type"
    assert "level" not in components["HumanSeatRequest"]["properties"]
    assert "finished" in components["Audit"]["properties"]["status"]["enum"]
    for name, component in components.items():
        description = component.get("description", "")
        assert "DRF" not in description, name
        assert not re.match(r"\w+\(\w+: '", description), (name, description)
    # each operation says what it does in its own words: none is described by a base
    # view's docstring (the schema takes a view's, inherited too, when it has none)
    described = {}
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert operation.get("description"), (method, path)
            described.setdefault(operation["description"], []).append((method, path))
    assert [ops for ops in described.values() if len(ops) > 1] == []
    response = client.post(
        "/api/accounts/register",
        {"username": "zed", "password": "pw-zed-12345", "nickname": "z"},
        content_type="application/json",
    )
    assert response.status_code == 400 and "nickname" in response.json()["errors"]


@pytest.mark.django_db
def test_the_headers_the_service_sends_are_declared_where_it_sends_them(client, alice, bob, carol):
    import re

    from api.openapi import ETAG_OPERATIONS

    document = client.get("/api/schema/?format=json").json()
    declared = {
        (path, method, code)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        for code, response in operation.get("responses", {}).items()
        if "ETag" in response.get("headers", {})
    }
    assert declared == set(ETAG_OPERATIONS)
    for operation in document["paths"]["/api/matches/{match_id}/actions"].values():
        assert "Retry-After" in operation["responses"]["429"]["headers"]

    def pattern(path: str, method: str, code: str) -> str:
        header = document["paths"][path][method]["responses"][code]["headers"]["ETag"]
        return header["schema"]["pattern"]

    # and the service sends them: each declared ETag, in the declared shape
    created = alice.post(
        "/api/matches", {"seats": [{"type": "me"}, {"type": "open"}]}, format="json"
    )
    match_id = created.json()["id"]
    joined = bob.post(f"/api/matches/{match_id}/join", {}, format="json")
    detail = alice.get(f"/api/matches/{match_id}")
    view = detail.json()["view"]
    seat = view["seats_to_act"][0]
    actor = (alice, bob)[seat]
    acted = actor.post(
        f"/api/matches/{match_id}/actions",
        {"type": "reveal", "position": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    again = actor.post(
        f"/api/matches/{match_id}/actions",
        {"type": "reveal", "position": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    state = alice.get(f"/api/matches/{match_id}/states/1")
    version = pattern("/api/matches", "post", "201")
    for response in (created, joined, detail, acted):
        assert response.status_code in (200, 201), response.content
        assert re.fullmatch(version, response["ETag"]), response["ETag"]
    seen = pattern("/api/matches/{match_id}/states/{version}", "get", "200")
    spectated = carol.get(f"/api/matches/{match_id}/states/1")  # (not seated: a spectator)
    for response in (state, spectated):
        assert response.status_code == 200, response.content
        assert re.fullmatch(seen, response["ETag"]), response["ETag"]
    assert (state["ETag"], spectated["ETag"]) == ('"1.0"', '"1.s"')
    # and a 304 carries its ETag too, in the same shape
    now = alice.get(f"/api/matches/{match_id}")["ETag"]
    unchanged = alice.get(f"/api/matches/{match_id}", HTTP_IF_NONE_MATCH=now)
    assert unchanged.status_code == 304 and re.fullmatch(version, unchanged["ETag"])
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in acted


@pytest.mark.django_db
def test_shapes_client_generators_can_type(client):
    """Client generators type an enum by its values and cannot merge a union into an
    object: every enum holds one JSON type, and an action request is one of the games'
    actions, each of which may carry expected_version."""
    document = client.get("/api/schema/?format=json").json()
    components = document["components"]["schemas"]

    def enums(node):
        if isinstance(node, dict):
            if "enum" in node:
                yield node["enum"]
            for value in node.values():
                yield from enums(value)
        elif isinstance(node, list):
            for value in node:
                yield from enums(value)

    for values in enums(document):
        kinds = {type(v).__name__ for v in values if v is not None}
        assert len(kinds) == 1, values
    body = document["paths"]["/api/matches/{match_id}/actions"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/GameAction"
    }
    for name in ("GolfAction_swap", "HeartsAction_play", "Ninety-NineAction_bid"):
        assert components[name]["properties"]["expected_version"]["type"] == "integer"


def test_the_api_guide_lists_every_code_an_illegal_action_can_have():
    """docs/api.md's table of problems names each refusal of every registered game."""
    import importlib
    import re
    from pathlib import Path

    from cards.errors import IllegalActionError
    from games import all_games

    packages = {"cards", *(type(game).__module__.split(".")[0] for game in all_games())}
    packages.discard("tests")  # a test's toy game, if one is registered now
    for package in packages - {"cards"}:  # each game's refusals, wherever they are defined
        importlib.import_module(package)
    codes, todo = set(), [IllegalActionError]
    while todo:
        cls = todo.pop()
        if cls.__module__.split(".")[0] in packages:
            codes.add(cls.code)
        todo.extend(cls.__subclasses__())
    guide = Path(__file__).resolve().parents[2] / "docs" / "api.md"
    row = next(line for line in guide.read_text().splitlines() if line.startswith("| 422 |"))
    listed = set(re.findall(r"`([a-z_]+)`", row))
    assert {"no_flips_left", "hearts_not_broken", "premium_bid_taken"} <= codes  # all found
    assert codes - {"illegal_action"} <= listed, sorted(codes - listed)


def test_each_read_checks_the_query_parameters_its_schema_lists(client):
    """A view's ``query`` (what it takes, refusing others) and its operation's query
    parameters in the schema are the same names: neither can drift from the other."""
    import re

    from django.urls import URLPattern

    from api import urls
    from api.views import QueryChecked

    document = client.get("/api/schema/?format=json").json()
    checked = 0
    for pattern in urls.urlpatterns:
        view = getattr(getattr(pattern, "callback", None), "view_class", None)
        if not isinstance(pattern, URLPattern) or not (view and issubclass(view, QueryChecked)):
            continue
        path = "/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))
        operation = document["paths"].get(path, {}).get("get")
        if operation is None:  # (a view the schema leaves out: states/<not a number>)
            continue
        listed = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        assert listed - {"format"} == {param.name for param in view.query}, path
        checked += 1
    assert checked >= 10


@pytest.mark.django_db
def test_each_games_requests_say_what_the_service_takes(client):
    """A body the schema allows is one the service can take: each game's match request
    offers only its own options and seat counts, and an action no field it refuses."""
    components = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    for name, seats in (("Golf", (2, 6)), ("Hearts", (3, 5)), ("Ninety-Nine", (3, 3))):
        create = components[f"{name}MatchCreate"]["properties"]
        assert (create["seats"]["minItems"], create["seats"]["maxItems"]) == seats
        assert ("round_pause_seconds" in create) == (name == "Golf")  # a pause between rounds
        for action in (n for n in components if n.startswith(f"{name}Action_")):
            assert components[action]["additionalProperties"] is False, action
    overrides = components["GolfRuleOverrides"]["properties"]
    assert "points" not in overrides  # derived from the rules, never sent
    assert overrides["max_turns"]["maximum"] == 1000  # MAX_TURNS_PER_HOLE
    # a match's rules are those it was made with: one made before the bound, or under a
    # higher one, has a longer max_turns, and its detail is still one the schema allows
    assert components["GolfRules"]["properties"]["max_turns"]["maximum"] == 10_000
    assert overrides["values"]["additionalProperties"] == {
        "type": "integer",
        "minimum": -20,
        "maximum": 50,
    }


@pytest.mark.django_db
def test_every_operation_declares_the_answers_any_request_may_get(client, django_user_model):
    """A token that is not valid is refused even where none is needed, as are a long URL and
    an Accept nothing here is sent in: every operation declares those answers."""
    document = client.get("/api/schema/?format=json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            declared = set(operation["responses"])
            assert {"400", "401", "403", "406", "414", "429", "431", "503"} <= declared, (
                method,
                path,
            )
    formats = {
        path: next(p["schema"]["enum"] for p in ops["get"]["parameters"] if p["name"] == "format")
        for path, ops in document["paths"].items()
        if path.endswith(("/stream", "/export"))
    }
    assert formats == {
        "/api/matches/{match_id}/stream": ["ndjson", "sse"],
        "/api/matches/{match_id}/export": ["ndjson"],
    }
    bad = {"HTTP_AUTHORIZATION": "Token not-a-token"}
    assert client.get("/api/games", **bad).status_code == 401  # (its schema checked, too)
    assert client.get("/api/games", {"format": "xml"}).status_code == 400


@pytest.mark.django_db
def test_the_schema_is_built_once_and_again_when_a_setting_changes(client, settings, monkeypatch):
    """Each request built the whole document (about 350 ms of a core), 60 a minute for
    any anonymous address."""
    from drf_spectacular.generators import SchemaGenerator

    from api.openapi import SchemaView

    SchemaView.built.clear()
    built = []
    real = SchemaGenerator.get_schema

    def counted(self, *args, **kwargs):
        built.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counted)
    first = client.get("/api/schema/?format=json").json()
    assert client.get("/api/schema/?format=json").json() == first
    yaml = client.get("/api/schema/")
    assert yaml.status_code == 200 and yaml.content.startswith(b"openapi: 3")
    assert len(built) == 1
    # one document whatever the query: each new ?version= or ?lang= was one more to build
    # and keep (1.4 MB each, 60 a minute for any address)
    for n in range(3):
        assert client.get(f"/api/schema/?format=json&version=x{n}").json() == first
        assert client.get(f"/api/schema/?format=json&lang=zz{n}").json() == first
    assert len(built) == 1 and len(SchemaView.built) == 1
    settings.MAX_TURNS_PER_HOLE = 7  # (the rules' options the document offers follow it)
    again = client.get("/api/schema/?format=json").json()
    assert len(built) == 2 and again != first and '"maximum": 7' in json.dumps(again)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/schema", "/api/docs/", "/api/redoc"])
def test_the_schema_and_its_pages_answer_options_and_refusals_in_json(client, path):
    """The pages' HTML renderer had no template for them: OPTIONS was a 500, and a POST's
    405 read "405 Method Not Allowed" labelled as a problem (the schema's, in YAML)."""
    described = client.options(path)
    assert described.status_code == 200 and described["Content-Type"] == "application/json"
    assert described.json()["renders"]
    refused = client.post(path)
    assert refused.status_code == 405 and refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "method_not_allowed"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/", "/api/redoc/"])
@pytest.mark.parametrize(("query", "name"), [
    ("x=1", "x"),
    ("format=json&format=yaml", "format"),
    ("formt=json", "formt"),
])  # fmt: skip
def test_the_schema_and_its_pages_refuse_a_query_they_do_not_take(client, path, query, name):
    """As everywhere under /api: a typo is not read as the default without a word."""
    refused = client.get(f"{path}?{query}")
    assert refused.status_code == 400 and refused["Content-Type"] == "application/problem+json"
    assert refused.json()["code"] == "validation_error" and name in refused.json()["errors"]


@pytest.mark.django_db
def test_the_pages_pass_a_language_on_to_the_document_they_load(client):
    page = client.get("/api/docs/?lang=en")
    assert page.status_code == 200
    assert client.get("/api/schema/?lang=en").status_code == 200


@pytest.mark.django_db
def test_the_document_is_rendered_once_per_format(client, monkeypatch):
    """Rendering the document's YAML took about 50 ms of a core on every request, under
    the general rate only: it is kept as sent, per format."""
    from drf_spectacular.renderers import OpenApiYamlRenderer

    from api.openapi import SchemaView

    rendered = []
    render = OpenApiYamlRenderer.render

    def counted(self, *args, **kwargs):
        rendered.append(1)
        return render(self, *args, **kwargs)

    monkeypatch.setattr(OpenApiYamlRenderer, "render", counted)
    SchemaView.rendered.clear()
    first, second = client.get("/api/schema/"), client.get("/api/schema/")
    assert first.status_code == second.status_code == 200 and len(rendered) == 1
    assert first.content == second.content and first.content.startswith(b"openapi: ")
    assert first["Content-Type"].startswith("application/vnd.oai.openapi")
    assert first["Content-Disposition"].startswith("inline; filename=")
    as_json = client.get("/api/schema/?format=json")
    assert as_json.json()["openapi"] and as_json["Content-Type"].startswith("application/")
