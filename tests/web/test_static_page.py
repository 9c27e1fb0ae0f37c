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


def test_the_clients_files_are_asked_for_again_at_every_load(client):
    """Its modules import each other by name, each kept a minute: after a deploy a browser
    could hold some old ones and some new, and the page stop at "Loading…"."""
    script = client.get("/static/web/app.js")
    assert script["Cache-Control"] == "no-cache"
    again = client.get("/static/web/app.js", HTTP_IF_NONE_MATCH=script["ETag"])
    assert again.status_code == 304  # (unchanged: nothing sent again)
    admin_css = client.get("/static/admin/css/base.css")
    assert admin_css.status_code == 200 and admin_css["Cache-Control"] != "no-cache"
