"""The web client's JavaScript is typed from the OpenAPI schema: ``tsc --checkJs --strict``
checks web/*.js against the declarations openapi-typescript generates from the schema the
service serves, so a schema change that breaks the client fails the suite."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.clients import conformance

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
NODE_BIN = ROOT / "node_modules" / ".bin"


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(c) for c in command],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


def typecheck(schema: dict, folder: Path) -> subprocess.CompletedProcess[str]:
    """tsc on web/ against the declarations generated from ``schema`` (in ``folder``)."""
    (folder / "openapi.json").write_text(json.dumps(schema))
    declarations = folder / "api.d.ts"
    generated = run(NODE_BIN / "openapi-typescript", folder / "openapi.json", "-o", declarations)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    # web/tsconfig.json, with "@api" pointing at these declarations
    config = {
        "extends": str(WEB / "tsconfig.json"),
        "compilerOptions": {"paths": {"@api": [str(declarations)]}},
    }
    (folder / "tsconfig.json").write_text(json.dumps(config))
    return run(
        NODE_BIN / "tsc", "-p", folder / "tsconfig.json", "--noEmit", "--checkJs", "--strict"
    )


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(json.dumps(conformance.document()))


def test_the_web_client_type_checks_against_the_schema(schema, tmp_path):
    done = typecheck(schema, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    modules = ("api.js", "cards.js", "table.js", "golf.js", "hearts.js", "ninety_nine.js", "app.js")
    for module in modules:
        assert (WEB / module).read_text().startswith("// @ts-check"), module


def test_a_schema_change_that_breaks_the_client_fails_the_check(schema, tmp_path):
    """The check has teeth: without a view field the table reads, tsc refuses the client."""
    del schema["components"]["schemas"]["GolfView"]["properties"]["final_turns"]
    done = typecheck(schema, tmp_path)
    assert done.returncode != 0
    assert "final_turns" in done.stdout and "web/golf.js" in done.stdout, done.stdout
