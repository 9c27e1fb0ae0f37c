"""The service serves the web client: its page at /, its modules as static files."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_the_page_is_served_at_the_root_and_renders_no_game_state(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode()
    assert '<script type="module" src="/static/web/app.js"></script>' in page
    assert 'id="main"' in page and 'role="alert"' in page
    assert client.post("/").status_code == 405


def test_its_modules_and_styles_are_static_files(client):
    page = client.get("/").content.decode()
    for url in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content)
        assert body, url
    script = client.get("/static/web/app.js")
    assert "javascript" in script["Content-Type"]
    # the modules it imports are there too
    for module in ("api.js", "golf.js", "cards.js"):
        assert client.get(f"/static/web/{module}").status_code == 200, module


def test_unknown_api_paths_stay_problems_not_the_page(client):
    response = client.get("/api/nowhere")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"


def test_the_page_allows_only_its_own_origin_scripts_and_no_framing(client):
    """A script injected into the page could read the token it keeps: its policy lets in
    scripts, styles and requests of this origin only, and no frame, plugin or base."""
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    for name in ("default-src", "script-src", "style-src", "connect-src", "img-src"):
        assert directives[name] == "'self'", name
    assert directives["object-src"] == directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
