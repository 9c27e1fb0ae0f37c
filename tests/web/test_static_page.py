"""The page is a static file too (collectstatic copies all of web/): served from there,
it keeps the headers it has at /."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_pages_static_copy_has_the_pages_policy_and_no_framing(client):
    at_root = client.get("/")
    copy = client.get("/static/web/index.html")
    assert copy.status_code == 200
    assert b'src="/static/web/app.js"' in b"".join(copy.streaming_content)
    assert copy["Content-Security-Policy"] == at_root["Content-Security-Policy"]
    assert copy["X-Frame-Options"] == at_root["X-Frame-Options"] == "DENY"
    script = client.get("/static/web/app.js")  # (the modules need neither)
    assert "Content-Security-Policy" not in script
