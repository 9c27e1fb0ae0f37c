"""The OpenAPI schema is valid, complete and served with its docs."""

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
def test_docs_pages_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    assert b"swagger-ui" in client.get("/api/docs/").content.lower()
    assert b"redoc" in client.get("/api/redoc/").content.lower()
