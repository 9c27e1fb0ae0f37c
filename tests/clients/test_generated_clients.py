"""Clients generated from the OpenAPI schema, as frontend teams generate them, work typed.

* Python: ``openapi-python-client`` generates a package; ``mypy --strict`` checks
  ``play.py`` against it, and ``play.py`` plays a whole match of every game against COMs
  on a live server and a real worker through that package alone.
* TypeScript: ``openapi-typescript`` generates declarations; ``tsc --strict`` checks
  ``client.ts``, which builds every request and reads every view field, and whose
  ``@ts-expect-error`` lines are requests the schema must refuse.
* Every response the suite receives is validated against the schema (the middleware in
  ``conformance.py``); the tests below check that validator and the schema's examples.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clients import conformance

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
OUT = ROOT / "var" / "clients"
NODE_BIN = ROOT / "node_modules" / ".bin"


def run(*command: str | Path, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        [str(c) for c in command],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{output[-6000:]}"
    return output


@pytest.fixture(scope="module")
def schema_file() -> Path:
    """The schema the service serves (``/api/schema/?format=json``), as a file."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "openapi.json"
    path.write_text(json.dumps(conformance.document(), indent=1))
    return path


@pytest.fixture(scope="module")
def python_client(schema_file: Path) -> Path:
    """The generated Python package ``card_games_client``; returns its parent folder."""
    parent = OUT / "python"
    output = run(
        Path(sys.executable).parent / "openapi-python-client",
        "generate",
        "--path",
        schema_file,
        "--output-path",
        parent / "card_games_client",
        "--config",
        HERE / "openapi-python-client.yaml",
        "--meta",
        "none",
        "--overwrite",
    )
    assert "Warning" not in output, output  # every operation and shape generated
    assert (parent / "card_games_client" / "client.py").is_file()
    return parent


def test_the_python_client_types_a_whole_match_of_every_game(python_client, tmp_path):
    # the generated package's own code is the generator's: its types are used, its errors
    # (openapi-python-client's, e.g. an optional union body) are not ours to report
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nstrict = True\n[mypy-card_games_client.*]\nfollow_imports = silent\n"
    )
    out = run(
        Path(sys.executable).parent / "mypy",
        "--config-file",
        tmp_path / "mypy.ini",
        "--strict",
        "--no-incremental",
        "--cache-dir",
        tmp_path / "mypy",
        HERE / "play.py",
        env={"MYPYPATH": str(python_client)},
    )
    assert "Success: no issues found" in out, out


@pytest.mark.slow
def test_the_python_client_plays_every_game_against_coms(python_client, live_server, live_worker):
    out = run(
        sys.executable,
        HERE / "play.py",
        live_server.url,
        "generated-client",
        env={"PYTHONPATH": str(python_client)},
        timeout=600,
    )
    played = {line["game"]: line for line in map(json.loads, out.splitlines())}
    assert set(played) == {"golf", "hearts", "ninety-nine"}, out
    for line in played.values():
        assert line["moves"] > 0 and line["events"] == line["version"] and line["winners"]
    assert played["golf"]["last"] == played["hearts"]["last"] == "match_finished"


def test_typescript_declarations_type_a_frontend_and_refuse_invalid_requests(schema_file):
    declarations = OUT / "api.d.ts"
    run(NODE_BIN / "openapi-typescript", schema_file, "-o", declarations)
    # every `@ts-expect-error` must meet an error, or tsc fails on the unused directive
    run(NODE_BIN / "tsc", "-p", HERE / "tsconfig.json")
    assert (HERE / "client.ts").read_text().count("@ts-expect-error") >= 5


def test_typescript_fails_when_the_schema_loses_a_view_field(schema_file, tmp_path):
    """The check has teeth: without a field ``client.ts`` reads, tsc refuses it."""
    document = json.loads(schema_file.read_text())
    del document["components"]["schemas"]["HeartsView"]["properties"]["hearts_broken"]
    broken = tmp_path / "openapi.json"
    broken.write_text(json.dumps(document))
    declarations = OUT / "api.d.ts"
    try:
        run(NODE_BIN / "openapi-typescript", broken, "-o", declarations)
        with pytest.raises(AssertionError, match="hearts_broken"):
            run(NODE_BIN / "tsc", "-p", HERE / "tsconfig.json")
    finally:
        run(NODE_BIN / "openapi-typescript", schema_file, "-o", declarations)


def test_the_response_check_refuses_what_the_schema_does_not_declare():
    ops = conformance.operations()
    me = {"id": 1, "username": "ada", "email": "", "is_staff": False}
    ok = json.dumps(me).encode()
    assert ops.check("GET", "/api/me", 200, "application/json", ok) == ""
    # a field the schema does not declare
    extra = json.dumps({**me, "nickname": "a"}).encode()
    assert "nickname" in ops.check("GET", "/api/me", 200, "application/json", extra)
    # a status the operation does not declare
    assert "418" in ops.check("GET", "/api/me", 418, "application/json", ok)
    # null where the schema does not allow it, deep in a view
    assert ops.check("GET", "/api/me", 200, "application/json", b'{"id": null}')
    # a header the schema says is always sent, missing
    problem = b'{"type": "x", "title": "t", "status": 429, "detail": "d", "code": "throttled"}'
    throttled = ("GET", "/api/me", 429, "application/problem+json", problem)
    assert ops.check(*throttled, {"Retry-After": "3"}) == ""
    assert "Retry-After" in ops.check(*throttled, {})


def test_nullable_means_null_only_beside_a_type():
    strict = conformance.strict_json_schema
    assert strict({"type": "string", "nullable": True})["type"] == ["string", "null"]
    # OpenAPI 3.0.3: "nullable" beside a $ref or an allOf alone adds nothing
    assert "null" not in json.dumps(strict({"allOf": [{"$ref": "#/x"}], "nullable": True}))
    closed = strict({"type": "object", "properties": {"a": {"type": "integer"}}})
    assert closed["additionalProperties"] is False


def test_no_schema_says_nullable_without_a_type(schema_file):
    """Generators and strict validators ignore such a ``nullable``: every one has a type."""
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("nullable") and "type" not in node:
                found.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(json.loads(schema_file.read_text()), "")
    assert not found, found


def test_every_example_is_valid_against_its_schema_strictly(schema_file):
    document = json.loads(schema_file.read_text())
    checked = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            bodies = [operation.get("requestBody", {}), *operation.get("responses", {}).values()]
            for body in bodies:
                for media in body.get("content", {}).values():
                    for name, example in (media.get("examples") or {}).items():
                        check = conformance.validator(document, media["schema"])
                        problems = conformance.errors(check, example["value"])
                        assert not problems, f"{method.upper()} {path} example {name}: {problems}"
                        checked += 1
    assert checked >= 10
