"""Every response the suite receives, checked against the OpenAPI schema, strictly.

The service's own schema (drf-spectacular's, as ``/api/schema/`` serves it) is turned
into JSON Schema the strict way:

* ``nullable: true`` allows ``null`` only beside a ``type``, and with an ``enum`` only
  when the enum lists ``null`` (OpenAPI 3.0.3: without a type it means nothing, so
  ``allOf: [$ref]`` + ``nullable`` still refuses ``null``);
* an object that lists its ``properties`` and says nothing of others is closed: a field
  the service sends and the schema does not declare is a fault (a view field added
  without its schema fails the suite);
* formats (``date-time``, ``uuid``) are checked.

``SchemaConformanceMiddleware`` (in the test settings) checks each response of an
operation the schema declares: its status must be declared, the headers it declares
required must be sent, and a JSON body (also ``application/problem+json``) must be valid
against that status's schema. Faults are
collected in ``FAULTS``; the suite's autouse fixture fails the test that received them.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import jsonschema_rs

#: Keywords of OpenAPI 3.0 that are not JSON Schema's.
_OPENAPI_WORDS = ("nullable", "discriminator", "example", "examples", "xml", "externalDocs")

#: Faults found since the current test began: "METHOD path status: message".
FAULTS: list[str] = []
#: Which test is running (the suite's fixture counts them): a request that began in an
#: earlier test (a browser's long-poll still open after it) is not this test's.
TEST = [0]
_lock = threading.Lock()


def strict_json_schema(schema: Any) -> Any:
    """An OpenAPI 3.0 schema as a closed JSON Schema (see the module's docstring)."""
    if isinstance(schema, list):
        return [strict_json_schema(s) for s in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _OPENAPI_WORDS:
            continue
        if key == "properties":
            out[key] = {name: strict_json_schema(sub) for name, sub in value.items()}
        elif key in ("enum", "required", "const", "default"):
            out[key] = value
        else:
            out[key] = strict_json_schema(value)
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if schema.get("nullable") and "type" in schema:
        out["type"] = [schema["type"], "null"]  # (and an enum must list null itself)
    return out


def validator(document: Mapping[str, Any], schema: Any) -> jsonschema_rs.Validator:
    """A validator of ``schema`` (an OpenAPI schema of ``document``), refs resolved in it."""
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": {
            "schemas": {
                name: strict_json_schema(component)
                for name, component in document["components"]["schemas"].items()
            }
        },
        **strict_json_schema(schema),
    }
    return jsonschema_rs.validator_for(root, validate_formats=True)


def errors(check: jsonschema_rs.Validator, body: Any, limit: int = 3) -> list[str]:
    found = []
    for error in check.iter_errors(body):
        path = "/".join(str(p) for p in error.instance_path)
        found.append(f"at /{path}: {error.message[:300]}")
        if len(found) == limit:
            break
    return found


def document() -> dict[str, Any]:
    """The schema the service serves now (the registered games' own included)."""
    from games import all_games

    return _document(tuple(game.info.name for game in all_games()))


@cache
def _document(games: tuple[str, ...]) -> dict[str, Any]:
    """The schema, generated once per test process and set of registered games."""
    from drf_spectacular.generators import SchemaGenerator

    generated = SchemaGenerator().get_schema(request=None, public=True)
    # through JSON, as a client reads it (enum objects and lazy strings become plain)
    from drf_spectacular.renderers import OpenApiJsonRenderer

    result: dict[str, Any] = json.loads(OpenApiJsonRenderer().render(generated))
    return result


class Operations:
    """The schema's operations by method and concrete path, and their response checks."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec
        self.routes: list[tuple[re.Pattern[str], str]] = []
        for template in spec["paths"]:
            pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
            self.routes.append((re.compile(pattern + "$"), template))
        self._checks: dict[tuple[str, str, str, str], jsonschema_rs.Validator | None] = {}

    def template(self, path: str) -> str | None:
        for pattern, template in self.routes:
            if pattern.match(path):
                return template
        return None

    def check(
        self,
        method: str,
        path: str,
        status: int,
        content_type: str,
        body: bytes,
        headers: Mapping[str, str] | None = None,
    ) -> str:
        """What is wrong with this response, or "" when nothing is."""
        template = self.template(path)
        operation = self.spec["paths"].get(template, {}).get(method.lower()) if template else None
        if operation is None:
            return ""  # not an operation of the schema (405, the docs pages, ...)
        responses = operation["responses"]
        response = responses.get(str(status)) or responses.get("default")
        if response is None:
            return f"status {status} is not declared"
        if headers is not None:
            for name, header in response.get("headers", {}).items():
                if header.get("required") and name not in headers:
                    return f"the required header {name} was not sent"
        media = content_type.split(";")[0].strip()
        if not body:
            return (
                f"a {media} body is declared but none was sent" if response.get("content") else ""
            )
        if media not in ("application/json", "application/problem+json"):
            declared = response.get("content", {})
            return "" if media in declared else f"content type {media!r} is not declared"
        key = (template or "", method.lower(), str(status), media)
        if key not in self._checks:
            content = response.get("content", {}).get(media)
            self._checks[key] = validator(self.spec, content["schema"]) if content else None
        schema_check = self._checks[key]
        if schema_check is None:
            return f"content type {media!r} is not declared"
        found = errors(schema_check, json.loads(body))
        return "; ".join(found)


def operations() -> Operations:
    from games import all_games

    return _operations(tuple(game.info.name for game in all_games()))


@cache
def _operations(games: tuple[str, ...]) -> Operations:
    return Operations(_document(games))


class SchemaConformanceMiddleware:
    """Checks each API response against the schema; faults go to ``FAULTS``."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        from api.push import NOTE_HEADER

        began_in = TEST[0]
        response = self.get_response(request)
        if not request.path.startswith("/api/") or getattr(response, "streaming", False):
            return response
        if response.has_header(NOTE_HEADER):  # a note to the push router, not a response
            return response
        fault = operations().check(
            request.method,
            request.path,
            response.status_code,
            response.get("Content-Type", ""),
            response.content,
            response.headers,
        )
        if fault:
            with _lock:
                if began_in == TEST[0]:
                    FAULTS.append(
                        f"{request.method} {request.path} {response.status_code}: {fault}"
                    )
        return response
